package credits

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
	"github.com/agentdesk/agentdesk/views/screen"
)

func TestCreditsViewShowsDaysAndAgentsAndFollowsNewCharges(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	a := apptest.Open(t)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(fyne.NewSize(900, 600))
	v := NewView(screen.Env{App: a, Window: w, Nav: screen.NoNav{}})
	w.SetContent(v.Object)
	v.Reload()
	q.WaitUntil(t, func() bool { return v.total.Text != "" }, func() string { return "no total" })
	if v.export.Disabled() == false {
		t.Fatal("nothing to export, yet Export is enabled")
	}

	ctx := context.Background()
	// A memory saved on the built-in demo is charged and recorded.
	if _, err := a.Memories().Create(ctx, app.MemoryEdit{Content: "Northwind pays in 30 days."}); err != nil {
		t.Fatal(err)
	}
	a.Ledger().Record(ctx, "execution", "101", "Meeting Minutes Writer", "r1", client.Credits{Value: 0.5, Valid: true})
	q.WaitUntil(t, func() bool { return len(v.report.ByAgent) == 2 }, func() string { return v.total.Text })
	if !strings.HasPrefix(v.total.Text, "0.50") || !strings.Contains(v.total.Text, "last 30 days") {
		t.Fatalf("total = %q", v.total.Text)
	}
	if v.report.ByAgent[0].AgentTitle != "Meeting Minutes Writer" || v.export.Disabled() {
		t.Fatalf("by agent = %+v", v.report.ByAgent)
	}
	o := v.agents.CreateItem()
	v.agents.UpdateItem(1, o)
	if got := kit.RowContent(o).(*fyne.Container).Objects[0].(*widget.Label).Text; !strings.Contains(got, "Memories") {
		t.Fatalf("memory charges row = %q", got)
	}
	// Each charge on its own, newest first: the run, then the memory.
	if len(v.report.Recent) != 2 {
		t.Fatalf("each charge should be listed, got %+v", v.report.Recent)
	}
	o = v.recent.CreateItem()
	v.recent.UpdateItem(0, o)
	if got := kit.RowContent(o).(*fyne.Container).Objects[0].(*widget.Label).Text; !strings.Contains(got, "Meeting Minutes Writer") {
		t.Fatalf("the newest charge reads %q", got)
	}
	v.recent.UpdateItem(1, o)
	if got := kit.RowContent(o).(*fyne.Container).Objects[0].(*widget.Label).Text; !strings.Contains(got, "memory saved") {
		t.Fatalf("the memory's charge reads %q", got)
	}
	if !strings.Contains(kittest.AllText(v.Object), "Your balance is kept by the service") {
		t.Fatal("the view should say where the balance is")
	}
	v.period.SetSelected("Last 7 days")
	q.WaitUntil(t, func() bool { return strings.Contains(v.total.Text, "last 7 days") }, func() string { return v.total.Text })
}
