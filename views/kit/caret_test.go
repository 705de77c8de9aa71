package kit

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// A field's caret rests (stops blinking, shows solid) once the user has
// left it alone, and blinks again at the next key; a rest that a key or
// the focus leaving overtook does nothing. (The wait itself, caretRest, is
// a timer's; the rest it ends in is what is tested here.)
func TestCaretRestsAndWakesAtTheNextKey(t *testing.T) {
	a := test.NewTempApp(t)
	f := &Field{}
	f.ExtendBaseWidget(f)
	other := NewFormEntry()
	w := test.NewTempWindow(t, NewBorder(f, other, nil, nil))
	w.Resize(fyne.NewSize(300, 200))
	w.Canvas().Focus(f)

	blinking := func() *fyne.Animation {
		t.Helper()
		anim, _, ok := blinkOf(&f.Entry)
		if !ok {
			t.Fatal("the caret's animation is not where this Fyne kept it")
		}
		if anim.IsNil() {
			return nil
		}
		return anim.Interface().(*fyne.Animation)
	}
	first := blinking()
	if first == nil || f.caret.resting {
		t.Fatal("a field given the keyboard shows no blinking caret")
	}

	f.caret.rest(&f.Entry, f.caret.wakes)
	_, caret, _ := blinkOf(&f.Entry)
	if !f.caret.resting || caret.FillColor != a.Settings().Theme().Color(theme.ColorNamePrimary, a.Settings().ThemeVariant()) || !caret.Visible() {
		t.Fatalf("at rest the caret shows %v (visible %v), want solid in the primary colour", caret.FillColor, caret.Visible())
	}

	stale := f.caret.wakes
	test.Type(f, "a")
	if f.caret.resting || blinking() == nil || blinking() == first {
		t.Fatal("typing did not have the caret blink again")
	}
	f.caret.rest(&f.Entry, stale)
	if f.caret.resting {
		t.Fatal("a rest from before the key stopped the caret")
	}

	// The focus leaving: Fyne ends the blinking, a rest due then does
	// nothing, and coming back blinks again.
	f.caret.rest(&f.Entry, f.caret.wakes)
	pending := f.caret.wakes
	w.Canvas().Focus(other)
	f.caret.rest(&f.Entry, pending)
	if f.caret.resting || blinking() != nil {
		t.Fatal("a field without the keyboard rests or blinks")
	}
	w.Canvas().Focus(f)
	if blinking() == nil || f.caret.resting {
		t.Fatal("the caret does not blink when the keyboard comes back")
	}
}
