package kit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
)

// Scroller is a scroll area inside another one (a wide table or a long code
// block inside a conversation) that keeps what the mouse wheel means. Fyne's
// own turns an up-or-down wheel sideways when its content is only too wide,
// and keeps every turn while the pointer is on it: the conversation stopped
// scrolling whenever the pointer crossed a table. A Scroller moves sideways
// only for a sideways movement (Shift+wheel, a touchpad swipe), moves up or
// down only while it has room that way, and passes the rest to Outer.
type Scroller struct {
	*container.Scroll
	// Outer receives the movement this one cannot use (nil: dropped).
	Outer func(*fyne.ScrollEvent)
}

// NewSideways scrolls content sideways when it is wider than the space.
func NewSideways(content fyne.CanvasObject, outer func(*fyne.ScrollEvent)) *Scroller {
	s := &Scroller{Scroll: container.NewHScroll(content), Outer: outer}
	s.ExtendBaseWidget(s)
	return s
}

// NewBothWays scrolls content either way.
func NewBothWays(content fyne.CanvasObject, outer func(*fyne.ScrollEvent)) *Scroller {
	s := &Scroller{Scroll: container.NewScroll(content), Outer: outer}
	s.ExtendBaseWidget(s)
	return s
}

// Scrolled implements fyne.Scrollable.
func (s *Scroller) Scrolled(ev *fyne.ScrollEvent) {
	dx, dy := ev.Scrolled.DX, ev.Scrolled.DY
	own := fyne.Delta{}
	if s.Direction != container.ScrollVerticalOnly && s.Direction != container.ScrollNone {
		own.DX = dx
	}
	if (s.Direction == container.ScrollBoth || s.Direction == container.ScrollVerticalOnly) && s.roomFor(dy) {
		own.DY = dy
	}
	if own.DX != 0 || own.DY != 0 {
		// Fyne swaps a lone up-or-down movement sideways only when the
		// content cannot move up or down, which own never asks for.
		mine := *ev
		mine.Scrolled = own
		s.Scroll.Scrolled(&mine)
	}
	if rest := dy - own.DY; rest != 0 && s.Outer != nil {
		out := *ev
		out.Scrolled = fyne.Delta{DY: rest}
		s.Outer(&out)
	}
}

// roomFor reports whether the content can move by dy (wheel up is
// positive, towards the top).
func (s *Scroller) roomFor(dy float32) bool {
	inner := s.Content.MinSize().Height
	outer := s.Size().Height
	switch {
	case dy > 0:
		return s.Offset.Y > 0
	case dy < 0:
		return s.Offset.Y+outer < inner
	}
	return false
}
