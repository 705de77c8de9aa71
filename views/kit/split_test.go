package kit_test

import (
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/views/kit"
)

// A split puts the divider at its offset, keeps it there when a pane asks
// for more width, moves it and the panes when dragged, never past a pane's
// least width, and draws its grip unlike text.
func TestSplitKeepsItsDividerWhereItIsPut(t *testing.T) {
	test.NewTempApp(t)
	left, right := widget.NewLabel("Conversations"), widget.NewLabel("Messages")
	s := kit.Split(left, right, 0.25)
	w := test.NewWindow(s)
	defer w.Close()
	w.Resize(fyne.NewSize(1000, 600))
	c := s.(*fyne.Container)
	lead, div, trail := c.Objects[0], c.Objects[1], c.Objects[2]
	room := c.Size().Width - div.Size().Width
	if got := lead.Size().Width; got < room*0.24 || got > room*0.26 {
		t.Fatalf("the leading pane is %v wide of %v, want a quarter", got, room)
	}
	if trail.Position().X != div.Position().X+div.Size().Width || trail.Position().X+trail.Size().Width != c.Size().Width {
		t.Fatalf("the trailing pane is not beside the divider to the edge: %v %v", trail.Position(), trail.Size())
	}

	before := div.Position().X
	left.SetText("A very long conversation title that would ask for far more width than a quarter of the window gives it")
	c.Refresh()
	if div.Position().X != before {
		t.Fatalf("a pane asking for more width moved the divider from %v to %v", before, div.Position().X)
	}

	d := div.(fyne.Draggable)
	d.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(200, 10)}, Dragged: fyne.NewDelta(200, 0)})
	d.DragEnd()
	if got := div.Position().X; got < before+150 || lead.Size().Width != got {
		t.Fatalf("dragged 200 right, the divider went from %v to %v (leading pane %v wide)", before, got, lead.Size().Width)
	}
	d.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(2000, 10)}, Dragged: fyne.NewDelta(2000, 0)})
	if min := right.MinSize().Width; trail.Size().Width < min {
		t.Fatalf("dragged past the edge, the trailing pane is %v wide, less than its %v", trail.Size().Width, min)
	}

	text := theme.Color(theme.ColorNameForeground)
	for _, o := range test.LaidOutObjects(div) {
		if r, ok := o.(*canvas.Rectangle); ok && sameColor(r.FillColor, text) {
			t.Fatal("the divider's grip is drawn in the colour of text, where it reads as a caret")
		}
	}
}

func sameColor(a, b color.Color) bool {
	ar, ag, ab, aa := a.RGBA()
	br, bg, bb, ba := b.RGBA()
	return ar == br && ag == bg && ab == bb && aa == ba
}
