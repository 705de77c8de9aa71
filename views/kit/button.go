package kit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// Button is a button of a long form or page: when Tab gives it the
// keyboard, the scroll it is in brings it into view (FollowFocus), as
// Agent Desk's fields do. Fyne's button never scrolls to itself.
type Button struct {
	widget.Button
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

// FocusGained scrolls the button into view (FollowFocus).
func (b *Button) FocusGained() {
	b.Button.FocusGained()
	ShowFocused(b)
}
