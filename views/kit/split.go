package kit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Split shows leading and trailing side by side, leading taking offset of
// the width, with a divider between them that the mouse drags. It is not
// Fyne's split, which moves its divider whenever a pane asks for more width
// and draws its grip in the colour of text: restyling that grip took theme
// overrides, and Fyne parses every font again for each override's scope,
// a new scope at each refresh (hundreds of MB over a day of chats; see
// docs/upstream/theme-override-fonts.md). Each pane asks for at most
// paneMinWidth, so the divider stays where it was put.
func Split(leading, trailing fyne.CanvasObject, offset float64) fyne.CanvasObject {
	pane := func(o fyne.CanvasObject) fyne.CanvasObject {
		return &fyne.Container{Layout: fillLayout(func(shown fyne.CanvasObject) fyne.Size {
			if !shown.Visible() {
				return fyne.Size{}
			}
			return CapSize(shown.MinSize(), fyne.NewSize(TextScaledWidth(paneMinWidth), 0))
		}), Objects: []fyne.CanvasObject{o}}
	}
	l := &splitLayout{offset: min(max(offset, 0), 1)}
	d := &divider{layout: l}
	d.ExtendBaseWidget(d)
	d.split = &fyne.Container{Layout: l, Objects: []fyne.CanvasObject{pane(leading), d, pane(trailing)}}
	return d.split
}

// splitLayout lays out a leading pane, the divider and a trailing pane.
type splitLayout struct{ offset float64 }

func (l *splitLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var size fyne.Size
	for _, o := range objects {
		m := o.MinSize()
		size = fyne.NewSize(size.Width+m.Width, max(size.Height, m.Height))
	}
	return size
}

func (l *splitLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	lead, div, trail := objects[0], objects[1], objects[2]
	dw := div.MinSize().Width
	room := max(size.Width-dw, 0)
	x := l.leadingWidth(lead.MinSize().Width, trail.MinSize().Width, room)
	lead.Move(fyne.NewPos(0, 0))
	lead.Resize(fyne.NewSize(x, size.Height))
	div.Move(fyne.NewPos(x, 0))
	div.Resize(fyne.NewSize(dw, size.Height))
	trail.Move(fyne.NewPos(x+dw, 0))
	trail.Resize(fyne.NewSize(room-x, size.Height))
}

// leadingWidth is the leading pane's share of room, as far as both panes'
// least widths let it be.
func (l *splitLayout) leadingWidth(leadMin, trailMin, room float32) float32 {
	x := float32(l.offset) * room
	x = min(x, room-trailMin)
	return min(max(x, leadMin), room)
}

// divider is the bar between a Split's panes: dragged, it moves.
type divider struct {
	widget.BaseWidget
	layout  *splitLayout
	split   *fyne.Container
	hovered bool
}

var (
	_ fyne.Draggable     = (*divider)(nil)
	_ desktop.Cursorable = (*divider)(nil)
	_ desktop.Hoverable  = (*divider)(nil)
)

func (d *divider) Cursor() desktop.Cursor { return desktop.HResizeCursor }

// Dragged moves the divider to the pointer, the panes with it.
func (d *divider) Dragged(e *fyne.DragEvent) {
	room := d.split.Size().Width - d.Size().Width
	if room <= 0 {
		return
	}
	x := d.Position().X + e.Position.X - d.Size().Width/2
	d.layout.offset = float64(min(max(x/room, 0), 1))
	d.layout.Layout(d.split.Objects, d.split.Size())
	canvas.Refresh(d.split)
}

func (d *divider) DragEnd() {}

func (d *divider) MouseIn(*desktop.MouseEvent) { d.hovered = true; d.Refresh() }

func (d *divider) MouseMoved(*desktop.MouseEvent) {}

func (d *divider) MouseOut() { d.hovered = false; d.Refresh() }

func (d *divider) CreateRenderer() fyne.WidgetRenderer {
	r := &dividerRenderer{d: d, back: canvas.NewRectangle(nil), grip: canvas.NewRectangle(nil)}
	r.Refresh()
	return r
}

// dividerRenderer draws the bar in the colour of shadows (of hovering under
// the mouse) and its grip in the colour of a field's border: a grip in the
// colour of text reads as a stray caret.
type dividerRenderer struct {
	d          *divider
	back, grip *canvas.Rectangle
}

func (r *dividerRenderer) Destroy() {}

func (r *dividerRenderer) Layout(size fyne.Size) {
	pad := r.d.Theme().Size(theme.SizeNamePadding)
	r.back.Resize(size)
	r.grip.Move(fyne.NewPos((size.Width-pad/2)/2, (size.Height-pad*4)/2))
	r.grip.Resize(fyne.NewSize(pad/2, pad*4))
}

func (r *dividerRenderer) MinSize() fyne.Size {
	pad := r.d.Theme().Size(theme.SizeNamePadding)
	return fyne.NewSize(pad*2, pad*6)
}

func (r *dividerRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.back, r.grip}
}

func (r *dividerRenderer) Refresh() {
	th, v := r.d.Theme(), fyne.CurrentApp().Settings().ThemeVariant()
	back := theme.ColorNameShadow
	if r.d.hovered {
		back = theme.ColorNameHover
	}
	r.back.FillColor = th.Color(back, v)
	r.grip.FillColor = th.Color(theme.ColorNameInputBorder, v)
	r.back.Refresh()
	r.grip.Refresh()
	r.Layout(r.d.Size())
}
