package kit

import (
	"reflect"
	"time"
	"unsafe"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// caretRest is how long a text field's caret blinks after the last key,
// click or focus: GTK's default (gtk-cursor-blink-timeout). A blinking
// caret has Fyne draw the whole window again many times a second, so a
// window left alone with the keyboard in a field would never rest: 1.6 MB
// of garbage a second, and a Go heap kept at twice its size (after 100
// chat replies, 28 MB more memory than with a caret at rest).
const caretRest = 10 * time.Second

// Caret rests a text field's caret: its blinking stops caretRest after
// Wake, until the next Wake. A field calls Wake on each key, click and
// focus, and Sleep when the focus leaves. UI goroutine only.
type Caret struct {
	// wakes counts the wakes, so that a rest due after a later wake or
	// the focus leaving does nothing; resting tells the caret rests now.
	wakes   int
	resting bool
	timer   *time.Timer
}

// Wake has e's caret blink again and rest caretRest from now.
func (c *Caret) Wake(e *widget.Entry) {
	if c.resting {
		c.resting = false
		restartBlink(e)
	}
	c.wakes++
	wake := c.wakes
	if c.timer != nil {
		c.timer.Stop()
	}
	c.timer = time.AfterFunc(caretRest, func() { Do(func() { c.rest(e, wake) }) })
}

// Sleep forgets the rest due: the focus left and Fyne ends the blinking.
func (c *Caret) Sleep() {
	c.wakes++
	c.resting = false
	if c.timer != nil {
		c.timer.Stop()
	}
}

// rest stops the blinking, unless a later wake or the focus leaving made
// this rest stale.
func (c *Caret) rest(e *widget.Entry, wake int) {
	if c.wakes == wake && !c.resting {
		c.resting = stopBlink(e)
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

// Tapped wakes the caret where the click put it.
func (f *Field) Tapped(ev *fyne.PointEvent) {
	f.caret.Wake(&f.Entry)
	f.Entry.Tapped(ev)
}

// MouseDown wakes the caret when a selection starts.
func (f *Field) MouseDown(ev *desktop.MouseEvent) {
	f.caret.Wake(&f.Entry)
	f.Entry.MouseDown(ev)
}

// FocusGained wakes the caret.
func (f *Field) FocusGained() {
	f.caret.Wake(&f.Entry)
	f.Entry.FocusGained()
}

// FocusLost lets the caret sleep: Fyne hides it and ends its blinking.
func (f *Field) FocusLost() {
	f.caret.Sleep()
	f.Entry.FocusLost()
}

// blinkOf is the entry's caret animation: the fyne.Animation in its
// animation field (nil while it does not blink) and the caret, read from
// Fyne's entry, which offers no way to rest it. ok is false when a later
// Fyne names them otherwise: the caret then blinks as Fyne has it.
func blinkOf(e *widget.Entry) (anim reflect.Value, caret *canvas.Rectangle, ok bool) {
	a := reflect.ValueOf(e).Elem().FieldByName("cursorAnim")
	if !a.IsValid() || a.Kind() != reflect.Pointer || a.IsNil() {
		return reflect.Value{}, nil, false
	}
	anim, cur := a.Elem().FieldByName("anim"), a.Elem().FieldByName("cursor")
	if anim.Type() != reflect.TypeFor[*fyne.Animation]() || cur.Type() != reflect.TypeFor[*canvas.Rectangle]() || cur.IsNil() {
		return reflect.Value{}, nil, false
	}
	anim = reflect.NewAt(anim.Type(), unsafe.Pointer(anim.UnsafeAddr())).Elem()
	return anim, reflect.NewAt(cur.Type(), unsafe.Pointer(cur.UnsafeAddr())).Elem().Interface().(*canvas.Rectangle), true
}

// stopBlink ends the caret's blinking and shows it solid, reporting
// whether it was blinking. The stopped animation stays in its place, so
// that Fyne does not start another until restartBlink.
func stopBlink(e *widget.Entry) bool {
	anim, caret, ok := blinkOf(e)
	fa := fyne.CurrentApp()
	if !ok || anim.IsNil() || fa == nil {
		return false
	}
	anim.Interface().(*fyne.Animation).Stop()
	caret.FillColor = e.Theme().Color(theme.ColorNamePrimary, fa.Settings().ThemeVariant())
	caret.Refresh()
	return true
}

// restartBlink has Fyne start the caret's blinking again.
func restartBlink(e *widget.Entry) {
	anim, _, ok := blinkOf(e)
	if !ok {
		return
	}
	anim.Set(reflect.Zero(anim.Type()))
	e.Refresh()
}
