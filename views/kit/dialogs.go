package kit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// Fyne's dialogs answer to no key: Enter and Esc go to the window behind
// them. Agent Desk shows every dialog through ShowDialog, which remembers
// what its keys do, and the window asks DialogKey first.

// dialogKeys is what Enter and Esc do in one shown dialog, and what had
// the keyboard behind it.
type dialogKeys struct {
	enter, escape func()
	back          fyne.Focusable    // gets the keyboard back at close (nil: none)
	under         fyne.CanvasObject // the overlay the dialog opened over (nil: the window)
}

// shownDialogs holds the keys of each dialog on screen, by the overlay
// that shows it (UI goroutine only).
var shownDialogs = map[fyne.CanvasObject]dialogKeys{}

// ShowDialog shows d as desktop dialogs behave: Esc closes it as its
// Cancel or Close button does, and Enter presses its default button:
// confirms a confirm dialog, submits a form (which checks its fields
// first), closes a dialog that has only a Close or OK button.
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

// ShowDestructive shows a dialog that confirms what cannot be undone
// (deleting, sending the key elsewhere): Esc cancels it, Enter does
// nothing, so only a deliberate click or Space on its button goes ahead.
func ShowDestructive(d dialog.Dialog, w fyne.Window) {
	ShowDialogKeys(d, w, nil, d.Dismiss)
}

// ShowDialogKeys shows d with what Enter and Esc do in it (nil: nothing).
//
// A button, choice or list behind the dialog lets the keyboard go while
// the dialog is open (one ring on screen, the dialog's) and gets it back
// when the dialog closes, or when the dialog its answer opened closes. A
// text field keeps it: a field that lost it would show its checks.
func ShowDialogKeys(d dialog.Dialog, w fyne.Window, enter, escape func()) {
	c := w.Canvas()
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
	shownDialogs[top] = keys
	// A dialog shown again is told twice: the first call cleans up, the
	// second finds nothing to do.
	d.SetOnClosed(func() { dialogClosed(c, top) })
}

// dialogClosed forgets a dialog's keys and gives the keyboard back to
// what had it, or hands that on to the dialog the answer opened.
func dialogClosed(c fyne.Canvas, top fyne.CanvasObject) {
	keys, ok := shownDialogs[top]
	if !ok {
		return
	}
	delete(shownDialogs, top)
	if keys.back == nil {
		return
	}
	now := c.Overlays().Top()
	if now == keys.under {
		if c.Focused() == nil {
			c.Focus(keys.back)
		}
		return
	}
	if next, ok := shownDialogs[now]; ok && next.back == nil {
		next.back, next.under = keys.back, keys.under
		shownDialogs[now] = next
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

// ShowInformation is dialog.ShowInformation with its keys: Enter and Esc
// close it.
func ShowInformation(title, message string, w fyne.Window) {
	ShowDialog(dialog.NewInformation(title, message, w), w)
}

// DialogKey gives a key to the dialog or pop-up open on c, and reports
// whether one is open: with one open, no key goes to the screen behind it.
func DialogKey(c fyne.Canvas, key fyne.KeyName) bool {
	top := c.Overlays().Top()
	if top == nil {
		return false
	}
	keys, ok := shownDialogs[top]
	if !ok {
		// One of Fyne's own (a file dialog's "new folder"): its buttons
		// answer, the keys wait; a menu takes its keys itself.
		return true
	}
	var do func()
	switch key {
	case fyne.KeyEscape:
		do = keys.escape
	case fyne.KeyReturn, fyne.KeyEnter:
		do = keys.enter
	}
	if do != nil {
		do()
	}
	return true
}

// AnswerDialogKeys has the window's dialogs answer to Enter and Esc where
// nothing else on it takes keys (the welcome screen); the shell's own key
// handler asks DialogKey first.
func AnswerDialogKeys(w fyne.Window) {
	w.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) { DialogKey(w.Canvas(), ev.Name) })
}

// PassKey hands a key typed in o to the window showing it (F1 typed in a
// text field: the list of keys).
func PassKey(o fyne.CanvasObject, ev *fyne.KeyEvent) {
	if a := fyne.CurrentApp(); a != nil {
		if c := a.Driver().CanvasForObject(o); c != nil {
			if f := c.OnTypedKey(); f != nil {
				f(ev)
			}
		}
	}
}

// ringButtons gives the buttons Fyne puts in a dialog (Yes and No, a
// form's Cancel and submit, Close) the focus ring of Agent Desk's own: a
// Button that does what each did takes its place in the dialog's button
// row (the fourth part of the dialog Fyne builds). A form's submit button
// stays enabled only while the form's fields pass their checks, as
// Fyne's did; the button it replaces follows too, since the dialog's
// Submit (Enter) asks it.
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
				} else {
					b.Enable()
					now[i].Enable()
				}
			}
		})
	}
	row.Refresh()
}
