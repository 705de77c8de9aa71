package kit

import (
	"image/color"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"github.com/agentdesk/agentdesk/views/kit/fynefix"
)

// A field's caret blinks in two halves, shown and hidden, while the user
// works in it (a few blinks only when it just got the keyboard); it rests (stops blinking, shows solid) once the user has left
// it alone, and blinks again at the next key; a blink that a key or the
// focus leaving overtook does nothing. (The waits themselves are timers';
// each half they time is driven here by hand.)
func TestCaretBlinksRestsAndWakesAtTheNextKey(t *testing.T) {
	a := test.NewTempApp(t)
	f := &Field{}
	f.ExtendBaseWidget(f)
	other := NewFormEntry()
	w := test.NewTempWindow(t, NewBorder(f, other, nil, nil))
	w.Resize(fyne.NewSize(300, 200))
	w.Canvas().Focus(f)

	primary := a.Settings().Theme().Color(theme.ColorNamePrimary, a.Settings().ThemeVariant())
	caretShows := func(want bool, when string) {
		t.Helper()
		_, caret, ok := fynefix.EntryCaret(&f.Entry)
		if !ok {
			t.Fatal("the caret is not where this Fyne kept it")
		}
		if shown := caret.Visible() && caret.FillColor == primary; shown != want {
			t.Fatalf("%s: the caret shows %v (visible %v), want shown %v", when, caret.FillColor, caret.Visible(), want)
		}
		if !want && caret.Visible() && caret.FillColor != color.Transparent {
			t.Fatalf("%s: the hidden caret is painted %v", when, caret.FillColor)
		}
	}
	held := func() *fyne.Animation {
		t.Helper()
		anim, _, _ := fynefix.EntryCaret(&f.Entry)
		return anim
	}
	blink := func() { f.caret.blink(&f.Entry, f.caret.wakes) }
	blinksFor := func(want time.Duration, when string) {
		t.Helper()
		if left := time.Until(f.caret.until); left > want || left < want-time.Second {
			t.Fatalf("%s: the caret blinks %v more, want %v", when, left, want)
		}
	}

	if held() == nil || !f.caret.blinking {
		t.Fatal("a field given the keyboard does not blink its caret")
	}
	caretShows(true, "given the keyboard")
	blinksFor(caretGlance, "given the keyboard")
	blink()
	caretShows(false, "half a blink later")
	blink()
	caretShows(true, "a whole blink later")

	// Left alone: the blink ends at the end of a shown half, and the caret
	// stays shown.
	f.caret.until = time.Now()
	blink()
	if f.caret.blinking {
		t.Fatal("the caret blinks on after its rest was due")
	}
	caretShows(true, "at rest")
	blink()
	caretShows(true, "a blink timed before the rest")

	// A key: shown, blinking again; a blink timed before the key does
	// nothing.
	stale := f.caret.wakes
	test.Type(f, "a")
	if !f.caret.blinking {
		t.Fatal("typing did not have the caret blink again")
	}
	caretShows(true, "at a key")
	blinksFor(caretRest, "at a key")
	f.caret.blink(&f.Entry, stale)
	caretShows(true, "a blink timed before the key")

	// The focus leaving: Fyne hides the caret and ends its animation, a
	// blink due then does nothing, and coming back blinks again.
	pending := f.caret.wakes
	w.Canvas().Focus(other)
	f.caret.blink(&f.Entry, pending)
	if _, caret, _ := fynefix.EntryCaret(&f.Entry); caret.Visible() || held() != nil || f.caret.blinking {
		t.Fatal("a field without the keyboard shows or blinks its caret")
	}
	w.Canvas().Focus(f)
	if held() == nil || !f.caret.blinking {
		t.Fatal("the caret does not blink when the keyboard comes back")
	}
	caretShows(true, "the keyboard back")
	blink()
	caretShows(false, "half a blink after the keyboard came back")

	// A click that gives the field the keyboard is the user's: the caret
	// blinks as long as after a key.
	w.Canvas().Focus(other)
	f.MouseDown(&desktop.MouseEvent{Button: desktop.MouseButtonPrimary, PointEvent: fyne.PointEvent{Position: fyne.NewPos(5, 5)}})
	f.MouseUp(&desktop.MouseEvent{Button: desktop.MouseButtonPrimary, PointEvent: fyne.PointEvent{Position: fyne.NewPos(5, 5)}})
	test.Tap(f)
	if w.Canvas().Focused() != f || !f.caret.blinking {
		t.Fatal("a click in the field does not blink its caret")
	}
	caretShows(true, "at a click")
	blinksFor(caretRest, "at a click")
}
