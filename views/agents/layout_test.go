package agents

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
)

// TestAnAgentLaysOutAfterEachAction: an agent opened, its form refused
// (the notes under the fields and the line under the form), fixed, run and
// its result shown, at each size: nothing drawn over anything, nothing cut.
func TestAnAgentLaysOutAfterEachAction(t *testing.T) {
	kittest.EachLanguage(t, apptest.Speak, func(t *testing.T, size fyne.Size) {
		f := newFixture(t, 0)
		w := f.w
		w.SetContent(container.NewStack(f.s.Content(), kit.NewLayer(w.Canvas())))
		w.Resize(size)
		frames := kittest.NewFrames(w.Canvas())
		d := f.open(t, "120")
		kittest.Look(t, frames, f.q, w, "an agent opened")
		test.Tap(d.runBtn)
		kittest.Look(t, frames, f.q, w, "the form refused")
		fillRequired(d)
		kittest.Look(t, frames, f.q, w, "the form fixed")
		test.Tap(d.runBtn)
		f.wait(t, "the result", func() bool { return d.active == nil && d.output.run.Output != "" })
		kittest.Look(t, frames, f.q, w, "the result shown")
		w.Resize(fyne.NewSize(800, 600))
		kittest.Look(t, frames, f.q, w, "the window made small")
	})
}
