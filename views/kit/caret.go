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

// Field is Fyne's text field whose caret stops blinking caretRest after
// the last key, click or focus, and shows solid until the next one; it then
// blinks again. Every text field of Agent Desk is one. Types that embed it
// and override one of its methods call Field's, not Entry's.
type Field struct {
	widget.Entry
	// rest is UI goroutine only: the wake the pending rest belongs to
	// (a later wake or the focus leaving makes it stale), and whether the
	// caret rests now.
	wakes   int
	resting bool
	timer   *time.Timer
}

// wake has the caret blink again and rest caretRest from now.
func (f *Field) wake() {
	if f.resting {
		f.resting = false
		restartBlink(&f.Entry)
	}
	f.wakes++
	wake := f.wakes
	if f.timer != nil {
		f.timer.Stop()
	}
	f.timer = time.AfterFunc(caretRest, func() { Do(func() { f.rest(wake) }) })
}

// rest stops the blinking, unless a later wake or the focus leaving made
// this rest stale.
func (f *Field) rest(wake int) {
	if f.wakes == wake && !f.resting {
		f.resting = stopBlink(&f.Entry)
	}
}

// TypedRune wakes the caret.
func (f *Field) TypedRune(r rune) {
	f.wake()
	f.Entry.TypedRune(r)
}

// KeyDown wakes the caret: every key is pressed down first.
func (f *Field) KeyDown(ev *fyne.KeyEvent) {
	f.wake()
	f.Entry.KeyDown(ev)
}

// TypedShortcut wakes the caret (a paste, Select all).
func (f *Field) TypedShortcut(s fyne.Shortcut) {
	f.wake()
	f.Entry.TypedShortcut(s)
}

// Tapped wakes the caret where the click put it.
func (f *Field) Tapped(ev *fyne.PointEvent) {
	f.wake()
	f.Entry.Tapped(ev)
}

// MouseDown wakes the caret when a selection starts.
func (f *Field) MouseDown(ev *desktop.MouseEvent) {
	f.wake()
	f.Entry.MouseDown(ev)
}

// FocusGained wakes the caret.
func (f *Field) FocusGained() {
	f.wake()
	f.Entry.FocusGained()
}

// FocusLost forgets the rest: Fyne hides the caret and ends its blinking.
func (f *Field) FocusLost() {
	f.wakes++
	f.resting = false
	if f.timer != nil {
		f.timer.Stop()
	}
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
