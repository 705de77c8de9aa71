package kit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
)

// Scroller is a scroll inside another that keeps the wheel's meaning: Fyne's
// turns vertical wheel sideways and swallows it, stopping the outer scroll.
// It moves sideways only for sideways movement, vertically only with room,
// and passes the rest to Outer.
type Scroller struct {
	*container.Scroll
	// Outer receives the movement this one cannot use (nil: dropped).
	Outer func(*fyne.ScrollEvent)
}

// NewScroller scrolls content in dir, passing what it cannot use to outer.
func NewScroller(content fyne.CanvasObject, dir container.ScrollDirection, outer func(*fyne.ScrollEvent)) *Scroller {
	s := &Scroller{Scroll: container.NewScroll(content), Outer: outer}
	s.Direction = dir
	s.ExtendBaseWidget(s)
	return s
}

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
		// Fyne turns vertical movement sideways only when it cannot move vertically.
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

// roomFor reports whether the content can move by dy (positive is up).
func (s *Scroller) roomFor(dy float32) bool {
	if dy > 0 {
		return s.Offset.Y > 0
	}
	return dy < 0 && s.Offset.Y+s.Size().Height < s.Content.MinSize().Height
}
