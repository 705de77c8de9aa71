package kit_test

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
)

// TestTwoPartsThatGrowInOneFrameAreBothLaidOut: a notice shown above a list
// as the list gains a row, in one update. Fyne lays out again only the last
// parent it noted, so without the layer's settle the notice is drawn over
// the list's first row.
func TestTwoPartsThatGrowInOneFrameAreBothLaidOut(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	notice := widget.NewLabel("Uploads: 1 of 1 done")
	notice.Hide()
	names := []string{"report.pdf"}
	rows := widget.NewList(func() int { return len(names) }, func() fyne.CanvasObject { return widget.NewLabel("") },
		func(i widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(names[i]) })
	screen := kit.NewBorder(container.NewVBox(widget.NewLabel("Files"), notice), nil, nil, nil, rows)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.SetContent(container.NewStack(screen, kit.NewLayer(w.Canvas())))
	w.Resize(fyne.NewSize(400, 300))
	f := kittest.NewFrames(w.Canvas())
	kittest.Look(t, f, q, w, "before")

	kit.Do(func() {
		notice.Show()
		names = append([]string{"minutes.docx"}, names...)
		rows.Refresh()
	})
	kittest.Look(t, f, q, w, "a notice and a row added at once")
}
