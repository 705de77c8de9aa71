package kit

import (
	"fyne.io/fyne/v2/lang"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Loading is the state of a screen waiting for the service. Show it with
// SetBody, which stops it when it is replaced.
func Loading(text string) fyne.CanvasObject {
	bar := widget.NewProgressBarInfinite()
	label := widget.NewLabel(text)
	label.Alignment = fyne.TextAlignCenter
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

// StopLoading stops o if it is a loading state (anything else is left as
// it is). Fyne animates an infinite progress bar until it is stopped or
// until it drops the bar's renderer from its cache, a minute after the bar
// was last drawn; meanwhile the window is redrawn every frame. Measured
// after the agents list replaced its "Loading agents…": half a core busy
// and the heap growing by some 2 MB a second, for that minute.
func StopLoading(o fyne.CanvasObject) {
	if c, ok := o.(*fyne.Container); ok {
		if l, ok := c.Layout.(loadingLayout); ok {
			l.bar.Stop()
		}
	}
}

// SetBody shows o alone in c, stopping the loading state it replaces. The
// screens show their loading, error, empty and loaded states with it.
func SetBody(c *fyne.Container, o fyne.CanvasObject) {
	for _, old := range c.Objects {
		if old != o {
			StopLoading(old)
		}
	}
	c.Objects = []fyne.CanvasObject{o}
	c.Refresh()
}

// ShowBody is SetBody for a container that may already show o: then it is
// left as it is, so a list that stays shown is not redrawn.
func ShowBody(c *fyne.Container, o fyne.CanvasObject) {
	if len(c.Objects) == 1 && c.Objects[0] == o {
		return
	}
	SetBody(c, o)
}

// Empty is the state of a list with nothing in it: an icon, a title that
// says so, and a line that says what to do.
func Empty(icon fyne.Resource, title, detail string, actions ...fyne.CanvasObject) fyne.CanvasObject {
	img := widget.NewIcon(icon)
	t := widget.NewLabelWithStyle(title, fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	t.Wrapping = fyne.TextWrapWord
	d := widget.NewLabel(detail)
	d.Alignment = fyne.TextAlignCenter
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

// Column shows o centred, as wide as the space it is given but no wider
// than max, and as tall as o needs at that width. Unlike a fixed width it
// narrows with a narrow pane instead of pushing the pane wider.
func Column(o fyne.CanvasObject, max float32) fyne.CanvasObject {
	return &fyne.Container{Layout: widthLayout{max: max, centred: true}, Objects: []fyne.CanvasObject{o}}
}

// MaxWidth lays o out at the width it is given, but no wider than max, on
// the leading side and at the full height: a form's fields and a result's
// lines stay a readable length in a window as wide as a 4K screen.
func MaxWidth(o fyne.CanvasObject, max float32) fyne.CanvasObject {
	return &fyne.Container{Layout: widthLayout{max: max}, Objects: []fyne.CanvasObject{o}}
}

type widthLayout struct {
	max     float32
	centred bool
}

// MinSize asks for no more than max in width (words wrap) and for o's
// height at the width it was last given.
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

// Header is a screen's title with an optional subtitle and actions on the
// right. The title is the text as written (not BidiVisual's order).
func Header(title, subtitle string, actions ...fyne.CanvasObject) fyne.CanvasObject {
	return header(title, subtitle, fyne.TextTruncateEllipsis, actions)
}

// FullHeader is a Header whose title is shown whole, on as many lines as it
// takes: the one place a long name cut short elsewhere (a list row) can be
// read in full.
func FullHeader(title, subtitle string, actions ...fyne.CanvasObject) fyne.CanvasObject {
	return header(title, subtitle, fyne.TextTruncateOff, actions)
}

func header(title, subtitle string, cut fyne.TextTruncation, actions []fyne.CanvasObject) fyne.CanvasObject {
	t := widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	t.SizeName = theme.SizeNameSubHeadingText
	// A title never widens the window: it is cut short or wraps.
	if cut == fyne.TextTruncateOff {
		t.Wrapping = fyne.TextWrapWord
	} else {
		t.Truncation = cut
	}
	// Hebrew or Arabic words are broken into lines (or cut) in reading
	// order before they are put in drawing order: see BidiLines.
	var shown fyne.CanvasObject = t
	if bidiHasRTL(title) {
		shown = BidiLines(title, t.TextStyle, t.SizeName, cut == fyne.TextTruncateOff)
	}
	var left *fyne.Container
	if cut == fyne.TextTruncateOff {
		// Whole, but no taller than three lines: more scrolls.
		three := widget.NewLabelWithStyle("1\n2\n3", fyne.TextAlignLeading, t.TextStyle)
		three.SizeName = t.SizeName
		left = container.NewVBox(MaxHeight(shown, three.MinSize().Height))
	} else {
		left = container.NewVBox(shown)
	}
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
	return &fyne.Container{Layout: &headerLayout{titleWidth: titleWidth}, Objects: []fyne.CanvasObject{left, row}}
}

// flowLayout lays buttons out left to right, wrapping onto more lines when
// they do not fit. Its minimum size is all of them in one line, so it
// changes when one is shown or hidden, and the header around it is laid
// out again.
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
	flowRows(objects, size.Width, func(o fyne.CanvasObject, at fyne.Position, h float32) {
		o.Move(at)
		o.Resize(fyne.NewSize(o.MinSize().Width, h))
	})
}

// flowRows places the visible objects in lines no wider than width (one at
// least per line), each line as tall as its tallest, and returns the
// height of them all; place may be nil to measure.
func flowRows(objects []fyne.CanvasObject, width float32, place func(o fyne.CanvasObject, at fyne.Position, h float32)) float32 {
	pad := theme.Padding()
	var y float32
	var line []fyne.CanvasObject
	var x, lh float32
	flush := func() {
		if place != nil {
			var lx float32
			for _, o := range line {
				place(o, fyne.NewPos(lx, y), lh)
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

// headerLayout puts a header's actions (a flow, Objects[1]) on the right of
// its title (Objects[0]) when both fit, and under it, wrapping, when they
// do not (a narrow pane at 800 px), so that no button is cut off.
type headerLayout struct {
	titleWidth float32
	width      float32 // the width last laid out at; 0 before
}

// widestShown is the widest minimum of the visible objects.
func widestShown(objects []fyne.CanvasObject) (w float32) {
	for _, o := range objects {
		if o.Visible() {
			w = fyne.Max(w, o.MinSize().Width)
		}
	}
	return w
}

// titleRoom is the least a header's title keeps beside its actions.
const titleRoom = 160

// fits reports whether the actions fit beside the title at width.
func (l *headerLayout) fits(row fyne.CanvasObject, width float32) bool {
	return fyne.Min(l.titleWidth, titleRoom)+theme.Padding()+row.MinSize().Width <= width
}

func (l *headerLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	left, row := objects[0].MinSize(), objects[1].(*fyne.Container)
	one := row.MinSize()
	widest := widestShown(row.Objects)
	switch {
	case l.width == 0:
		// Not laid out yet (a tab not shown): as narrow as it can be, with
		// the actions in one line under the title.
		return fyne.NewSize(fyne.Max(left.Width, widest), left.Height+theme.Padding()+one.Height)
	case l.fits(row, l.width):
		return fyne.NewSize(fyne.Max(left.Width, fyne.Min(l.titleWidth, titleRoom)+theme.Padding()+one.Width), fyne.Max(left.Height, one.Height))
	}
	return fyne.NewSize(fyne.Max(left.Width, widest), left.Height+theme.Padding()+flowRows(row.Objects, l.width, nil))
}

func (l *headerLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	left, row := objects[0], objects[1].(*fyne.Container)
	// A header laid out at just its minimum width is being measured (a tab
	// not shown yet is sized so): every action would be on a line of its
	// own, and the header would stay that tall until shown.
	if size.Width > fyne.Max(left.MinSize().Width, widestShown(row.Objects))+1 {
		l.width = size.Width
	}
	if !l.fits(row, size.Width) {
		lh := left.MinSize().Height
		left.Move(fyne.NewPos(0, 0))
		left.Resize(fyne.NewSize(size.Width, lh))
		row.Move(fyne.NewPos(0, lh+theme.Padding()))
		row.Resize(fyne.NewSize(size.Width, flowRows(row.Objects, size.Width, nil)))
		return
	}
	one := row.MinSize()
	left.Move(fyne.NewPos(0, 0))
	left.Resize(fyne.NewSize(size.Width-one.Width-theme.Padding(), size.Height))
	row.Move(fyne.NewPos(size.Width-one.Width, (size.Height-one.Height)/2))
	row.Resize(fyne.NewSize(one.Width+1, one.Height)) // a pixel to spare: rounding must not wrap it
}

// ErrorText is a red line for an error shown beside a field or under a form.
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

// NewTwoLineRow is a list row every screen uses alike: a bold first line and
// a quieter second one, both cut short with an ellipsis in reading order
// (NewLine). Fill it with SetTwoLineRow.
func NewTwoLineRow() fyne.CanvasObject {
	return container.NewVBox(NewLine(fyne.TextStyle{Bold: true}, false), NewLine(fyne.TextStyle{}, true))
}

// SetTwoLineRow shows first and second, as the server wrote them, in a row
// made by NewTwoLineRow; it reports whether the row shows something new.
func SetTwoLineRow(o fyne.CanvasObject, first, second string) bool {
	box := o.(*fyne.Container)
	a := SetLine(box.Objects[0], first)
	b := SetLine(box.Objects[1], second)
	return a || b
}

// Partial is a list that shows only part of its items (later pages could
// not be read): the list under a line saying what was read and what
// happened, with Load the rest (disabled, "Reading the rest…", while
// loading).
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
