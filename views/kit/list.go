package kit

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/views/kit/fynefix"
)

// List is Fyne's list with a focus ring on the keyboard's row (Fyne only
// tints it), so Up, Down and Space can be followed.
type List struct {
	widget.List
	focused bool
	ringed  *listRow
}

func NewList(length func() int, create func() fyne.CanvasObject, update func(widget.ListItemID, fyne.CanvasObject)) *List {
	l := &List{}
	l.Length = length
	l.CreateItem = func() fyne.CanvasObject { return newListRow(create()) }
	l.UpdateItem = func(id widget.ListItemID, o fyne.CanvasObject) {
		row := o.(*listRow)
		update(id, row.content)
		l.ring(row, l.focused && id == l.keyboardRow())
	}
	l.ExtendBaseWidget(l)
	return l
}

// keyboardRow is the row Up, Down and Space act on; -1 if Fyne hides it.
// KeyboardRow is the row the keyboard is on, -1 when none.
func (l *List) KeyboardRow() widget.ListItemID { return l.keyboardRow() }

func (l *List) keyboardRow() widget.ListItemID {
	if id, ok := fynefix.ListFocus(&l.List); ok {
		return id
	}
	return -1
}

// moveKeyboardRow puts the keyboard on row id: after Select, Down would go on
// from far away, and after shrinking Space would do nothing.
func (l *List) moveKeyboardRow(id widget.ListItemID) {
	if cur, ok := fynefix.ListFocus(&l.List); ok && cur != id {
		fynefix.SetListFocus(&l.List, id)
	}
}

// Select selects row id and puts the keyboard on it, as a click does.
func (l *List) Select(id widget.ListItemID) {
	l.moveKeyboardRow(id)
	l.List.Select(id)
}

// Refresh shows the rows again, the keyboard kept within them.
func (l *List) Refresh() {
	n := 0
	if l.Length != nil {
		n = l.Length()
	}
	if l.keyboardRow() >= n {
		l.moveKeyboardRow(max(n-1, 0))
	}
	l.List.Refresh()
}

// Grew shows rows appended with earlier rows unchanged, without Refresh's
// re-measure and dropped row cache.
func (l *List) Grew() {
	if s := fynefix.ListScroller(&l.List); s != nil {
		s.Refresh()
		return
	}
	l.Refresh()
}

// ring puts the ring on row, or takes it off; one row has it at most.
func (l *List) ring(row *listRow, on bool) {
	switch {
	case on && l.ringed != row:
		if l.ringed != nil {
			l.ringed.show(false)
		}
		l.ringed = row
	case !on && l.ringed == row:
		l.ringed = nil
	}
	row.show(on)
}

// TypedKey opens the keyboard's row on Enter, as Space does.
func (l *List) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyReturn || ev.Name == fyne.KeyEnter {
		ev = &fyne.KeyEvent{Name: fyne.KeySpace}
	}
	l.List.TypedKey(ev)
}

func (l *List) FocusGained() {
	l.focused = true
	l.List.FocusGained()
	ShowFocused(l)
	// A click focuses the list before Fyne moves its row: ring again after.
	Do(func() {
		if l.focused {
			l.RefreshItem(l.keyboardRow())
		}
	})
}

func (l *List) FocusLost() {
	l.focused = false
	if l.ringed != nil {
		l.ring(l.ringed, false)
	}
	l.List.FocusLost()
}

// listRow is a list row's content with the ring drawn along its edges.
type listRow struct {
	widget.BaseWidget
	content fyne.CanvasObject
	ring    *canvas.Rectangle
}

func newListRow(content fyne.CanvasObject) *listRow {
	r := &listRow{content: content, ring: canvas.NewRectangle(color.Transparent)}
	r.ring.StrokeWidth = ringWidth
	r.ExtendBaseWidget(r)
	return r
}

func (r *listRow) show(on bool) {
	c := color.Color(color.Transparent)
	if on {
		c = theme.Color(theme.ColorNamePrimary)
	}
	r.ring.CornerRadius = theme.InputRadiusSize()
	if r.ring.StrokeColor == c {
		return
	}
	r.ring.StrokeColor = c
	r.ring.Refresh()
}

// CreateRenderer lays the ring inside the row's edges: the list clips outside it.
func (r *listRow) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewStack(r.content, r.ring))
}

// RowContent is what create made for one of a List's row objects.
func RowContent(o fyne.CanvasObject) fyne.CanvasObject {
	if r, ok := o.(*listRow); ok {
		return r.content
	}
	return o
}
