package kit

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
)

// Fyne lays out again, before it draws, the parent of an object whose
// minimum size changed, but it remembers one such parent at a time: when two
// parts of a screen change in one frame (a notice shows above a list as the
// list reloads), the first parent is forgotten and the notice is drawn over
// the list until the screen is laid out for another reason. Settling does
// the whole job after each frame Fyne draws, for the containers of every
// screen and dialog: each one whose children changed their minimum size, or
// came and went, is laid out again, outer first, until nothing changes (a row
// that wraps asks for more height once laid out narrower).

// settleRounds bounds the rounds of one settle; each round lays out only
// what changed, so a layout that never rests cannot hold the window.
const settleRounds = 4

// settleState is what a window's layer remembers between settles: the
// minimum size of each object shown, and how many children each shows.
type settleState struct {
	pending bool // a settle is queued
	running bool
	mins    map[fyne.CanvasObject]settleMark
	next    map[fyne.CanvasObject]settleMark
	due     []settleItem
}

type settleMark struct {
	min   fyne.Size
	shown int
}

type settleItem struct {
	o     fyne.CanvasObject
	depth int
}

// frameDrawn is called as Fyne measures the window before drawing a frame
// (the layer's MinSize): it queues one settle after that frame.
func (l *Layer) frameDrawn() {
	s := &l.settling
	if s.pending || s.running || l.canvas == nil {
		return
	}
	s.pending = true
	Do(l.settle)
}

// settle lays out again what changed since the last settle (see above).
func (l *Layer) settle() {
	s := &l.settling
	s.pending = false
	s.running = true
	defer func() { s.running = false }()
	for range settleRounds {
		if s.mins == nil {
			s.mins, s.next = map[fyne.CanvasObject]settleMark{}, map[fyne.CanvasObject]settleMark{}
		}
		if root := l.canvas.Content(); root != nil {
			s.visit(root, 0)
		}
		for _, o := range l.canvas.Overlays().List() {
			s.visit(o, 0)
		}
		s.mins, s.next = s.next, s.mins
		clear(s.next)
		if len(s.due) == 0 {
			return
		}
		// Outer first: laying out a parent may resize a child, which then
		// lays out its own children.
		slices.SortStableFunc(s.due, func(a, b settleItem) int { return a.depth - b.depth })
		for _, it := range s.due {
			relayoutOne(it.o)
		}
		clear(s.due)
		s.due = s.due[:0]
	}
}

// visit records o's visible children and notes o for laying out again when
// one of them changed its minimum size, is new, or when o shows a different
// number of them than at the last settle.
func (s *settleState) visit(o fyne.CanvasObject, depth int) {
	if o == nil || !o.Visible() {
		return
	}
	if _, isLayer := o.(*Layer); isLayer {
		return
	}
	kids := settleChildren(o)
	changed, shown := false, 0
	for _, c := range kids {
		if c == nil || !c.Visible() {
			continue
		}
		shown++
		min := c.MinSize()
		if was, ok := s.mins[c]; !ok || was.min != min {
			changed = true
		}
		s.next[c] = settleMark{min: min, shown: s.next[c].shown}
		s.visit(c, depth+1)
	}
	was, seen := s.mins[o]
	if seen && was.shown != shown {
		changed = true
	}
	m := s.next[o]
	m.shown = shown
	s.next[o] = m
	if changed && shown > 0 {
		s.due = append(s.due, settleItem{o, depth})
	}
}

// settleChildren is what o lays out itself: a container's objects, and the
// content of Fyne's containers that are widgets. Other widgets' insides are
// Fyne's, which it lays out itself.
func settleChildren(o fyne.CanvasObject) []fyne.CanvasObject {
	switch v := o.(type) {
	case *fyne.Container:
		if v.Layout == nil {
			return nil
		}
		return v.Objects
	case *container.Scroll:
		return []fyne.CanvasObject{v.Content}
	case *container.AppTabs:
		if it := v.Selected(); it != nil {
			return []fyne.CanvasObject{it.Content}
		}
	}
	return nil
}

// Relayout lays out o and the containers within it again at their sizes,
// outer first: a part first laid out before it knew its width (a row of
// buttons that wraps) then takes the size its width gives it.
func Relayout(o fyne.CanvasObject) {
	if c, ok := o.(*fyne.Container); ok && c.Layout != nil {
		c.Layout.Layout(c.Objects, c.Size())
	}
	for _, child := range settleChildren(o) {
		Relayout(child)
	}
}

// relayoutOne lays out o's children again at o's size.
func relayoutOne(o fyne.CanvasObject) {
	switch v := o.(type) {
	case *fyne.Container:
		v.Layout.Layout(v.Objects, v.Size())
	case fyne.Widget:
		v.Refresh()
	}
}
