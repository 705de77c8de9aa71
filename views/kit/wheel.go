package kit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// Fyne gives the wheel to the deepest scroll under the pointer. A one-line
// field has a scroll of its own, which keeps the wheel though one line
// cannot move up or down, so a form stopped scrolling whenever the pointer
// crossed one of its fields. A one-line FormEntry lays a wheelPass over
// itself, which Fyne finds last, and which hands the wheel to the scroll
// around the field.

// wheelRenderer is a field's renderer with a wheelPass laid over it.
type wheelRenderer struct {
	fyne.WidgetRenderer
	pass *wheelPass
	objs []fyne.CanvasObject
}

func (r *wheelRenderer) Layout(size fyne.Size) {
	r.WidgetRenderer.Layout(size)
	r.pass.Resize(size)
}

func (r *wheelRenderer) Objects() []fyne.CanvasObject {
	r.objs = append(append(r.objs[:0], r.WidgetRenderer.Objects()...), r.pass)
	return r.objs
}

// wheelPass takes nothing but the wheel: clicks, drags and the pointer's
// shape go on to the field under it.
type wheelPass struct {
	widget.BaseWidget
	field fyne.CanvasObject
}

func newWheelPass(field fyne.CanvasObject) *wheelPass {
	p := &wheelPass{field: field}
	p.ExtendBaseWidget(p)
	return p
}

func (p *wheelPass) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(&fyne.Container{})
}

func (p *wheelPass) MinSize() fyne.Size { return fyne.Size{} }

// Scrolled gives the wheel to the innermost scroll around the field.
func (p *wheelPass) Scrolled(ev *fyne.ScrollEvent) {
	c := canvasOf(p.field)
	if c == nil {
		return
	}
	root := c.Content()
	if top := c.Overlays().Top(); top != nil {
		root = top
	}
	if s, _ := scrollAround(root, p.field, nil); s != nil {
		s.Scrolled(ev)
	}
}

// scrollAround is the innermost scroll holding field under o, within
// around (the innermost met on the way to o); found is false when field is
// not under o.
func scrollAround(o, field fyne.CanvasObject, around fyne.Scrollable) (_ fyne.Scrollable, found bool) {
	if o == nil || !o.Visible() {
		return nil, false
	}
	if o == field {
		return around, true
	}
	kids := settleChildren(o)
	switch v := o.(type) {
	case *Scroller:
		around, kids = v, []fyne.CanvasObject{v.Content}
	case *container.Scroll:
		around = v
	}
	for _, k := range kids {
		if s, ok := scrollAround(k, field, around); ok {
			return s, true
		}
	}
	return nil, false
}
