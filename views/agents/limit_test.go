package agents

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
)

// A run that would take the day past the daily limit asks first, guessing
// from the run before: Enter does not run it, Cancel leaves it unsent, Run
// anyway sends it. Without a limit nothing is asked.
func TestARunPastTheDailyLimitAsksFirst(t *testing.T) {
	f := newFixture(t, 0)
	d := f.open(t, "120")
	fillRequired(d)
	sent := func() int { return len(apptest.Demo(f.a).Service.Executions()) }

	test.Tap(d.runBtn)
	f.wait(t, "the first run", func() bool { return d.active == nil && d.output.run.Output != "" })
	if f.w.Canvas().Overlays().Top() != nil || sent() != 1 {
		t.Fatalf("without a limit the run goes at once: %d sent", sent())
	}

	if err := f.a.Accounts().UpdatePrefs(context.Background(), func(p *app.AccountPrefs) { p.DailyLimit = 0.001 }); err != nil {
		t.Fatal(err)
	}
	question := func() fyne.CanvasObject {
		t.Helper()
		test.Tap(d.runBtn)
		f.wait(t, "the question", func() bool { return f.w.Canvas().Overlays().Top() != nil })
		return f.w.Canvas().Overlays().Top()
	}
	top := question()
	text := strings.Join(strings.Fields(kittest.AllText(top)), " ")
	if !strings.Contains(text, "This would take today's spending to about") || !strings.Contains(text, "past your daily limit of 0.001 credits. Run anyway?") {
		t.Fatalf("the question reads %q", text)
	}
	if s := kittest.Overlap(top); s != "" {
		t.Fatal(s)
	}
	kit.DialogKey(f.w.Canvas(), fyne.KeyReturn)
	if f.w.Canvas().Overlays().Top() != top || sent() != 1 {
		t.Fatal("Enter answered the question: a run costs credits, only a click runs it")
	}
	test.Tap(kittest.FindButton(top, "Cancel"))
	f.wait(t, "the question gone", func() bool { return f.w.Canvas().Overlays().Top() == nil })
	if sent() != 1 || d.active != nil {
		t.Fatalf("Cancel ran the agent: %d sent", sent())
	}

	top = question()
	test.Tap(kittest.FindButton(top, "Run anyway"))
	f.wait(t, "the run anyway", func() bool { return sent() == 2 && d.active == nil && f.w.Canvas().Overlays().Top() == nil })
}
