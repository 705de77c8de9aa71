package files

import (
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
)

// TestFilesScreenLaysOutAfterEachAction: adding a file shows the uploads
// list above the files as the list grows; the notice over the list and the
// selection line stay above it, never drawn over the new row.
func TestFilesScreenLaysOutAfterEachAction(t *testing.T) {
	kittest.EachLanguage(t, apptest.Speak, func(t *testing.T, size fyne.Size) {
		env, q := testEnv(t)
		w := env.Window
		s := newScreen(env)
		w.SetContent(container.NewStack(s.Content(), kit.NewLayer(w.Canvas())))
		w.Resize(size)
		f := kittest.NewFrames(w.Canvas())
		s.Shown()
		eventually(t, q, "files listed", func() bool { return len(s.list.Items) > 0 })
		kittest.Look(t, f, q, w, "the files listed")
		before := len(s.list.Items)
		s.Dropped([]string{write(t, filepath.Join(t.TempDir(), "minutes.docx"), 51)})
		eventually(t, q, "the upload shows at the top", func() bool { return len(s.list.Items) == before+1 })
		kittest.Look(t, f, q, w, "a file added")
		s.list.Select(0)
		kittest.Look(t, f, q, w, "a file ticked")
		w.Resize(fyne.NewSize(800, 600))
		kittest.Look(t, f, q, w, "the window made small")
	})
}

// TestAgentFilesTabLaysOutAfterEachAction: linking, unlinking (its notice
// with Undo) and linking again keep the notice above the list.
func TestAgentFilesTabLaysOutAfterEachAction(t *testing.T) {
	kittest.EachLanguage(t, apptest.Speak, func(t *testing.T, size fyne.Size) {
		env, q := testEnv(t)
		w := env.Window
		tab := newAgentTab(env, client.Agent{ID: "119", Title: "Writer"})
		w.SetContent(container.NewStack(tab, kit.NewLayer(w.Canvas())))
		w.Resize(size)
		f := kittest.NewFrames(w.Canvas())
		eventually(t, q, "loaded", func() bool { return tab.loaded })
		kittest.Look(t, f, q, w, "the linked files listed")
		before := len(tab.linked.Items)
		tab.Dropped([]string{write(t, filepath.Join(t.TempDir(), "style-guide.txt"), 500)})
		eventually(t, q, "dropped file linked", func() bool {
			return len(tab.linked.Items) == before+1 && tab.result.Text != ""
		})
		kittest.Look(t, f, q, w, "a file linked")
		tab.Unlink(tab.linked.Items[0])
		eventually(t, q, "unlinked with undo", func() bool { return len(tab.linked.Items) == before && tab.undo.Visible() })
		kittest.Look(t, f, q, w, "a file unlinked")
		test.Tap(tab.undoB)
		eventually(t, q, "undo links again", func() bool { return len(tab.linked.Items) == before+1 })
		kittest.Look(t, f, q, w, "the unlink undone")
	})
}
