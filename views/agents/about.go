package agents

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/views/kit"
)

// aboutFold is how tall an agent's description may stand above its form
// before the rest waits behind "Show more": a long description must not
// push the questions and Run out of sight.
const aboutFold = 96

// aboutOpen is the share of the window's height an unfolded description
// may take.
const aboutOpen = 0.4

// canvasOf is the window canvas o is on, or nil.
func canvasOf(o fyne.CanvasObject) fyne.Canvas {
	if fa := fyne.CurrentApp(); fa != nil {
		return fa.Driver().CanvasForObject(o)
	}
	return nil
}

// aboutView shows an agent's description as the markdown it is written in
// (under the rules for server text: links through the link policy, no
// picture loaded), folded to aboutFold when it is longer, with Show more /
// Show less. relayout lays out what holds the view again, when the text's
// height changed with the width it wraps to.
func aboutView(about string, relayout func()) fyne.CanvasObject {
	rich, _ := kit.NewMarkdownText(about)
	fold := &foldLayout{max: aboutFold, relayout: relayout}
	scroll := container.NewVScroll(rich)
	box := container.New(fold, scroll)
	more := kit.NewButtonWithIcon(lang.L("Show more"), theme.MenuDropDownIcon(), nil)
	more.Importance = widget.LowImportance
	more.OnTapped = func() {
		fold.open = !fold.open
		if fold.open {
			more.SetText(lang.L("Show less"))
			more.SetIcon(theme.MenuDropUpIcon())
		} else {
			more.SetText(lang.L("Show more"))
			more.SetIcon(theme.MenuDropDownIcon())
			scroll.ScrollToTop()
		}
		box.Refresh()
	}
	fold.onOverflow = func(over bool) {
		if over || fold.open {
			more.Show()
		} else {
			more.Hide()
		}
	}
	more.Hide()
	return container.NewVBox(box, container.NewHBox(more))
}

// foldLayout gives its one child (a scroll around the text) the child's
// natural height, or at most max while folded; it tells onOverflow whether
// the text is taller than that, so "Show more" shows only when there is
// more to show.
type foldLayout struct {
	max        float32
	open       bool
	over       bool
	width      float32
	height     float32 // the natural height last reported
	onOverflow func(bool)
	relayout   func()
}

// natural is the height the text needs at width w.
func (f *foldLayout) natural(o fyne.CanvasObject, w float32) float32 {
	s, ok := o.(*container.Scroll)
	if !ok {
		return o.MinSize().Height
	}
	if w > 0 {
		s.Content.Resize(fyne.NewSize(w, s.Content.MinSize().Height))
	}
	return s.Content.MinSize().Height
}

func (f *foldLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	if len(objs) == 0 {
		return fyne.Size{}
	}
	h := f.natural(objs[0], f.width)
	over := h > f.max
	if over != f.over && f.onOverflow != nil {
		f.over = over
		f.onOverflow(over)
	}
	f.height = h
	if !f.open {
		h = min(h, f.max)
	} else if c := canvasOf(objs[0]); c != nil && c.Size().Height > 0 {
		// Unfolded, it still leaves the window room for the tabs and the
		// bar with Run: beyond aboutOpen of the window's height, the text
		// scrolls in its own place.
		h = min(h, max(f.max, c.Size().Height*aboutOpen))
	}
	// The width is the window's to give: text wraps to it, never widens it.
	return fyne.NewSize(0, h)
}

func (f *foldLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if len(objs) == 0 {
		return
	}
	if size.Width != f.width {
		f.width = size.Width
		// The text rewrapped: when the height it needs changed, what holds
		// it lays out again (after this layout, not inside it).
		if h := f.natural(objs[0], size.Width); h != f.height && f.relayout != nil {
			kit.Do(f.relayout)
		}
	}
	objs[0].Resize(size)
}
