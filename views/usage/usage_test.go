package usage

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/app/sheet"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
	"github.com/agentdesk/agentdesk/views/screen"
)

// fixture is the Usage screen in a window of its own, on the built-in service.
type fixture struct {
	s *Screen
	a *app.App
	w fyne.Window
	q *kit.Queue
}

func newFixture(t *testing.T, size fyne.Size) *fixture {
	t.Helper()
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	a := apptest.Open(t)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(size)
	s := newScreen(screen.Env{App: a, Window: w, Nav: screen.NoNav{}})
	w.SetContent(container.NewStack(s.Content(), kit.NewLayer(w.Canvas())))
	s.Shown()
	f := &fixture{s: s, a: a, w: w, q: q}
	f.wait(t, "the first report", func() bool { return s.total.Text != "" })
	return f
}

func (f *fixture) wait(t *testing.T, what string, cond func() bool) {
	t.Helper()
	f.q.WaitUntil(t, cond, func() string { return what + ": " + kittest.AllText(f.s.Content()) })
}

// newsletter is the demo's Newsletter Writer (prompt, tone, length).
func newsletter(t *testing.T, a *app.App) client.Agent {
	t.Helper()
	ag, err := a.Agents().Get(context.Background(), "119")
	if err != nil {
		t.Fatal(err)
	}
	return *ag
}

// runOnce runs the Newsletter Writer once on the built-in service.
func runOnce(t *testing.T, a *app.App) {
	t.Helper()
	ag := newsletter(t, a)
	if _, err := a.Runs().Runner().Start(ag, map[string]string{"prompt": "A note on the new price list", "tone": ag.Question("tone").Options[0], "length": "60"}, nil); err != nil {
		t.Fatal(err)
	}
}

// runBatch runs the Newsletter Writer over a sheet of n rows named
// products.csv, each in a tone it offers in the language in use.
func runBatch(t *testing.T, a *app.App, n int) {
	t.Helper()
	ag := newsletter(t, a)
	tone := ag.Question("tone").Options[0]
	var b strings.Builder
	b.WriteString("Prompt,Tone,Length\n")
	for i := range n {
		fmt.Fprintf(&b, "A note on product %d,%s,%d\n", i, tone, 40+i)
	}
	p := filepath.Join(t.TempDir(), "products.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	all, err := sheet.ReadAll(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	batch, err := a.Batches().New(context.Background(), ag, all, app.BatchPlan{Columns: app.MatchColumns(ag, []string{"Prompt", "Tone", "Length"})})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Batches().Start(batch.ID, ag) {
		t.Fatal("the batch did not start")
	}
}

// rowText is what row i of l reads.
func rowText(l *kit.List, i int) string {
	o := l.CreateItem()
	l.UpdateItem(i, o)
	return strings.Join(strings.Fields(kittest.AllText(kit.RowContent(o))), " ")
}

// A run and a batch on the built-in service show by day, by agent and by
// batch as their charges are recorded, the day's total over all of them.
func TestTheUsageScreenShowsDaysAgentsAndBatches(t *testing.T) {
	f := newFixture(t, fyne.NewSize(1024, 768))
	s := f.s
	if !s.export.Disabled() || !strings.Contains(kittest.AllText(s.Content()), "Nothing spent in this period") {
		t.Fatalf("nothing spent yet, the screen shows:\n%s", kittest.AllText(s.Content()))
	}

	runOnce(t, f.a)
	f.wait(t, "the run's charge", func() bool { return len(s.report.ByAgent) == 1 })
	if s.export.Disabled() || len(s.report.ByBatch) != 0 {
		t.Fatalf("a single run: export disabled %v, batches %+v", s.export.Disabled(), s.report.ByBatch)
	}

	runBatch(t, f.a, 3)
	// Each charge is followed by a report: the last one has them all.
	f.wait(t, "the batch's charges", func() bool {
		r := s.report
		return len(r.ByBatch) == 1 && r.ByBatch[0].Calls == 3 && len(r.ByAgent) == 1 && r.ByAgent[0].Calls == 4 && len(r.Recent) == 4 &&
			math.Abs(r.Today-r.Total) < 1e-9 // the day's total, read last, agrees with the days, read first
	})
	r := s.report
	if len(r.ByDay) != 1 || math.Abs(r.ByAgent[0].Credits-r.Total) > 1e-9 || r.ByBatch[0].Credits >= r.Total {
		t.Fatalf("report = %+v", r)
	}
	if got := rowText(s.days, 0); !strings.Contains(got, app.DayDate(r.ByDay[0].Day)) || !strings.Contains(got, app.CreditsColumn(r.Total)) {
		t.Errorf("the day reads %q", got)
	}
	if got := rowText(s.agents, 0); !strings.Contains(got, "Newsletter Writer (4 charges)") {
		t.Errorf("the agent reads %q", got)
	}
	if got := rowText(s.batches, 0); !strings.Contains(got, "products.csv · Newsletter Writer") || !strings.Contains(got, "3 runs") ||
		!strings.Contains(got, app.CreditsColumn(r.ByBatch[0].Credits)) {
		t.Errorf("the batch reads %q", got)
	}
	if !strings.Contains(s.total.Text, "in the last 30 days") || !strings.Contains(s.today.Text, "No daily limit is set") {
		t.Errorf("the totals read %q and %q", s.total.Text, s.today.Text)
	}
	// The groupings are tabs: Ctrl+Tab goes from one to the next.
	s.MoveTab(1)
	if s.groups.Selected().Text != "By agent" {
		t.Errorf("Ctrl+Tab went to %q", s.groups.Selected().Text)
	}

	s.period.SetSelected("Today")
	f.wait(t, "today alone", func() bool { return strings.Contains(s.total.Text, "spent today") })
	if len(s.report.ByBatch) != 1 {
		t.Errorf("today's batch is gone: %+v", s.report.ByBatch)
	}
}

// A limit is kept as typed (a comma is a decimal point), refused in plain
// words when it is no number above zero, and removed.
func TestSettingAndClearingTheDailyLimit(t *testing.T) {
	f := newFixture(t, fyne.NewSize(1024, 768))
	s := f.s
	if s.bar.Visible() || s.noLimit.Visible() {
		t.Fatal("no limit is set: neither the bar nor Remove limit should show")
	}
	for _, typed := range []string{"fifty", "0", "-5"} {
		s.limit.SetText(typed)
		test.Tap(s.keep)
		if !s.limitErr.Visible() || !strings.Contains(s.limitErr.Text, "number of credits above zero") {
			t.Fatalf("%q: the note reads %q", typed, s.limitErr.Text)
		}
	}
	if f.a.Accounts().Prefs().DailyLimit != 0 {
		t.Fatalf("a refused limit was kept: %v", f.a.Accounts().Prefs().DailyLimit)
	}

	s.limit.SetText("12,5")
	s.limit.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) // Enter keeps it too
	f.wait(t, "the limit kept", func() bool { return strings.Contains(s.today.Text, "of 12.5 credits") })
	if f.a.Accounts().Prefs().DailyLimit != 12.5 || s.limitErr.Visible() || !s.bar.Visible() || !s.noLimit.Visible() || s.limit.Text != "12.5" {
		t.Fatalf("kept %v; note %q, bar %v, field %q", f.a.Accounts().Prefs().DailyLimit, s.limitErr.Text, s.bar.Visible(), s.limit.Text)
	}

	test.Tap(s.noLimit)
	f.wait(t, "the limit removed", func() bool { return strings.Contains(s.today.Text, "No daily limit is set") })
	if f.a.Accounts().Prefs().DailyLimit != 0 || s.bar.Visible() || s.noLimit.Visible() || s.limit.Text != "" {
		t.Fatalf("removed: kept %v, bar %v, field %q", f.a.Accounts().Prefs().DailyLimit, s.bar.Visible(), s.limit.Text)
	}
}
