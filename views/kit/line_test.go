package kit

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// TestALineKeepsItsBeginningOnTheLeft: a Hebrew or Arabic title is drawn
// with each right-to-left phrase reading right to left, and the title's
// first words on the left, where a label cut short with "…" keeps them.
func TestALineKeepsItsBeginningOnTheLeft(t *testing.T) {
	for _, c := range []struct{ in, drawn string }{
		{"עוזר חשבוניות for Q3 2024 — 15% הנחה on 3 items", "תוינובשח רזוע for Q3 2024 — 15% החנה on 3 items"},
		{"مساعد كتابة", "ةباتك دعاسم"},
		{"Plain title", "Plain title"},
		{"Line\nbreak\u202eevil", "Line breakevil"},
	} {
		if got := fyneDraw(Line(c.in, 0)); got != c.drawn {
			t.Errorf("%q is drawn as %q, want %q", c.in, got, c.drawn)
		}
	}
	if got := Line("Plain title", 0); got != "Plain title" {
		t.Errorf("a left-to-right title should be left as it is, got %q", got)
	}
	if got := Line(strings.Repeat("שלום ", 100), 20); len([]rune(fyneDraw(got))) > 20 {
		t.Errorf("the limit should hold: %q", fyneDraw(got))
	}
}

// A hint that cannot show whole is not shown cut; with room it is whole,
// and its own Hide still counts.
func TestFittingShowsAHintWholeOrNotAtAll(t *testing.T) {
	test.NewTempApp(t)
	l := widget.NewLabel("Uses credits · Ctrl+Enter runs it")
	l.Truncation = fyne.TextTruncateEllipsis
	f := Fitting(l)
	shown := func() bool {
		inner := f.(*fyne.Container).Objects[0]
		return inner.Visible() && l.Visible()
	}
	f.Resize(fyne.NewSize(60, 40))
	if shown() {
		t.Fatal("at 60 px the hint is shown cut")
	}
	f.Resize(fyne.NewSize(600, 40))
	var drawn string
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if txt, ok := o.(*canvas.Text); ok {
			drawn += txt.Text
		} else if w, ok := o.(fyne.Widget); ok {
			for _, c := range test.WidgetRenderer(w).Objects() {
				walk(c)
			}
		}
	}
	walk(l)
	if !shown() || drawn != l.Text {
		t.Fatalf("at 600 px the hint is not shown whole: %q", drawn)
	}
	// Just its own width: whole, not cut.
	f.Resize(fyne.NewSize(fyne.MeasureText(l.Text, theme.TextSize(), l.TextStyle).Width+2*theme.InnerPadding()+1, 40))
	drawn = ""
	if walk(l); shown() && drawn != l.Text {
		t.Fatalf("at its own width the hint is drawn cut: %q", drawn)
	}
	l.Hide()
	f.Resize(fyne.NewSize(700, 40))
	if shown() {
		t.Fatal("a hint hidden by its screen came back")
	}
}
