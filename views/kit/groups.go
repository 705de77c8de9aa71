package kit

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// checks are a group's options, a box each, one under another.
type checks struct {
	options []string
	items   []*Check
	box     *fyne.Container
	syncing bool // the group is ticking boxes itself
}

func newChecks(options []string, round bool, changed func(option string, on bool)) *checks {
	c := &checks{options: options, box: container.NewVBox()}
	for i, o := range options {
		item := NewCheck(o, nil)
		item.round = round
		item.step = func(delta int) { c.step(i, delta) }
		item.OnChanged = func(on bool) {
			if !c.syncing {
				changed(o, on)
			}
		}
		c.items = append(c.items, item)
		c.box.Add(item)
	}
	return c
}

func (c *checks) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(c.box) }

// Unwrap is the boxes, where FocusFirst finds the first.
func (c *checks) Unwrap() fyne.CanvasObject { return c.box }

// step gives the keyboard to the first box that can take it delta boxes
// from box i, if any.
func (c *checks) step(i, delta int) {
	for j := i + delta; j >= 0 && j < len(c.items); j += delta {
		if it := c.items[j]; it.Visible() && !it.Disabled() {
			if cv := fyne.CurrentApp().Driver().CanvasForObject(it); cv != nil {
				cv.Focus(it)
			}
			return
		}
	}
}

// tick ticks the boxes of the options on reports, clearing the others.
func (c *checks) tick(on func(option string) bool) {
	c.syncing = true
	defer func() { c.syncing = false }()
	for i, item := range c.items {
		item.SetChecked(on(c.options[i]))
	}
}

// RadioGroup is a choice of one among a few, as round check boxes: each shows
// the focus ring (Fyne's radios only a faint circle) and Space chooses.
type RadioGroup struct {
	widget.BaseWidget
	*checks
	Selected string
	// Required keeps an option chosen: choosing it again does not clear it.
	Required  bool
	OnChanged func(string)
}

func NewRadioGroup(options []string, changed func(string)) *RadioGroup {
	r := &RadioGroup{OnChanged: changed}
	r.checks = newChecks(options, true, r.tapped)
	r.ExtendBaseWidget(r)
	return r
}

func (r *RadioGroup) tapped(option string, on bool) {
	switch {
	case on:
		r.SetSelected(option)
	case r.Required:
		r.show() // the chosen one stays chosen
	default:
		r.SetSelected("")
	}
}

// SetSelected chooses option ("" for none), telling OnChanged on a change,
// as a choice by the user does.
func (r *RadioGroup) SetSelected(option string) {
	if option != "" && !slices.Contains(r.options, option) {
		return
	}
	changed := option != r.Selected
	r.Selected = option
	r.show()
	if changed && r.OnChanged != nil {
		r.OnChanged(option)
	}
}

func (r *RadioGroup) show() { r.tick(func(o string) bool { return o == r.Selected }) }

// Disable greys every option out; Enable brings them back.
func (r *RadioGroup) Disable() {
	for _, item := range r.items {
		item.Disable()
	}
}

func (r *RadioGroup) Enable() {
	for _, item := range r.items {
		item.Enable()
	}
}

func (r *RadioGroup) Disabled() bool {
	return len(r.items) > 0 && r.items[0].Disabled()
}

// roundRenderer is Fyne's check box renderer with radio icons set after
// every refresh. Not a theme override: Fyne reparses every font per
// overridden widget it paints, keeping them for the app's life.
type roundRenderer struct {
	fyne.WidgetRenderer
	c *Check
}

func (r *roundRenderer) Refresh() {
	r.WidgetRenderer.Refresh()
	r.round()
}

// round gives the pictures radio icons in the check box's colours for its state.
func (r *roundRenderer) round() {
	var pics []*canvas.Image
	for _, o := range r.WidgetRenderer.Objects() {
		if img, ok := o.(*canvas.Image); ok {
			pics = append(pics, img)
		}
	}
	if len(pics) != 2 {
		return // a later Fyne draws its box otherwise: it stays a box
	}
	th := r.c.Theme()
	name, colour, fill := theme.IconNameRadioButton, theme.ColorNameInputBorder, theme.ColorNameInputBackground
	if r.c.Checked {
		name, colour, fill = theme.IconNameRadioButtonChecked, theme.ColorNamePrimary, theme.ColorNameBackground
	}
	if r.c.Disabled() {
		colour, fill = theme.ColorNameDisabled, theme.ColorNameBackground
	}
	bg := theme.NewThemedResource(th.Icon(theme.IconNameRadioButtonFill))
	bg.ColorName = fill
	icon := theme.NewThemedResource(th.Icon(name))
	icon.ColorName = colour
	pics[0].Resource, pics[1].Resource = bg, icon
	pics[0].Refresh()
	pics[1].Refresh()
}

// CheckGroup is a choice of any of a few options, as check boxes showing the
// focus ring.
type CheckGroup struct {
	widget.BaseWidget
	*checks
	Selected  []string
	OnChanged func([]string)
}

func NewCheckGroup(options []string, changed func([]string)) *CheckGroup {
	g := &CheckGroup{OnChanged: changed}
	g.checks = newChecks(options, false, func(string, bool) { g.tapped() })
	g.ExtendBaseWidget(g)
	return g
}

func (g *CheckGroup) Options() []string { return g.options }

func (g *CheckGroup) tapped() {
	g.Selected = g.Selected[:0:0]
	for i, item := range g.items {
		if item.Checked {
			g.Selected = append(g.Selected, g.options[i])
		}
	}
	if g.OnChanged != nil {
		g.OnChanged(g.Selected)
	}
}

// SetSelected ticks the options named, clearing others, telling OnChanged.
func (g *CheckGroup) SetSelected(options []string) {
	g.tick(func(o string) bool { return slices.Contains(options, o) })
	g.tapped()
}
