// Package batches shows the account's batches (an agent run on every row
// of a sheet), newest first, each with its rows and what became of them;
// a batch can be paused, gone on with, and its failed rows sent again. It
// also holds "Run on many…", which starts one from an agent's Run tab.
package batches

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/safe"
	"github.com/agentdesk/agentdesk/storage"
	"github.com/agentdesk/agentdesk/views/kit"
)

// opener opens a file or folder with the computer's own program (tests
// replace it).
var opener = func(u *url.URL) error { return fyne.CurrentApp().OpenURL(u) }

// maxRows is the most rows of a batch the screen lists.
const maxRows = 5000

// item is one batch as the list shows it.
type item struct {
	b       storage.Batch
	counts  map[string]int
	spent   float64
	running bool
}

// Screen is the Batches screen.
type Screen struct {
	env     kit.Env
	runner  *app.BatchRunner
	content fyne.CanvasObject
	stack   *fyne.Container
	list    *kit.List
	items   []item

	// The chosen batch.
	chosen     int64
	detail     *fyne.Container
	detailBody fyne.CanvasObject
	title      *widget.Label
	summary    *widget.Label
	pause      *kit.Button
	goOn       *kit.Button
	retry      *kit.PaidButton
	open       *kit.Button
	folder     *kit.Button
	rowsList   *kit.List
	rows       []storage.BatchRow

	offered bool
	loading sync.Mutex
}

// New builds the Batches screen.
func New(env kit.Env) kit.Screen {
	s := &Screen{env: env, runner: env.App.Batches()}
	s.list = kit.NewList(func() int { return len(s.items) }, kit.NewTwoLineRow, func(id widget.ListItemID, o fyne.CanvasObject) {
		if id < len(s.items) {
			it := s.items[id]
			kit.SetTwoLineRow(o, BatchTitle(it.b), Summary(it.counts, it.spent)+" · "+StateWord(it.b, it.running))
		}
	})
	s.list.OnSelected = func(id widget.ListItemID) {
		if id < len(s.items) {
			s.choose(s.items[id].b.ID)
		}
	}
	s.stack = container.NewStack(kit.Loading(lang.L("Reading your batches…")))

	s.title = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	s.title.Truncation = fyne.TextTruncateEllipsis
	s.summary = widget.NewLabel("")
	s.summary.Truncation = fyne.TextTruncateEllipsis
	s.pause = kit.NewButtonWithIcon(lang.L("Pause"), theme.MediaPauseIcon(), func() { s.Pause() })
	s.goOn = kit.NewButtonWithIcon(lang.L("Go on"), theme.MediaPlayIcon(), func() { s.GoOn() })
	s.retry = kit.NewPaidButton(lang.L("Retry failed rows"), theme.ViewRefreshIcon(), func() { s.RetryFailed() })
	s.retry.Tip = lang.L("Send the failed rows again. Uses credits.")
	s.open = kit.NewButtonWithIcon(lang.L("Open results"), theme.DocumentIcon(), func() { s.openResults(false) })
	s.folder = kit.NewButtonWithIcon(lang.L("Show in folder"), theme.FolderOpenIcon(), func() { s.openResults(true) })
	s.rowsList = kit.NewList(func() int { return len(s.rows) }, kit.NewTwoLineRow, func(id widget.ListItemID, o fyne.CanvasObject) {
		if id < len(s.rows) {
			r := s.rows[id]
			kit.SetTwoLineRow(o, lang.L("Row {{.Number}} · {{.State}}", map[string]any{"Number": r.Row, "State": app.BatchRowState(r.State)}), RowText(r))
		}
	})
	s.rowsList.OnSelected = func(widget.ListItemID) { s.rowsList.UnselectAll() }
	buttons := kit.Wrap(s.pause, s.goOn, s.retry, s.open, s.folder)
	// Blank until a batch is chosen (the newest is, as soon as the list
	// is in): the list's own empty state says what to do.
	s.detail = container.NewStack()
	s.detailBody = kit.NewBorder(container.NewVBox(s.title, s.summary, buttons, widget.NewSeparator()), nil, nil, nil, s.rowsList)

	header := kit.Header(lang.L("Batches"), lang.L("An agent run on every row of a sheet, one result per row."))
	split := kit.Split(container.NewPadded(s.stack), container.NewPadded(s.detail), 0.4)
	s.content = kit.NewBorder(container.NewPadded(header), nil, nil, nil, split)
	// Followed while on screen; Shown catches up when the user comes back.
	kit.Bind(s.runner.News(), func(app.BatchNews) {
		if kit.OnScreen(s.content) {
			s.Reload()
		}
	})
	kit.OnAccountChange(env.App, func() { s.chosen = 0; s.Reload() })
	return s
}

// Content is the screen's widget tree.
func (s *Screen) Content() fyne.CanvasObject { return s.content }

// Shown reads the batches again; the first time, it offers to go on with
// the batches that were running when Agent Desk closed.
func (s *Screen) Shown() {
	s.Reload()
	if !s.offered {
		s.offered = true
		OfferUnfinished(s.env)
	}
}

// Reload reads the batches (and the chosen one's rows) from the history.
func (s *Screen) Reload() {
	a := s.env.App
	chosen := s.chosen
	var (
		items []item
		rows  []storage.BatchRow
		err   error
	)
	kit.Act(a, func(ctx context.Context) {
		s.loading.Lock()
		defer s.loading.Unlock()
		var all []storage.Batch
		all, err = a.DB().Batches(ctx, a.AccountID(), 200)
		if err != nil {
			return
		}
		for _, b := range all {
			it := item{b: b, running: s.runner.Running(b.ID)}
			it.counts, it.spent, _ = a.DB().BatchCounts(ctx, b.ID)
			items = append(items, it)
		}
		if chosen != 0 {
			rows, _ = a.DB().BatchRows(ctx, chosen, 0, maxRows)
		}
	}, func() { s.show(items, rows, chosen, err) })
}

func (s *Screen) show(items []item, rows []storage.BatchRow, chosen int64, err error) {
	switch {
	case err != nil:
		kit.SetBody(s.stack, kit.Error(err, s.Reload))
		return
	case len(items) == 0:
		kit.SetBody(s.stack, kit.Empty(theme.ListIcon(), lang.L("No batches yet"),
			lang.L("A batch runs an agent once for every row of a sheet (CSV or Excel) and writes the results beside it. To start one, open an agent, and on its Run tab choose Run on many…")))
		s.items = nil
		return
	}
	s.items = items
	s.list.Refresh()
	kit.ShowBody(s.stack, s.list)
	if id := justStarted.Swap(0); id != 0 && id != s.chosen {
		s.choose(id) // the batch Run on many… started
		return
	}
	if s.chosen == 0 {
		s.choose(items[0].b.ID)
		return
	}
	if chosen != s.chosen {
		return // another batch was chosen meanwhile: its rows come
	}
	s.rows = rows
	s.rowsList.Refresh()
	s.showChosen()
}

// choose shows batch id's rows.
func (s *Screen) choose(id int64) {
	if s.chosen == id {
		return
	}
	s.chosen = id
	s.rows = nil
	s.rowsList.Refresh()
	s.showChosen()
	s.Reload()
}

// Choose shows batch id (tests, and Run on many… after a start).
func (s *Screen) Choose(id int64) { s.choose(id) }

func (s *Screen) current() (item, bool) {
	for _, it := range s.items {
		if it.b.ID == s.chosen {
			return it, true
		}
	}
	return item{}, false
}

// showChosen shows the chosen batch's summary and the buttons that fit
// its state.
func (s *Screen) showChosen() {
	it, ok := s.current()
	if !ok {
		return
	}
	kit.SetBody(s.detail, s.detailBody)
	s.title.SetText(BatchTitle(it.b))
	s.summary.SetText(Summary(it.counts, it.spent) + " · " + StateWord(it.b, it.running))
	show := showIf
	left := it.counts[storage.RowWaiting] + it.counts[storage.RowRunning] + it.counts[storage.RowSending]
	show(s.pause, it.running)
	show(s.goOn, !it.running && left > 0 && it.b.State != storage.BatchDone)
	show(s.retry, !it.running && it.counts[storage.RowFailed] > 0)
	has := it.b.Results != "" && exists(it.b.Results)
	show(s.open, has)
	show(s.folder, has)
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// Pause pauses the chosen batch after the rows on their way.
func (s *Screen) Pause() {
	s.runner.Pause(s.chosen)
}

// GoOn goes on with the chosen batch.
func (s *Screen) GoOn() {
	id := s.chosen
	var err error
	kit.Act(s.env.App, func(ctx context.Context) { err = s.runner.Resume(ctx, id) }, func() {
		if err != nil {
			kit.ShowInformation(lang.L("The batch did not go on"), app.Describe(err), s.env.Window)
		}
		s.Reload()
	})
}

// RetryFailed sends the chosen batch's failed rows again (only those).
func (s *Screen) RetryFailed() {
	id := s.chosen
	var err error
	kit.Act(s.env.App, func(ctx context.Context) {
		if _, err = s.env.App.DB().RetryFailedRows(ctx, id); err == nil {
			err = s.runner.Resume(ctx, id)
		}
	}, func() {
		if err != nil {
			kit.ShowInformation(lang.L("The failed rows were not sent again"), app.Describe(err), s.env.Window)
		}
		s.Reload()
	})
}

// openResults opens the results sheet with the computer's program for it,
// or its folder.
func (s *Screen) openResults(folder bool) {
	it, ok := s.current()
	if !ok || it.b.Results == "" {
		return
	}
	p := it.b.Results
	if folder {
		p = filepath.Dir(p)
	}
	if err := opener(&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}); err != nil {
		kit.ShowInformation(lang.L("Not opened"), lang.L("Agent Desk could not open it. The results are at {{.Path}}.", map[string]any{"Path": it.b.Results}), s.env.Window)
	}
}

// BatchTitle is a batch's first line: its agent and its sheet.
func BatchTitle(b storage.Batch) string {
	name := filepath.Base(b.Source)
	if b.Source == "" {
		name = filepath.Base(b.Results)
	}
	return lang.L("{{.Agent}} · {{.File}}", map[string]any{"Agent": safe.Text(b.AgentTitle, 0), "File": name})
}

// Summary is "37 of 50 done · 2 failed · 0.74 credits".
func Summary(counts map[string]int, spent float64) string {
	total := 0
	for _, n := range counts {
		total += n
	}
	parts := []string{lang.N("{{.Done}} of {{.Count}} done", total, map[string]any{"Done": app.Number(counts[storage.RowDone]), "Count": app.Number(total)})}
	if n := counts[storage.RowFailed]; n > 0 {
		parts = append(parts, lang.N("{{.Count}} failed", n, map[string]any{"Count": app.Number(n)}))
	}
	if n := counts[storage.RowSkipped]; n > 0 {
		parts = append(parts, lang.N("{{.Count}} skipped", n, map[string]any{"Count": app.Number(n)}))
	}
	parts = append(parts, app.Credits(spent))
	return strings.Join(parts, " · ")
}

// StateWord is a batch's state in words: Running while it runs here,
// Paused when it waits to go on, Done, Stopped.
func StateWord(b storage.Batch, running bool) string {
	switch {
	case running:
		return lang.X("batches.state.running", "Running")
	case b.State == storage.BatchDone:
		return lang.X("batches.state.done", "Done")
	case b.State == storage.BatchCancelled:
		return lang.X("batches.state.stopped", "Stopped")
	}
	return lang.X("batches.state.paused", "Paused")
}

// RowText is a row's second line: the first line of its result, or why
// it failed or was skipped.
func RowText(r storage.BatchRow) string {
	t := r.Result
	if r.Error != "" {
		t = r.Error
	}
	t = strings.TrimSpace(t)
	if i := strings.IndexByte(t, '\n'); i >= 0 {
		t = t[:i]
	}
	// A heading's marks are not words ("# Note" reads "Note").
	t = strings.TrimLeft(t, "# ")
	return safe.Text(t, 200)
}

// OfferUnfinished asks once whether to go on with the batches that were
// running when Agent Desk closed.
func OfferUnfinished(env kit.Env) {
	if !offerOnce(env.App) {
		return
	}
	a := env.App
	var left []storage.Batch
	kit.Act(a, func(ctx context.Context) { left, _ = a.UnfinishedBatches(ctx) }, func() {
		var todo []storage.Batch
		for _, b := range left {
			if !a.Batches().Running(b.ID) {
				todo = append(todo, b)
			}
		}
		if len(todo) == 0 {
			return
		}
		d := dialog.NewConfirm(lang.L("Go on with the batch?"),
			lang.L("A batch was running when Agent Desk closed. Go on with it?"), func(yes bool) {
				if !yes {
					return
				}
				kit.Act(a, func(ctx context.Context) {
					for _, b := range todo {
						_ = a.Batches().Resume(ctx, b.ID)
					}
				}, nil)
			}, env.Window)
		d.SetConfirmText(lang.L("Go on"))
		d.SetDismissText(lang.L("Later"))
		kit.ShowDialog(d, env.Window)
	})
}

var (
	offeredMu sync.Mutex
	offered   = map[*app.App]bool{}
)

// offerOnce reports true the first time it is asked for a.
func offerOnce(a *app.App) bool {
	offeredMu.Lock()
	defer offeredMu.Unlock()
	if offered[a] {
		return false
	}
	offered[a] = true
	return true
}

// Follow tells the user of each batch that ends while the window is not in
// front, and offers once to go on with the batches left running. The
// shell calls it once.
func Follow(env kit.Env) (stop func()) {
	var seen uint64
	first := true
	stop = kit.Bind(env.App.Batches().News(), func(n app.BatchNews) {
		if first {
			first, seen = false, n.Ends
			return
		}
		if n.Ends == seen {
			return
		}
		seen = n.Ends
		end := n.Ended
		if end.Err != nil || kit.InForeground() {
			return
		}
		if end.Batch.State != storage.BatchDone {
			return
		}
		kit.Notify(fyne.CurrentApp(), lang.L("Batch done"), EndText(end))
	})
	OfferUnfinished(env)
	return stop
}

// EndText is "Batch done: 48 done, 2 failed, 3.2 credits".
func EndText(end app.BatchEnd) string {
	return lang.L("{{.Agent}}: {{.Done}} done, {{.Failed}} failed, {{.Credits}}", map[string]any{
		"Agent": safe.Text(end.Batch.AgentTitle, 60), "Done": app.Number(end.Counts[storage.RowDone]),
		"Failed": app.Number(end.Counts[storage.RowFailed]), "Credits": app.Credits(end.Spent)})
}
