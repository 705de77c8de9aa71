package batches

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
)

// A batch whose runs would take the day past the daily limit asks first,
// counting every row: Cancel starts nothing and leaves the plan as it was.
func TestABatchPastTheDailyLimitAsksFirst(t *testing.T) {
	e, q, svc, shown := env(t, 0)
	ag := agent(t, e.App)
	// A run before: what one run costs is guessed from it.
	e.App.Ledger().Record(context.Background(), "execution", string(ag.ID), ag.Title, "earlier", client.Credits{Value: 0.5, Valid: true})
	if err := e.App.Accounts().UpdatePrefs(context.Background(), func(p *app.AccountPrefs) { p.DailyLimit = 1 }); err != nil {
		t.Fatal(err)
	}
	src, err := readSheet(context.Background(), e.App, ag, sheetOf(t, 3), nil)
	if err != nil {
		t.Fatal(err)
	}
	pl := newPlan(e, ag, src)
	pl.show()
	pl.Start()
	c := e.Window.Canvas()
	q.WaitUntil(t, func() bool { return strings.Contains(kittest.AllText(c.Overlays().Top()), "about 2 credits") },
		func() string { return "no question before the batch: " + kittest.AllText(c.Overlays().Top()) })
	test.Tap(kittest.FindButton(c.Overlays().Top(), "Cancel"))
	if len(*shown) != 0 || len(svc.Executions()) != 0 || pl.start.Disabled() {
		t.Fatalf("Cancel started the batch: %d runs sent, Batches shown %d times, Start off %v", len(svc.Executions()), len(*shown), pl.start.Disabled())
	}
	if bs, err := e.App.Batches().List(context.Background()); err != nil || len(bs) != 0 {
		t.Fatalf("Cancel kept a batch: %v %v", bs, err)
	}
}
