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

// caretRest is how long a text field's caret blinks after the last key or
// click in it: GTK's default (gtk-cursor-blink-timeout). After it the
// caret shows solid until the next key, so a window left alone with the
// keyboard in a field rests: no frame is drawn while nobody touches it.
const caretRest = 10 * time.Second

// caretGlance is how long a caret blinks when its field gets the keyboard
// without a key or click in it (a screen opening, Tab): three blinks, enough
// to catch the eye, so that a window opened and left alone soon rests.
const caretGlance = 3 * (caretShown + caretHidden)

// caretShown and caretHidden are the two halves of a blink, GTK's
// (gtk-cursor-blink-time, 1.2 s: shown two thirds, hidden one third).
// Fyne's own caret fades through many colours every half second, each a
// whole window drawn again with the animation ticking every frame; this
// blink draws the window twice a cycle.
const (
	caretShown  = 800 * time.Millisecond
	caretHidden = 400 * time.Millisecond
)

// Caret blinks a text field's caret and rests it: it takes over from
// Fyne's fading caret when the field gets the keyboard, shows the caret
// solid at each Wake, blinks it, and stops blinking caretRest after the
// last Wake, with the caret shown. A field calls Wake on each key and click,
// Focus when the focus comes (after Fyne's FocusGained), and Sleep when
// the focus leaves. UI goroutine only.
type Caret struct {
	// wakes counts the wakes and sleeps, so that a blink timed before a
	// later wake or the focus leaving does nothing.
	wakes int
	// shown tells the caret shows in this half of the blink; blinking
	// that the caret blinks (it neither rests nor sleeps); until is when
	// it rests.
	shown, blinking bool
	until           time.Time
	timer           *time.Timer
}

// Wake shows e's caret solid and has it blink from caretShown on, until
// caretRest from now. While Fyne's caret animation cannot be reached (a
// later Fyne naming it otherwise, animations turned off) the caret is left
// as Fyne has it.
func (c *Caret) Wake(e *widget.Entry) { c.wake(e, caretRest) }

// Focus is Wake for the field getting the keyboard: the caret blinks for
// caretGlance only.
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
	c.showCaret(e)
	c.next(e, caretShown)
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

// next times the next half of the blink, after d. Only a desktop driver
// times it: Fyne's test driver runs fyne.Do on the timer's goroutine, and
// ticks an animation once only, so that its carets stand still.
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

// blink turns the caret to its other half, or rests it shown once
// caretRest has passed. A blink timed before a later wake or sleep does
// nothing.
func (c *Caret) blink(e *widget.Entry, wake int) {
	if c.wakes != wake || !c.blinking {
		return
	}
	if !holdBlink(e) {
		c.blinking = false
		return
	}
	if c.shown && !time.Now().Before(c.until) {
		c.blinking = false
		return
	}
	c.shown = !c.shown
	c.showCaret(e)
	if c.shown {
		c.next(e, caretShown)
	} else {
		c.next(e, caretHidden)
	}
}

// showCaret paints the caret for the half of the blink it is in.
func (c *Caret) showCaret(e *widget.Entry) {
	_, caret, ok := fynefix.EntryCaret(e)
	fa := fyne.CurrentApp()
	if !ok || fa == nil {
		return
	}
	var fill color.Color = color.Transparent
	if c.shown {
		fill = e.Theme().Color(theme.ColorNamePrimary, fa.Settings().ThemeVariant())
	}
	if caret.FillColor != fill {
		caret.FillColor = fill
		caret.Refresh()
	}
}

// Field is Fyne's text field whose caret rests (Caret). Every text field
// of Agent Desk is one, or wakes a Caret of its own (the date field).
// Types that embed it and override one of its methods call Field's, not
// Entry's.
type Field struct {
	widget.Entry
	caret Caret
}

// TypedRune wakes the caret.
func (f *Field) TypedRune(r rune) {
	f.caret.Wake(&f.Entry)
	f.Entry.TypedRune(r)
}

// KeyDown wakes the caret: every key is pressed down first.
func (f *Field) KeyDown(ev *fyne.KeyEvent) {
	f.caret.Wake(&f.Entry)
	f.Entry.KeyDown(ev)
}

// TypedShortcut wakes the caret (a paste, Select all).
func (f *Field) TypedShortcut(s fyne.Shortcut) {
	f.caret.Wake(&f.Entry)
	f.Entry.TypedShortcut(s)
}

// Tapped wakes the caret where the click put it, once the click gave the
// field the keyboard.
func (f *Field) Tapped(ev *fyne.PointEvent) {
	f.Entry.Tapped(ev)
	f.caret.Wake(&f.Entry)
}

// MouseDown wakes the caret when a selection starts.
func (f *Field) MouseDown(ev *desktop.MouseEvent) {
	f.Entry.MouseDown(ev)
	f.caret.Wake(&f.Entry)
}

// FocusGained blinks the caret (Caret.Focus), once Fyne has started its
// own.
func (f *Field) FocusGained() {
	f.Entry.FocusGained()
	f.caret.Focus(&f.Entry)
}

// FocusLost lets the caret sleep: Fyne hides it and ends its blinking.
func (f *Field) FocusLost() {
	f.caret.Sleep()
	f.Entry.FocusLost()
}

// holdBlink stops Fyne's fading caret animation, reporting whether the
// field has one, that is, whether it has the keyboard and animations are
// on. The stopped animation stays in its place, so that Fyne does not start
// another while the field keeps the keyboard: Caret blinks the caret.
func holdBlink(e *widget.Entry) bool {
	anim, _, ok := fynefix.EntryCaret(e)
	if !ok || anim == nil || fyne.CurrentApp() == nil {
		return false
	}
	anim.Stop()
	return true
}
