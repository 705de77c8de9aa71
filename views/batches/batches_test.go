package batches

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/adrg/xdg"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/app/sheet"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
	"github.com/agentdesk/agentdesk/views/screen"
)

// nav remembers the screens shown.
type nav struct {
	screen.NoNav
	shown *[]string
}

func (n nav) Show(s string) { *n.shown = append(*n.shown, s) }

func env(t *testing.T, pace time.Duration) (screen.Env, *kit.Queue, *demoservice.Service, *[]string) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	a, svc := apptest.OnService(t, demoservice.Options{Pace: pace})
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(fyne.NewSize(800, 600))
	var shown []string
	return screen.Env{App: a, Window: w, Nav: nav{shown: &shown}}, q, svc, &shown
}

// wholeSheet reads the sheet at path whole, as the plan does.
func wholeSheet(t *testing.T, path string) sheet.All {
	t.Helper()
	all, err := sheet.ReadAll(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return all
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

// runToTheEnd runs the Newsletter Writer on a sheet of n rows (sheetOf) and
// waits until s shows the batch done with its rows.
func runToTheEnd(t *testing.T, e screen.Env, q *kit.Queue, s *Screen, ag client.Agent, n int) app.Batch {
	t.Helper()
	b, err := e.App.Batches().New(context.Background(), ag, wholeSheet(t, sheetOf(t, n)), app.BatchPlan{Columns: app.MatchColumns(ag, []string{"Prompt", "Tone", "Length"})})
	if err != nil {
		t.Fatal(err)
	}
	if !e.App.Batches().Start(b.ID, ag) {
		t.Fatal("the batch did not start")
	}
	q.WaitUntil(t, func() bool {
		return len(s.list.Items) == 1 && !s.list.Items[0].running && s.list.Items[0].b.State == storage.BatchDone && len(s.rows.Items) == n
	}, func() string { return fmt.Sprintf("%d batches, %d rows", len(s.list.Items), len(s.rows.Items)) })
	return b
}

func agent(t *testing.T, a *app.App) client.Agent {
	t.Helper()
	ag, err := a.Agents().Get(context.Background(), "119")
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
	q.WaitUntil(t, func() bool { return len(s.list.Items) == 0 && len(s.list.Stack.Objects) > 0 }, func() string { return "" })

	b := runToTheEnd(t, e, q, s, ag, 5)
	line := rowText(s.list.List, 0)
	if !strings.Contains(line, ag.Title+" · products.csv") || !strings.Contains(line, "4 of 5 done") || !strings.Contains(line, "1 skipped") ||
		!strings.Contains(line, "credit") || !strings.Contains(line, "Done") {
		t.Fatalf("the batch's row reads %q", line)
	}
	if got := rowText(s.rows.List, 3); !strings.Contains(got, "Row 5 · Skipped") || !strings.Contains(got, "Please pick one of the choices") {
		t.Fatalf("the skipped row reads %q", got)
	}
	if got := rowText(s.rows.List, 0); !strings.Contains(got, "Row 2 · Done") {
		t.Fatalf("the first row reads %q", got)
	}
	if s.pause.Visible() || s.goOn.Visible() || s.retry.Visible() || !s.open.Visible() || !s.folder.Visible() {
		t.Fatal("a batch done offers Open results and Show in folder only")
	}
	var opened []string
	s.env.Opener = func(u *url.URL) error { opened = append(opened, u.Path); return nil }
	s.reveal(openResults)
	s.reveal(openFolder)
	if len(opened) != 2 || !strings.HasSuffix(opened[0], "products results.csv") || strings.HasSuffix(opened[1], ".csv") {
		t.Fatalf("opened %v", opened)
	}
	// A batch that ends while the window is elsewhere is told of.
	if got := EndText(app.BatchEnd{Batch: state(t, e.App, b.ID), Counts: s.list.Items[0].counts, Spent: s.list.Items[0].spent}); !strings.Contains(got, "4 done, 0 failed") {
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
	b, err := e.App.Batches().New(context.Background(), ag, wholeSheet(t, sheetOf(t, 10)), app.BatchPlan{Columns: app.MatchColumns(ag, []string{"Prompt", "Tone", "Length"}), Parallel: 5})
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
	b, err := e.App.Batches().New(ctx, ag, wholeSheet(t, sheetOf(t, 5)), app.BatchPlan{Columns: app.MatchColumns(ag, []string{"Prompt", "Tone", "Length"})})
	if err != nil {
		t.Fatal(err)
	}
	// Row 2's request was on its way when Agent Desk stopped: it fails,
	// not sent.
	r, _, err := e.App.DB().TakeWaitingRow(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	r.State = storage.RowStarting
	if _, err := e.App.DB().MoveRow(ctx, storage.RowSending, r); err != nil {
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
	src, err := readSheet(context.Background(), e.App, ag, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	pl := newPlan(e, ag, src)
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
	if (*shown)[0] != screen.ScreenBatches {
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
	left, err := e.App.Batches().New(ctx, ag, wholeSheet(t, sheetOf(t, 3)), plan)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.App.DB().SetBatchState(ctx, left.ID, storage.BatchRunning); err != nil {
		t.Fatal(err)
	}
	kit.SetForeground(e.Window, false)
	t.Cleanup(func() { kit.SetForeground(e.Window, true) })
	stop := Follow(e)
	t.Cleanup(stop)
	goOn := offerShown(t, e, q)
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

// uploadLog is a transport that keeps the names of the files uploaded to
// the service.
type uploadLog struct {
	mu    sync.Mutex
	names []string
}

var filenameField = regexp.MustCompile(`filename="([^"]*)"`)

func (u *uploadLog) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/files") && r.Body != nil {
		body, err := io.ReadAll(r.Body)
		_ = r.Body.Close()
		if err != nil {
			return nil, err
		}
		if m := filenameField.FindSubmatch(body); m != nil {
			u.mu.Lock()
			u.names = append(u.names, string(m[1]))
			u.mu.Unlock()
		}
		r = r.Clone(r.Context())
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
	}
	return http.DefaultTransport.RoundTrip(r)
}

// sent are the names of the files uploaded, sorted.
func (u *uploadLog) sent() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	out := slices.Clone(u.names)
	slices.Sort(out)
	return out
}

// recordingEnv is env whose uploads are kept in the log it returns.
func recordingEnv(t *testing.T) (screen.Env, *kit.Queue, *demoservice.Service, *[]string, *uploadLog) {
	log := &uploadLog{}
	e, q, svc, shown := envThrough(t, log)
	return e, q, svc, shown, log
}

// envThrough is env whose requests go through rt (a log, a switch that
// takes the network away).
func envThrough(t *testing.T, rt http.RoundTripper) (screen.Env, *kit.Queue, *demoservice.Service, *[]string) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	srv, svc := demoservice.NewTestService(t, demoservice.Options{APIKey: "k"})
	a := apptest.OnURL(t, srv.URL, func(c *app.Config) {
		c.ClientOptions = append(c.ClientOptions, client.WithMaxRetries(0))
		c.HTTPClient = &http.Client{Transport: rt}
	})
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(fyne.NewSize(800, 600))
	var shown []string
	return screen.Env{App: a, Window: w, Nav: nav{shown: &shown}}, q, svc, &shown
}

// shownPlan waits for the plan of Run on many… on top of e's window.
func shownPlan(t *testing.T, e screen.Env, q *kit.Queue) *plan {
	t.Helper()
	var shown []*plan
	q.WaitUntil(t, func() bool {
		if top := e.Window.Canvas().Overlays().Top(); top != nil {
			shown = kittest.FindAll[*plan](top)
		}
		return len(shown) == 1
	}, func() string { return "no plan" })
	return shown[0]
}

// questions are a plan's questions by name.
func questions(pl *plan) map[string]*question {
	out := map[string]*question{}
	for _, qq := range pl.questions {
		out[qq.q.Name] = qq
	}
	return out
}

func buttonTexts(bs []*choiceButton) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.Text
	}
	return out
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// batchDone waits for the account's only batch to end, and returns it.
func batchDone(t *testing.T, e screen.Env, q *kit.Queue) storage.Batch {
	t.Helper()
	var b storage.Batch
	q.WaitUntil(t, func() bool {
		all, _ := e.App.DB().Batches(context.Background(), e.App.AccountID(), 10)
		if len(all) != 1 {
			return false
		}
		b = all[0]
		return !e.App.Batches().Running(b.ID) && b.State == storage.BatchDone
	}, func() string { return fmt.Sprintf("the batch is %q", b.State) })
	return b
}

// Run on many… asks what to run on: a sheet's rows (first, with the
// keyboard: Enter opens the sheet's file dialog), a folder's files, or
// lines of text, each saying what it does; Esc closes it.
func TestRunOnManyOffersASheetAFolderOrLinesTheSheetFirst(t *testing.T) {
	e, q, _, _ := env(t, 0)
	kit.AnswerDialogKeys(e.Window)
	ag := agent(t, e.App)
	c := e.Window.Canvas()
	RunOnMany(e, ag)
	top := c.Overlays().Top()
	if top == nil {
		t.Fatal("Run on many… shows nothing")
	}
	bs := kittest.FindAll[*choiceButton](top)
	if got, want := buttonTexts(bs), []string{"Rows of a spreadsheet…", "Files in a folder…", "Lines of text…", "Cancel"}; !slices.Equal(got, want) {
		t.Fatalf("the choices are %q, want %q", got, want)
	}
	text := kittest.AllText(top)
	for _, line := range []string{"Run " + ag.Title + " on many", "One run for each row of a CSV or Excel sheet.",
		"One run for each file in a folder, the file going with it.", "One run for each line you paste or type."} {
		if !strings.Contains(text, line) {
			t.Fatalf("the choice does not say %q:\n%s", line, text)
		}
	}
	if c.Focused() != bs[0] {
		t.Fatalf("the keyboard is on %v, not on the sheet's choice", c.Focused())
	}
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	q.Drain()
	files := c.Overlays().Top()
	if files == nil || files == top || kittest.FindButton(files, "Open") == nil {
		t.Fatalf("Enter did not open the sheet's file dialog:\n%s", kittest.AllText(files))
	}
	files.Hide()
	c.Overlays().Remove(files)

	RunOnMany(e, ag)
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if c.Overlays().Top() != nil {
		t.Fatal("Esc left the choice open")
	}
}

// A folder's plan lists the kinds of files in it with their counts, says
// how each file goes and where the results go, and which files would be
// skipped and why; Start makes a batch of the files of the kind chosen,
// and the service is sent those only, each with its own run.
func TestAFolderPlanListsItsKindsAndRunsTheChosenFilesOnly(t *testing.T) {
	e, q, svc, shown, log := recordingEnv(t)
	ag := agent(t, e.App)
	folder := filepath.Join(t.TempDir(), "Scans")
	for name, text := range map[string]string{
		"a.pdf": "Invoice A", "b.pdf": "Invoice B", "sub/c.PDF": "Invoice C", "blank.pdf": "",
		"x.png": "png", "z.png": "png", "y.jpg": "jpg", "notes.txt": "notes", ".hidden.pdf": "not shown",
	} {
		writeFile(t, filepath.Join(folder, name), text)
	}
	ShowFolderPlan(e, ag, folder)
	pl := shownPlan(t, e, q)
	if got, want := pl.kinds.Select.Options, []string{"All files (8)", "PDF (4)", "Pictures (.jpg, .png) (3)", "Text files (.txt) (1)"}; !slices.Equal(got, want) {
		t.Fatalf("the kinds offered are %q, want %q", got, want)
	}
	text := kittest.AllText(e.Window.Canvas().Overlays().Top())
	for _, line := range []string{"Scans: 8 files", "Each file is attached to its run.", "The results go to " + folder + " results.xlsx"} {
		if !strings.Contains(text, line) {
			t.Fatalf("the plan does not say %q:\n%s", line, text)
		}
	}
	if !pl.start.Disabled() || !strings.Contains(pl.missing.Text, "Prompt") {
		t.Fatalf("nothing answers the prompt, yet Start is on (%v): %q", !pl.start.Disabled(), pl.missing.Text)
	}
	by := questions(pl)
	by["prompt"].setFixed("Summarise this invoice")
	by["tone"].setFixed("friendly")
	pl.kinds.Select.SetSelected("PDF (4)")
	if pl.start.Disabled() {
		t.Fatalf("every question answered, Start is off: %q", pl.missing.Text)
	}
	if !strings.Contains(pl.skipped.Text, "1 of the 4 files checked would be skipped") || !strings.Contains(pl.skipped.Text, "blank.pdf: This file is empty") {
		t.Fatalf("the files skipped: %q", pl.skipped.Text)
	}
	if first := kittest.AllText(pl.first); !strings.Contains(first, "Summarise this invoice") || !strings.Contains(first, "File\na.pdf") {
		t.Fatalf("the first run is shown as:\n%s", first)
	}

	pl.Start()
	q.WaitUntil(t, func() bool { return len(*shown) == 1 }, func() string { return "the Batches screen was not shown" })
	b := batchDone(t, e, q)
	if got, want := log.sent(), []string{"a.pdf", "b.pdf", "c.PDF"}; !slices.Equal(got, want) {
		t.Fatalf("the service was sent %q, want %q", got, want)
	}
	runs := svc.Executions()
	seen := map[int64]bool{}
	for _, r := range runs {
		if len(r.FileIDs) != 1 || seen[r.FileIDs[0]] || r.Answers["prompt"] != "Summarise this invoice" {
			t.Fatalf("a run went with %v and %v", r.FileIDs, r.Answers)
		}
		seen[r.FileIDs[0]] = true
	}
	if len(runs) != 3 {
		t.Fatalf("%d runs for 3 files that can be sent", len(runs))
	}
	counts, _, _ := e.App.DB().BatchCounts(context.Background(), b.ID)
	if counts[storage.RowDone] != 3 || counts[storage.RowSkipped] != 1 {
		t.Fatalf("rows %v", counts)
	}
	if b.Results != folder+" results.xlsx" {
		t.Fatalf("results at %q", b.Results)
	}
}

// Pasted lines run once each: the lines answer the agent's request (one
// question only), the plan says how many and where the results go (the
// Documents folder, never over an earlier batch's results).
func TestPastedLinesRunOnceEachWithTheResultsInDocuments(t *testing.T) {
	e, q, svc, shown := env(t, 0)
	docs := filepath.Join(t.TempDir(), "Documents")
	if err := os.Mkdir(docs, 0o755); err != nil {
		t.Fatal(err)
	}
	// The home folder is one with Documents in it, and no user-dirs.dirs
	// names another.
	t.Cleanup(xdg.Reload) // after the variables are back
	for _, v := range []string{"HOME", "USERPROFILE", "XDG_CONFIG_HOME"} {
		t.Setenv(v, filepath.Dir(docs))
	}
	xdg.Reload()
	ag := agent(t, e.App)
	writeFile(t, filepath.Join(docs, ag.Title+" results.xlsx"), "an earlier batch's")
	askLines(e, ag)
	entry, ok := e.Window.Canvas().Focused().(*kit.FormEntry)
	if !ok {
		t.Fatalf("the keyboard is on %v, not in the lines", e.Window.Canvas().Focused())
	}
	entry.SetText("A note on the spring catalogue\n\n  A note on the summer sale  \nA note on the new shop\n")
	if text := kittest.AllText(e.Window.Canvas().Overlays().Top()); !strings.Contains(text, "3 lines") {
		t.Fatalf("the lines dialog does not count them:\n%s", text)
	}
	entry.TypedShortcut(kit.CtrlEnterShortcut)
	pl := shownPlan(t, e, q)
	results := filepath.Join(docs, ag.Title+" results (2).xlsx")
	text := kittest.AllText(e.Window.Canvas().Overlays().Top())
	for _, line := range []string{"3 lines", "The results go to " + results} {
		if !strings.Contains(text, line) {
			t.Fatalf("the plan does not say %q:\n%s", line, text)
		}
	}
	by := questions(pl)
	if got := by["prompt"].choice.Selected; got != "Each line" {
		t.Fatalf("the prompt is answered by %q", got)
	}
	if !pl.start.Disabled() || !strings.Contains(pl.missing.Text, "Tone") {
		t.Fatalf("nothing answers the tone, yet Start is on (%v): %q", !pl.start.Disabled(), pl.missing.Text)
	}
	by["tone"].setFixed("friendly")
	// The lines answer one question: choosing them for another takes
	// them from the first.
	by["length"].choice.SetSelected("Each line")
	if by["prompt"].choice.Selected != pl.notUsed {
		t.Fatalf("two questions take the lines: %q", by["prompt"].choice.Selected)
	}
	by["prompt"].choice.SetSelected("Each line")
	if by["length"].choice.Selected != pl.notUsed || pl.start.Disabled() {
		t.Fatalf("the length is answered by %q; Start on: %v (%q)", by["length"].choice.Selected, !pl.start.Disabled(), pl.missing.Text)
	}
	if !strings.Contains(pl.skipped.Text, "All 3 lines checked can be sent.") || !strings.Contains(kittest.AllText(pl.first), "A note on the spring catalogue") {
		t.Fatalf("the preview: %q\n%s", pl.skipped.Text, kittest.AllText(pl.first))
	}
	pl.Start()
	q.WaitUntil(t, func() bool { return len(*shown) == 1 }, func() string { return "the Batches screen was not shown" })
	b := batchDone(t, e, q)
	var prompts []string
	for _, r := range svc.Executions() {
		prompts = append(prompts, fmt.Sprint(r.Answers["prompt"]))
	}
	slices.Sort(prompts)
	if want := []string{"A note on the new shop", "A note on the spring catalogue", "A note on the summer sale"}; !slices.Equal(prompts, want) {
		t.Fatalf("the service was asked %q", prompts)
	}
	if b.Results != results {
		t.Fatalf("results at %q, want %q", b.Results, results)
	}
	if _, err := os.Stat(results); err != nil {
		t.Fatal(err)
	}
}

// A chat agent runs on many too: its plan asks for each run's message
// (a column named Message answers it), and its choices start as a new
// chat's.
func TestAChatAgentsPlanAsksForTheMessage(t *testing.T) {
	e, q, svc, shown := env(t, 0)
	chat, err := e.App.Agents().Get(context.Background(), "101")
	if err != nil || chat.Type != client.AgentChat {
		t.Fatalf("agent 101: %v", err)
	}
	path := filepath.Join(t.TempDir(), "questions.csv")
	writeFile(t, path, "Message,Customer\nWhere is my order?,Ann\nCan I pay by card?,Bob\n")
	src, err := readSheet(context.Background(), e.App, *chat, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	pl := newPlan(e, *chat, src)
	by := questions(pl)
	m := by[app.ChatMessage]
	if m == nil || m.choice.Selected != "Message" {
		t.Fatalf("the message is answered by %v", m)
	}
	if text := kittest.AllText(pl.scroll); !strings.Contains(text, "Message (required)") {
		t.Fatalf("the plan does not name the message:\n%s", text)
	}
	for _, name := range []string{"model", "temperature", "tools"} {
		if qq := by[name]; qq == nil || qq.choice.Selected != pl.same || qq.fixedValue() == "" {
			t.Fatalf("%s is not answered as a new chat would be", name)
		}
	}
	m.choice.SetSelected(pl.notUsed)
	if !pl.start.Disabled() || !strings.Contains(pl.missing.Text, "Message") {
		t.Fatalf("without a message Start is on (%v): %q", !pl.start.Disabled(), pl.missing.Text)
	}
	m.choice.SetSelected("Message")
	if pl.start.Disabled() {
		t.Fatalf("Start is off: %q", pl.missing.Text)
	}
	if first := kittest.AllText(pl.first); !strings.Contains(first, "Message\nWhere is my order?") {
		t.Fatalf("the first run is shown as:\n%s", first)
	}
	pl.Start()
	q.WaitUntil(t, func() bool { return len(*shown) == 1 }, func() string { return "the Batches screen was not shown" })
	batchDone(t, e, q)
	var sent []string
	for _, r := range svc.Executions() {
		if len(r.Messages) != 1 {
			t.Fatalf("a run was sent %+v", r.Messages)
		}
		sent = append(sent, r.Messages[0].Content)
	}
	slices.Sort(sent)
	if want := []string{"Can I pay by card?", "Where is my order?"}; !slices.Equal(sent, want) {
		t.Fatalf("the chats sent %q", sent)
	}
}

// Cancel batch asks first (Enter does not answer for the user); then the
// rows not sent are skipped, the batch reads Cancelled and nothing more is
// sent.
func TestCancelBatchAsksThenSkipsTheRowsNotSent(t *testing.T) {
	e, q, svc, _ := env(t, 30*time.Millisecond)
	kit.AnswerDialogKeys(e.Window)
	ag := agent(t, e.App)
	s := New(e).(*Screen)
	e.Window.SetContent(s.Content())
	s.Shown()
	b, err := e.App.Batches().New(context.Background(), ag, wholeSheet(t, sheetOf(t, 12)), app.BatchPlan{Columns: app.MatchColumns(ag, []string{"Prompt", "Tone", "Length"})})
	if err != nil {
		t.Fatal(err)
	}
	e.App.Batches().Start(b.ID, ag)
	q.WaitUntil(t, func() bool {
		it, ok := s.current()
		return ok && it.running && it.counts[storage.RowDone] > 0 && s.cancel.Visible()
	}, func() string { return s.summary.Text })
	test.Tap(kittest.FindButton(s.Content(), "Cancel batch"))
	top := e.Window.Canvas().Overlays().Top()
	if text := kittest.AllText(top); !strings.Contains(text, "Rows not sent yet will not run; rows on their way finish.") || kittest.FindButton(top, "Keep it") == nil {
		t.Fatalf("Cancel batch asks:\n%s", text)
	}
	e.Window.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if e.Window.Canvas().Overlays().Top() == nil || state(t, e.App, b.ID).State == storage.BatchCancelled {
		t.Fatal("Enter cancelled the batch")
	}
	test.Tap(kittest.FindButton(top, "Cancel batch"))
	q.WaitUntil(t, func() bool {
		it, ok := s.current()
		return ok && !it.running && it.b.State == storage.BatchCancelled
	}, func() string { return s.summary.Text })
	if !strings.Contains(s.summary.Text, "Cancelled") || !strings.Contains(rowText(s.list.List, 0), "Cancelled") {
		t.Fatalf("the batch reads %q", s.summary.Text)
	}
	if s.cancel.Visible() || s.goOn.Visible() || s.pause.Visible() {
		t.Fatal("a cancelled batch still offers Cancel batch, Go on or Pause")
	}
	// Once the rows on their way are seen to the end, the service ran
	// exactly the rows that have a run, and every row is done, skipped or
	// failed.
	q.WaitUntil(t, func() bool { return !e.App.Batches().Running(b.ID) }, func() string { return "the batch still runs" })
	rows, err := e.App.DB().BatchRows(context.Background(), b.ID, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	ran := map[string]bool{}
	cancelled, ended := 0, 0
	for _, r := range rows {
		if r.ExecutionID != "" {
			ran[r.ExecutionID] = true
		}
		if r.Error == "Not run: the batch was cancelled." {
			cancelled++
		}
		switch r.State {
		case storage.RowDone, storage.RowSkipped, storage.RowFailed:
			ended++
		}
	}
	var sent []string
	for _, x := range svc.Executions() {
		sent = append(sent, strconv.FormatInt(x.ID, 10))
	}
	slices.Sort(sent)
	if got := slices.Sorted(maps.Keys(ran)); !slices.Equal(sent, got) {
		t.Fatalf("the service ran %v; the rows have the runs %v", sent, got)
	}
	if len(rows) != 12 || ended != 12 || cancelled == 0 {
		t.Fatalf("%d rows, %d ended, %d not run", len(rows), ended, cancelled)
	}
}

// A service that holds all the files it keeps leaves no room for a
// folder's: Start says so and nothing is made or sent.
func TestAFullServiceMakesStartSaySoAndSendsNothing(t *testing.T) {
	e, q, svc, shown := env(t, 0)
	ag := agent(t, e.App)
	ctx := context.Background()
	// One run first, as any account has made: the service shows it
	// follows the real one, which keeps at most 30 files.
	if _, err := e.App.Client().Run(ctx, ag.ID, client.ExecuteParams{Answers: map[string]any{"prompt": "Hello", "tone": "neutral", "length": 20}}); err != nil {
		t.Fatal(err)
	}
	for i := len(svc.Files()); i < client.MaxStoredFiles; i++ {
		if _, err := e.App.Client().UploadFile(ctx, client.UploadParams{Reader: strings.NewReader("x"), Filename: fmt.Sprintf("f%d.txt", i), Size: 1}); err != nil {
			t.Fatal(err)
		}
	}
	folder := t.TempDir()
	writeFile(t, filepath.Join(folder, "a.txt"), "a")
	writeFile(t, filepath.Join(folder, "b.txt"), "b")
	pl := newPlan(e, ag, readFolder(folder))
	by := questions(pl)
	by["prompt"].setFixed("Summarise")
	by["tone"].setFixed("neutral")
	runs := len(svc.Executions())
	pl.Start()
	q.WaitUntil(t, func() bool { return e.Window.Canvas().Overlays().Top() != nil && !pl.start.Disabled() }, func() string { return "no word" })
	if text := kittest.AllText(e.Window.Canvas().Overlays().Top()); !strings.Contains(text, "The batch did not start") || !strings.Contains(text, "keeps at most 30 files and holds 30") {
		t.Fatalf("Start says:\n%s", text)
	}
	if all, _ := e.App.DB().Batches(ctx, e.App.AccountID(), 10); len(all) != 0 || len(*shown) != 0 {
		t.Fatalf("a batch was made: %+v", all)
	}
	if len(svc.Executions()) != runs || len(svc.Files()) != client.MaxStoredFiles {
		t.Fatal("something was sent")
	}
}

// Several files dropped on the Run tab ask whether they go with one run
// (Enter: as a drop always did) or each with its own: the plan for those,
// named inside the folder they share.
func TestFilesDroppedAskOneRunOrOneEach(t *testing.T) {
	e, q, _, _ := env(t, 0)
	ag := agent(t, e.App)
	dir := t.TempDir()
	paths := []string{filepath.Join(dir, "May", "a.txt"), filepath.Join(dir, "June", "b.txt"), filepath.Join(dir, "June", "c.txt")}
	for _, p := range paths {
		writeFile(t, p, "notes")
	}
	c := e.Window.Canvas()
	once := 0
	AskDropped(e, ag, paths, func() { once++ })
	bs := kittest.FindAll[*choiceButton](c.Overlays().Top())
	if got, want := buttonTexts(bs), []string{"Run once with all these files", "Run once for each file…", "Cancel"}; !slices.Equal(got, want) {
		t.Fatalf("the choices are %q", got)
	}
	if c.Focused() != bs[0] {
		t.Fatal("the keyboard is not on the first choice")
	}
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if once != 1 || c.Overlays().Top() != nil {
		t.Fatalf("Enter: %d runs with all, dialog open %v", once, c.Overlays().Top() != nil)
	}
	AskDropped(e, ag, paths, func() { once++ })
	test.Tap(kittest.FindAll[*choiceButton](c.Overlays().Top())[1])
	pl := shownPlan(t, e, q)
	var names []string
	for _, f := range pl.chosen {
		names = append(names, f.Name)
	}
	if pl.src.folder != dir || !slices.Equal(names, []string{filepath.Join("June", "b.txt"), filepath.Join("June", "c.txt"), filepath.Join("May", "a.txt")}) || once != 1 {
		t.Fatalf("the plan is for %q in %s", names, pl.src.folder)
	}
}

// The pictures a batch made are named in its rows, and Show saved files
// opens their folder.
func TestAPictureBatchShowsTheFilesItSaved(t *testing.T) {
	e, q, _, _ := env(t, 0)
	ctx := context.Background()
	pictures, err := e.App.Agents().Get(ctx, "131")
	if err != nil || pictures.Type != client.AgentImage {
		t.Fatalf("agent 131: %v", err)
	}
	fixed := map[string]string{}
	for _, qq := range app.FormQuestions(*pictures) {
		if qq.Required && len(qq.Options) > 0 {
			fixed[qq.Name] = qq.Options[0]
		}
	}
	b, err := e.App.Batches().NewFromLines(ctx, *pictures, []string{"A red bicycle"}, "prompt", filepath.Join(t.TempDir(), "pictures.xlsx"), app.BatchPlan{Fixed: fixed})
	if err != nil {
		t.Fatal(err)
	}
	s := New(e).(*Screen)
	e.Window.SetContent(s.Content())
	s.Shown()
	e.App.Batches().Start(b.ID, *pictures)
	q.WaitUntil(t, func() bool {
		it, ok := s.current()
		return ok && !it.running && it.b.State == storage.BatchDone && s.saved.Visible()
	}, func() string { return s.summary.Text })
	if got := rowText(s.rows.List, 0); !strings.Contains(got, "Line 1 · Done") || !strings.Contains(got, "Saved as 2 A red bicycle.") {
		t.Fatalf("the row reads %q", got)
	}
	// Chosen again, the batch shows the button once its rows are read:
	// the button never covers them
	// (narrow: its buttons take two lines).
	e.Window.Resize(fyne.NewSize(640, 600))
	s.Choose(-1)
	s.Choose(b.ID)
	q.WaitUntil(t, func() bool { return len(s.rows.Items) == 1 && s.saved.Visible() }, func() string { return "the rows were not read again" })
	if under, top := kittest.AbsolutePos(s.saved, s.Content()).Y+s.saved.Size().Height, kittest.AbsolutePos(s.rows.List, s.Content()).Y; top < under {
		t.Fatalf("the rows start at %v, above the buttons' end at %v", top, under)
	}
	var opened []string
	s.env.Opener = func(u *url.URL) error { opened = append(opened, u.Path); return nil }
	test.Tap(kittest.FindButton(s.Content(), "Show saved files"))
	if want := app.BatchFilesFolder(state(t, e.App, b.ID)); len(opened) != 1 || opened[0] != filepath.ToSlash(want) {
		t.Fatalf("opened %q, want %q", opened, want)
	}
}

// A batch that stops while the window is behind says so when it is done
// or when it paused by itself (a problem, its credit limit), not when the
// user paused it.
func TestABatchThatStopsByItselfSaysWhy(t *testing.T) {
	test.NewTempApp(t)
	b := storage.Batch{AgentTitle: "Newsletter Writer", CreditCap: 2}
	for _, tc := range []struct {
		state string
		spent float64
		err   error
		title string
		text  string
	}{
		{storage.BatchDone, 1, nil, "Batch done", "Newsletter Writer: 3 done, 1 failed"},
		{storage.BatchPaused, 1, client.ErrStillRunning, "Batch paused", "Newsletter Writer: "},
		{storage.BatchPaused, 2.5, nil, "Batch paused", "reached its limit of 2 credits"},
		{storage.BatchPaused, 1, nil, "", ""},
	} {
		b.State = tc.state
		title, text := EndNotice(app.BatchEnd{Batch: b, Counts: map[storage.RowState]int{storage.RowDone: 3, storage.RowFailed: 1}, Spent: tc.spent, Err: tc.err})
		if title != tc.title || !strings.Contains(text, tc.text) {
			t.Errorf("%s, %v credits, %v: %q %q; want %q with %q", tc.state, tc.spent, tc.err, title, text, tc.title, tc.text)
		}
	}
}

// A folder with no file to send (empty, or only hidden and empty files)
// says so in plain words, and Start stays off: nothing is made or sent.
func TestAFolderWithNothingToSendSaysSo(t *testing.T) {
	e, q, svc, _, log := recordingEnv(t)
	ag := agent(t, e.App)
	for _, files := range []map[string]string{
		{},
		{".hidden.pdf": "not shown", "blank.pdf": ""},
	} {
		folder := filepath.Join(t.TempDir(), "Scans")
		if err := os.MkdirAll(folder, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, text := range files {
			writeFile(t, filepath.Join(folder, name), text)
		}
		ShowFolderPlan(e, ag, folder)
		pl := shownPlan(t, e, q)
		by := questions(pl)
		by["prompt"].setFixed("Summarise this invoice")
		by["tone"].setFixed("friendly")
		text := kittest.AllText(e.Window.Canvas().Overlays().Top())
		said := strings.Contains(text, "None of these files can be sent") || strings.Contains(strings.ToLower(text), "no file")
		if !pl.start.Disabled() || !said {
			t.Fatalf("%v: Start on %v; the plan says:\n%s", files, !pl.start.Disabled(), text)
		}
		pl.Start()
		e.Window.Canvas().Overlays().Top().Hide()
		e.Window.Canvas().Overlays().Remove(e.Window.Canvas().Overlays().Top())
	}
	if len(svc.Executions()) != 0 || len(log.sent()) != 0 {
		t.Fatal("something was sent")
	}
	if bs, _ := e.App.DB().Batches(context.Background(), e.App.AccountID(), 10); len(bs) != 0 {
		t.Fatalf("batches made: %d", len(bs))
	}
}

// A sheet dropped alone on the Run tab asks whether it goes with the next
// run (first, with the keyboard: Enter does what a drop did before) or the
// agent runs once for each of its rows (its plan).
func TestASheetDroppedAsksToSendItOrRunOnEachRow(t *testing.T) {
	e, q, _, _ := env(t, 0)
	ag := agent(t, e.App)
	path := sheetOf(t, 3)
	c := e.Window.Canvas()
	once := 0
	AskDroppedSheet(e, ag, path, func() { once++ })
	top := c.Overlays().Top()
	if top == nil {
		t.Fatal("a sheet dropped asks nothing")
	}
	bs := kittest.FindAll[*choiceButton](top)
	if got, want := buttonTexts(bs), []string{"Send it with the next run", "Run once for each row…", "Cancel"}; !slices.Equal(got, want) {
		t.Fatalf("the choices are %q, want %q", got, want)
	}
	text := kittest.AllText(top)
	for _, line := range []string{"What should happen with products.csv?", "The sheet goes with the next run, as when you add it to the form.",
		"The agent runs once for every row of the sheet, each with its own result."} {
		if !strings.Contains(text, line) {
			t.Fatalf("the question does not say %q:\n%s", line, text)
		}
	}
	// Nothing cut off in an 800×600 window.
	for _, b := range bs {
		if b.MinSize().Width > b.Size().Width {
			t.Fatalf("%q is cut off: %v wide, needs %v", b.Text, b.Size().Width, b.MinSize().Width)
		}
	}
	if c.Focused() != bs[0] {
		t.Fatalf("the keyboard is on %v, not on Send it with the next run", c.Focused())
	}
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if once != 1 || c.Overlays().Top() != nil {
		t.Fatalf("Enter: sent with the next run %d times, question open %v", once, c.Overlays().Top() != nil)
	}
	AskDroppedSheet(e, ag, path, func() { once++ })
	test.Tap(kittest.FindAll[*choiceButton](c.Overlays().Top())[1])
	if pl := shownPlan(t, e, q); pl.src.kind != fromSheet || pl.src.path != path || pl.src.total != 3 || once != 1 {
		t.Fatalf("the plan is for %q (%d rows), sent %d times", pl.src.path, pl.src.total, once)
	}
}

// A batch paused at its credit limit says so; Go on asks for a new limit
// (double the old one to start with, the keyboard in it): one it has spent
// already or no number is refused, and Enter then does nothing; a new
// limit is kept and the batch goes on to it; an empty one is no limit, and
// every row runs.
func TestABatchPausedAtItsLimitAsksForANewOne(t *testing.T) {
	e, q, svc, _ := env(t, 0)
	kit.AnswerDialogKeys(e.Window)
	e.App.Batches().FirstOffer() // the offer at the start is another test's
	ag := agent(t, e.App)
	ctx := context.Background()
	b, err := e.App.Batches().New(ctx, ag, wholeSheet(t, sheetOf(t, 6)), app.BatchPlan{Columns: app.MatchColumns(ag, []string{"Prompt", "Tone", "Length"}), CreditCap: 0.0001})
	if err != nil {
		t.Fatal(err)
	}
	s := New(e).(*Screen)
	e.Window.SetContent(s.Content())
	e.Window.Resize(fyne.NewSize(600, 600))
	s.Shown()
	e.App.Batches().Start(b.ID, ag)
	paused := func() bool {
		it, ok := s.current()
		return ok && !it.running && it.b.State == storage.BatchPaused && s.goOn.Visible()
	}
	q.WaitUntil(t, paused, func() string { return s.summary.Text })
	it, _ := s.current()
	if it.counts[storage.RowDone] != 1 || !strings.HasPrefix(s.summary.Text, "Paused at its limit of 0.0001 credits · 1 of 6 done") {
		t.Fatalf("rows %v; the summary reads %q", it.counts, s.summary.Text)
	}
	// The summary is whole in a narrow window (on two lines, the buttons
	// under them), and in an 800×600 one.
	whole := func() {
		t.Helper()
		need := fyne.MeasureText(s.summary.Text, theme.TextSize(), fyne.TextStyle{}).Width + 2*theme.InnerPadding()
		lines := float32(1)
		if need > s.summary.Size().Width {
			lines = 2
		}
		if s.summary.Size().Height < s.summary.MinSize().Height || s.summary.MinSize().Height < lines*fyne.MeasureText("M", theme.TextSize(), fyne.TextStyle{}).Height ||
			kittest.AbsolutePos(s.goOn, s.Content()).Y < kittest.AbsolutePos(s.summary, s.Content()).Y+s.summary.MinSize().Height {
			t.Fatalf("the summary is cut off: it needs %v×%v, has %v", need, s.summary.MinSize().Height, s.summary.Size())
		}
	}
	whole()
	e.Window.Resize(fyne.NewSize(800, 600))
	s.detailBody.Refresh() // as the window does when a size changes
	whole()
	c := e.Window.Canvas()
	sent := len(svc.Executions())
	enter := func() { c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) }

	s.GoOn()
	top := c.Overlays().Top()
	entry, ok := c.Focused().(*kit.FormEntry)
	if top == nil || !ok {
		t.Fatalf("Go on asks for no limit; the keyboard is on %v", c.Focused())
	}
	goOn := kittest.FindButton(top, "Go on")
	text := kittest.AllText(top)
	// It starts at room for as much again as the batch has spent (a row
	// took it well past its limit), a limit it can go on with.
	if entry.Text != app.CreditsNumber(2*it.spent) || goOn == nil || goOn.Disabled() || !strings.Contains(text, "This batch paused when it had spent its limit of 0.0001 credits.") {
		t.Fatalf("the new limit starts as %q (Go on off: %v); the question reads:\n%s", entry.Text, goOn == nil || goOn.Disabled(), text)
	}
	// A row costs more than 0.0002 credits: that limit is spent already.
	entry.SetText("0.0002")
	if text := kittest.AllText(top); !goOn.Disabled() || !strings.Contains(text, "Write more than the") {
		t.Fatalf("a limit spent already: Go on on %v; the question reads:\n%s", !goOn.Disabled(), text)
	}
	enter()
	entry.SetText("lots")
	if text := kittest.AllText(top); !goOn.Disabled() || !strings.Contains(text, "Write a number of credits, or leave it empty.") {
		t.Fatalf("no number: Go on on %v; the question reads:\n%s", !goOn.Disabled(), text)
	}
	enter()
	q.Drain()
	if c.Overlays().Top() != top || e.App.Batches().Running(b.ID) || len(svc.Executions()) != sent {
		t.Fatal("Enter went on with a limit it cannot go on with")
	}
	limit := it.spent * 2.5
	entry.SetText(app.CreditsNumber(limit))
	if goOn.Disabled() {
		t.Fatalf("a limit of %s is refused: %s", entry.Text, kittest.AllText(top))
	}
	enter()
	if c.Overlays().Top() != nil {
		t.Fatalf("Enter left the question open:\n%s", kittest.AllText(c.Overlays().Top()))
	}
	q.WaitUntil(t, func() bool {
		it, ok := s.current()
		return ok && !it.running && it.counts[storage.RowDone] > 1 && it.b.State != storage.BatchRunning
	}, func() string { return s.summary.Text })
	if got := state(t, e.App, b.ID).CreditCap; fmt.Sprint(got) != app.CreditsNumber(limit) {
		t.Fatalf("the limit is %v, want %s", got, app.CreditsNumber(limit))
	}

	// No limit: every row runs.
	if it, _ := s.current(); it.b.State == storage.BatchPaused {
		s.GoOn()
		entry := c.Focused().(*kit.FormEntry)
		entry.SetText("")
		enter()
	}
	q.WaitUntil(t, func() bool {
		it, ok := s.current()
		return ok && !it.running && it.b.State == storage.BatchDone
	}, func() string { return s.summary.Text })
	if got := state(t, e.App, b.ID).CreditCap; got != 0 || !strings.Contains(s.summary.Text, "5 of 6 done") {
		t.Fatalf("with no limit: the limit is %v, the summary reads %q", got, s.summary.Text)
	}
}

// A file question is answered by a column that names each row's file, or
// not at all: the same answer for every row is not offered (a path typed
// once would be uploaded again for every row); a required one that no
// column answers keeps Start off and says which column it needs.
func TestAFileQuestionIsAnsweredByAColumnOnly(t *testing.T) {
	e, _, _, _ := env(t, 0)
	ag := agent(t, e.App)
	ag.Questions = append(ag.Questions, client.Question{Name: "scan", Type: app.QuestionFile, Required: true})
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.pdf"), "Invoice A")
	path := filepath.Join(dir, "invoices.csv")
	writeFile(t, path, "Prompt,Tone,File name\nSummarise it,friendly,a.pdf\n")
	src, err := readSheet(context.Background(), e.App, ag, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	pl := newPlan(e, ag, src)
	by := questions(pl)
	scan := by["scan"]
	if slices.Contains(scan.choice.Options, pl.same) || !slices.Contains(by["prompt"].choice.Options, pl.same) {
		t.Fatalf("the file question offers %q; the prompt %q", scan.choice.Options, by["prompt"].choice.Options)
	}
	if want := []string{pl.notUsed, "Prompt", "Tone", "File name"}; !slices.Equal(scan.choice.Options, want) {
		t.Fatalf("the file question offers %q, want %q", scan.choice.Options, want)
	}
	if scan.choice.Selected != pl.notUsed || !pl.start.Disabled() ||
		pl.missing.Text != "No column answers Scan: choose the column that names each row's file." {
		t.Fatalf("no column answers the file: it reads %q, Start on %v, %q", scan.choice.Selected, !pl.start.Disabled(), pl.missing.Text)
	}
	scan.choice.SetSelected("File name")
	if pl.start.Disabled() || pl.missing.Visible() {
		t.Fatalf("a column names the files, yet Start is off: %q", pl.missing.Text)
	}
	if bp := pl.batchPlan(); bp.Columns["scan"] != 2 || bp.Fixed["scan"] != "" {
		t.Fatalf("the plan answers the file with %v and %v", bp.Columns, bp.Fixed)
	}
	// Pasted lines: the file question is not given the same answer either.
	lines := newPlan(e, ag, source{kind: fromLines, lines: []string{"Summarise it"}, total: 1})
	if scan := questions(lines)["scan"]; slices.Contains(scan.choice.Options, lines.same) || scan.choice.Selected != lines.notUsed {
		t.Fatalf("for lines the file question offers %q and is set to %q", scan.choice.Options, scan.choice.Selected)
	}
}

// A cancelled batch whose rows were on their way when Agent Desk closed
// (a request whose fate is unknown, a run on the service) offers Go on,
// and only that: going on looks those rows up and sends nothing new.
func TestACancelledBatchGoesOnOnlyToLookUpItsRowsOnTheirWay(t *testing.T) {
	e, q, svc, _ := env(t, 0)
	e.App.Batches().FirstOffer() // the offer at the start is another test's
	ag := agent(t, e.App)
	ctx := context.Background()
	db := e.App.DB()
	b, err := e.App.Batches().New(ctx, ag, wholeSheet(t, sheetOf(t, 5)), app.BatchPlan{Columns: app.MatchColumns(ag, []string{"Prompt", "Tone", "Length"})})
	if err != nil {
		t.Fatal(err)
	}
	// Row 2's run request was on its way.
	r, _, err := db.TakeWaitingRow(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	r.State = storage.RowStarting
	if _, err := db.MoveRow(ctx, storage.RowSending, r); err != nil {
		t.Fatal(err)
	}
	if err := db.CancelBatch(ctx, b.ID, "Not run: the batch was cancelled."); err != nil {
		t.Fatal(err)
	}
	s := New(e).(*Screen)
	e.Window.SetContent(s.Content())
	s.Shown()
	s.Choose(b.ID)
	q.WaitUntil(t, func() bool {
		it, ok := s.current()
		return ok && it.b.State == storage.BatchCancelled && len(s.rows.Items) == 5
	}, func() string { return s.summary.Text })
	if !s.goOn.Visible() || s.cancel.Visible() || s.pause.Visible() || s.retry.Visible() || !strings.Contains(s.goOn.Tip, "Nothing new is sent") {
		t.Fatalf("a cancelled batch with a row on its way: Go on %v, Cancel %v, Pause %v, Retry %v", s.goOn.Visible(), s.cancel.Visible(), s.pause.Visible(), s.retry.Visible())
	}
	// Row 3 was running on the service.
	ex, err := e.App.Client().Run(ctx, ag.ID, client.ExecuteParams{Answers: map[string]any{"prompt": "A note on product 1", "tone": "friendly", "length": 41}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.MoveRow(ctx, storage.RowSkipped, storage.BatchRow{BatchID: b.ID, Row: r.Row + 1, State: storage.RowRunning, ExecutionID: string(ex.ID)}); err != nil {
		t.Fatal(err)
	}
	sent := len(svc.Executions())
	s.GoOn()
	q.WaitUntil(t, func() bool {
		it, ok := s.current()
		return ok && !it.running && onTheWay(it.counts) == 0 && !s.goOn.Visible()
	}, func() string { return s.summary.Text })
	it, _ := s.current()
	if len(svc.Executions()) != sent || it.b.State != storage.BatchCancelled ||
		it.counts[storage.RowDone] != 1 || it.counts[storage.RowFailed] != 1 || it.counts[storage.RowSkipped] != 3 {
		t.Fatalf("after Go on: %d runs sent, the batch %q, rows %v", len(svc.Executions())-sent, it.b.State, it.counts)
	}
}

// offline is a transport that can lose the service, as a computer loses
// its connection.
type offline struct{ off atomic.Bool }

func (o *offline) RoundTrip(r *http.Request) (*http.Response, error) {
	if o.off.Load() {
		return nil, errors.New("the network is down")
	}
	return http.DefaultTransport.RoundTrip(r)
}

// Cancel on a batch whose rows were on their way, while the service is
// out of reach: the batch is cancelled, and the user is told the rows on
// their way are checked once the service is back (not that the batch was
// not cancelled); Go on then looks them up, sending nothing new.
func TestCancelWhileTheServiceIsOutOfReachSaysTheRowsAreCheckedLater(t *testing.T) {
	net := &offline{}
	e, q, svc, _ := envThrough(t, net)
	a, w := e.App, e.Window
	a.Batches().FirstOffer()
	ag := agent(t, a)
	ctx := context.Background()
	b, err := a.Batches().New(ctx, ag, wholeSheet(t, sheetOf(t, 3)), app.BatchPlan{Columns: app.MatchColumns(ag, []string{"Prompt", "Tone", "Length"})})
	if err != nil {
		t.Fatal(err)
	}
	r, _, err := a.DB().TakeWaitingRow(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := a.Client().Run(ctx, ag.ID, client.ExecuteParams{Answers: map[string]any{"prompt": "A note on product 0", "tone": "friendly", "length": 40}})
	if err != nil {
		t.Fatal(err)
	}
	r.State, r.ExecutionID = storage.RowRunning, string(ex.ID)
	if _, err := a.DB().MoveRow(ctx, storage.RowSending, r); err != nil {
		t.Fatal(err)
	}
	s := New(e).(*Screen)
	w.SetContent(s.Content())
	s.Shown()
	s.Choose(b.ID)
	q.WaitUntil(t, func() bool { return s.cancel.Visible() && len(s.rows.Items) == 3 }, func() string { return s.summary.Text })
	net.off.Store(true)
	s.CancelBatch()
	test.Tap(kittest.FindButton(w.Canvas().Overlays().Top(), "Cancel batch"))
	var told string
	q.WaitUntil(t, func() bool {
		if top := w.Canvas().Overlays().Top(); top != nil {
			told = kittest.AllText(top)
		}
		return strings.Contains(told, "Batch cancelled") || strings.Contains(told, "not cancelled")
	}, func() string { return told })
	if !strings.Contains(told, "Cancelled. The rows on their way will be checked when Agent Desk can reach the service.") || strings.Contains(told, "not cancelled") {
		t.Fatalf("Cancel says:\n%s", told)
	}
	if got := state(t, a, b.ID).State; got != storage.BatchCancelled {
		t.Fatalf("the batch is %q", got)
	}
	q.WaitUntil(t, func() bool { return s.goOn.Visible() && !s.cancel.Visible() }, func() string { return "no Go on for the row on its way" })
	w.Canvas().Overlays().Top().Hide()
	w.Canvas().Overlays().Remove(w.Canvas().Overlays().Top())

	net.off.Store(false)
	sent := len(svc.Executions())
	s.GoOn()
	q.WaitUntil(t, func() bool {
		it, ok := s.current()
		return ok && !it.running && it.counts[storage.RowDone] == 1 && !s.goOn.Visible()
	}, func() string { return s.summary.Text })
	if it, _ := s.current(); len(svc.Executions()) != sent || it.counts[storage.RowSkipped] != 2 || it.b.State != storage.BatchCancelled {
		t.Fatalf("Go on sent %d runs; rows %v, the batch %q", len(svc.Executions())-sent, it.counts, it.b.State)
	}
}

// A cancelled batch whose row was on its way when Agent Desk closed is
// offered for what it is: its rows are looked up, nothing new is sent.
func TestTheOfferForACancelledBatchSaysNothingNewIsSent(t *testing.T) {
	e, q, svc, _ := env(t, 0)
	ag := agent(t, e.App)
	ctx := context.Background()
	plan := app.BatchPlan{Columns: app.MatchColumns(ag, []string{"Prompt", "Tone", "Length"})}
	b, err := e.App.Batches().New(ctx, ag, wholeSheet(t, sheetOf(t, 3)), plan)
	if err != nil {
		t.Fatal(err)
	}
	db := e.App.DB()
	apptest.RowOnItsWay(t, e.App, ag, b.ID)
	if err := db.CancelBatch(ctx, b.ID, "cancelled"); err != nil {
		t.Fatal(err)
	}
	runs := len(svc.Executions())
	OfferUnfinished(e)
	goOn := offerShown(t, e, q)
	if text := kittest.AllText(e.Window.Canvas().Overlays().Top()); !strings.Contains(text, "Rows of a cancelled batch were on their way") || !strings.Contains(text, "Nothing new is sent") {
		t.Fatalf("the offer reads %q", text)
	}
	test.Tap(goOn)
	q.WaitUntil(t, func() bool {
		counts, _, _ := db.BatchCounts(ctx, b.ID)
		return counts[storage.RowDone] == 1 && !e.App.Batches().Running(b.ID)
	}, func() string { return state(t, e.App, b.ID).State })
	if len(svc.Executions()) != runs || state(t, e.App, b.ID).State != storage.BatchCancelled {
		t.Fatalf("%d runs more; the batch is %q", len(svc.Executions())-runs, state(t, e.App, b.ID).State)
	}
}

// When the results sheet was open in another program, the results went
// to a new name: the batch says where.
func TestResultsWrittenElsewhereSaySo(t *testing.T) {
	e, q, _, _ := env(t, 0)
	ag := agent(t, e.App)
	ctx := context.Background()
	b, err := e.App.Batches().New(ctx, ag, wholeSheet(t, sheetOf(t, 2)), app.BatchPlan{Columns: app.MatchColumns(ag, []string{"Prompt", "Tone", "Length"})})
	if err != nil {
		t.Fatal(err)
	}
	s := New(e).(*Screen)
	e.Window.SetContent(s.Content())
	s.Shown()
	s.Choose(b.ID)
	q.WaitUntil(t, func() bool { _, ok := s.current(); return ok }, func() string { return "no batch" })
	if s.moved.Visible() {
		t.Fatalf("results where planned, yet the screen says %q", s.moved.Text)
	}
	moved := strings.TrimSuffix(b.Planned, ".csv") + " (2).csv"
	if err := e.App.DB().SetBatchResults(ctx, b.ID, moved); err != nil {
		t.Fatal(err)
	}
	s.Reload()
	q.WaitUntil(t, func() bool { return s.moved.Visible() }, func() string { return s.moved.Text })
	if want := "products results.csv was open in another program, so the results are in products results (2).csv."; s.moved.Text != want {
		t.Fatalf("the screen says %q, want %q", s.moved.Text, want)
	}
}

// offerShown waits for the offer to go on with a batch and returns its Go on.
func offerShown(t *testing.T, e screen.Env, q *kit.Queue) *widget.Button {
	t.Helper()
	var goOn *widget.Button
	q.WaitUntil(t, func() bool {
		if top := e.Window.Canvas().Overlays().Top(); top != nil {
			goOn = kittest.FindButton(top, "Go on")
		}
		return goOn != nil
	}, func() string { return "no offer to go on" })
	return goOn
}

// A batch runs the rows its plan read: the sheet is read once, so one
// moved away while the plan is open still runs as it was shown.
func TestABatchRunsTheRowsItsPlanRead(t *testing.T) {
	e, q, svc, shown := env(t, 0)
	ag := agent(t, e.App)
	path := sheetOf(t, 3)
	src, err := readSheet(context.Background(), e.App, ag, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	pl := newPlan(e, ag, src)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	pl.Start()
	q.WaitUntil(t, func() bool { return len(*shown) == 1 }, func() string { return "the batch did not start" })
	all, err := e.App.DB().Batches(context.Background(), e.App.AccountID(), 10)
	if err != nil || len(all) != 1 {
		t.Fatalf("batches %+v %v", all, err)
	}
	q.WaitUntil(t, func() bool { return !e.App.Batches().Running(all[0].ID) }, func() string { return "the batch still runs" })
	counts, _, err := e.App.DB().BatchCounts(context.Background(), all[0].ID)
	if err != nil || counts[storage.RowDone] != 3 || len(svc.Executions()) != 3 {
		t.Fatalf("rows %v (%v), %d runs; want the 3 rows read", counts, err, len(svc.Executions()))
	}
}

// "Files without a type" chooses those files only, not every file.
func TestFilesWithoutATypeAreAKindOfTheirOwn(t *testing.T) {
	e, q, _, _, _ := recordingEnv(t)
	folder := filepath.Join(t.TempDir(), "Mixed")
	for _, name := range []string{"a.pdf", "b.pdf", "README"} {
		writeFile(t, filepath.Join(folder, name), "text")
	}
	ShowFolderPlan(e, agent(t, e.App), folder)
	pl := shownPlan(t, e, q)
	if got, want := pl.kinds.Select.Options, []string{"All files (3)", "PDF (2)", "Files without a type (1)"}; !slices.Equal(got, want) {
		t.Fatalf("the kinds offered are %q, want %q", got, want)
	}
	if pl.count() != 3 {
		t.Fatalf("all files chosen at first, yet %d counted", pl.count())
	}
	pl.kinds.Select.SetSelected("Files without a type (1)")
	if pl.count() != 1 || pl.chosen[0].Ext != "" {
		t.Fatalf("files without a type chose %d files: %+v", pl.count(), pl.chosen)
	}
}
