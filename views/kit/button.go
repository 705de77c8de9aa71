package kit

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Button is Agent Desk's button: a ring shows while it has the keyboard
// (Fyne only tints), and it scrolls into view on Tab.
type Button struct {
	widget.Button
	// Tip is shown while the pointer rests on the button ("" for none).
	Tip     string
	focused bool
	self    fyne.Widget // the widget shown, when one embeds b (nil: b)
}

func (b *Button) shown() fyne.CanvasObject {
	if b.self != nil {
		return b.self
	}
	return b
}

// ExtendBaseWidget also remembers a widget that embeds b, so that tips and
// scrolling into view see the widget the window shows.
func (b *Button) ExtendBaseWidget(w fyne.Widget) {
	if w != fyne.Widget(b) {
		b.self = w
	}
	b.Button.ExtendBaseWidget(w)
}

func NewButtonWithIcon(label string, icon fyne.Resource, tapped func()) *Button {
	b := &Button{}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

func NewButton(label string, tapped func()) *Button {
	return NewButtonWithIcon(label, nil, tapped)
}

func (b *Button) CreateRenderer() fyne.WidgetRenderer {
	return withRing(b.Button.CreateRenderer(), func() bool { return b.focused })
}

// FocusGained rings the button and scrolls it into view.
func (b *Button) FocusGained() {
	b.focused = true
	b.Button.FocusGained()
	ShowFocused(b.shown())
}

func (b *Button) FocusLost() {
	b.focused = false
	b.Button.FocusLost()
}

func (b *Button) MouseIn(ev *desktop.MouseEvent) {
	b.Button.MouseIn(ev)
	hovered(b.shown(), b.Tip)
}

func (b *Button) MouseOut() {
	b.Button.MouseOut()
	left(b.shown())
}

func (b *Button) Tapped(ev *fyne.PointEvent) {
	left(b.shown())
	b.Button.Tapped(ev)
}

func (b *Button) Hide() {
	left(b.shown())
	b.Button.Hide()
}

// Check is Agent Desk's check box, with a focus ring, scrolled into view on Tab.
type Check struct {
	widget.Check
	focused bool
	round   bool // drawn as a radio button (RadioGroup's options)
	// step moves the keyboard to the option delta away in the check's
	// group (Up and Down), as in a desktop's own radio groups.
	step func(delta int)
}

// TypedKey: Up and Down move through the check's group; Space ticks.
func (c *Check) TypedKey(ev *fyne.KeyEvent) {
	if c.step != nil && (ev.Name == fyne.KeyUp || ev.Name == fyne.KeyDown) {
		c.step(map[fyne.KeyName]int{fyne.KeyUp: -1, fyne.KeyDown: 1}[ev.Name])
		return
	}
	c.Check.TypedKey(ev)
}

func NewCheck(label string, changed func(bool)) *Check {
	c := &Check{}
	c.Text, c.OnChanged = label, changed
	c.ExtendBaseWidget(c)
	return c
}

func (c *Check) CreateRenderer() fyne.WidgetRenderer {
	r := c.Check.CreateRenderer()
	if c.round {
		rr := &roundRenderer{WidgetRenderer: r, c: c}
		rr.round()
		r = rr
	}
	return withRing(r, func() bool { return c.focused })
}

func (c *Check) FocusGained() {
	c.focused = true
	c.Check.FocusGained()
	ShowFocused(c)
}

func (c *Check) FocusLost() {
	c.focused = false
	c.Check.FocusLost()
}

// Select is a choice that changes only with its list open: Left and Right do
// nothing, unlike widget.Select. It scrolls into view on focus.
type Select struct {
	widget.Select
	focused bool
}

func (s *Select) CreateRenderer() fyne.WidgetRenderer {
	return withRing(s.Select.CreateRenderer(), func() bool { return s.focused })
}

func (s *Select) FocusLost() {
	s.focused = false
	s.Select.FocusLost()
}

// Widened is s as wide as its longest option, up to most: Fyne's select
// asks for little and cuts its choice short.
// It measures at each layout, so a new text size widens it too.
func Widened(s *Select, most float32) fyne.CanvasObject {
	return &fyne.Container{Layout: fillLayout(func(fyne.CanvasObject) fyne.Size {
		widest := float32(0)
		for _, o := range s.Options {
			widest = max(widest, fyne.MeasureText(o, theme.TextSize(), fyne.TextStyle{}).Width)
		}
		w := widest + 4*theme.InnerPadding() + theme.IconInlineSize()
		return fyne.NewSize(min(max(w, s.MinSize().Width), most), s.MinSize().Height)
	}), Objects: []fyne.CanvasObject{s}}
}

// NewSelect is a Select of options; changed is told of each choice made.
func NewSelect(options []string, changed func(string)) *Select {
	s := &Select{}
	s.Options, s.OnChanged = options, changed
	s.ExtendBaseWidget(s)
	return s
}

// TypedKey opens the list on Enter; Esc and F1 go on to the window.
func (s *Select) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyLeft, fyne.KeyRight:
	case fyne.KeyEscape, fyne.KeyF1:
		PassKey(s, ev) // close the dialog, stop the run; the list of keys
	case fyne.KeyReturn, fyne.KeyEnter:
		s.Select.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	default:
		s.Select.TypedKey(ev)
	}
}

func (s *Select) FocusGained() {
	s.focused = true
	s.Select.FocusGained()
	ShowFocused(s)
}

// The focus ring stands a little clear of its control, so it shows around a
// blue button as around a grey one.
const (
	ringGap   = 1
	ringWidth = 2
)

// ringRenderer draws a focus ring while focused: Fyne only tints a focused button.
type ringRenderer struct {
	fyne.WidgetRenderer
	ring    *canvas.Rectangle
	focused func() bool
	objs    []fyne.CanvasObject
}

func withRing(r fyne.WidgetRenderer, focused func() bool) fyne.WidgetRenderer {
	ring := canvas.NewRectangle(color.Transparent)
	ring.StrokeWidth = ringWidth
	rr := &ringRenderer{WidgetRenderer: r, ring: ring, focused: focused}
	rr.paint()
	return rr
}

func (r *ringRenderer) Objects() []fyne.CanvasObject { return r.objs }

func (r *ringRenderer) Layout(size fyne.Size) {
	r.WidgetRenderer.Layout(size)
	out := float32(ringGap + ringWidth)
	r.ring.Move(fyne.NewPos(-out, -out))
	r.ring.Resize(size.AddWidthHeight(2*out, 2*out))
}

func (r *ringRenderer) Refresh() {
	r.WidgetRenderer.Refresh()
	r.paint()
	r.ring.Refresh()
}

// paint colours the ring for focus and lists the widget's objects, then the ring.
func (r *ringRenderer) paint() {
	r.ring.FillColor, r.ring.StrokeColor = color.Transparent, color.Transparent
	r.ring.CornerRadius = theme.InputRadiusSize() + ringGap + ringWidth
	if r.focused() {
		r.ring.StrokeColor = theme.Color(theme.ColorNamePrimary)
	}
	r.objs = append(append(r.objs[:0], r.WidgetRenderer.Objects()...), r.ring)
}
