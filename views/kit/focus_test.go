package kit_test

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/views/kit"
)

// inView reports whether o shows whole in scroll s.
func inView(s *container.Scroll, o fyne.CanvasObject) bool {
	d := fyne.CurrentApp().Driver()
	top := d.AbsolutePositionForObject(o).Y - d.AbsolutePositionForObject(s).Y
	return top >= 0 && top+o.Size().Height <= s.Size().Height
}

func TestTabScrollsTheFieldWithTheKeyboardIntoView(t *testing.T) {
	test.NewTempApp(t)
	box := container.NewVBox()
	fields := make([]*kit.FormEntry, 30)
	for i := range fields {
		fields[i] = kit.NewFormEntry()
		fields[i].SetPlaceHolder(fmt.Sprintf("Question %d", i+1))
		box.Add(fields[i])
	}
	s := container.NewVScroll(box)
	w := test.NewTempWindow(t, s)
	w.Resize(fyne.NewSize(400, 300))
	c := w.Canvas()

	for i := range fields {
		c.FocusNext()
		if c.Focused() != fields[i] {
			t.Fatalf("Tab %d gave the keyboard to %v", i+1, c.Focused())
		}
		if !inView(s, fields[i]) {
			t.Fatalf("after Tab %d the field with the keyboard is out of view (scrolled to %v)", i+1, s.Offset)
		}
	}
	if s.Offset.Y == 0 {
		t.Fatal("the last field was reached without scrolling")
	}
	// Back up with Shift+Tab, and to the first field from the last.
	for i := len(fields) - 2; i >= 0; i-- {
		c.FocusPrevious()
		if !inView(s, fields[i]) {
			t.Fatalf("after Shift+Tab to field %d it is out of view (scrolled to %v)", i+1, s.Offset)
		}
	}
	if s.Offset.Y != 0 {
		t.Fatalf("back at the first field, the form is still scrolled to %v", s.Offset)
	}
}

func TestTabGoesThroughABorderInReadingOrder(t *testing.T) {
	test.NewTempApp(t)
	parts := map[string]*kit.FormEntry{}
	for _, n := range []string{"top", "left", "centre", "right", "bottom"} {
		parts[n] = kit.NewFormEntry()
		parts[n].SetPlaceHolder(n)
	}
	b := kit.NewBorder(parts["top"], parts["bottom"], parts["left"], parts["right"], parts["centre"])
	w := test.NewTempWindow(t, b)
	w.Resize(fyne.NewSize(600, 300))
	c := w.Canvas()
	for _, n := range []string{"top", "left", "centre", "right", "bottom"} {
		c.FocusNext()
		if c.Focused() != parts[n] {
			t.Fatalf("Tab should reach the %s next, reached %q", n, c.Focused().(*kit.FormEntry).PlaceHolder)
		}
	}
	// Laid out as Fyne's border lays out.
	if parts["left"].Position().X != 0 || parts["centre"].Position().X <= parts["left"].Size().Width ||
		parts["bottom"].Position().Y <= parts["centre"].Position().Y {
		t.Fatal("the parts are not laid out around the centre")
	}
}

// Fyne's window gives Tab to a field that accepts it instead of moving on:
// a text of several lines would keep the keyboard for good.
func TestTabLeavesATextOfSeveralLines(t *testing.T) {
	test.NewTempApp(t)
	if kit.NewFormMultiLineEntry().AcceptsTab() {
		t.Fatal("Tab in a text of several lines types a tab instead of moving on")
	}
}

// Closing a fold with the keyboard in one of its fields moves the keyboard
// to the fold's button: typing must not go on into a hidden field.
func TestClosingAFoldTakesTheKeyboardFromItsFields(t *testing.T) {
	test.NewTempApp(t)
	seed := kit.NewFormEntry()
	f := kit.NewFold("Advanced", container.NewVBox(seed))
	f.SetOpen(true)
	w := test.NewTempWindow(t, f.Object())
	w.Resize(fyne.NewSize(400, 300))
	w.Canvas().Focus(seed)
	f.Button.OnTapped() // a click: the desktop window moves no keyboard
	if f.Open() || w.Canvas().Focused() == seed {
		t.Fatal("the hidden field kept the keyboard")
	}
}

// A field that gets the keyboard scrolls only the scroll it is in: a
// scroll of a screen not on show stays where its user left it.
func TestOnlyTheScrollHoldingAFieldFollowsIt(t *testing.T) {
	test.NewTempApp(t)
	tall := container.NewVBox()
	for i := 0; i < 60; i++ {
		tall.Add(kit.NewFormEntry())
	}
	elsewhere := container.NewVScroll(tall)
	elsewhere.Resize(fyne.NewSize(300, 200))
	elsewhere.ScrollToOffset(fyne.NewPos(0, 1200))

	box := container.NewVBox()
	fields := make([]*kit.FormEntry, 20)
	for i := range fields {
		fields[i] = kit.NewFormEntry()
		box.Add(fields[i])
	}
	here := container.NewVScroll(box)
	w := test.NewTempWindow(t, here)
	w.Resize(fyne.NewSize(300, 200))
	w.Canvas().Focus(fields[0])
	w.Canvas().Focus(fields[15])
	if elsewhere.Offset.Y != 1200 {
		t.Fatalf("a scroll not on show moved to %v", elsewhere.Offset)
	}
	if here.Offset.Y == 0 {
		t.Fatal("the scroll holding the field should follow it")
	}
}

// A button of a long form scrolls into view too when Tab reaches it
// (Fyne's never does).
func TestTabScrollsAButtonIntoView(t *testing.T) {
	test.NewTempApp(t)
	box := container.NewVBox()
	first := kit.NewFormEntry()
	box.Add(first)
	for range 30 {
		box.Add(kit.NewFormEntry())
	}
	add := kit.NewButton("Add a line", nil)
	box.Add(add)
	s := container.NewVScroll(box)
	w := test.NewTempWindow(t, s)
	w.Resize(fyne.NewSize(400, 300))
	w.Canvas().Focus(first)
	w.Canvas().Focus(add)
	if s.Offset.Y == 0 || !inView(s, add) {
		t.Fatalf("the button with the keyboard is out of view (scrolled to %v)", s.Offset)
	}
}

// Agent Desk's buttons and choices show a ring while they have the
// keyboard, and none otherwise.
func TestAFocusedButtonHasARing(t *testing.T) {
	test.NewTempApp(t)
	b := kit.NewButton("Add account", nil)
	paid := kit.NewPaidButton("Run agent", nil, nil)
	sel := kit.NewSelect([]string{"A", "B"}, nil)
	w := test.NewTempWindow(t, container.NewVBox(b, paid, sel))
	w.Resize(fyne.NewSize(300, 200))
	ring, visible := ringOf, ringShows
	for _, o := range []fyne.Widget{b, paid, sel} {
		r := ring(o)
		if r == nil || visible(r) {
			t.Fatalf("%T: no ring object, or a ring before it has the keyboard", o)
		}
		w.Canvas().Focus(o.(fyne.Focusable))
		if !visible(ring(o)) {
			t.Fatalf("%T has the keyboard and shows no ring", o)
		}
		w.Canvas().Unfocus()
		if visible(ring(o)) {
			t.Fatalf("%T keeps its ring without the keyboard", o)
		}
	}
}

// ringOf is the focus ring drawn over a widget of Agent Desk's own (the
// last object it draws), or nil.
func ringOf(o fyne.Widget) *canvas.Rectangle {
	objs := test.WidgetRenderer(o).Objects()
	r, _ := objs[len(objs)-1].(*canvas.Rectangle)
	return r
}

// ringShows tells whether a ring is drawn: at least 2 px, not transparent.
func ringShows(r *canvas.Rectangle) bool {
	if r == nil {
		return false
	}
	_, _, _, a := r.StrokeColor.RGBA()
	return r.StrokeWidth >= 2 && a > 0
}
