package batches

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/sheet"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
)

// The plan of Run on many… asks which facts to pull out of each reply, a
// field Tab reaches and leaves; a fact named too long is said plainly and
// keeps Start off; Ctrl+Enter in the field starts the batch, whose results
// sheet has a column for each fact, and the screen counts the rows that
// need a look.
func TestThePlanAsksForFactsToPullOut(t *testing.T) {
	e, q, svc, shown := env(t, 0)
	ag := agent(t, e.App)
	src, err := readSheet(context.Background(), e.App, ag, sheetOf(t, 3), nil)
	if err != nil {
		t.Fatal(err)
	}
	pl := newPlan(e, ag, src)
	pl.show()
	if pl.facts == nil || !strings.Contains(pl.facts.PlaceHolder, "Invoice number, Date") {
		t.Fatal("the plan offers no field for the facts")
	}
	c := e.Window.Canvas()
	c.Focus(questions(pl)["prompt"].choice)
	for range 30 {
		if c.Focused() == pl.facts {
			break
		}
		c.FocusNext()
	}
	if c.Focused() != pl.facts {
		t.Fatalf("Tab does not reach the facts: it stops at %T", c.Focused())
	}
	test.Type(pl.facts, "Invoice number, Date")
	pl.facts.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	test.Type(pl.facts, "Total, "+strings.Repeat("Name of the supplier ", 4))
	if !pl.factsErr.Visible() || !strings.Contains(pl.factsErr.Text, "longer than 60 characters") || !pl.start.Disabled() {
		t.Fatalf("a fact named too long: Start on %v, %q", !pl.start.Disabled(), pl.factsErr.Text)
	}
	pl.facts.SetText(strings.Replace(pl.facts.Text, strings.Repeat("Name of the supplier ", 4), "Supplier, date", 1))
	if bp := pl.batchPlan(); !slices.Equal(bp.Fields, []string{"Invoice number", "Date", "Total", "Supplier"}) || pl.factsErr.Visible() || pl.start.Disabled() {
		t.Fatalf("facts %q; Start on %v (%q)", bp.Fields, !pl.start.Disabled(), pl.factsErr.Text)
	}
	c.Focus(pl.facts)
	c.FocusNext()
	if c.Focused() == pl.facts {
		t.Fatal("Tab stays in the facts field")
	}

	pl.facts.TypedShortcut(kit.CtrlEnterShortcut)
	q.WaitUntil(t, func() bool { return len(*shown) == 1 }, func() string { return "the Batches screen was not shown" })
	b := batchDone(t, e, q)
	for _, r := range svc.Executions() {
		if p := fmt.Sprint(r.Answers["prompt"]); !strings.Contains(p, `{"Invoice number": "", "Date": "", "Total": "", "Supplier": ""}`) {
			t.Fatalf("a run was not asked for the facts: %q", p)
		}
	}
	tb, err := sheet.Open(context.Background(), b.Results)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if h := strings.Join(tb.Header(), "|"); !strings.HasSuffix(h, "|Invoice number|Date|Total|Supplier") {
		t.Fatalf("results header %q", h)
	}
}

// The screen counts the rows that need a look with the others, and shows a
// row's reply under why it needs one.
func TestRowsThatNeedALookAreCounted(t *testing.T) {
	e, _, _, _ := env(t, 0)
	counts := map[app.RowState]int{app.RowDone: 7, app.RowLook: 2, app.RowFailed: 1}
	if got := Summary(counts, 0); !strings.Contains(got, "7 of 10 done · 2 need a look · 1 failed") {
		t.Fatalf("summary %q", got)
	}
	if got := EndText(app.BatchEnd{Batch: app.Batch{AgentTitle: "Invoices"}, Counts: counts}); !strings.Contains(got, "7 done, 2 to look at, 1 failed") {
		t.Fatalf("end text %q", got)
	}
	r := app.BatchRow{Row: 4, State: app.RowLook, Error: "The reply did not give: Total.", Result: "I found no total."}
	if got := RowTitle(app.Batch{Source: "/x/invoices.csv"}, r); got != "Row 4 · Needs a look" {
		t.Fatalf("row title %q", got)
	}
	if got := RowText(r); got != r.Error {
		t.Fatalf("row text %q", got)
	}
	s := New(e).(*Screen)
	s.showRow(r)
	if text := kittest.AllText(e.Window.Canvas().Overlays().Top()); !strings.Contains(text, r.Error+"\n"+r.Result) {
		t.Fatalf("the row shows:\n%s", text)
	}
}
