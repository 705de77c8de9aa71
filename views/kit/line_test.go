package kit

import (
	"strings"
	"testing"
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
