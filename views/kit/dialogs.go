package kit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// Fyne's dialogs answer to no key: Enter and Esc go to the window behind.
// ShowDialog records each dialog's keys, and the window asks DialogKey first.

// dialogKeys is what Enter and Esc do in a dialog, and what had the keyboard before.
type dialogKeys struct {
	enter, escape func()
	back          fyne.Focusable    // gets the keyboard back at close (nil: none)
	under         fyne.CanvasObject // the overlay the dialog opened over (nil: the window)
}

// ShowDialog shows d as desktop dialogs behave: Esc cancels or closes, Enter
// presses the default button.
func ShowDialog(d dialog.Dialog, w fyne.Window) {
	enter := d.Dismiss
	switch d := d.(type) {
	case *dialog.ConfirmDialog:
		enter = d.Confirm
	case *dialog.FormDialog:
		enter = d.Submit
	case *dialog.FileDialog:
		enter = nil // its own name field takes Enter
	}
	ShowDialogKeys(d, w, enter, d.Dismiss)
}

// ShowDestructive shows a dialog confirming what cannot be undone: Esc
// cancels, Enter does nothing, so only a deliberate press goes ahead.
func ShowDestructive(d dialog.Dialog, w fyne.Window) {
	ShowDialogKeys(d, w, nil, d.Dismiss)
}

// ShowDialogKeys shows d with what Enter and Esc do (nil: nothing). Buttons
// behind give the keyboard up and get it back on close; a text field keeps
// it, lest it show its checks.
func ShowDialogKeys(d dialog.Dialog, w fyne.Window, enter, escape func()) {
	c := w.Canvas()
	l := windowLayer(c)
	HideTip(c)
	keys := dialogKeys{enter: enter, escape: escape, under: c.Overlays().Top()}
	if f := c.Focused(); ringed(f) {
		keys.back = f
		c.Unfocus()
	}
	d.Show()
	top := c.Overlays().Top()
	if top == nil {
		return
	}
	if _, files := d.(*dialog.FileDialog); !files {
		ringButtons(top)
	}
	l.dialogs[top] = keys
	// Told twice when shown again: the second call finds nothing to do.
	d.SetOnClosed(func() { dialogClosed(c, top) })
}

// dialogClosed forgets a dialog's keys and returns the keyboard, or hands it
// to the dialog the answer opened.
func dialogClosed(c fyne.Canvas, top fyne.CanvasObject) {
	l := LayerOf(c)
	if l == nil {
		return
	}
	keys, ok := l.dialogs[top]
	delete(l.dialogs, top)
	if !ok || keys.back == nil {
		return
	}
	now := c.Overlays().Top()
	if now == keys.under {
		if c.Focused() == nil {
			c.Focus(keys.back)
		}
		return
	}
	if next, ok := l.dialogs[now]; ok && next.back == nil {
		next.back, next.under = keys.back, keys.under
		l.dialogs[now] = next
	}
}

// ringed tells the controls that show a focus ring of Agent Desk's own.
func ringed(f fyne.Focusable) bool {
	switch f.(type) {
	case *Button, *PaidButton, *Check, *Select, *List:
		return true
	}
	return false
}

// ShowInformation is dialog.ShowInformation closed by Enter and Esc.
func ShowInformation(title, message string, w fyne.Window) {
	ShowDialog(dialog.NewInformation(title, message, w), w)
}

// DialogKey gives a key to the open dialog or pop-up on c, reporting whether
// one is open: then no key reaches the screen behind.
func DialogKey(c fyne.Canvas, key fyne.KeyName) bool {
	top := c.Overlays().Top()
	if top == nil {
		return false
	}
	var keys dialogKeys // none for Fyne's own dialog: its buttons answer, the keys wait
	if l := LayerOf(c); l != nil {
		keys = l.dialogs[top]
	}
	switch {
	case key == fyne.KeyEscape && keys.escape != nil:
		keys.escape()
	case (key == fyne.KeyReturn || key == fyne.KeyEnter) && keys.enter != nil:
		keys.enter()
	}
	return true
}

// AnswerDialogKeys has dialogs answer Enter and Esc on windows without a key
// handler of their own.
func AnswerDialogKeys(w fyne.Window) {
	w.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) { DialogKey(w.Canvas(), ev.Name) })
}

// PassKey hands a key typed in o to its window (F1 in a field).
func PassKey(o fyne.CanvasObject, ev *fyne.KeyEvent) {
	if c := canvasOf(o); c != nil {
		if f := c.OnTypedKey(); f != nil {
			f(ev)
		}
	}
}

// ringButtons swaps the buttons Fyne puts in a dialog for Agent Desk's, which
// show the focus ring. A form's submit stays enabled only while its fields
// pass, as Fyne's did.
func ringButtons(top fyne.CanvasObject) {
	p, ok := top.(*widget.PopUp)
	if !ok {
		return
	}
	parts, ok := p.Content.(*fyne.Container)
	if !ok || len(parts.Objects) < 4 {
		return
	}
	row, ok := parts.Objects[3].(*fyne.Container)
	if !ok {
		return
	}
	var was []*widget.Button
	var now []*Button
	for i, o := range row.Objects {
		b, ok := o.(*widget.Button)
		if !ok {
			continue
		}
		r := NewButtonWithIcon(b.Text, b.Icon, b.OnTapped)
		r.Importance, r.Alignment, r.IconPlacement = b.Importance, b.Alignment, b.IconPlacement
		if b.Disabled() {
			r.Disable()
		}
		row.Objects[i] = r
		was, now = append(was, b), append(now, r)
	}
	if len(now) == 0 {
		return // shown before: its buttons are ringed already
	}
	if form, ok := parts.Objects[2].(*widget.Form); ok {
		form.SetOnValidationChanged(func(err error) {
			for i, b := range was {
				if b.Importance != widget.HighImportance {
					continue
				}
				if err != nil {
					b.Disable()
					now[i].Disable()
					continue
				}
				b.Enable()
				now[i].Enable()
			}
		})
	}
	row.Refresh()
}
