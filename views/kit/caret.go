package kit

import (
	"image/color"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/agentdesk/agentdesk/views/kit/fynefix"
)

const (
	// caretRest is how long a caret blinks after the last key or click, as
	// GTK does; then it shows solid so an idle window draws no frames.
	caretRest = 10 * time.Second
	// caretGlance is the blink on focus without a key or click: enough to
	// catch the eye, so an opened window soon rests.
	caretGlance = 3 * (caretShown + caretHidden)
	// caretShown and caretHidden are a blink's halves, as GTK's. Fyne's own
	// caret fades every frame, redrawing the window; this draws twice a cycle.
	caretShown  = 800 * time.Millisecond
	caretHidden = 400 * time.Millisecond
)

// Caret replaces Fyne's fading caret with one that blinks, then rests solid
// caretRest after the last Wake. Fields call Wake on keys and clicks, Focus
// after FocusGained, Sleep when focus leaves. UI goroutine only.
type Caret struct {
	wakes           int       // makes a blink timed before a later wake or sleep do nothing
	shown, blinking bool      // shown: this half shows it; blinking: neither resting nor asleep
	until           time.Time // when it rests
	timer           *time.Timer
}

// Wake shows e's caret solid and blinks it until caretRest from now. If
// Fyne's caret animation cannot be reached, Fyne's caret is left alone.
func (c *Caret) Wake(e *widget.Entry) { c.wake(e, caretRest) }

// Focus is Wake for gaining the keyboard, blinking for caretGlance only.
func (c *Caret) Focus(e *widget.Entry) { c.wake(e, caretGlance) }

// wake shows the caret and has it blink for d.
func (c *Caret) wake(e *widget.Entry, d time.Duration) {
	c.wakes++
	c.blinking = holdBlink(e)
	if !c.blinking {
		c.stopTimer()
		return
	}
	c.shown = true
	c.until = time.Now().Add(d)
	c.paint(e)
}

// Sleep forgets the blinking: the focus left and Fyne hides the caret.
func (c *Caret) Sleep() {
	c.wakes++
	c.blinking = false
	c.stopTimer()
}

func (c *Caret) stopTimer() {
	if c.timer != nil {
		c.timer.Stop()
	}
}

// next times the next half-blink. Only on a desktop driver: the test driver
// runs fyne.Do on the timer's goroutine.
func (c *Caret) next(e *widget.Entry, d time.Duration) {
	c.stopTimer()
	fa := fyne.CurrentApp()
	if fa == nil {
		return
	}
	if _, ok := fa.Driver().(desktop.Driver); !ok {
		return
	}
	wake := c.wakes
	c.timer = time.AfterFunc(d, func() { Do(func() { c.blink(e, wake) }) })
}

// blink flips the caret, or rests it shown after caretRest; a stale blink
// does nothing.
func (c *Caret) blink(e *widget.Entry, wake int) {
	if c.wakes != wake || !c.blinking {
		return
	}
	if !holdBlink(e) || c.shown && !time.Now().Before(c.until) {
		c.blinking = false
		return
	}
	c.shown = !c.shown
	c.paint(e)
}

// paint shows the caret for the half of the blink it is in and times the
// next half. holdBlink found the app just before.
func (c *Caret) paint(e *widget.Entry) {
	fill, half := color.Color(color.Transparent), caretHidden
	if c.shown {
		fill, half = e.Theme().Color(theme.ColorNamePrimary, fyne.CurrentApp().Settings().ThemeVariant()), caretShown
	}
	if _, caret, ok := fynefix.EntryCaret(e); ok && caret.FillColor != fill {
		caret.FillColor = fill
		caret.Refresh()
	}
	c.next(e, half)
}

// Field is Fyne's text field with a resting caret. Embedders overriding a
// method call Field's, not Entry's.
type Field struct {
	widget.Entry
	caret Caret
	// keyed is when a key last reached the field: a text release waits
	// for typing to pause (TextRelease).
	keyed time.Time
}

func (f *Field) TypedRune(r rune) {
	f.keyed = clockNow().Now()
	f.caret.Wake(&f.Entry)
	f.Entry.TypedRune(r)
}

// KeyDown wakes the caret: every key is pressed down first.
func (f *Field) KeyDown(ev *fyne.KeyEvent) {
	f.keyed = clockNow().Now()
	f.caret.Wake(&f.Entry)
	f.Entry.KeyDown(ev)
}

// TypedShortcut wakes the caret (a paste, Select all).
func (f *Field) TypedShortcut(s fyne.Shortcut) {
	f.keyed = clockNow().Now()
	f.caret.Wake(&f.Entry)
	f.Entry.TypedShortcut(s)
}

// lastKeyed is when a key last reached the field.
func (f *Field) lastKeyed() time.Time { return f.keyed }

// Tapped wakes the caret once the click gave the field the keyboard.
func (f *Field) Tapped(ev *fyne.PointEvent) {
	f.Entry.Tapped(ev)
	f.caret.Wake(&f.Entry)
}

// MouseDown wakes the caret when a selection starts.
func (f *Field) MouseDown(ev *desktop.MouseEvent) {
	f.Entry.MouseDown(ev)
	f.caret.Wake(&f.Entry)
}

// FocusGained blinks the caret once Fyne started its own.
func (f *Field) FocusGained() {
	f.Entry.FocusGained()
	f.caret.Focus(&f.Entry)
}

// FocusLost lets the caret sleep: Fyne hides it and ends its blinking.
func (f *Field) FocusLost() {
	f.caret.Sleep()
	f.Entry.FocusLost()
}

// holdBlink stops Fyne's caret animation, reporting whether there was one.
// It stays in place, so Fyne starts no other while focused.
func holdBlink(e *widget.Entry) bool {
	anim, _, ok := fynefix.EntryCaret(e)
	if !ok || anim == nil || fyne.CurrentApp() == nil {
		return false
	}
	anim.Stop()
	return true
}
