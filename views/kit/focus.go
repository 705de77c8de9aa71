package kit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Fyne moves the keyboard with Tab but never scrolls to it, so controls call
// ShowFocused from FocusGained.

// ShowFocused scrolls o into view in every scroll around it, as a browser does.
func ShowFocused(o fyne.CanvasObject) {
	a := fyne.CurrentApp()
	if a == nil {
		return
	}
	d := a.Driver()
	c := d.CanvasForObject(o)
	if c == nil {
		return
	}
	scrolls, found := scrollsAround(c.Content(), o, nil)
	for _, top := range c.Overlays().List() {
		if !found {
			scrolls, found = scrollsAround(top, o, nil)
		}
	}
	at, size := d.AbsolutePositionForObject(o), o.Size()
	for _, s := range scrolls {
		// Where o is in the scroll's content.
		rel := at.Subtract(d.AbsolutePositionForObject(s.Content))
		view, off, pad := s.Size().Height, s.Offset.Y, theme.Padding()
		switch {
		case rel.Y-pad < off:
			off = rel.Y - pad
		case rel.Y+size.Height+pad > off+view:
			off = min(rel.Y+size.Height+pad-view, rel.Y-pad)
		}
		off = max(0, min(off, s.Content.Size().Height-view))
		if off != s.Offset.Y {
			s.ScrollToOffset(fyne.NewPos(s.Offset.X, off))
		}
	}
}

// scrollsAround are the scrolls from root to o, outermost first.
func scrollsAround(root, o fyne.CanvasObject, path []*container.Scroll) (scrolls []*container.Scroll, found bool) {
	if root == nil || !root.Visible() {
		return nil, false
	}
	if root == o {
		return path, true
	}
	if s, ok := root.(*container.Scroll); ok && s.Content != nil {
		path = append(path[:len(path):len(path)], s)
	}
	for _, p := range parts(root) {
		if scrolls, found := scrollsAround(p, o, path); found {
			return scrolls, true
		}
	}
	return nil, false
}

// parts are the objects o shows that can be looked into without drawing.
func parts(o fyne.CanvasObject) []fyne.CanvasObject {
	switch v := o.(type) {
	case *fyne.Container:
		return v.Objects
	case *container.Scroll:
		return []fyne.CanvasObject{v.Content}
	case *widget.Form:
		out := make([]fyne.CanvasObject, 0, len(v.Items))
		for _, it := range v.Items {
			out = append(out, it.Widget)
		}
		return out
	case Wrapper:
		return []fyne.CanvasObject{v.Unwrap()}
	}
	return nil
}

func OnScreen(o fyne.CanvasObject) bool {
	c := canvasOf(o)
	return c != nil && contains(c.Content(), o)
}

func contains(root, o fyne.CanvasObject) bool {
	if root == nil {
		return false
	}
	if root == o {
		return true
	}
	for _, p := range parts(root) {
		if contains(p, o) {
			return true
		}
	}
	return false
}

// FocusFirst focuses the first control shown in o, or unfocuses when none,
// lest a hidden tab's control keep the keys unseen.
func FocusFirst(c fyne.Canvas, o fyne.CanvasObject) {
	if f := firstFocusable(o); f != nil {
		c.Focus(f)
		// A screen just shown is placed when the window next lays out:
		// scroll to the control then, when it still has the keyboard.
		if w, ok := f.(fyne.CanvasObject); ok {
			Do(func() {
				if c.Focused() == f {
					ShowFocused(w)
				}
			})
		}
		return
	}
	c.Unfocus()
}

// Wrapper is a widget showing one object that FocusFirst looks inside.
type Wrapper interface {
	Unwrap() fyne.CanvasObject
}

func firstFocusable(o fyne.CanvasObject) fyne.Focusable {
	if o == nil || !o.Visible() {
		return nil
	}
	if d, ok := o.(fyne.Disableable); ok && d.Disabled() {
		return nil
	}
	if f, ok := o.(fyne.Focusable); ok {
		return f
	}
	for _, p := range parts(o) {
		if f := firstFocusable(p); f != nil {
			return f
		}
	}
	return nil
}
