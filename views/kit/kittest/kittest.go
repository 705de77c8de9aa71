// Package kittest helps test one screen alone with Fyne's test driver.
package kittest

import (
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/views/kit"
)

// Children are the objects a user sees inside o.
func Children(o fyne.CanvasObject) []fyne.CanvasObject {
	switch v := o.(type) {
	case *fyne.Container:
		return v.Objects
	case *container.Scroll:
		return []fyne.CanvasObject{v.Content}
	case fyne.Widget:
		return test.WidgetRenderer(v).Objects()
	}
	return nil
}

// FindButton returns the first visible button with text under o, or nil.
func FindButton(o fyne.CanvasObject, text string) *widget.Button {
	b, ok := o.(*widget.Button)
	if kb, isKit := o.(*kit.Button); isKit {
		b, ok = &kb.Button, true
	}
	if pb, isPaid := o.(*kit.PaidButton); isPaid {
		b, ok = &pb.Button.Button, true
	}
	if ok {
		if b.Text == text && b.Visible() {
			return b
		}
		return nil
	}
	for _, c := range Children(o) {
		if b := FindButton(c, text); b != nil {
			return b
		}
	}
	return nil
}

// Labels is the text of every label under o, a line each.
func Labels(o fyne.CanvasObject) string { return texts(o, false) }

// AllText is Labels including widgets' insides: dialogs, popups.
func AllText(o fyne.CanvasObject) string { return texts(o, true) }

func texts(o fyne.CanvasObject, deep bool) string {
	if t, ok := kit.LineText(o); ok {
		return t + "\n"
	}
	var b strings.Builder
	switch v := o.(type) {
	case *widget.Label:
		return v.Text + "\n"
	case *widget.RichText:
		// Its words, then (deep) what its segments draw (a picture's line).
		b.WriteString(v.String() + "\n")
		if !deep {
			return b.String()
		}
	case *widget.Form:
		if !deep {
			for _, it := range v.Items {
				b.WriteString(it.Text + ": " + texts(it.Widget, false))
			}
			return b.String()
		}
	case *fyne.Container, *container.Scroll:
	default:
		if !deep {
			return ""
		}
	}
	for _, c := range Children(o) {
		b.WriteString(texts(c, deep))
	}
	return b.String()
}

// Find returns the first object of type T under o, or the zero T.
func Find[T fyne.CanvasObject](o fyne.CanvasObject) T {
	if v, ok := o.(T); ok {
		return v
	}
	for _, c := range Children(o) {
		if v := Find[T](c); any(v) != nil && !isNil(v) {
			return v
		}
	}
	var zero T
	return zero
}

// FindAll are the objects of type T shown under o, in order.
func FindAll[T fyne.CanvasObject](o fyne.CanvasObject) []T {
	var out []T
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if v, ok := o.(T); ok {
			if o.Visible() {
				out = append(out, v)
			}
			return
		}
		for _, c := range Children(o) {
			walk(c)
		}
	}
	walk(o)
	return out
}

func isNil(o fyne.CanvasObject) bool {
	v := reflect.ValueOf(o)
	return !v.IsValid() || (v.Kind() == reflect.Pointer && v.IsNil())
}

// AbsolutePos is o's position inside root; zero when o is not under root.
func AbsolutePos(o, root fyne.CanvasObject) fyne.Position {
	var find func(at fyne.Position, c fyne.CanvasObject) (fyne.Position, bool)
	find = func(at fyne.Position, c fyne.CanvasObject) (fyne.Position, bool) {
		if c == o {
			return at, true
		}
		for _, ch := range Children(c) {
			if p, ok := find(at.Add(ch.Position()), ch); ok {
				return p, true
			}
		}
		return fyne.Position{}, false
	}
	p, _ := find(fyne.Position{}, root)
	return p
}

// CountingWindow counts how often its content was set (kit.ReleaseText).
type CountingWindow struct {
	fyne.Window
	Sets atomic.Int64
}

func (w *CountingWindow) SetContent(o fyne.CanvasObject) {
	w.Sets.Add(1)
	w.Window.SetContent(o)
}

// DialogWindow is a window whose dialogs answer to keys, as Agent Desk's.
func DialogWindow(t *testing.T) fyne.Window {
	test.NewTempApp(t)
	w := test.NewTempWindow(t, widget.NewLabel("behind"))
	w.Resize(fyne.NewSize(800, 600))
	kit.AnswerDialogKeys(w)
	return w
}
