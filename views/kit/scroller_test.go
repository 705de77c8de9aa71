package kit

import (
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
)

func block(w, h float32) fyne.CanvasObject {
	r := canvas.NewRectangle(color.Black)
	r.SetMinSize(fyne.NewSize(w, h))
	return r
}

func wheel(s fyne.Scrollable, dx, dy float32) {
	s.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.Delta{DX: dx, DY: dy}})
}

// The wheel over a wide table scrolls the conversation, not the table
// sideways; a sideways movement scrolls the table.
func TestTheWheelOverSomethingWideScrollsWhatIsAroundIt(t *testing.T) {
	test.NewTempApp(t)
	var outer float32
	s := NewScroller(block(1000, 50), container.ScrollHorizontalOnly, func(ev *fyne.ScrollEvent) { outer += ev.Scrolled.DY })
	w := test.NewTempWindow(t, s)
	w.Resize(fyne.NewSize(300, 100))
	s.Resize(fyne.NewSize(300, 50))

	wheel(s, 0, -30)
	if s.Offset.X != 0 || outer != -30 {
		t.Fatalf("wheel down: table moved to %v, conversation by %v; want the conversation to take it all", s.Offset, outer)
	}
	wheel(s, -40, 0)
	if s.Offset.X != 40 || outer != -30 {
		t.Fatalf("sideways: table at %v, conversation moved by %v", s.Offset, outer)
	}
}

// A tall box scrolls itself while it can and then passes the wheel on.
func TestATallBoxScrollsThenPassesTheWheelOn(t *testing.T) {
	test.NewTempApp(t)
	var outer float32
	s := NewScroller(block(100, 300), container.ScrollBoth, func(ev *fyne.ScrollEvent) { outer += ev.Scrolled.DY })
	w := test.NewTempWindow(t, s)
	w.Resize(fyne.NewSize(200, 200))
	s.Resize(fyne.NewSize(100, 100))

	wheel(s, 0, 30) // up, at the top already
	if s.Offset.Y != 0 || outer != 30 {
		t.Fatalf("wheel up at the top: box at %v, conversation by %v", s.Offset, outer)
	}
	outer = 0
	for range 10 {
		wheel(s, 0, -50)
	}
	if s.Offset.Y != 200 {
		t.Fatalf("the box should reach its end (200), is at %v", s.Offset.Y)
	}
	if outer == 0 {
		t.Fatal("past its end the box should pass the wheel on")
	}
}
