package batches

import (
	"context"
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/storage"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
)

// TestTheBatchesScreenLaysOutAfterEachAction: a batch run and done, then
// the window made small: the buttons that wrap onto a second line push the
// rows down instead of being drawn over them.
func TestTheBatchesScreenLaysOutAfterEachAction(t *testing.T) {
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

	b, err := e.App.Batches().New(context.Background(), ag, wholeSheet(t, sheetOf(t, 5)), app.BatchPlan{Columns: app.MatchColumns(ag, []string{"Prompt", "Tone", "Length"})})
	if err != nil {
		t.Fatal(err)
	}
	if !e.App.Batches().Start(b.ID, ag) {
		t.Fatal("the batch did not start")
	}
	q.WaitUntil(t, func() bool {
		return len(s.list.Items) == 1 && s.list.Items[0].b.State == storage.BatchDone && len(s.rows.Items) == 5
	}, func() string { return fmt.Sprintf("%d batches, %d rows", len(s.list.Items), len(s.rows.Items)) })
	kittest.Look(t, f, q, w, "a batch done")
	w.Resize(fyne.NewSize(800, 600))
	kittest.Look(t, f, q, w, "the window made small")
	w.Resize(fyne.NewSize(1920, 1080))
	kittest.Look(t, f, q, w, "the window made large")
}
