package kit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
)

// Capped lays o out at any size but asks for at most max, so long text is
// cut instead of widening the window or moving a divider (zero: uncapped).
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

// CapSize is min capped by max in each direction (zero: uncapped).
func CapSize(min, max fyne.Size) fyne.Size {
	if max.Width > 0 {
		min.Width = fyne.Min(min.Width, max.Width)
	}
	if max.Height > 0 {
		min.Height = fyne.Min(min.Height, max.Height)
	}
	return min
}

// Split is a split whose divider stays put: Fyne moves it when a pane asks
// for more width, so each pane asks for at most paneMin.
func Split(leading, trailing fyne.CanvasObject, offset float64) *container.Split {
	s := container.NewHSplit(Capped(leading, paneMin), Capped(trailing, paneMin))
	s.SetOffset(offset)
	return s
}

// paneMin is the most width a pane of a Split may ask for.
var paneMin = fyne.NewSize(220, 0)

// MaxHeight shows o as tall as it needs up to max, then scrolls.
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

// Wrap lays objects out in wrapping lines and asks for their height at its
// last width.
func Wrap(objects ...fyne.CanvasObject) *fyne.Container {
	return &fyne.Container{Layout: &wrapLayout{}, Objects: objects}
}

type wrapLayout struct{ width float32 }

func (l *wrapLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	if l.width == 0 {
		one := flowLayout{}.MinSize(objects)
		return fyne.NewSize(widestShown(objects), one.Height)
	}
	return fyne.NewSize(widestShown(objects), flowRows(objects, l.width, false))
}

func (l *wrapLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	l.width = size.Width
	flowLayout{}.Layout(objects, size)
}
