// Package fynefix reaches into Fyne's private fields where Fyne offers no
// way; the only package that does. Each reach has a test that fails when the
// pinned Fyne changes the field; when one is missing the caller falls back
// to Fyne's own behaviour.
package fynefix

import (
	"reflect"
	"unsafe"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"
)

// ListFocus is the keyboard's row in l (List.currentFocus).
// Retired by an exported focused item on widget.List (fyne-io/fyne#4131).
func ListFocus(l *widget.List) (widget.ListItemID, bool) {
	f, ok := listFocus(l)
	if !ok {
		return 0, false
	}
	return widget.ListItemID(f.Int()), true
}

// SetListFocus puts the keyboard on row id; Fyne moves it only on a click or key.
// Retired by the same change as ListFocus.
func SetListFocus(l *widget.List, id widget.ListItemID) bool {
	f, ok := listFocus(l)
	if ok {
		f.SetInt(int64(id))
	}
	return ok
}

func listFocus(l *widget.List) (reflect.Value, bool) {
	f := field(reflect.ValueOf(l).Elem(), "currentFocus")
	return f, f.IsValid() && f.CanInt()
}

// ListScroller is l's scroller (nil before drawn): refreshing it shows appended rows cheaply.
// Retired by a List method that shows appended rows without re-measuring.
func ListScroller(l *widget.List) fyne.Widget {
	f := field(reflect.ValueOf(l).Elem(), "scroller")
	if !f.IsValid() || f.Kind() != reflect.Pointer || f.IsNil() {
		return nil
	}
	s, _ := f.Interface().(fyne.Widget)
	return s
}

// EntryCaret is e's caret and its fade animation (nil when not blinking); ok is
// false before e first had the keyboard. Fyne redraws the window per fade step.
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

// field is v's named field, made settable though unexported; zero if absent.
func field(v reflect.Value, name string) reflect.Value {
	f := v.FieldByName(name)
	if !f.IsValid() || !f.CanAddr() {
		return reflect.Value{}
	}
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}
