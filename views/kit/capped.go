package kit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
)

// Capped lays o out at whatever size it is given, and says it needs no
// more than max: text that asks for more room (a 300-character title, an
// error in one long line) is cut where the space ends instead of widening
// the window or moving a divider the user placed. A zero width or height
// in max leaves that direction as o asks.
func Capped(o fyne.CanvasObject, max fyne.Size) fyne.CanvasObject {
	return &fyne.Container{Layout: capLayout{max}, Objects: []fyne.CanvasObject{o}}
}

type capLayout struct{ max fyne.Size }

func (l capLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var min fyne.Size
	for _, o := range objects {
		if o.Visible() {
			min = min.Max(o.MinSize())
		}
	}
	return CapSize(min, l.max)
}

func (l capLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objects {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

// CapSize is min with each direction no larger than max's (a zero in max
// leaves that direction alone).
func CapSize(min, max fyne.Size) fyne.Size {
	if max.Width > 0 && min.Width > max.Width {
		min.Width = max.Width
	}
	if max.Height > 0 && min.Height > max.Height {
		min.Height = max.Height
	}
	return min
}

// Split is a side-by-side split whose divider stays where it was put:
// Fyne moves a divider whenever a pane's content asks for more width (a
// long name, an empty state's words), so each pane says it needs no more
// than paneMin and truncates or wraps what does not fit.
func Split(leading, trailing fyne.CanvasObject, offset float64) *container.Split {
	s := container.NewHSplit(Capped(leading, paneMin), Capped(trailing, paneMin))
	s.SetOffset(offset)
	return s
}

// paneMin is the most width a pane of a Split may ask for.
var paneMin = fyne.NewSize(220, 0)

// MaxHeight shows o as tall as it needs, up to max; taller, it scrolls
// inside that height (a 300-character title wrapped in a narrow pane keeps
// the rest of the screen in view).
func MaxHeight(o fyne.CanvasObject, max float32) fyne.CanvasObject {
	return &fyne.Container{Layout: maxHeightLayout{max}, Objects: []fyne.CanvasObject{container.NewVScroll(o)}}
}

type maxHeightLayout struct{ max float32 }

func (l maxHeightLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	sc := objects[0].(*container.Scroll)
	return fyne.NewSize(sc.MinSize().Width, fyne.Min(sc.Content.MinSize().Height, l.max))
}

func (l maxHeightLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	objects[0].Move(fyne.NewPos(0, 0))
	objects[0].Resize(size)
}

// Wrap lays objects out left to right, onto more lines when they do not
// fit, and asks for the height they took at the width it was last given:
// a reply's actions under it in a narrow window (a list row measured at
// its width gets the height of all their lines).
func Wrap(objects ...fyne.CanvasObject) *fyne.Container {
	return &fyne.Container{Layout: &wrapLayout{}, Objects: objects}
}

type wrapLayout struct{ width float32 }

func (l *wrapLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	if l.width == 0 {
		one := flowLayout{}.MinSize(objects)
		return fyne.NewSize(widestShown(objects), one.Height)
	}
	return fyne.NewSize(widestShown(objects), flowRows(objects, l.width, nil))
}

func (l *wrapLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	l.width = size.Width
	flowLayout{}.Layout(objects, size)
}
