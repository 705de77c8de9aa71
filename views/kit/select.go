package kit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// Select is a choice that changes only with its list open: Left and Right do
// nothing, unlike widget.Select. It scrolls into view on focus.
type Select struct {
	widget.Select
	focused bool
}

// CreateRenderer is Fyne's choice with a focus ring around it.
func (s *Select) CreateRenderer() fyne.WidgetRenderer {
	return withRing(s.Select.CreateRenderer(), func() bool { return s.focused })
}

// FocusLost takes the ring away.
func (s *Select) FocusLost() {
	s.focused = false
	s.Select.FocusLost()
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

// FocusGained scrolls the choice into view.
func (s *Select) FocusGained() {
	s.focused = true
	s.Select.FocusGained()
	ShowFocused(s)
}
