package batches

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/safe"
	"github.com/agentdesk/agentdesk/app/sheet"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/kit"
)

// previewRows are the rows the dialog checks before anything is sent.
const previewRows = 200

// justStarted is the batch Run on many… started last, for the Batches
// screen to show first.
var justStarted atomic.Int64

// RunOnMany asks for a sheet (CSV or Excel) and shows how agent would run
// on its rows.
func RunOnMany(env kit.Env, agent client.Agent) {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			kit.ShowInformation(lang.L("The sheet could not be opened"), app.Describe(err), env.Window)
			return
		}
		if r == nil {
			return
		}
		path := r.URI().Path()
		_ = r.Close()
		ShowPlan(env, agent, path)
	}, env.Window)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".csv", ".xlsx", ".CSV", ".XLSX"}))
	d.Resize(fyne.NewSize(min(env.Window.Canvas().Size().Width*0.9, 760), min(env.Window.Canvas().Size().Height*0.9, 520)))
	kit.ShowDialog(d, env.Window)
}

// preview is what is read of a sheet before its batch is made.
type preview struct {
	header []string
	rows   [][]string // the first previewRows
	total  int
	// lastCost is what the agent's last run cost, when it says.
	lastCost *float64
}

func readPreview(ctx context.Context, a *app.App, agent client.Agent, path string) (preview, error) {
	var p preview
	t, err := sheet.Open(path)
	if err != nil {
		return p, err
	}
	defer t.Close()
	p.header = t.Header()
	for {
		r, err := t.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return p, err
		}
		if len(p.rows) < previewRows {
			p.rows = append(p.rows, r.Cells)
		}
		p.total++
	}
	if runs, err := a.Runs(ctx, agent.ID); err == nil {
		for _, r := range runs {
			if r.Credits != nil && *r.Credits > 0 {
				c := *r.Credits
				p.lastCost = &c
				break
			}
		}
	}
	return p, nil
}

// ShowPlan reads the sheet at path and shows the dialog that starts a
// batch of agent over it; a sheet that cannot be read says why.
func ShowPlan(env kit.Env, agent client.Agent, path string) {
	var (
		p   preview
		err error
	)
	kit.ActShowing(env.App, env.Window, lang.L("Reading the sheet…"), func(ctx context.Context) {
		p, err = readPreview(ctx, env.App, agent, path)
	}, func() {
		if err != nil {
			kit.ShowInformation(lang.L("The sheet could not be read"), app.Describe(err), env.Window)
			return
		}
		newPlan(env, agent, path, p).show()
	})
}

// question is one of the agent's questions and what answers it.
type question struct {
	q      client.Question
	choice *kit.Select
	fixed  *kit.FormEntry
}

// plan is the Run on many… dialog.
type plan struct {
	env     kit.Env
	agent   client.Agent
	path    string
	p       preview
	options []string // the choices of each question's column
	notUsed string
	same    string

	questions []*question
	missing   *widget.Label
	skipped   *widget.Label
	estimate  *widget.Label
	parallel  *kit.Select
	limit     *kit.FormEntry
	limitErr  *widget.Label
	start     *kit.PaidButton
	dialog    *dialog.CustomDialog
	content   fyne.CanvasObject
	scroll    *container.Scroll
}

func newPlan(env kit.Env, agent client.Agent, path string, p preview) *plan {
	pl := &plan{env: env, agent: agent, path: path, p: p,
		notUsed: lang.L("Not answered"), same: lang.L("The same for every row")}
	pl.options = append(pl.options, pl.notUsed)
	seen := map[string]int{}
	for i, h := range p.header {
		name := columnName(i, h)
		if seen[name]++; seen[name] > 1 {
			name = lang.L("{{.Column}} ({{.Number}})", map[string]any{"Column": name, "Number": seen[name]})
		}
		pl.options = append(pl.options, name)
	}
	pl.options = append(pl.options, pl.same)
	matched := app.MatchColumns(agent, p.header)

	grid := container.New(layout.NewFormLayout())
	for _, q := range app.FormQuestions(agent) {
		qq := &question{q: q}
		qq.fixed = kit.NewFormEntry()
		qq.fixed.SetPlaceHolder(lang.L("The answer for every row"))
		qq.fixed.OnChanged = func(string) { pl.update() }
		qq.fixed.OnCtrlEnter = pl.Start
		qq.fixed.Hide()
		qq.choice = kit.NewSelect(pl.options, func(string) {
			if qq.choice.Selected == pl.same {
				qq.fixed.Show()
			} else {
				qq.fixed.Hide()
			}
			pl.update()
		})
		if i, ok := matched[q.Name]; ok && i+1 < len(pl.options)-1 {
			qq.choice.SetSelected(pl.options[i+1])
		} else {
			qq.choice.SetSelected(pl.notUsed)
		}
		// The question's name, shown whole (a long one is cut at 30
		// characters with its "…").
		name := kit.QuestionName(q, 30)
		if q.Required {
			name = lang.L("{{.Question}} (required)", map[string]any{"Question": name})
		}
		l := widget.NewLabel(name)
		grid.Add(l)
		grid.Add(container.NewVBox(qq.choice, qq.fixed))
		pl.questions = append(pl.questions, qq)
	}

	pl.missing = kit.ErrorText()
	pl.skipped = widget.NewLabel("")
	pl.skipped.Wrapping = fyne.TextWrapWord
	pl.estimate = widget.NewLabel("")
	pl.estimate.Wrapping = fyne.TextWrapWord
	pl.parallel = kit.NewSelect([]string{"1", "2", "3", "5"}, nil)
	pl.parallel.SetSelected("1")
	pl.limit = kit.NewFormEntry()
	pl.limit.SetPlaceHolder(lang.L("No limit"))
	pl.limit.OnCtrlEnter = pl.Start
	pl.limit.OnChanged = func(string) { pl.update() }
	pl.limitErr = kit.ErrorText()
	more := container.New(layout.NewFormLayout(),
		widget.NewLabel(lang.L("Rows at once")), pl.parallel,
		widget.NewLabel(lang.L("Pause after (credits)")), container.NewVBox(pl.limit, pl.limitErr))

	about := widget.NewLabel(lang.N("{{.File}}: {{.Count}} row", p.total, map[string]any{"File": filepath.Base(path), "Count": app.Number(p.total)}))
	about.Wrapping = fyne.TextWrapWord
	which := widget.NewLabel(lang.L("Which column answers each question:"))
	body := container.NewVBox(about, which, grid, pl.missing, pl.skipped, widget.NewSeparator(), more, pl.estimate)
	pl.scroll = container.NewVScroll(body)
	pl.content = pl.scroll

	pl.start = kit.NewPaidButton(lang.L("Start"), theme.MediaPlayIcon(), pl.Start)
	pl.start.Tip = lang.L("Run the agent on every row ({{.Key}}). Uses credits.", map[string]any{"Key": kit.CtrlName("Enter")})
	pl.start.Importance = widget.HighImportance
	pl.update()
	return pl
}

// columnName is how a column is offered: its name, or its letter when it
// has none.
func columnName(i int, h string) string {
	h = safe.Text(h, 40)
	if strings.TrimSpace(h) == "" {
		return lang.L("Column {{.Letter}}", map[string]any{"Letter": columnLetter(i)})
	}
	return h
}

func columnLetter(i int) string {
	s := ""
	for i++; i > 0; i = (i - 1) / 26 {
		s = string(rune('A'+(i-1)%26)) + s
	}
	return s
}

func (pl *plan) show() {
	cancel := kit.NewButton(lang.L("Cancel"), func() { pl.dialog.Hide() })
	pl.dialog = dialog.NewCustomWithoutButtons(lang.L("Run {{.Agent}} on many", map[string]any{"Agent": kit.Line(pl.agent.Title, 40)}), pl.content, pl.env.Window)
	pl.dialog.SetButtons([]fyne.CanvasObject{cancel, pl.start})
	size := pl.env.Window.Canvas().Size()
	pl.dialog.Resize(fyne.NewSize(min(size.Width*0.9, 640), min(size.Height*0.9, 540)))
	// Enter does not start what costs credits; Ctrl+Enter in a field does.
	kit.ShowDialogKeys(pl.dialog, pl.env.Window, nil, pl.dialog.Hide)
}

// batchPlan is what the dialog shows as a plan.
func (pl *plan) batchPlan() app.BatchPlan {
	bp := app.BatchPlan{Columns: app.ColumnMap{}, Fixed: map[string]string{}, Parallel: 1}
	for _, qq := range pl.questions {
		switch sel := qq.choice.Selected; sel {
		case pl.notUsed, "":
		case pl.same:
			if v := strings.TrimSpace(qq.fixed.Text); v != "" {
				bp.Fixed[qq.q.Name] = qq.fixed.Text
			}
		default:
			for i, o := range pl.options[1 : len(pl.options)-1] {
				if o == sel {
					bp.Columns[qq.q.Name] = i
					break
				}
			}
		}
	}
	if n, err := strconv.Atoi(pl.parallel.Selected); err == nil && n > 0 {
		bp.Parallel = n
	}
	bp.CreditCap, _ = pl.creditCap()
	return bp
}

// creditCap is the limit typed, 0 for none; false when it is no number.
func (pl *plan) creditCap() (float64, bool) {
	s := strings.TrimSpace(pl.limit.Text)
	if s == "" {
		return 0, true
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", "."), 64)
	if err != nil || v < 0 {
		return 0, false
	}
	return v, true
}

// update shows what the plan leaves unanswered, the rows it would skip,
// and what it may cost; Start is off while a required question has no
// answer.
func (pl *plan) update() {
	if pl.start == nil {
		return // still being built
	}
	bp := pl.batchPlan()
	missing := app.MissingColumns(pl.agent, bp.Columns, bp.Fixed)
	ok := len(missing) == 0
	if ok {
		kit.ShowError(pl.missing, "")
	} else {
		var names []string
		for _, q := range missing {
			names = append(names, kit.QuestionName(q, 40))
		}
		kit.ShowError(pl.missing, lang.L("No column answers {{.Questions}}: choose one, or give the same answer for every row.", map[string]any{"Questions": strings.Join(names, ", ")}))
	}
	if _, good := pl.creditCap(); good {
		kit.ShowError(pl.limitErr, "")
	} else {
		ok = false
		kit.ShowError(pl.limitErr, lang.L("Write a number of credits, or leave it empty."))
	}
	// What the first rows would be skipped for, before anything is sent.
	skipped := 0
	var why []string
	if len(missing) == 0 {
		for i, cells := range pl.p.rows {
			problems := bp.Request(pl.agent, cells).Problems
			if problems == nil {
				continue
			}
			skipped++
			if len(why) < 3 {
				why = append(why, lang.L("Row {{.Number}}: {{.Why}}", map[string]any{"Number": i + 2, "Why": firstProblem(pl.agent, problems)}))
			}
		}
	}
	switch {
	case len(missing) > 0:
		pl.skipped.SetText("")
	case skipped == 0:
		pl.skipped.SetText(lang.N("The first {{.Count}} row can all be sent.", len(pl.p.rows), map[string]any{"Count": app.Number(len(pl.p.rows))}))
	default:
		pl.skipped.SetText(lang.N("{{.Count}} of the first {{.Rows}} rows would be skipped:", skipped, map[string]any{"Count": app.Number(skipped), "Rows": app.Number(len(pl.p.rows))}) +
			"\n" + strings.Join(why, "\n"))
	}
	showIf(pl.skipped, pl.skipped.Text != "")
	showIf(pl.estimate, pl.p.lastCost != nil)
	if pl.p.lastCost != nil {
		pl.estimate.SetText(lang.N("About {{.Credits}} ({{.Count}} rows × the last run's cost)", pl.p.total, map[string]any{
			"Credits": app.Credits(*pl.p.lastCost * float64(pl.p.total)), "Count": app.Number(pl.p.total)}))
	}
	if ok {
		pl.start.Enable()
	} else {
		pl.start.Disable()
	}
}

// firstProblem is why a row would be skipped, for its first question.
func firstProblem(agent client.Agent, problems map[string]string) string {
	for _, q := range app.FormQuestions(agent) {
		if msg, ok := problems[q.Name]; ok {
			return lang.L("{{.Question}}: {{.Problem}}", map[string]any{"Question": kit.QuestionName(q, 40), "Problem": msg})
		}
	}
	return ""
}

// Start keeps the sheet as a batch, starts it and shows the Batches
// screen; nothing happens while a required question is unanswered.
func (pl *plan) Start() {
	if pl.start.Disabled() {
		return
	}
	bp := pl.batchPlan()
	if len(app.MissingColumns(pl.agent, bp.Columns, bp.Fixed)) > 0 {
		return
	}
	pl.start.Disable()
	var (
		id  int64
		err error
	)
	kit.ActShowing(pl.env.App, pl.env.Window, lang.L("Getting the batch ready…"), func(ctx context.Context) {
		b, e := pl.env.App.NewBatch(ctx, pl.agent, pl.path, bp)
		if err = e; err == nil {
			id = b.ID
			justStarted.Store(id)
			pl.env.App.Batches().Start(id, pl.agent)
		}
	}, func() {
		if err != nil {
			pl.start.Enable()
			kit.ShowInformation(lang.L("The batch did not start"), app.Describe(err), pl.env.Window)
			return
		}
		if pl.dialog != nil {
			pl.dialog.Hide()
		}
		pl.env.Nav.Show(kit.ScreenBatches)
	})
}

// showIf shows o when on, hides it otherwise.
func showIf(o fyne.CanvasObject, on bool) {
	if on {
		o.Show()
	} else {
		o.Hide()
	}
}
