package batches

import (
	"context"
	"errors"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
	"github.com/agentdesk/agentdesk/views/kit/richtext"
	"github.com/agentdesk/agentdesk/views/screen"
)

// TestTheBatchesScreenLaysOutAfterEachAction: a batch run and done, then
// the window made small: the buttons that wrap onto a second line push the
// rows down instead of being drawn over them.
func TestTheBatchesScreenLaysOutAfterEachAction(t *testing.T) {
	for _, lang := range append([]string{"en"}, kittest.Languages...) {
		t.Run(lang, func(t *testing.T) {
			apptest.Speak(t, lang)
			e, q, _, _ := env(t, 0)
			w := e.Window
			w.Resize(fyne.NewSize(1024, 768))
			ag := agent(t, e.App)
			s := New(e).(*Screen)
			w.SetContent(container.NewStack(s.Content(), kit.NewLayer(w.Canvas())))
			f := kittest.NewFrames(w.Canvas())
			s.Shown()
			q.WaitUntil(t, func() bool { return len(s.list.Items) == 0 && len(s.list.Stack.Objects) > 0 }, func() string { return "" })
			kittest.Look(t, f, q, w, "no batch yet")

			runToTheEnd(t, e, q, s, ag, 5)
			kittest.Look(t, f, q, w, "a batch done")
			w.Resize(fyne.NewSize(800, 600))
			kittest.Look(t, f, q, w, "the window made small")
			w.Resize(fyne.NewSize(1920, 1080))
			kittest.Look(t, f, q, w, "the window made large")
		})
	}
}

// TestTheResultsSheetHoldsPlainText: a sheet shows Markdown's marks as they
// are, so the Result column holds the reply as Copy gives it.
func TestTheResultsSheetHoldsPlainText(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	a := apptest.Open(t, apptest.WithDemo(demoservice.Options{}), func(c *app.Config) { c.PlainText = richtext.ReplyText })
	w := test.NewTempWindow(t, widget.NewLabel(""))
	e := screen.Env{App: a, Window: w, Nav: nav{shown: new([]string)}}
	ag := agent(t, a)
	b, err := a.Batches().New(context.Background(), ag, wholeSheet(t, sheetOf(t, 3)), app.BatchPlan{Columns: app.MatchColumns(ag, []string{"Prompt", "Tone", "Length"})})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Batches().Start(b.ID, ag) {
		t.Fatal("the batch did not start")
	}
	b = batchDone(t, e, q)
	rows, err := a.DB().AllBatchRows(context.Background(), b.ID)
	if err != nil || len(rows) != 3 || !strings.HasPrefix(rows[0].Result, "# ") {
		t.Fatalf("the demo's replies should carry Markdown for this test to mean anything: %v %+v", err, rows)
	}
	out := wholeSheet(t, b.Results)
	col := slices.Index(out.Header, "Result")
	if col < 0 || len(out.Rows) != 3 {
		t.Fatalf("the results sheet reads %v, %d rows", out.Header, len(out.Rows))
	}
	for i, r := range out.Rows {
		if got := r.Cells[col]; got != richtext.ReplyText(rows[i].Result) || strings.Contains(got, "**") || strings.Contains(got, "# ") {
			t.Fatalf("row %d's result reads %q", i+1, got)
		}
	}
}

// The time left follows the pace of the rows finished so far.
func TestTimeLeftFollowsThePaceOfTheRowsFinished(t *testing.T) {
	at := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	rows := []app.BatchRow{
		{State: app.RowDone, UpdatedAt: at},
		{State: app.RowFailed, UpdatedAt: at.Add(20 * time.Second)},
		{State: app.RowDone, UpdatedAt: at.Add(40 * time.Second)},
		{State: app.RowRunning, UpdatedAt: at.Add(50 * time.Second)},
		{State: app.RowWaiting},
	}
	if left, ok := TimeLeft(rows, 6); !ok || left != 2*time.Minute {
		t.Fatalf("6 rows at 20 s each: %v, %v; want 2m0s", left, ok)
	}
	if _, ok := TimeLeft(rows[:1], 6); ok {
		t.Fatal("one row finished gives no pace yet")
	}
}

// A finished batch's bar is full; a row opens to its whole result, which
// copies as text; a results sheet no program opens is shown with its path
// to copy.
func TestABatchShowsItsProgressAndARowOpensToItsResult(t *testing.T) {
	e, q, _, _ := env(t, 0)
	w := e.Window
	ag := agent(t, e.App)
	s := New(e).(*Screen)
	w.SetContent(s.Content())
	s.Shown()
	runToTheEnd(t, e, q, s, ag, 3)
	if s.progress.Value != s.progress.Max || s.progress.Max != 3 || s.timeLeft != "100 %" {
		t.Fatalf("a batch done shows %v of %v (%q)", s.progress.Value, s.progress.Max, s.timeLeft)
	}

	s.rows.Select(0)
	top := w.Canvas().Overlays().Top()
	if top == nil || !strings.Contains(kittest.AllText(top), "Row 2 · Done") {
		t.Fatal("a row should open to its result")
	}
	want := richtext.ReplyText(s.rows.Items[0].Result)
	if !strings.Contains(kittest.AllText(top), strings.Split(want, "\n")[0]) {
		t.Fatalf("the row's result should be shown whole:\n%s", kittest.AllText(top))
	}
	test.Tap(kittest.FindButton(top, "Copy"))
	if got := fyne.CurrentApp().Clipboard().Content(); got != want || strings.Contains(got, "# ") {
		t.Fatalf("Copy gave %q", got)
	}
	test.Tap(kittest.FindButton(top, "Close"))

	s.env.Opener = func(*url.URL) error { return errors.New("no program for .csv") }
	s.reveal(openResults)
	top = w.Canvas().Overlays().Top()
	if top == nil || !strings.Contains(kittest.AllText(top), s.list.Items[0].b.Results) {
		t.Fatal("a sheet not opened should be shown with its path")
	}
	test.Tap(kittest.FindButton(top, "Copy path"))
	if got := fyne.CurrentApp().Clipboard().Content(); got != s.list.Items[0].b.Results {
		t.Fatalf("Copy path gave %q", got)
	}
}
