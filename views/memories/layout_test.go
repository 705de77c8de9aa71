package memories

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
)

// TestTheMemoriesScreenLaysOutAfterEachAction: a memory written and saved,
// listed, asked to be deleted and deleted, at each size: nothing drawn over
// anything, nothing cut.
func TestTheMemoriesScreenLaysOutAfterEachAction(t *testing.T) {
	kittest.EachLanguage(t, apptest.Speak, func(t *testing.T, size fyne.Size) {
		f := newRealFixture(t)
		w := f.w
		w.SetContent(container.NewStack(f.s.Content(), kit.NewLayer(w.Canvas())))
		w.Resize(size)
		frames := kittest.NewFrames(w.Canvas())
		kittest.Look(t, frames, f.q, w, "the memories listed")
		test.Tap(f.s.newBtn)
		test.Type(f.s.ed.text, "Northwind wants PDF invoices.")
		kittest.Look(t, frames, f.q, w, "a memory written")
		f.s.Submit()
		f.until(t, "the save to finish", func() bool { return f.s.ed.id != "" && !f.s.ed.saving })
		id := f.s.ed.id
		listed := func() bool {
			return slices.ContainsFunc(f.s.mems.Items, func(m app.MemoryEntry) bool { return m.ID == id })
		}
		f.until(t, "the list", listed)
		kittest.Look(t, frames, f.q, w, "a memory saved and listed")
		test.Tap(f.s.ed.del)
		kittest.Look(t, frames, f.q, w, "asked to delete it")
		f.tapInDialog(t, lang.L("Delete"))
		f.until(t, "the memory gone", func() bool { return !listed() && !f.s.ed.open })
		kittest.Look(t, frames, f.q, w, "the memory deleted")
	})
}
