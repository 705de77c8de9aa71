package kit

import (
	"slices"

	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/layout"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Loading is a screen waiting for the service; show it with SetBody, which stops it.
func Loading(text string) fyne.CanvasObject {
	bar := widget.NewProgressBarInfinite()
	label := widget.NewLabelWithStyle(text, fyne.TextAlignCenter, fyne.TextStyle{})
	label.Wrapping = fyne.TextWrapWord
	// 240 wide, or the pane's width when it is narrower.
	return &fyne.Container{Layout: loadingLayout{widthLayout{max: 240, centred: true}, bar},
		Objects: []fyne.CanvasObject{container.NewVBox(label, bar)}}
}

// loadingLayout is a loading state's Column, which knows its bar.
type loadingLayout struct {
	widthLayout
	bar *widget.ProgressBarInfinite
}

// SetBody shows o alone in c, stopping the loading state it replaces: Fyne
// redraws an infinite bar every frame until it is stopped.
func SetBody(c *fyne.Container, o fyne.CanvasObject) {
	for _, old := range c.Objects {
		if box, ok := old.(*fyne.Container); ok && old != o {
			if l, ok := box.Layout.(loadingLayout); ok {
				l.bar.Stop()
			}
		}
	}
	c.Objects = []fyne.CanvasObject{o}
	c.Refresh()
}

// ShowBody is SetBody that leaves c alone when it shows o already, sparing a redraw.
func ShowBody(c *fyne.Container, o fyne.CanvasObject) {
	if len(c.Objects) == 1 && c.Objects[0] == o {
		return
	}
	SetBody(c, o)
}

// Empty is an empty list's state: icon, title, and what to do.
func Empty(icon fyne.Resource, title, detail string, actions ...fyne.CanvasObject) fyne.CanvasObject {
	img := widget.NewIcon(icon)
	t := widget.NewLabelWithStyle(title, fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	t.Wrapping = fyne.TextWrapWord
	d := widget.NewLabelWithStyle(detail, fyne.TextAlignCenter, fyne.TextStyle{})
	d.Wrapping = fyne.TextWrapWord
	box := container.NewVBox(container.NewCenter(container.NewGridWrap(fyne.NewSquareSize(48), img)), t, d)
	if len(actions) > 0 {
		box.Add(container.NewCenter(container.NewHBox(actions...)))
	}
	// It scrolls when a short window leaves it less room than it needs.
	return container.NewVScroll(Column(box, emptyWidth))
}

// emptyWidth is how wide an empty state's words run, at most.
const emptyWidth = 380

// Column shows o centred, at most max wide and as tall as it needs; it
// narrows with its pane instead of widening it.
func Column(o fyne.CanvasObject, max float32) fyne.CanvasObject {
	return &fyne.Container{Layout: widthLayout{max: max, centred: true}, Objects: []fyne.CanvasObject{o}}
}

// MaxWidth lays o out leading, full height, at most max wide, so lines stay readable.
func MaxWidth(o fyne.CanvasObject, max float32) fyne.CanvasObject {
	return &fyne.Container{Layout: widthLayout{max: max}, Objects: []fyne.CanvasObject{o}}
}

type widthLayout struct {
	max     float32
	centred bool
}

// MinSize asks for at most max in width and o's height at its last width.
func (l widthLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	m := objects[0].MinSize()
	return fyne.NewSize(fyne.Min(m.Width, l.max), m.Height)
}

func (l widthLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	o := objects[0]
	w := fyne.Min(size.Width, l.max)
	if !l.centred {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(fyne.NewSize(w, size.Height))
		return
	}
	o.Resize(fyne.NewSize(w, o.Size().Height))
	h := o.MinSize().Height // wrapped at the new width
	o.Resize(fyne.NewSize(w, h))
	o.Move(fyne.NewPos((size.Width-w)/2, fyne.Max(0, (size.Height-h)/2)))
}

// Header is a screen's title, optional subtitle and actions; title as
// written, not in BidiVisual's order.
func Header(title, subtitle string, actions ...fyne.CanvasObject) fyne.CanvasObject {
	return header(title, subtitle, false, actions)
}

// FullHeader is a Header showing its title whole, wrapped: the place a name
// cut short elsewhere reads in full.
func FullHeader(title, subtitle string, actions ...fyne.CanvasObject) fyne.CanvasObject {
	return header(title, subtitle, true, actions)
}

func header(title, subtitle string, whole bool, actions []fyne.CanvasObject) fyne.CanvasObject {
	t := widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	t.SizeName = theme.SizeNameSubHeadingText
	// A title never widens the window: it is cut short or wraps.
	t.Truncation = fyne.TextTruncateEllipsis
	if whole {
		t.Wrapping, t.Truncation = fyne.TextWrapWord, fyne.TextTruncateOff
	}
	// Right-to-left words are wrapped in reading order first: see BidiLines.
	var shown fyne.CanvasObject = t
	if bidiHasRTL(title) {
		shown = BidiLines(title, t.TextStyle, t.SizeName, whole)
	}
	if whole {
		// Whole, but no taller than three lines: more scrolls.
		three := widget.NewLabelWithStyle("1\n2\n3", fyne.TextAlignLeading, t.TextStyle)
		three.SizeName = t.SizeName
		shown = MaxHeight(shown, three.MinSize().Height)
	}
	left := container.NewVBox(shown)
	if subtitle != "" {
		s := widget.NewLabel(subtitle)
		s.Importance = widget.LowImportance
		s.Wrapping = fyne.TextWrapWord
		left.Add(s)
	}
	if len(actions) == 0 {
		return left
	}
	titleWidth := fyne.MeasureText(title, theme.TextSubHeadingSize(), t.TextStyle).Width + 2*theme.InnerPadding()
	row := &fyne.Container{Layout: flowLayout{}, Objects: actions}
	return &fyne.Container{Layout: &headerLayout{titleWidth: titleWidth, described: subtitle != ""}, Objects: []fyne.CanvasObject{left, row}}
}

// flowLayout lays buttons out in wrapping lines. Its minimum is one line, so
// showing or hiding one re-lays the header.
type flowLayout struct{}

func (flowLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var w, h float32
	for _, o := range objects {
		if o.Visible() {
			m := o.MinSize()
			w += m.Width + theme.Padding()
			h = fyne.Max(h, m.Height)
		}
	}
	return fyne.NewSize(fyne.Max(0, w-theme.Padding()), h)
}

func (flowLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	flowRows(objects, size.Width, true)
}

// flowRows returns the height of the visible objects in lines no wider than
// width, placing them there if place.
func flowRows(objects []fyne.CanvasObject, width float32, place bool) float32 {
	pad := theme.Padding()
	var line []fyne.CanvasObject
	var x, y, lh float32
	flush := func() {
		if place {
			var lx float32
			for _, o := range line {
				o.Move(fyne.NewPos(lx, y))
				o.Resize(fyne.NewSize(o.MinSize().Width, lh))
				lx += o.MinSize().Width + pad
			}
		}
		y += lh + pad
		line, x, lh = nil, 0, 0
	}
	for _, o := range objects {
		if !o.Visible() {
			continue
		}
		m := o.MinSize()
		if len(line) > 0 && x+m.Width > width {
			flush()
		}
		line = append(line, o)
		x += m.Width + pad
		lh = fyne.Max(lh, m.Height)
	}
	if len(line) > 0 {
		flush()
	}
	return fyne.Max(0, y-pad)
}

// headerLayout puts the actions beside the title when both fit, else under
// it, wrapping, so no button is cut off.
type headerLayout struct {
	titleWidth float32
	described  bool    // a description is under the title
	width      float32 // the width last laid out at; 0 before
}

func widestShown(objects []fyne.CanvasObject) (w float32) {
	for _, o := range objects {
		if o.Visible() {
			w = fyne.Max(w, o.MinSize().Width)
		}
	}
	return w
}

// titleRoom is the least a header's title keeps beside its actions;
// describedRoom the least its description does, for lines that read as
// sentences rather than a column of words.
const (
	titleRoom     = 160
	describedRoom = 320
)

// room is the width the title side keeps beside the actions.
func (l *headerLayout) room() float32 {
	if l.described {
		return describedRoom
	}
	return fyne.Min(l.titleWidth, titleRoom)
}

func (l *headerLayout) fits(row fyne.CanvasObject, width float32) bool {
	return l.room()+theme.Padding()+row.MinSize().Width <= width
}

func (l *headerLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	left, row := objects[0].MinSize(), objects[1].(*fyne.Container)
	one := row.MinSize()
	widest := widestShown(row.Objects)
	switch {
	case l.width == 0:
		// Not laid out yet: narrowest, actions in one line under the title.
		return fyne.NewSize(fyne.Max(left.Width, widest), left.Height+theme.Padding()+one.Height)
	case l.fits(row, l.width):
		return fyne.NewSize(fyne.Max(left.Width, l.room()+theme.Padding()+one.Width), fyne.Max(left.Height, one.Height))
	}
	return fyne.NewSize(fyne.Max(left.Width, widest), left.Height+theme.Padding()+flowRows(row.Objects, l.width, false))
}

func (l *headerLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	left, row := objects[0], objects[1].(*fyne.Container)
	// At just its minimum width it is being measured (a hidden tab): one
	// action per line would stay until shown.
	if size.Width > fyne.Max(left.MinSize().Width, widestShown(row.Objects))+1 {
		l.width = size.Width
	}
	if !l.fits(row, size.Width) {
		lh := left.MinSize().Height
		left.Move(fyne.NewPos(0, 0))
		left.Resize(fyne.NewSize(size.Width, lh))
		row.Move(fyne.NewPos(0, lh+theme.Padding()))
		row.Resize(fyne.NewSize(size.Width, flowRows(row.Objects, size.Width, false)))
		return
	}
	one := row.MinSize()
	left.Move(fyne.NewPos(0, 0))
	left.Resize(fyne.NewSize(size.Width-one.Width-theme.Padding(), size.Height))
	row.Move(fyne.NewPos(size.Width-one.Width, (size.Height-one.Height)/2))
	row.Resize(fyne.NewSize(one.Width+1, one.Height)) // a pixel to spare: rounding must not wrap it
}

func ErrorText() *widget.Label {
	l := widget.NewLabel("")
	l.Importance = widget.DangerImportance
	l.Wrapping = fyne.TextWrapWord
	l.Hide()
	return l
}

// ShowError sets an ErrorText's message, hiding it when msg is empty.
func ShowError(l *widget.Label, msg string) {
	l.SetText(msg)
	if msg == "" {
		l.Hide()
	} else {
		l.Show()
	}
}

// NewTwoLineRow is the shared list row: a bold first line and a quieter
// second, both ellipsized in reading order. Fill it with SetTwoLineRow.
func NewTwoLineRow() fyne.CanvasObject {
	return container.NewVBox(NewLine(fyne.TextStyle{Bold: true}, false), NewLine(fyne.TextStyle{}, true))
}

// SetTwoLineRow fills a NewTwoLineRow, reporting whether it shows something new.
func SetTwoLineRow(o fyne.CanvasObject, first, second string) bool {
	box := o.(*fyne.Container)
	a := SetLine(box.Objects[0], first)
	b := SetLine(box.Objects[1], second)
	return a || b
}

// Partial is a list showing only the pages read, under a line saying what
// happened, with a button to load the rest.
func Partial(list fyne.CanvasObject, sentence string, loading bool, loadRest func()) fyne.CanvasObject {
	note := ErrorText()
	ShowError(note, sentence)
	more := NewButtonWithIcon(lang.L("Load the rest"), theme.ViewRefreshIcon(), loadRest)
	if loading {
		more.SetText(lang.L("Reading the rest…"))
		more.Disable()
	}
	return container.NewBorder(container.NewBorder(nil, nil, nil, container.NewCenter(more), note), nil, nil, nil, list)
}

// Capped lays o out at any size but asks for at most max, so long text is
// cut instead of widening the window or moving a divider (zero: uncapped).
func Capped(o fyne.CanvasObject, max fyne.Size) fyne.CanvasObject {
	return &fyne.Container{Layout: fillLayout(func(shown fyne.CanvasObject) fyne.Size {
		if !shown.Visible() {
			return fyne.Size{}
		}
		return CapSize(shown.MinSize(), max)
	}), Objects: []fyne.CanvasObject{o}}
}

// fillLayout lays its one object out at the container's size; the container
// asks for what the function gives for the object.
type fillLayout func(o fyne.CanvasObject) fyne.Size

func (l fillLayout) MinSize(objects []fyne.CanvasObject) fyne.Size { return l(objects[0]) }

func (l fillLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	objects[0].Move(fyne.NewPos(0, 0))
	objects[0].Resize(size)
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

// paneMinWidth is the most width a pane of a Split may ask for, at the
// standard text size (larger text, more width).
const paneMinWidth = 220

// MaxHeight shows o as tall as it needs up to max, then scrolls.
func MaxHeight(o fyne.CanvasObject, max float32) fyne.CanvasObject {
	return &fyne.Container{Layout: fillLayout(func(scroll fyne.CanvasObject) fyne.Size {
		sc := scroll.(*container.Scroll)
		return fyne.NewSize(sc.MinSize().Width, fyne.Min(sc.Content.MinSize().Height, max))
	}), Objects: []fyne.CanvasObject{container.NewVScroll(o)}}
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

// NewBorder is container.NewBorder with parts in reading order, the order Tab
// follows: Fyne's puts the centre first. (List rows keep Fyne's.)
func NewBorder(top, bottom, left, right fyne.CanvasObject, center ...fyne.CanvasObject) *fyne.Container {
	objs := append(append([]fyne.CanvasObject{top, left}, center...), right, bottom)
	objs = slices.DeleteFunc(objs, func(o fyne.CanvasObject) bool { return o == nil })
	return container.New(layout.NewBorderLayout(top, bottom, left, right), objs...)
}
