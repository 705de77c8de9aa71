package kit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Fold is content shown and hidden by a button named for it: technical
// choices wait there, out of the way of staff who never need them.
type Fold struct {
	// Button opens and closes the fold; Content is what it shows. They
	// are placed apart where room is short (the button at the end of a
	// row, the content under it), else together (Object).
	Button  *widget.Button
	Content fyne.CanvasObject
}

// Object is the fold's button with its content under it.
func (f Fold) Object() fyne.CanvasObject {
	return container.NewVBox(container.NewHBox(f.Button), f.Content)
}

// NewFold makes a fold named title over content. open is how it starts;
// changed is told when the user opens or closes it (to remember that).
func NewFold(title string, content fyne.CanvasObject, open bool, changed func(open bool)) Fold {
	var btn *widget.Button
	show := func(open bool) {
		if open {
			btn.SetIcon(theme.MenuDropDownIcon())
			content.Show()
		} else {
			btn.SetIcon(theme.MenuExpandIcon())
			content.Hide()
		}
	}
	btn = widget.NewButtonWithIcon(title, theme.MenuExpandIcon(), func() {
		open := !content.Visible()
		show(open)
		if changed != nil {
			changed(open)
		}
	})
	btn.Importance = widget.LowImportance
	btn.Alignment = widget.ButtonAlignLeading
	show(open)
	return Fold{Button: btn, Content: content}
}
