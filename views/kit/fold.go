package kit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Fold is content shown and hidden by its button, keeping technical choices out of the way.
type Fold struct {
	// Button and Content may be placed apart where room is short, else together (Object).
	Button  *Button
	Content fyne.CanvasObject
	// OnChanged is told when the user opens or closes the fold.
	OnChanged func(open bool)
}

// NewFold is a closed fold named title over content.
func NewFold(title string, content fyne.CanvasObject) *Fold {
	f := &Fold{Content: content}
	f.Button = NewButtonWithIcon(title, theme.MenuExpandIcon(), func() {
		open := !f.Open()
		if !open {
			f.takeKeyboard()
		}
		f.SetOpen(open)
		if f.OnChanged != nil {
			f.OnChanged(open)
		}
	})
	f.Button.Importance = widget.LowImportance
	f.Button.Alignment = widget.ButtonAlignLeading
	f.SetOpen(false)
	return f
}

// takeKeyboard moves the keyboard from a hidden field to the button, lest
// typing go unseen into the next run; Fyne does not move it.
func (f *Fold) takeKeyboard() {
	a := fyne.CurrentApp()
	if a == nil {
		return
	}
	c := a.Driver().CanvasForObject(f.Button)
	if c == nil || c.Focused() == nil {
		return
	}
	focused, ok := c.Focused().(fyne.CanvasObject)
	if !ok {
		return
	}
	d := a.Driver()
	at, size := d.AbsolutePositionForObject(focused), focused.Size()
	from, area := d.AbsolutePositionForObject(f.Content), f.Content.Size()
	if contains(f.Content, focused) || (at.X >= from.X && at.Y >= from.Y &&
		at.X+size.Width <= from.X+area.Width && at.Y+size.Height <= from.Y+area.Height) {
		c.Focus(f.Button)
	}
}

func (f *Fold) Open() bool { return f.Content.Visible() }

func (f *Fold) SetOpen(open bool) {
	if open {
		f.Button.SetIcon(theme.MenuDropDownIcon())
		f.Content.Show()
	} else {
		f.Button.SetIcon(theme.MenuExpandIcon())
		f.Content.Hide()
	}
}

// Object is the fold's button with its content under it.
func (f *Fold) Object() fyne.CanvasObject {
	return container.NewVBox(container.NewHBox(f.Button), f.Content)
}
