package kit

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// paintCounter counts the window's content being set (ReleaseText) and
// the whole window being redrawn (releaseLate).
type paintCounter struct {
	fyne.Window
	sets, paints atomic.Int64
}

func (w *paintCounter) SetContent(o fyne.CanvasObject) {
	w.sets.Add(1)
	w.Window.SetContent(o)
}

func (w *paintCounter) Canvas() fyne.Canvas { return &paintCanvas{Canvas: w.Window.Canvas(), w: w} }

type paintCanvas struct {
	fyne.Canvas
	w *paintCounter
}

func (c *paintCanvas) Refresh(o fyne.CanvasObject) {
	if o == c.w.Content() {
		c.w.paints.Add(1)
	}
	c.Canvas.Refresh(o)
}

// A screen at rest lets go of its text at once, and once Fyne's drawing
// state of what it no longer shows has expired, has the window painted
// once more (so that Fyne drops it) and gives the memory back; drawing
// again meanwhile puts that off.
func TestTextIsLetGoAtRestAndTheRestAfterAMinute(t *testing.T) {
	test.NewTempApp(t)
	q := UseQueue(t)
	q.UseClock()
	w := &paintCounter{Window: test.NewTempWindow(t, widget.NewLabel("reply"))}
	r := NewTextRelease(w, context.Background(), ReleaseLimits{Many: 1000, Few: 2, Rest: time.Millisecond})
	r.lateAfter = 50 * time.Millisecond

	r.Drawn(5)
	q.Advance(time.Millisecond)
	q.WaitUntil(t, func() bool { return w.sets.Load() == 1 }, func() string { return "no release at rest" })
	r.Drawn(1) // drawing again before the late release puts it off
	q.Advance(3 * r.lateAfter)
	if w.paints.Load() != 0 {
		t.Fatal("the window was painted again although the screen was drawing")
	}
	r.Drawn(5)
	q.Advance(time.Millisecond)
	q.Advance(r.lateAfter)
	q.WaitUntil(t, func() bool { return w.sets.Load() == 2 && w.paints.Load() == 1 },
		func() string { return "the late release never came" })
	if w.Content() == nil || w.Content().(*widget.Label).Text != "reply" {
		t.Fatal("the window shows what it showed")
	}
}

// A widget that embeds Button is the one tips and scrolling into view see.
func TestAButtonEmbeddedInAnotherWidgetIsSeenAsThatWidget(t *testing.T) {
	type wrapper struct{ Button }
	plain := NewButton("Plain", nil)
	w := &wrapper{}
	w.ExtendBaseWidget(w)
	if plain.shown() != fyne.CanvasObject(plain) || w.shown() != fyne.CanvasObject(w) {
		t.Fatalf("a button is seen as %T, an embedding one as %T", plain.shown(), w.shown())
	}
}

// While the user types in a field, the text is let go only once typing
// pauses: setting the window's content again between two keys put the
// caret back, and a memory typed while a reply streamed came out jumbled.
func TestTextIsLetGoOnlyWhenTypingPauses(t *testing.T) {
	test.NewTempApp(t)
	q := UseQueue(t)
	q.UseClock()
	field := NewFormMultiLineEntry()
	w := &paintCounter{Window: test.NewTempWindow(t, field)}
	w.Canvas().Focus(field)
	r := NewTextRelease(w, context.Background(), ReleaseLimits{Many: 10, Few: 1000, Rest: time.Hour})
	for range 5 {
		test.Type(field, "ab")
		r.Drawn(20) // a reply streams meanwhile
		q.Advance(typingPause / 2)
		if w.sets.Load() != 0 {
			t.Fatal("the window's content was set again while the user typed")
		}
	}
	q.Advance(typingPause)
	q.WaitUntil(t, func() bool { return w.sets.Load() == 1 }, func() string { return "no release once typing paused" })
	if w.Canvas().Focused() != field || field.Text != "ababababab" {
		t.Fatalf("the field has %q, focused: %v", field.Text, w.Canvas().Focused() == field)
	}
}
