// Package fynefix reaches into Fyne's private fields where Fyne offers no
// way to do what Agent Desk needs. It is the only package that does: each
// reach is checked by a test that fails when the pinned Fyne renames or
// retypes the field, and names the upstream change that would retire it.
// When a field is not found every function reports so instead of
// panicking, and the caller falls back to Fyne's own behaviour.
package fynefix

import (
	"reflect"
	"unsafe"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"
)

// ListFocus is the row the keyboard is on in l (List.currentFocus): the
// row Up and Down move from and Space selects.
// Retired by an exported focused item on widget.List (fyne-io/fyne#4131).
func ListFocus(l *widget.List) (widget.ListItemID, bool) {
	f := field(reflect.ValueOf(l).Elem(), "currentFocus")
	if !f.IsValid() || !f.CanInt() {
		return 0, false
	}
	return widget.ListItemID(f.Int()), true
}

// SetListFocus puts the keyboard on row id of l, as a click on it does;
// Fyne moves it only on a click or a key, not on Select.
// Retired by the same change as ListFocus.
func SetListFocus(l *widget.List, id widget.ListItemID) bool {
	f := field(reflect.ValueOf(l).Elem(), "currentFocus")
	if !f.IsValid() || !f.CanInt() {
		return false
	}
	f.SetInt(int64(id))
	return true
}

// ListScroller is the scroller l keeps its rows in (nil before l is first
// drawn): refreshing it alone lays out rows added at the end, where
// List.Refresh makes a new row to measure and drops the rows kept aside.
// Retired by a List method that shows appended rows without re-measuring.
func ListScroller(l *widget.List) fyne.Widget {
	f := field(reflect.ValueOf(l).Elem(), "scroller")
	if !f.IsValid() || f.Kind() != reflect.Pointer || f.IsNil() {
		return nil
	}
	s, _ := f.Interface().(fyne.Widget)
	return s
}

// EntryCaret is e's caret and the animation that fades it (anim is nil
// while it does not blink). ok is false before e first had the keyboard.
// Fyne redraws the whole window for each step of that fade and offers no
// way to rest it.
// Retired by a caret that can stop blinking (fyne-io/fyne#4508).
func EntryCaret(e *widget.Entry) (anim *fyne.Animation, caret *canvas.Rectangle, ok bool) {
	a := field(reflect.ValueOf(e).Elem(), "cursorAnim")
	if !a.IsValid() || a.Kind() != reflect.Pointer || a.IsNil() {
		return nil, nil, false
	}
	an, cur := field(a.Elem(), "anim"), field(a.Elem(), "cursor")
	if !an.IsValid() || !cur.IsValid() || an.Type() != reflect.TypeFor[*fyne.Animation]() ||
		cur.Type() != reflect.TypeFor[*canvas.Rectangle]() || cur.IsNil() {
		return nil, nil, false
	}
	return an.Interface().(*fyne.Animation), cur.Interface().(*canvas.Rectangle), true
}

// field is the named field of struct v, made readable and writable
// although unexported; the zero Value when v has no such field.
func field(v reflect.Value, name string) reflect.Value {
	f := v.FieldByName(name)
	if !f.IsValid() || !f.CanAddr() {
		return reflect.Value{}
	}
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}
