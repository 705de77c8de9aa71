package kit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// Button is Agent Desk's button: a ring shows while it has the keyboard
// (Fyne only tints), and it scrolls into view on Tab.
type Button struct {
	widget.Button
	// Tip is shown while the pointer rests on the button ("" for none).
	Tip     string
	focused bool
	self    fyne.CanvasObject // the widget shown, when one embeds b (nil: b)
}

// shown is the widget the window shows: b, or the one embedding it.
func (b *Button) shown() fyne.CanvasObject {
	if b.self != nil {
		return b.self
	}
	return b
}

// NewButtonWithIcon is a Button with a label, an icon and what it does.
func NewButtonWithIcon(label string, icon fyne.Resource, tapped func()) *Button {
	b := &Button{}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// NewButton is a Button with a label and what it does.
func NewButton(label string, tapped func()) *Button {
	return NewButtonWithIcon(label, nil, tapped)
}

// CreateRenderer is Fyne's button with a focus ring around it.
func (b *Button) CreateRenderer() fyne.WidgetRenderer {
	return withRing(b.Button.CreateRenderer(), func() bool { return b.focused })
}

// FocusGained rings the button and scrolls it into view.
func (b *Button) FocusGained() {
	b.focused = true
	b.Button.FocusGained()
	ShowFocused(b.shown())
}

// FocusLost takes the ring away.
func (b *Button) FocusLost() {
	b.focused = false
	b.Button.FocusLost()
}

// MouseIn starts the wait for the button's tip.
func (b *Button) MouseIn(ev *desktop.MouseEvent) {
	b.Button.MouseIn(ev)
	hovered(b.shown(), b.Tip)
}

// MouseOut hides the button's tip.
func (b *Button) MouseOut() {
	b.Button.MouseOut()
	left(b.shown())
}

// Tapped hides the tip and presses the button.
func (b *Button) Tapped(ev *fyne.PointEvent) {
	left(b.shown())
	b.Button.Tapped(ev)
}

// Hide hides the button and its tip.
func (b *Button) Hide() {
	left(b.shown())
	b.Button.Hide()
}

// Check is Agent Desk's check box, with a focus ring, scrolled into view on Tab.
type Check struct {
	widget.Check
	focused bool
	round   bool // drawn as a radio button (RadioGroup's options)
}

// NewCheck is a Check with a label and what a change does.
func NewCheck(label string, changed func(bool)) *Check {
	c := &Check{}
	c.Text, c.OnChanged = label, changed
	c.ExtendBaseWidget(c)
	return c
}

// CreateRenderer is Fyne's check box with a focus ring around it.
func (c *Check) CreateRenderer() fyne.WidgetRenderer {
	r := c.Check.CreateRenderer()
	if c.round {
		r = newRoundRenderer(r, c)
	}
	return withRing(r, func() bool { return c.focused })
}

// FocusGained rings the box and scrolls it into view.
func (c *Check) FocusGained() {
	c.focused = true
	c.Check.FocusGained()
	ShowFocused(c)
}

// FocusLost takes the ring away.
func (c *Check) FocusLost() {
	c.focused = false
	c.Check.FocusLost()
}
