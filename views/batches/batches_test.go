package batches

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
)

// nav remembers the screens shown.
type nav struct {
	kittest.Nav
	shown *[]string
}

func (n nav) Show(s string) { *n.shown = append(*n.shown, s) }

func env(t *testing.T, pace time.Duration) (kit.Env, *kit.Queue, *demoservice.Service, *[]string) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	a, svc := apptest.OnService(t, demoservice.Options{Pace: pace})
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(fyne.NewSize(800, 600))
	var shown []string
	return kit.Env{App: a, Window: w, Nav: nav{shown: &shown}}, q, svc, &shown
}

// sheetOf writes a CSV for the demo's Newsletter Writer (prompt, tone,
// length) of n rows; the fourth asks for a tone it does not offer.
func sheetOf(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("Prompt,Tone,Length\n")
	for i := range n {
		tone := "friendly"
		if i == 3 {
			tone = "loud"
		}
		fmt.Fprintf(&b, "A note on product %d,%s,%d\n", i, tone, 40+i)
	}
	p := filepath.Join(t.TempDir(), "products.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func agent(t *testing.T, a *app.App) client.Agent {
	t.Helper()
	ag, err := a.GetAgent(context.Background(), "119")
	if err != nil {
		t.Fatal(err)
	}
	return *ag
}

func rowText(l *kit.List, i int) string {
	o := l.CreateItem()
	l.UpdateItem(i, o)
	var parts []string
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch o := o.(type) {
		case *widget.Label:
			parts = append(parts, o.Text)
		case *fyne.Container:
			for _, c := range o.Objects {
				walk(c)
			}
		}
	}
	walk(kit.RowContent(o))
	return strings.Join(parts, " | ")
}

func state(t *testing.T, a *app.App, id int64) storage.Batch {
	t.Helper()
	b, err := a.DB().Batch(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The screen lists a batch run from a small CSV with its counts, and its
// rows with what became of each.
func TestTheScreenListsABatchWithItsCountsAndRows(t *testing.T) {
	e, q, _, _ := env(t, 0)
	ag := agent(t, e.App)
	s := New(e).(*Screen)
	e.Window.SetContent(s.Content())
	s.Shown()
	q.WaitUntil(t, func() bool { return len(s.items) == 0 && len(s.stack.Objects) > 0 }, func() string { return "" })

	b, err := e.App.NewBatch(context.Background(), ag, sheetOf(t, 5), app.BatchPlan{Columns: app.MatchColumns(ag, []string{"Prompt", "Tone", "Length"})})
	if err != nil {
		t.Fatal(err)
	}
	if !e.App.Batches().Start(b.ID, ag) {
		t.Fatal("the batch did not start")
	}
	q.WaitUntil(t, func() bool {
		return len(s.items) == 1 && !s.items[0].running && s.items[0].b.State == storage.BatchDone && len(s.rows) == 5
	}, func() string { return fmt.Sprintf("%d batches, %d rows", len(s.items), len(s.rows)) })
	line := rowText(s.list, 0)
	if !strings.Contains(line, ag.Title+" · products.csv") || !strings.Contains(line, "4 of 5 done") || !strings.Contains(line, "1 skipped") ||
		!strings.Contains(line, "credit") || !strings.Contains(line, "Done") {
		t.Fatalf("the batch's row reads %q", line)
	}
	if got := rowText(s.rowsList, 3); !strings.Contains(got, "Row 5 · Skipped") || !strings.Contains(got, "Please pick one of the choices") {
		t.Fatalf("the skipped row reads %q", got)
	}
	if got := rowText(s.rowsList, 0); !strings.Contains(got, "Row 2 · Done") {
		t.Fatalf("the first row reads %q", got)
	}
	if s.pause.Visible() || s.goOn.Visible() || s.retry.Visible() || !s.open.Visible() || !s.folder.Visible() {
		t.Fatal("a batch done offers Open results and Show in folder only")
	}
	var opened []string
	opener = func(u *url.URL) error { opened = append(opened, u.Path); return nil }
	t.Cleanup(func() { opener = func(u *url.URL) error { return fyne.CurrentApp().OpenURL(u) } })
	s.openResults(false)
	s.openResults(true)
	if len(opened) != 2 || !strings.HasSuffix(opened[0], "products results.csv") || strings.HasSuffix(opened[1], ".csv") {
		t.Fatalf("opened %v", opened)
	}
	// A batch that ends while the window is elsewhere is told of.
	if got := EndText(app.BatchEnd{Batch: state(t, e.App, b.ID), Counts: s.items[0].counts, Spent: s.items[0].spent}); !strings.Contains(got, "4 done, 0 failed") {
		t.Fatalf("the notification reads %q", got)
	}
}

// Pause stops a running batch after the rows on their way; Go on runs the
// rest.
func TestPauseAndGoOn(t *testing.T) {
	e, q, _, _ := env(t, 20*time.Millisecond)
	ag := agent(t, e.App)
	s := New(e).(*Screen)
	e.Window.SetContent(s.Content())
	s.Shown()
	b, err := e.App.NewBatch(context.Background(), ag, sheetOf(t, 10), app.BatchPlan{Columns: app.MatchColumns(ag, []string{"Prompt", "Tone", "Length"}), Parallel: 5})
	if err != nil {
		t.Fatal(err)
	}
	e.App.Batches().Start(b.ID, ag)
	q.WaitUntil(t, func() bool {
		it, ok := s.current()
		return ok && it.running && it.counts[storage.RowDone] > 0 && s.pause.Visible()
	}, func() string {
		it, ok := s.current()
		return fmt.Sprintf("%s; %v %v %v %v", s.summary.Text, ok, it.running, it.counts, s.pause.Visible())
	})
	s.Pause()
	q.WaitUntil(t, func() bool {
		it, ok := s.current()
		return ok && !it.running && s.goOn.Visible()
	}, func() string {
		return fmt.Sprintf("%s; runner %v; db %q; chosen %d of %d", s.summary.Text, e.App.Batches().Running(b.ID), state(t, e.App, b.ID).State, s.chosen, b.ID)
	})
	if got := state(t, e.App, b.ID).State; got != storage.BatchPaused || !strings.Contains(s.summary.Text, "Paused") {
		t.Fatalf("after Pause the batch is %q, the screen reads %q", got, s.summary.Text)
	}
	s.GoOn()
	q.WaitUntil(t, func() bool {
		it, ok := s.current()
		return ok && !it.running && it.b.State == storage.BatchDone
	}, func() string { return s.summary.Text })
	if !strings.Contains(s.summary.Text, "9 of 10 done") {
		t.Fatalf("after Go on: %q", s.summary.Text)
	}
}

// Retry failed rows sends the failed row again, and only it.
func TestRetryFailedRowsSendsOnlyThem(t *testing.T) {
	e, q, svc, _ := env(t, 0)
	ag := agent(t, e.App)
	ctx := context.Background()
	b, err := e.App.NewBatch(ctx, ag, sheetOf(t, 5), app.BatchPlan{Columns: app.MatchColumns(ag, []string{"Prompt", "Tone", "Length"})})
	if err != nil {
		t.Fatal(err)
	}
	// Row 2 was on its way when Agent Desk stopped: it fails, not sent.
	if _, _, err := e.App.DB().TakeWaitingRow(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	s := New(e).(*Screen)
	e.Window.SetContent(s.Content())
	s.Shown()
	e.App.Batches().Start(b.ID, ag)
	q.WaitUntil(t, func() bool {
		it, ok := s.current()
		return ok && !it.running && it.counts[storage.RowFailed] == 1 && s.retry.Visible()
	}, func() string { return s.summary.Text })
	before := len(svc.Executions())
	if before != 3 {
		t.Fatalf("%d rows sent, want 3", before)
	}
	if !strings.Contains(s.summary.Text, "1 failed") {
		t.Fatalf("summary %q", s.summary.Text)
	}
	s.RetryFailed()
	q.WaitUntil(t, func() bool {
		it, ok := s.current()
		return ok && !it.running && it.counts[storage.RowFailed] == 0 && it.b.State == storage.BatchDone
	}, func() string { return s.summary.Text })
	if sent := len(svc.Executions()) - before; sent != 1 {
		t.Fatalf("Retry failed rows sent %d rows, want 1", sent)
	}
}

// Run on many… matches columns by name, says which required question
// nothing answers and keeps Start off until one does; then it starts the
// batch and shows the Batches screen.
func TestRunOnManyMapsColumnsAndRefusesStartWhileARequiredQuestionIsUnanswered(t *testing.T) {
	e, q, _, shown := env(t, 0)
	ag := agent(t, e.App)
	path := filepath.Join(t.TempDir(), "notes.csv")
	if err := os.WriteFile(path, []byte("Subject,tone\nFirst,friendly\nSecond,loud\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := readPreview(context.Background(), e.App, ag, path)
	if err != nil {
		t.Fatal(err)
	}
	pl := newPlan(e, ag, path, p)
	byName := map[string]*question{}
	for _, qq := range pl.questions {
		byName[qq.q.Name] = qq
	}
	if got := byName["tone"].choice.Selected; got != "tone" {
		t.Fatalf("tone is answered by %q", got)
	}
	if got := byName["prompt"].choice.Selected; got != pl.notUsed {
		t.Fatalf("prompt is answered by %q", got)
	}
	if !pl.start.Disabled() || !pl.missing.Visible() || !strings.Contains(pl.missing.Text, "Prompt") {
		t.Fatalf("a required question unanswered: Start on %v, %q", !pl.start.Disabled(), pl.missing.Text)
	}
	pl.Start()
	q.Drain()
	if n, _ := e.App.DB().Batches(context.Background(), e.App.AccountID(), 10); len(n) != 0 {
		t.Fatal("Start made a batch while a required question had no answer")
	}
	byName["prompt"].choice.SetSelected("Subject")
	if pl.start.Disabled() || pl.missing.Visible() {
		t.Fatalf("every required question answered, Start still off: %q", pl.missing.Text)
	}
	if !strings.Contains(pl.skipped.Text, "1 of the first 2 rows would be skipped") || !strings.Contains(pl.skipped.Text, "Row 3:") {
		t.Fatalf("preview: %q", pl.skipped.Text)
	}
	pl.Start()
	q.WaitUntil(t, func() bool { return len(*shown) == 1 }, func() string { return fmt.Sprint(*shown) })
	if (*shown)[0] != kit.ScreenBatches {
		t.Fatalf("shown %v", *shown)
	}
	all, _ := e.App.DB().Batches(context.Background(), e.App.AccountID(), 10)
	if len(all) != 1 || all[0].Columns["prompt"] != 0 || all[0].Columns["tone"] != 1 {
		t.Fatalf("batches %+v", all)
	}
	q.WaitUntil(t, func() bool { return !e.App.Batches().Running(all[0].ID) }, func() string { return "running" })
}

// A batch that ends while the window is not in front is told of in a
// notification; one left running when Agent Desk closed is offered once,
// and Go on runs it.
func TestFollowNotifiesAndOffersToGoOn(t *testing.T) {
	e, q, _, _ := env(t, 0)
	ag := agent(t, e.App)
	ctx := context.Background()
	plan := app.BatchPlan{Columns: app.MatchColumns(ag, []string{"Prompt", "Tone", "Length"})}
	left, err := e.App.NewBatch(ctx, ag, sheetOf(t, 3), plan)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.App.DB().SetBatchState(ctx, left.ID, storage.BatchRunning); err != nil {
		t.Fatal(err)
	}
	kit.SetForeground(false)
	t.Cleanup(func() { kit.SetForeground(true) })
	stop := Follow(e)
	t.Cleanup(stop)
	var goOn *widget.Button
	q.WaitUntil(t, func() bool {
		if top := e.Window.Canvas().Overlays().Top(); top != nil {
			goOn = kittest.FindButton(top, "Go on")
		}
		return goOn != nil
	}, func() string { return "no offer to go on" })
	if text := kittest.AllText(e.Window.Canvas().Overlays().Top()); !strings.Contains(text, "A batch was running when Agent Desk closed. Go on with it?") || kittest.FindButton(e.Window.Canvas().Overlays().Top(), "Later") == nil {
		t.Fatalf("the offer reads %q", text)
	}
	OfferUnfinished(e) // once only
	want := &fyne.Notification{Title: "Batch done"}
	test.AssertNotificationSent(t, want, func() {
		test.Tap(goOn)
		q.WaitUntil(t, func() bool {
			return state(t, e.App, left.ID).State == storage.BatchDone && !e.App.Batches().Running(left.ID)
		},
			func() string { return state(t, e.App, left.ID).State })
		q.WaitUntil(t, func() bool { return len(e.Window.Canvas().Overlays().List()) == 0 }, func() string { return "a second offer" })
		counts, spent, _ := e.App.DB().BatchCounts(ctx, left.ID)
		want.Content = kit.NotifyText(EndText(app.BatchEnd{Batch: state(t, e.App, left.ID), Counts: counts, Spent: spent}), kit.NotifyBodyMax)
		for range 5 { // the last news waits for its frame
			time.Sleep(2 * kit.Frame)
			q.Drain()
		}
	})
	if !strings.Contains(want.Content, "3 done, 0 failed") {
		t.Fatalf("the notification reads %q", want.Content)
	}
}
