package usage

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
)

// TestTheUsageScreenLaysOutAfterEachAction: nothing spent, a batch's
// charges by day, agent and batch, a limit refused, a limit set and passed
// (its bar and Remove limit shown), then the window made small and as
// narrow as the screen is beside the rail: nothing drawn over anything,
// nothing cut.
func TestTheUsageScreenLaysOutAfterEachAction(t *testing.T) {
	kittest.EachLanguage(t, apptest.Speak, func(t *testing.T, size fyne.Size) {
		f := newFixture(t, size)
		s, w := f.s, f.w
		frames := kittest.NewFrames(w.Canvas())
		kittest.Look(t, frames, f.q, w, "nothing spent yet")

		runBatch(t, f.a, 3)
		f.wait(t, "the batch's charges", func() bool { return len(s.report.ByBatch) == 1 && s.report.ByBatch[0].Calls == 3 })
		kittest.Look(t, frames, f.q, w, "a batch's charges")
		s.MoveTab(-1)
		kittest.Look(t, frames, f.q, w, "the credits by batch")

		s.limit.SetText("-5")
		test.Tap(s.keep)
		kittest.Look(t, frames, f.q, w, "a limit refused")
		s.limit.SetText("0.01")
		test.Tap(s.keep)
		f.wait(t, "the limit kept", func() bool { return s.bar.Visible() && s.noLimit.Visible() })
		kittest.Look(t, frames, f.q, w, "a limit set and passed")

		w.Resize(fyne.NewSize(800, 600))
		kittest.Look(t, frames, f.q, w, "the window made small")
		w.Resize(fyne.NewSize(620, 600))
		kittest.Look(t, frames, f.q, w, "beside the rail")
	})
}
