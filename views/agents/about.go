package agents

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/richtext"
	"github.com/agentdesk/agentdesk/views/screen"
)

// aboutFold: a longer description folds behind "Show more" so the questions
// and Run stay in sight.
const aboutFold = 96

const aboutOpen = 0.4

func canvasOf(o fyne.CanvasObject) fyne.Canvas {
	if fa := fyne.CurrentApp(); fa != nil {
		return fa.Driver().CanvasForObject(o)
	}
	return nil
}

// aboutView shows a description as markdown under the server-text rules,
// folded to aboutFold; relayout runs when its height changes.
func aboutView(about string, relayout func()) fyne.CanvasObject {
	rich, _ := richtext.NewMarkdownText(about)
	fold := &foldLayout{max: aboutFold, relayout: relayout}
	scroll := container.NewVScroll(rich)
	box := container.New(fold, scroll)
	more := kit.NewButtonWithIcon(lang.L("Show more"), theme.MenuDropDownIcon(), nil)
	more.Importance = widget.LowImportance
	more.OnTapped = func() {
		fold.open = !fold.open
		more.Text, more.Icon = lang.L("Show more"), theme.MenuDropDownIcon()
		if fold.open {
			more.Text, more.Icon = lang.L("Show less"), theme.MenuDropUpIcon()
		} else {
			scroll.ScrollToTop()
		}
		more.Refresh()
		box.Refresh()
	}
	fold.onOverflow = func(over bool) {
		screen.ShowIf(more, over || fold.open)
	}
	more.Hide()
	return container.NewVBox(box, container.NewHBox(more))
}

// foldLayout gives the text its natural height, at most max while folded;
// onOverflow hears whether there is more, so "Show more" shows only then.
type foldLayout struct {
	max        float32
	open       bool
	over       bool
	width      float32
	height     float32 // the natural height last reported
	onOverflow func(bool)
	relayout   func()
}

func (f *foldLayout) natural(o fyne.CanvasObject, w float32) float32 {
	s := o.(*container.Scroll)
	if w > 0 {
		s.Content.Resize(fyne.NewSize(w, s.Content.MinSize().Height))
	}
	return s.Content.MinSize().Height
}

func (f *foldLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	h := f.natural(objs[0], f.width)
	over := h > f.max
	if over != f.over {
		f.over = over
		f.onOverflow(over)
	}
	f.height = h
	if !f.open {
		h = min(h, f.max)
	} else if c := canvasOf(objs[0]); c != nil && c.Size().Height > 0 {
		// Unfolded, past aboutOpen of the window the text scrolls, leaving room for Run.
		h = min(h, max(f.max, c.Size().Height*aboutOpen))
	}
	// The width is the window's: text wraps to it, never widens it.
	return fyne.NewSize(0, h)
}

func (f *foldLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if size.Width != f.width {
		f.width = size.Width
		// Relayout after this layout, not inside it.
		if h := f.natural(objs[0], size.Width); h != f.height {
			kit.Do(f.relayout)
		}
	}
	objs[0].Resize(size)
}
