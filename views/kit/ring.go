package kit

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
)

// ringGap and ringWidth place the focus ring a little clear of its control,
// so it shows around a blue button as around a grey one.
const (
	ringGap   = 1
	ringWidth = 2
)

// ringRenderer draws a focus ring while focused: Fyne only tints a focused button.
type ringRenderer struct {
	fyne.WidgetRenderer
	ring    *canvas.Rectangle
	focused func() bool
	objs    []fyne.CanvasObject
}

// withRing wraps a widget's renderer with its focus ring.
func withRing(r fyne.WidgetRenderer, focused func() bool) fyne.WidgetRenderer {
	ring := canvas.NewRectangle(color.Transparent)
	ring.StrokeWidth = ringWidth
	rr := &ringRenderer{WidgetRenderer: r, ring: ring, focused: focused}
	rr.paint()
	return rr
}

func (r *ringRenderer) Objects() []fyne.CanvasObject { return r.objs }

func (r *ringRenderer) Layout(size fyne.Size) {
	r.WidgetRenderer.Layout(size)
	out := float32(ringGap + ringWidth)
	r.ring.Move(fyne.NewPos(-out, -out))
	r.ring.Resize(size.AddWidthHeight(2*out, 2*out))
}

func (r *ringRenderer) Refresh() {
	r.WidgetRenderer.Refresh()
	r.paint()
	r.ring.Refresh()
}

// paint colours the ring for focus and lists the widget's objects, then the ring.
func (r *ringRenderer) paint() {
	r.ring.FillColor, r.ring.StrokeColor = color.Transparent, color.Transparent
	r.ring.CornerRadius = theme.InputRadiusSize() + ringGap + ringWidth
	if r.focused() {
		r.ring.StrokeColor = theme.Color(theme.ColorNamePrimary)
	}
	r.objs = append(append(r.objs[:0], r.WidgetRenderer.Objects()...), r.ring)
}
