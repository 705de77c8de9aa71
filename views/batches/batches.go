// Package batches is the Batches screen (an agent run on every row of a
// sheet, file of a folder or pasted line) and "Run on many…".
package batches

import (
	"context"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/internal/safe"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/richtext"
	"github.com/agentdesk/agentdesk/views/screen"
)

const maxRows = 5000

// What the open buttons open.
const (
	openResults = iota
	openFolder
	openSaved
)

type item struct {
	b       app.Batch
	counts  map[app.RowState]int
	spent   float64
	running bool
}

type Screen struct {
	env     screen.Env
	runner  *app.BatchRunner
	content fyne.CanvasObject
	list    *screen.Rows[item]
	// counted is the last reload's counts, kept by the next (guarded by loading).
	counted []item

	chosen     int64
	detail     *fyne.Container
	detailBody fyne.CanvasObject
	title      *widget.Label
	summary    *widget.Label
	// progress is the rows finished and, while it runs, the time left.
	progress *widget.ProgressBar
	timeLeft string
	moved    *widget.Label // where the results went instead, when their sheet was open elsewhere
	pause    *kit.Button
	goOn     *kit.Button
	retry    *kit.PaidButton
	cancel   *kit.Button
	open     *kit.Button
	folder   *kit.Button
	saved    *kit.Button
	rows     *screen.Rows[app.BatchRow]

	offered bool
	loading sync.Mutex
}

func New(env screen.Env) screen.Screen {
	s := &Screen{env: env, runner: env.App.Batches()}
	s.list = screen.NewRows(lang.L("Reading your batches…"), kit.NewTwoLineRow, func(_ int, it item, o fyne.CanvasObject) {
		kit.SetTwoLineRow(o, BatchTitle(it.b), StateWord(it.b, it.running)+" · "+Summary(it.counts, it.spent))
	})
	s.list.OnChosen(func(it item) { s.Choose(it.b.ID) })

	s.title = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	s.title.Truncation = fyne.TextTruncateEllipsis
	s.summary = widget.NewLabel("")
	// Wrapped, never cut short: the limit and counts are read whole.
	s.summary.Wrapping = fyne.TextWrapWord
	s.moved = screen.Wrapped("")
	s.moved.Hide()
	s.pause = kit.NewButtonWithIcon(lang.L("Pause"), theme.MediaPauseIcon(), func() { s.Pause() })
	s.goOn = kit.NewButtonWithIcon(lang.L("Go on"), theme.MediaPlayIcon(), func() { s.GoOn() })
	s.retry = kit.NewPaidButton(lang.L("Retry failed rows"), theme.ViewRefreshIcon(), func() { s.RetryFailed() })
	s.retry.Tip = lang.L("Send the failed rows again. Uses credits.")
	s.cancel = kit.NewButtonWithIcon(lang.L("Cancel batch"), theme.CancelIcon(), func() { s.CancelBatch() })
	s.cancel.Tip = lang.L("End the batch for good: rows not sent yet will not run.")
	s.open = kit.NewButtonWithIcon(lang.L("Open results"), theme.DocumentIcon(), func() { s.reveal(openResults) })
	s.folder = kit.NewButtonWithIcon(lang.L("Show in folder"), theme.FolderOpenIcon(), func() { s.reveal(openFolder) })
	s.saved = kit.NewButtonWithIcon(lang.L("Show saved files"), theme.FolderOpenIcon(), func() { s.reveal(openSaved) })
	s.saved.Tip = lang.L("Open the folder of the pictures and videos this batch made.")
	s.rows = screen.NewRows("", kit.NewTwoLineRow, func(_ int, r app.BatchRow, o fyne.CanvasObject) {
		it, _ := s.current()
		kit.SetTwoLineRow(o, RowTitle(it.b, r), rowLine(it.b, r))
	})
	s.rows.OnSelected = func(id widget.ListItemID) {
		s.rows.UnselectAll()
		if id < len(s.rows.Items) {
			s.showRow(s.rows.Items[id])
		}
	}
	s.progress = widget.NewProgressBar()
	s.progress.TextFormatter = func() string { return s.timeLeft }
	buttons := kit.Wrap(s.pause, s.goOn, s.retry, s.cancel, s.open, s.folder, s.saved)
	// Blank until a batch is chosen: the list's empty state says what to do.
	s.detail = container.NewStack()
	s.detailBody = kit.NewBorder(container.NewVBox(s.title, s.summary, s.progress, s.moved, buttons, widget.NewSeparator()), nil, nil, nil, s.rows.List)

	header := kit.Header(lang.L("Batches"), lang.L("An agent run on every row of a sheet, file of a folder or line of text, one result each."))
	split := kit.Split(container.NewPadded(s.list.Stack), container.NewPadded(s.detail), 0.4)
	s.content = kit.NewBorder(container.NewPadded(header), nil, nil, nil, split)
	// Followed while on screen; Shown catches up.
	kit.Bind(s.runner.News(), func(app.BatchNews) {
		if kit.OnScreen(s.content) {
			s.Reload()
		}
	})
	screen.OnAccountChange(env.App, func() { s.chosen = 0; s.Reload() })
	return s
}

func (s *Screen) Content() fyne.CanvasObject { return s.content }

// Shown reads the batches; the first time it offers to resume unfinished ones.
func (s *Screen) Shown() {
	s.Reload()
	if !s.offered {
		s.offered = true
		OfferUnfinished(s.env)
	}
}

// Reload reads the batches and the chosen one's rows.
func (s *Screen) Reload() {
	a := s.env.App
	chosen := s.chosen
	var (
		items []item
		rows  []app.BatchRow
		err   error
	)
	kit.Act(a, func(ctx context.Context) {
		s.loading.Lock()
		defer s.loading.Unlock()
		var all []app.Batch
		running := s.runner.RunningNow()
		all, err = s.runner.List(ctx)
		if err != nil {
			return
		}
		// Only running or changed batches are counted again, to spare the disk.
		counted := map[int64]item{}
		for _, it := range s.counted {
			counted[it.b.ID] = it
		}
		fresh := make([]item, 0, len(all))
		for _, b := range all {
			it := item{b: b, running: running[b.ID]}
			if was, ok := counted[b.ID]; ok && !it.running && !was.running && was.b.UpdatedAt.Equal(b.UpdatedAt) && was.b.State == b.State {
				it.counts, it.spent = was.counts, was.spent
			} else {
				it.counts, it.spent, _ = s.runner.Counts(ctx, b.ID)
			}
			items = append(items, it)
			if it.counts != nil { // a count that failed is tried again next time
				fresh = append(fresh, it)
			}
		}
		s.counted = fresh
		if chosen != 0 {
			rows, err = s.runner.Rows(ctx, chosen, maxRows)
		}
	}, func() { s.show(items, rows, chosen, err) })
}

func (s *Screen) show(items []item, rows []app.BatchRow, chosen int64, err error) {
	switch {
	case err != nil:
		kit.SetBody(s.list.Stack, screen.Error(err, s.Reload))
		return
	case len(items) == 0:
		kit.SetBody(s.list.Stack, kit.Empty(theme.ListIcon(), lang.L("No batches yet"),
			lang.L("A batch runs an agent once for every row of a sheet, every file of a folder or every line of text you paste, and writes the results to a sheet. To start one, open an agent and choose Run on many…")))
		s.list.Items = nil
		return
	}
	s.list.Items = items
	s.list.Refresh()
	kit.ShowBody(s.list.Stack, s.list.List)
	if id := justStarted.Swap(0); id != 0 && id != s.chosen {
		s.Choose(id) // the batch Run on many… started
		return
	}
	if s.chosen == 0 {
		s.Choose(items[0].b.ID)
		return
	}
	if chosen != s.chosen {
		return // another batch was chosen meanwhile: its rows come
	}
	s.rows.Items = rows
	s.rows.Refresh()
	s.showChosen()
}

// Choose shows batch id.
func (s *Screen) Choose(id int64) {
	if s.chosen == id {
		return
	}
	s.chosen = id
	s.rows.Items = nil
	s.rows.Refresh()
	s.showChosen()
	s.Reload()
}

func (s *Screen) current() (item, bool) {
	for _, it := range s.list.Items {
		if it.b.ID == s.chosen {
			return it, true
		}
	}
	return item{}, false
}

func (s *Screen) showChosen() {
	it, ok := s.current()
	if !ok {
		return
	}
	// Called per finished row: unchanged labels are left (setting one remeasures).
	kit.ShowBody(s.detail, s.detailBody)
	setText(s.title, BatchTitle(it.b))
	// A height change lays the pane out again, so rows are never covered.
	tall := s.summary.MinSize().Height
	setText(s.summary, stateText(it)+" · "+Summary(it.counts, it.spent))
	changed := s.summary.MinSize().Height != tall
	show := func(o fyne.CanvasObject, on bool) {
		changed = changed || o.Visible() != on
		screen.ShowIf(o, on)
	}
	s.showProgress(it)
	moved := MovedText(it.b)
	changed = changed || moved != s.moved.Text
	setText(s.moved, moved)
	show(s.moved, moved != "")
	left := it.counts[app.RowWaiting] + onTheWay(it.counts)
	ended := it.b.State == app.BatchDone || it.b.State == app.BatchCancelled
	show(s.pause, it.running && !ended)
	// A cancelled batch goes on only to look up rows on their way at close; a
	// paused one with nothing to send may still have pictures to save.
	show(s.goOn, !it.running && (left > 0 && !ended || lookUp(it) || it.b.State == app.BatchPaused))
	switch {
	case lookUp(it):
		s.goOn.Tip = lang.L("Find out what became of the rows that were on their way. Nothing new is sent.")
	case atLimit(it.b, it.spent):
		s.goOn.Tip = lang.L("Give the batch a new credit limit and go on.")
	default:
		s.goOn.Tip = ""
	}
	show(s.retry, !it.running && it.counts[app.RowFailed] > 0 && it.b.State != app.BatchCancelled)
	show(s.cancel, !ended && (it.running || left > 0))
	has := it.b.Results != "" && exists(it.b.Results)
	show(s.open, has)
	show(s.folder, has)
	show(s.saved, s.savedFiles(it))
	if changed {
		s.detailBody.Refresh()
	}
}

// onTheWay counts the rows on their way: being sent, whose request is on
// its way (its fate unknown after Agent Desk closed), or running on the
// service.
func onTheWay(counts map[app.RowState]int) int {
	return counts[app.RowSending] + counts[app.RowStarting] + counts[app.RowRunning]
}

// lookUp reports a cancelled batch with rows on their way at close: going on
// only looks them up.
func lookUp(it item) bool {
	return it.b.State == app.BatchCancelled && !it.running && onTheWay(it.counts) > 0
}

func atLimit(b app.Batch, spent float64) bool {
	return b.State == app.BatchPaused && b.CreditCap > 0 && spent >= b.CreditCap
}

func stateText(it item) string {
	if !it.running && atLimit(it.b, it.spent) {
		return lang.L("Paused at its limit of {{.Credits}}", map[string]any{"Credits": app.Credits(it.b.CreditCap)})
	}
	return StateWord(it.b, it.running)
}

func setText(l *widget.Label, text string) {
	if l.Text != text {
		l.SetText(text)
	}
}

// MovedText says where results went when their sheet was open elsewhere
// ("" when they went where planned).
func MovedText(b app.Batch) string {
	if b.Planned == "" || b.Results == "" || b.Results == b.Planned {
		return ""
	}
	return lang.L("{{.Planned}} was open in another program, so the results are in {{.File}}.", map[string]any{
		"Planned": safe.Text(filepath.Base(b.Planned), 80), "File": safe.Text(filepath.Base(b.Results), 80)})
}

func (s *Screen) savedFiles(it item) bool {
	for _, r := range s.rows.Items {
		if r.BatchID == it.b.ID && len(r.Files) > 0 {
			return exists(app.BatchFilesFolder(it.b))
		}
	}
	return false
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// Pause pauses the chosen batch after the rows on their way.
func (s *Screen) Pause() {
	s.runner.Pause(s.chosen)
}

// GoOn goes on with the chosen batch; one paused at its limit asks for a new one.
func (s *Screen) GoOn() {
	if it, ok := s.current(); ok && !it.running && atLimit(it.b, it.spent) {
		s.askLimit(it)
		return
	}
	s.goOnWith(s.chosen, nil)
}

func (s *Screen) goOnWith(id int64, limit *float64) {
	s.act(lang.L("The batch did not go on"), func(ctx context.Context) error {
		if limit != nil {
			if err := s.runner.SetCreditCap(ctx, id, *limit); err != nil {
				return err
			}
		}
		return s.runner.Resume(ctx, id)
	})
}

// act does work, says why it failed under the title failed, and reloads.
func (s *Screen) act(failed string, work func(ctx context.Context) error) {
	var err error
	kit.Act(s.env.App, func(ctx context.Context) { err = work(ctx) }, func() {
		if err != nil {
			kit.ShowInformation(failed, app.Describe(err), s.env.Window)
		}
		s.Reload()
	})
}

func (s *Screen) askLimit(it item) {
	w := s.env.Window
	var d *dialog.CustomDialog
	entry := kit.NewFormEntry()
	entry.SetPlaceHolder(lang.L("No limit"))
	// Rows on their way may have taken it well past its old limit.
	entry.SetText(app.CreditsFigure(2 * max(it.b.CreditCap, it.spent)))
	problem := kit.ErrorText()
	goOn := kit.NewButtonWithIcon(lang.L("Go on"), theme.MediaPlayIcon(), nil)
	goOn.Importance = widget.HighImportance
	check := func() (float64, bool) {
		v, ok := parseCredits(entry.Text)
		msg := ""
		switch {
		case !ok:
			msg = lang.L("Write a number of credits, or leave it empty.")
		case v > 0 && v <= it.spent:
			msg = lang.L("Write more than the {{.Credits}} it has spent, or leave it empty.", map[string]any{"Credits": app.Credits(it.spent)})
		}
		kit.ShowError(problem, msg)
		screen.EnableIf(msg == "", goOn)
		return v, msg == ""
	}
	confirm := func() {
		v, ok := check()
		if !ok {
			return
		}
		d.Hide()
		s.goOnWith(it.b.ID, &v)
	}
	goOn.OnTapped = confirm
	entry.OnChanged = func(string) { check() }
	entry.OnCtrlEnter = confirm
	check()
	intro := screen.Wrapped(lang.L("This batch paused when it had spent its limit of {{.Credits}}. To go on, give it a new limit, or leave it empty for no limit.", map[string]any{"Credits": app.Credits(it.b.CreditCap)}))
	field := container.New(layout.NewFormLayout(), widget.NewLabel(lang.L("Pause after (credits)")), container.NewVBox(entry, problem))
	cancel := kit.NewButtonWithIcon(lang.L("Cancel"), theme.CancelIcon(), func() { d.Hide() })
	d = dialog.NewCustomWithoutButtons(lang.L("A new credit limit"), container.NewVBox(intro, field), w)
	d.SetButtons([]fyne.CanvasObject{cancel, goOn})
	d.Resize(fyne.NewSize(min(w.Canvas().Size().Width*0.9, 480), 0))
	kit.ShowDialogKeys(d, w, confirm, d.Hide)
	w.Canvas().Focus(entry)
}

// parseCredits parses credits as typed (decimal comma too), 0 for none.
func parseCredits(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, true
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", "."), 64)
	if err != nil || v < 0 {
		return 0, false
	}
	return v, true
}

// RetryFailed sends the chosen batch's failed rows again (only those).
func (s *Screen) RetryFailed() {
	id := s.chosen
	s.act(lang.L("The failed rows were not sent again"), func(ctx context.Context) error { return s.runner.RetryFailed(ctx, id) })
}

// CancelBatch asks, then ends the chosen batch: unsent rows are skipped,
// those on their way finish.
func (s *Screen) CancelBatch() {
	id := s.chosen
	// Cannot be undone: Enter does not confirm it.
	screen.Confirm(s.env.Window, lang.L("Cancel this batch?"), lang.L("Rows not sent yet will not run; rows on their way finish."), lang.L("Cancel batch"), lang.L("Keep it"), screen.Destructive, func() {
		var err error
		kit.Act(s.env.App, func(ctx context.Context) { err = s.runner.Cancel(ctx, id) }, func() {
			switch {
			case errors.Is(err, app.ErrLookupLater):
				kit.ShowInformation(lang.L("Batch cancelled"), lang.L("Cancelled. The rows on their way will be checked when Agent Desk can reach the service."), s.env.Window)
			case err != nil:
				kit.ShowInformation(lang.L("The batch was not cancelled"), app.Describe(err), s.env.Window)
			}
			s.Reload()
		})
	})
}

// reveal opens the chosen batch's results, their folder or its saved files.
func (s *Screen) reveal(what int) {
	it, ok := s.current()
	if !ok || what != openSaved && it.b.Results == "" {
		return
	}
	p, where := it.b.Results, lang.L("No program on this computer opened the results sheet. It is here:")
	switch what {
	case openFolder:
		p, where = filepath.Dir(p), lang.L("The folder could not be shown. It is here:")
	case openSaved:
		p, where = app.BatchFilesFolder(it.b), lang.L("The folder could not be shown. It is here:")
	}
	if err := s.env.Open(&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}); err != nil {
		screen.ShowPath(s.env.Window, lang.L("Not opened"), where, p)
	}
}

// showProgress fills the bar with the rows finished and, while the batch
// runs, says about how long the rest takes at the pace of the rows so far.
func (s *Screen) showProgress(it item) {
	total, ended := 0, 0
	for st, n := range it.counts {
		total += n
		if finished(st) {
			ended += n
		}
	}
	s.timeLeft = ""
	if it.running {
		if left, ok := TimeLeft(s.rows.Items, total-ended); ok {
			s.timeLeft = lang.L("About {{.Time}} left", map[string]any{"Time": app.HowLong(left)})
		}
	}
	if s.timeLeft == "" {
		s.timeLeft = lang.L("{{.Percent}} %", map[string]any{"Percent": app.Number(ended * 100 / max(total, 1))})
	}
	s.progress.Max = float64(max(total, 1))
	s.progress.SetValue(float64(ended))
}

// finished reports a row that is through: nothing more is sent for it.
func finished(st app.RowState) bool {
	return st == app.RowDone || st == app.RowFailed || st == app.RowSkipped || st == app.RowLook
}

// TimeLeft is how long left rows take at the pace the finished rows of
// rows kept, from the first finished to the last; false until two have.
func TimeLeft(rows []app.BatchRow, left int) (time.Duration, bool) {
	var first, last time.Time
	n := 0
	for _, r := range rows {
		if r.UpdatedAt.IsZero() || !finished(r.State) {
			continue
		}
		if n == 0 || r.UpdatedAt.Before(first) {
			first = r.UpdatedAt
		}
		if n == 0 || r.UpdatedAt.After(last) {
			last = r.UpdatedAt
		}
		n++
	}
	if n < 2 || left <= 0 || !last.After(first) {
		return 0, false
	}
	return last.Sub(first) / time.Duration(n-1) * time.Duration(left), true
}

// showRow opens a row: its whole result to read and copy, why it failed,
// and the files it made to open.
func (s *Screen) showRow(r app.BatchRow) {
	it, _ := s.current()
	text := r.Error
	var why fyne.CanvasObject
	if text == "" {
		text = richtext.ReplyText(r.Result)
	} else if r.State == app.RowLook && r.Result != "" {
		// Why it needs a look above, the reply to look at (and copy) below.
		w := screen.Wrapped(safe.Text(r.Error, 0))
		w.Importance = widget.WarningImportance
		why, text = w, richtext.ReplyText(r.Result)
	}
	if text == "" {
		text = lang.L("This row has no result yet.")
	}
	body := screen.Wrapped(safe.Text(text, 0))
	body.Selectable = true
	items := []fyne.CanvasObject{container.NewVScroll(body)}
	copyBtn := kit.NewButtonWithIcon(lang.L("Copy"), theme.ContentCopyIcon(), nil)
	copyBtn.OnTapped = func() {
		fyne.CurrentApp().Clipboard().SetContent(text)
		copyBtn.SetText(lang.L("Copied"))
	}
	buttons := container.NewHBox(copyBtn)
	for _, f := range r.Files {
		path := f
		open := kit.NewButtonWithIcon(lang.L("Open {{.File}}", map[string]any{"File": safe.Text(filepath.Base(path), 40)}), theme.FileImageIcon(), func() {
			if err := s.env.Open(&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}); err != nil {
				screen.ShowPath(s.env.Window, lang.L("Not opened"), lang.L("No program on this computer opened the file. It is here:"), path)
			}
		})
		buttons.Add(open)
	}
	content := kit.NewBorder(why, buttons, nil, nil, items...)
	d := dialog.NewCustom(RowTitle(it.b, r), lang.L("Close"), content, s.env.Window)
	d.Resize(fyne.NewSize(640, 480))
	kit.ShowDialog(d, s.env.Window)
}

// BatchTitle is a batch's first line: its agent and its source.
func BatchTitle(b app.Batch) string {
	name := filepath.Base(b.Source)
	if b.Source == "" {
		name = lang.L("Lines of text")
	}
	return lang.L("{{.Agent}} · {{.File}}", map[string]any{"Agent": safe.Text(b.AgentTitle, 0), "File": name})
}

// Summary is "37 of 50 done · 3 need a look · 2 failed · 0.74 credits".
func Summary(counts map[app.RowState]int, spent float64) string {
	total := 0
	for _, n := range counts {
		total += n
	}
	parts := []string{lang.N("{{.Done}} of {{.Count}} done", total, map[string]any{"Done": app.Number(counts[app.RowDone]), "Count": app.Number(total)})}
	if n := counts[app.RowLook]; n > 0 {
		parts = append(parts, lang.N("{{.Count}} need a look", n, map[string]any{"Count": app.Number(n)}))
	}
	if n := counts[app.RowFailed]; n > 0 {
		parts = append(parts, lang.N("{{.Count}} failed", n, map[string]any{"Count": app.Number(n)}))
	}
	if n := counts[app.RowSkipped]; n > 0 {
		parts = append(parts, lang.N("{{.Count}} skipped", n, map[string]any{"Count": app.Number(n)}))
	}
	parts = append(parts, app.Credits(spent))
	return strings.Join(parts, " · ")
}

func StateWord(b app.Batch, running bool) string {
	switch {
	case b.State == app.BatchCancelled:
		return lang.X("batches.state.cancelled", "Cancelled")
	case running:
		return lang.X("batches.state.running", "Running")
	case b.State == app.BatchDone:
		return lang.X("batches.state.done", "Done")
	case b.State == app.BatchRunning:
		return lang.X("batches.state.stopped", "Stopped")
	}
	return lang.X("batches.state.paused", "Paused")
}

// RowTitle is a row's first line: its file, line or sheet row, and its fate.
func RowTitle(b app.Batch, r app.BatchRow) string {
	state := app.BatchRowState(r.State)
	switch {
	case b.Source != "" && b.Source == b.Folder && len(r.Cells) > 0:
		return lang.L("{{.File}} · {{.State}}", map[string]any{"File": safe.Text(r.Cells[0], 80), "State": state})
	case b.Source == "":
		return lang.L("Line {{.Number}} · {{.State}}", map[string]any{"Number": r.Row - 1, "State": state})
	}
	return lang.L("Row {{.Number}} · {{.State}}", map[string]any{"Number": r.Row, "State": state})
}

// rowLine is RowText, or while it has none, the row's first cell.
func rowLine(b app.Batch, r app.BatchRow) string {
	if t := RowText(r); t != "" || b.Source != "" && b.Source == b.Folder {
		return t
	}
	for _, c := range r.Cells {
		if c = strings.TrimSpace(c); c != "" {
			return safe.Text(c, 200)
		}
	}
	return ""
}

// RowText is a row's second line: its result's first line, why it failed or
// was skipped, or the name its file was saved as.
func RowText(r app.BatchRow) string {
	if len(r.Files) > 0 && r.Error == "" {
		names := make([]string, len(r.Files))
		for i, f := range r.Files {
			names[i] = filepath.Base(f)
		}
		return lang.L("Saved as {{.File}}", map[string]any{"File": safe.Text(strings.Join(names, ", "), 200)})
	}
	t := r.Result
	if r.Error != "" {
		t = r.Error
	}
	t = strings.TrimSpace(t)
	if i := strings.IndexByte(t, '\n'); i >= 0 {
		t = t[:i]
	}
	t = strings.TrimLeft(t, "# ")
	return safe.Text(t, 200)
}

// OfferUnfinished asks once whether to go on with batches left running at close.
func OfferUnfinished(env screen.Env) {
	if !env.App.Batches().FirstOffer() {
		return
	}
	a := env.App
	var left []app.Batch
	kit.Act(a, func(ctx context.Context) { left, _ = a.Batches().Unfinished(ctx) }, func() {
		todo := slices.DeleteFunc(left, func(b app.Batch) bool { return a.Batches().Running(b.ID) })
		if len(todo) == 0 {
			return
		}
		text := lang.N("A batch was running when Agent Desk closed. Go on with it?", len(todo), map[string]any{"Count": app.Number(len(todo))})
		if !slices.ContainsFunc(todo, func(b app.Batch) bool { return b.State != app.BatchCancelled }) {
			text = lang.L("Rows of a cancelled batch were on their way when Agent Desk closed. Find out what became of them? Nothing new is sent.")
		}
		screen.Confirm(env.Window, lang.N("Go on with the batch?", len(todo)), text, lang.L("Go on"), lang.L("Later"), screen.Safe, func() {
			var failed error
			kit.Act(a, func(ctx context.Context) {
				for _, b := range todo {
					if err := a.Batches().Resume(ctx, b.ID); err != nil && failed == nil {
						failed = err
					}
				}
			}, func() {
				if failed != nil {
					kit.ShowInformation(lang.L("The batch did not go on"), app.Describe(failed), env.Window)
				}
			})
		})
	})
}

// Follow notifies of each batch that ends while the window is behind, and
// offers once to go on with those left running. The shell calls it once.
func Follow(env screen.Env) (stop func()) {
	stop = screen.OnNew(env.App.Batches().News(), func(n app.BatchNews) uint64 { return n.Ends }, func(n app.BatchNews) {
		if kit.InForeground(env.Window) {
			return
		}
		if title, text := EndNotice(n.Ended); title != "" {
			kit.Notify(fyne.CurrentApp(), title, text)
		}
	})
	OfferUnfinished(env)
	return stop
}

// EndNotice is what the user is told of a batch that stopped while the window
// was behind; "" when the user paused it.
func EndNotice(end app.BatchEnd) (title, text string) {
	b := end.Batch
	switch {
	case b.State == app.BatchDone:
		return lang.L("Batch done"), EndText(end)
	case end.Err != nil:
		return lang.L("Batch paused"), lang.L("{{.Agent}}: {{.Why}}", map[string]any{"Agent": safe.Text(b.AgentTitle, 60), "Why": app.Describe(end.Err)})
	case atLimit(b, end.Spent):
		return lang.L("Batch paused"), lang.L("{{.Agent}} reached its limit of {{.Credits}}. Go on with it on the Batches screen.", map[string]any{
			"Agent": safe.Text(b.AgentTitle, 60), "Credits": app.Credits(b.CreditCap)})
	}
	return "", ""
}

// EndText is "Batch done: 48 done, 2 failed, 3.2 credits", and the rows
// that need a look when there are any.
func EndText(end app.BatchEnd) string {
	if n := end.Counts[app.RowLook]; n > 0 {
		return lang.L("{{.Agent}}: {{.Done}} done, {{.Look}} to look at, {{.Failed}} failed, {{.Credits}}", map[string]any{
			"Agent": safe.Text(end.Batch.AgentTitle, 60), "Done": app.Number(end.Counts[app.RowDone]), "Look": app.Number(n),
			"Failed": app.Number(end.Counts[app.RowFailed]), "Credits": app.Credits(end.Spent)})
	}
	return lang.L("{{.Agent}}: {{.Done}} done, {{.Failed}} failed, {{.Credits}}", map[string]any{
		"Agent": safe.Text(end.Batch.AgentTitle, 60), "Done": app.Number(end.Counts[app.RowDone]),
		"Failed": app.Number(end.Counts[app.RowFailed]), "Credits": app.Credits(end.Spent)})
}
