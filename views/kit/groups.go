package kit

import (
	"image/color"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// RadioGroup is a choice of one option among a few, shown all at once, one
// under another: Agent Desk's check boxes drawn as round buttons, so each
// option shows the focus ring while it has the keyboard (Fyne's radio
// buttons show it only by a faint circle) and Space chooses it.
type RadioGroup struct {
	widget.BaseWidget
	// Selected is the option chosen ("" for none).
	Selected string
	// Required keeps an option chosen: choosing the chosen one again
	// does not clear it.
	Required bool
	// OnChanged is told each choice, made by the user or SetSelected.
	OnChanged func(string)
	options   []string
	items     []*Check
	box       *fyne.Container
	syncing   bool
}

// NewRadioGroup is a RadioGroup of options telling changed each choice.
func NewRadioGroup(options []string, changed func(string)) *RadioGroup {
	r := &RadioGroup{OnChanged: changed, options: options, box: container.NewVBox()}
	for _, o := range options {
		item := NewCheck(o, nil)
		item.OnChanged = func(on bool) { r.tapped(o, on) }
		r.items = append(r.items, item)
		r.box.Add(container.NewThemeOverride(item, radioLook{}))
	}
	r.ExtendBaseWidget(r)
	return r
}

// CreateRenderer shows the options one under another.
func (r *RadioGroup) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(r.box)
}

// tapped follows a change of one option's box.
func (r *RadioGroup) tapped(option string, on bool) {
	if r.syncing {
		return
	}
	switch {
	case on:
		r.SetSelected(option)
	case r.Required:
		r.show() // the chosen one stays chosen
	default:
		r.SetSelected("")
	}
}

// SetSelected chooses option ("" for none), telling OnChanged if it is a
// change.
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

// show ticks the chosen option's box alone.
func (r *RadioGroup) show() {
	r.syncing = true
	defer func() { r.syncing = false }()
	for i, item := range r.items {
		item.SetChecked(r.options[i] == r.Selected)
	}
}

// Disable greys every option out; Enable brings them back.
func (r *RadioGroup) Disable() {
	for _, item := range r.items {
		item.Disable()
	}
}

// Enable lets every option be chosen again.
func (r *RadioGroup) Enable() {
	for _, item := range r.items {
		item.Enable()
	}
}

// Disabled tells whether the options are greyed out.
func (r *RadioGroup) Disabled() bool {
	return len(r.items) > 0 && r.items[0].Disabled()
}

// radioLook draws a check box as a radio button.
type radioLook struct{}

func (radioLook) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	return fyne.CurrentApp().Settings().Theme().Color(n, v)
}

func (radioLook) Font(s fyne.TextStyle) fyne.Resource {
	return fyne.CurrentApp().Settings().Theme().Font(s)
}

func (radioLook) Size(n fyne.ThemeSizeName) float32 {
	return fyne.CurrentApp().Settings().Theme().Size(n)
}

func (radioLook) Icon(n fyne.ThemeIconName) fyne.Resource {
	switch n {
	case theme.IconNameCheckButton:
		n = theme.IconNameRadioButton
	case theme.IconNameCheckButtonChecked:
		n = theme.IconNameRadioButtonChecked
	case theme.IconNameCheckButtonFill:
		n = theme.IconNameRadioButtonFill
	}
	return fyne.CurrentApp().Settings().Theme().Icon(n)
}

// CheckGroup is a choice of any of a few options, one under another:
// Agent Desk's check boxes, each showing the focus ring while it has the
// keyboard.
type CheckGroup struct {
	widget.BaseWidget
	// Selected is the options ticked, in the order offered.
	Selected []string
	// OnChanged is told the options ticked after each change.
	OnChanged func([]string)
	options   []string
	items     []*Check
	box       *fyne.Container
	syncing   bool
}

// NewCheckGroup is a CheckGroup of options telling changed each change.
func NewCheckGroup(options []string, changed func([]string)) *CheckGroup {
	g := &CheckGroup{OnChanged: changed, options: options, box: container.NewVBox()}
	for _, o := range options {
		item := NewCheck(o, nil)
		item.OnChanged = func(bool) { g.tapped() }
		g.items = append(g.items, item)
		g.box.Add(item)
	}
	g.ExtendBaseWidget(g)
	return g
}

// CreateRenderer shows the options one under another.
func (g *CheckGroup) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(g.box)
}

// Options are the options offered, in order.
func (g *CheckGroup) Options() []string { return g.options }

func (g *CheckGroup) tapped() {
	if g.syncing {
		return
	}
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

// SetSelected ticks the options named (others are cleared), telling
// OnChanged.
func (g *CheckGroup) SetSelected(options []string) {
	g.syncing = true
	for i, item := range g.items {
		item.SetChecked(slices.Contains(options, g.options[i]))
	}
	g.syncing = false
	g.tapped()
}
