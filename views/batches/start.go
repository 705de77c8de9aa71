package batches

import (
	"cmp"
	"context"
	"errors"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/adrg/xdg"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/sheet"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/safe"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

// previewRows are the rows checked before anything is sent.
const previewRows = 200

// justStarted is the batch Run on many… started last, shown first.
var justStarted atomic.Int64

func dialogTitle(agent client.Agent) string {
	return lang.L("Run {{.Agent}} on many", map[string]any{"Agent": kit.Line(agent.Title, 40)})
}

// RunOnMany asks what agent runs on: a sheet's rows (first; Enter chooses
// it), a folder's files, or lines of text.
func RunOnMany(env screen.Env, agent client.Agent) {
	askChoice(env, dialogTitle(agent),
		choice{lang.L("Rows of a spreadsheet…"), theme.GridIcon(), lang.L("One run for each row of a CSV or Excel sheet."), func() {
			screen.Pick(env, false, lang.L("The sheet could not be opened"), []string{".csv", ".xlsx", ".CSV", ".XLSX"}, func(path string) { ShowPlan(env, agent, path) })
		}},
		choice{lang.L("Files in a folder…"), theme.FolderOpenIcon(), lang.L("One run for each file in a folder, the file going with it."), func() {
			screen.Pick(env, true, lang.L("The folder could not be opened"), nil, func(path string) { ShowFolderPlan(env, agent, path) })
		}},
		choice{lang.L("Lines of text…"), theme.DocumentIcon(), lang.L("One run for each line you paste or type."), func() { askLines(env, agent) }})
}

// choice is a way offered by askChoice: its button and what it does in words.
type choice struct {
	label string
	icon  fyne.Resource
	what  string
	do    func()
}

// askChoice offers choices, the first pressed by Enter; each closes the dialog.
func askChoice(env screen.Env, title string, choices ...choice) {
	var d *dialog.CustomDialog
	body := container.NewVBox()
	var first *choiceButton
	for _, c := range choices {
		b := newChoiceButton(c.label, c.icon, func() { d.Hide(); c.do() })
		first = cmp.Or(first, b)
		what := screen.Wrapped(c.what)
		what.Importance = widget.LowImportance
		gap := canvas.NewRectangle(color.Transparent)
		gap.SetMinSize(fyne.NewSize(0, theme.Padding()))
		body.Add(container.NewVBox(b, container.New(layout.NewCustomPaddedLayout(-theme.Padding(), 0, 0, 0), what), gap))
	}
	cancel := func() { d.Hide() }
	d = dialog.NewCustomWithoutButtons(title, body, env.Window)
	d.SetButtons([]fyne.CanvasObject{newChoiceButton(lang.L("Cancel"), theme.CancelIcon(), cancel)})
	d.Resize(fyne.NewSize(min(env.Window.Canvas().Size().Width*0.9, 500), 0))
	kit.ShowDialogKeys(d, env.Window, first.OnTapped, cancel)
	env.Window.Canvas().Focus(first)
}

// choiceButton: Enter presses it; Esc goes on to the window, closing the dialog.
type choiceButton struct {
	kit.Button
}

func newChoiceButton(label string, icon fyne.Resource, tapped func()) *choiceButton {
	b := &choiceButton{}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.Alignment = widget.ButtonAlignLeading
	b.ExtendBaseWidget(b)
	return b
}

// TypedKey presses the button on Enter and passes Esc and F1 on.
func (b *choiceButton) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		if !b.Disabled() && b.OnTapped != nil {
			b.OnTapped()
		}
	case fyne.KeyEscape, fyne.KeyF1:
		kit.PassKey(b, ev)
	default:
		b.Button.TypedKey(ev)
	}
}

func askLines(env screen.Env, agent client.Agent) {
	var d *dialog.CustomDialog
	text := kit.NewFormMultiLineEntry()
	text.SetPlaceHolder(lang.L("For example, one product name or one question on each line"))
	count := widget.NewLabel("")
	next := kit.NewButtonWithIcon(lang.L("Next"), theme.NavigateNextIcon(), nil)
	next.Importance = widget.HighImportance
	next.Tip = lang.L("Choose how the lines are run ({{.Key}})", map[string]any{"Key": kit.CtrlName("Enter")})
	goOn := func() {
		lines := splitLines(text.Text)
		if len(lines) == 0 {
			return
		}
		d.Hide()
		ShowLinesPlan(env, agent, lines)
	}
	next.OnTapped = goOn
	text.OnCtrlEnter = goOn
	text.OnChanged = func(s string) {
		n := len(splitLines(s))
		count.SetText(lang.N("{{.Count}} line", n, map[string]any{"Count": app.Number(n)}))
		screen.EnableIf(n > 0, next)
	}
	text.OnChanged("")
	intro := screen.Wrapped(lang.L("Paste or type the lines, one for each run. Empty lines are left out."))
	cancel := kit.NewButtonWithIcon(lang.L("Cancel"), theme.CancelIcon(), func() { d.Hide() })
	d = dialog.NewCustomWithoutButtons(dialogTitle(agent), kit.NewBorder(intro, count, nil, nil, text), env.Window)
	d.SetButtons([]fyne.CanvasObject{cancel, next})
	size := env.Window.Canvas().Size()
	d.Resize(fyne.NewSize(min(size.Width*0.9, 600), min(size.Height*0.9, 460)))
	// Enter is a new line; Ctrl+Enter goes on.
	kit.ShowDialogKeys(d, env.Window, nil, d.Hide)
	env.Window.Canvas().Focus(text)
}

func splitLines(s string) []string {
	var out []string
	for l := range strings.Lines(s) {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func lastCost(ctx context.Context, a *app.App, agent client.Agent) *float64 {
	runs, err := a.Runs().List(ctx, agent.ID)
	if err != nil {
		return nil
	}
	for _, r := range runs {
		if r.Credits != nil && *r.Credits > 0 {
			c := *r.Credits
			return &c
		}
	}
	return nil
}

const tellEvery = 100 * time.Millisecond

// readSheet reads a sheet whole, for the plan and then the batch; tell,
// when not nil, hears now and then how many rows are read and how much
// of the sheet (0 to 1). Reading stops with ctx.
func readSheet(ctx context.Context, a *app.App, agent client.Agent, path string, tell func(rows int, done float64)) (source, error) {
	var told time.Time
	all, err := sheet.ReadAll(ctx, path, func(rows int, done float64) {
		if tell != nil && time.Since(told) >= tellEvery {
			told = time.Now()
			tell(rows, done)
		}
	})
	src := source{kind: fromSheet, path: path, sheet: all, header: all.Header, total: len(all.Rows)}
	if err != nil {
		return src, err
	}
	for _, r := range all.Rows[:min(previewRows, len(all.Rows))] {
		src.rows = append(src.rows, r.Cells)
	}
	src.lastCost = lastCost(ctx, a, agent)
	return src, ctx.Err()
}

// ShowPlan reads the sheet at path and shows the batch dialog, counting rows
// while reading (Cancel stops it).
func ShowPlan(env screen.Env, agent client.Agent, path string) {
	var (
		src source
		err error
	)
	kit.ActShowingProgress(env.App, env.Window, lang.L("Reading the sheet…"), func(ctx context.Context, p *kit.Progress) {
		src, err = readSheet(ctx, env.App, agent, path, func(rows int, done float64) {
			p.Set(done, lang.N("{{.Count}} row read so far", rows, map[string]any{"Count": app.Number(rows)}))
		})
	}, func() {
		if errors.Is(err, context.Canceled) {
			return // cancelled: nothing to say
		}
		if err != nil {
			kit.ShowInformation(lang.L("The sheet could not be read"), app.Describe(err), env.Window)
			return
		}
		newPlan(env, agent, src).show()
	})
}

// planFrom shows the batch dialog over what read finds (busy says what it does).
func planFrom(env screen.Env, agent client.Agent, busy string, read func() source) {
	var src source
	kit.ActShowing(env.App, env.Window, busy, func(ctx context.Context) {
		src = read()
		src.lastCost = lastCost(ctx, env.App, agent)
	}, func() { newPlan(env, agent, src).show() })
}

func readFolder(folder string) source {
	return source{kind: fromFiles, folder: folder, files: app.FolderFiles(folder), results: resultsBeside(folder)}
}

// ShowFolderPlan shows the batch dialog over folder's files, one run each.
func ShowFolderPlan(env screen.Env, agent client.Agent, folder string) {
	planFrom(env, agent, lang.L("Looking at the folder…"), func() source { return readFolder(folder) })
}

// ShowLinesPlan shows the batch dialog over lines of text, one run each.
func ShowLinesPlan(env screen.Env, agent client.Agent, lines []string) {
	planFrom(env, agent, lang.L("Getting the batch ready…"), func() source {
		results := app.FreePath(filepath.Join(documentsFolder(), safe.FileName(agent.Title+" "+lang.L("results"), ".xlsx", lang.L("results"))))
		return source{kind: fromLines, lines: lines, total: len(lines), results: results}
	})
}

// documentsFolder is where pasted lines' results go: the desktop's Documents
// folder, else home.
func documentsFolder() string {
	if st, err := os.Stat(xdg.UserDirs.Documents); err == nil && st.IsDir() {
		return xdg.UserDirs.Documents
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return os.TempDir()
	}
	return home
}

// resultsBeside is an unused sheet name beside folder (Documents at a disk's top).
func resultsBeside(folder string) string {
	folder = filepath.Clean(folder)
	if filepath.Dir(folder) == folder {
		return app.FreePath(filepath.Join(documentsFolder(), lang.L("results")+".xlsx"))
	}
	return app.FreePath(folder + " " + lang.L("results") + ".xlsx")
}

func IsSheet(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv", ".xlsx":
		st, err := os.Stat(path)
		return err == nil && st.Mode().IsRegular()
	}
	return false
}

// AskDropped asks whether dropped files go with one run or one each.
func AskDropped(env screen.Env, agent client.Agent, paths []string, once func()) {
	askChoice(env, lang.L("What should happen with these files?"),
		choice{lang.L("Run once with all these files"), theme.MediaPlayIcon(), lang.L("The files go with the next run, as when you add them to the form."), once},
		choice{lang.L("Run once for each file…"), theme.ListIcon(), lang.L("The agent runs once for every file, each with its own result."), func() { ShowDroppedPlan(env, agent, paths) }})
}

// AskDroppedSheet asks whether a dropped sheet goes with the next run (Enter)
// or one run per row.
func AskDroppedSheet(env screen.Env, agent client.Agent, path string, once func()) {
	askChoice(env, lang.L("What should happen with {{.File}}?", map[string]any{"File": safe.Text(filepath.Base(path), 40)}),
		choice{lang.L("Send it with the next run"), theme.MailAttachmentIcon(), lang.L("The sheet goes with the next run, as when you add it to the form."), once},
		choice{lang.L("Run once for each row…"), theme.GridIcon(), lang.L("The agent runs once for every row of the sheet, each with its own result."), func() { ShowPlan(env, agent, path) }})
}

// ShowDroppedPlan plans one run per dropped file, read from their common
// folder; a folder dropped alone is planned as if chosen.
func ShowDroppedPlan(env screen.Env, agent client.Agent, paths []string) {
	if len(paths) == 1 {
		if st, err := os.Stat(paths[0]); err == nil && st.IsDir() {
			ShowFolderPlan(env, agent, paths[0])
			return
		}
	}
	planFrom(env, agent, lang.L("Looking at the files…"), func() source { return droppedFiles(paths) })
}

func droppedFiles(paths []string) source {
	folder := commonFolder(paths)
	src := source{kind: fromFiles, folder: folder, results: resultsBeside(folder)}
	for _, f := range app.PlanUpload(paths).Files {
		name, err := filepath.Rel(folder, f.Path)
		if err != nil {
			name = f.Name
		}
		src.files = append(src.files, app.FolderFile{Name: name, Ext: strings.ToLower(filepath.Ext(name)), Size: f.Size, Problem: f.Problem})
	}
	slices.SortStableFunc(src.files, func(a, b app.FolderFile) int { return strings.Compare(a.Name, b.Name) })
	return src
}

func commonFolder(paths []string) string {
	common := ""
	for _, p := range paths {
		dir := filepath.Dir(filepath.Clean(p))
		for common != "" && !within(common, dir) && filepath.Dir(common) != common {
			common = filepath.Dir(common)
		}
		common = cmp.Or(common, dir)
	}
	return common
}

func within(folder, path string) bool {
	rel, err := filepath.Rel(folder, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
