package screen

import (
	"context"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/views/kit"
)

// Weight is what saying yes to a confirmation does.
type Weight int

const (
	// Safe: Enter confirms.
	Safe Weight = iota
	// Paid costs credits: only a click, or Tab to the button, confirms.
	Paid
	// Destructive cannot be undone: as Paid, and its button is red.
	Destructive
)

// Confirm asks title with yes and no as its answers and runs do on yes.
func Confirm(w fyne.Window, title, text, yes, no string, weight Weight, do func()) *dialog.ConfirmDialog {
	d := dialog.NewConfirm(title, text, func(ok bool) {
		if ok {
			do()
		}
	}, w)
	d.SetConfirmText(yes)
	d.SetDismissText(no)
	switch weight {
	case Safe:
		kit.ShowDialog(d, w)
	case Destructive:
		d.SetConfirmImportance(widget.DangerImportance)
		fallthrough
	default:
		kit.ShowDestructive(d, w)
	}
	return d
}

// Ask shows body in a dialog with confirm and Cancel and runs ok on
// confirm. Ctrl+Enter in entries confirms and the first has the keyboard;
// Enter confirms too unless byEnter is false (a paid step, or one that
// changes what cannot be shown back). A zero size leaves the dialog's own.
func Ask(env Env, title, confirm string, body fyne.CanvasObject, size fyne.Size, byEnter bool, entries []*kit.FormEntry, ok func()) *dialog.ConfirmDialog {
	w := env.Window
	d := dialog.NewCustomConfirm(title, confirm, lang.L("Cancel"), body, func(yes bool) {
		if yes {
			ok()
		}
	}, w)
	if !size.IsZero() {
		d.Resize(size)
	}
	for _, e := range entries {
		e.OnCtrlEnter = d.Confirm
	}
	if byEnter {
		kit.ShowDialog(d, w)
	} else {
		kit.ShowDialogKeys(d, w, nil, d.Dismiss)
	}
	if len(entries) > 0 {
		w.Canvas().Focus(entries[0])
	}
	return d
}

// Try does work the user waits on (busy says what), then tells why it
// failed under the title failed, or runs then (when not nil).
func Try(env Env, busy, failed string, work func(ctx context.Context) error, then func()) {
	var err error
	kit.ActShowing(env.App, env.Window, busy, func(ctx context.Context) { err = work(ctx) }, func() {
		if err != nil {
			kit.ShowInformation(failed, app.Describe(err), env.Window)
		} else if then != nil {
			then()
		}
	})
}

// ShowPath says what could not be opened and where it is, with the path
// to select and a button to copy it: pasted into a file manager or a mail.
func ShowPath(w fyne.Window, title, text, path string) {
	msg := Wrapped(text)
	p := Wrapped(path)
	p.Selectable = true
	p.TextStyle.Monospace = true
	copyBtn := kit.NewButtonWithIcon(lang.L("Copy path"), theme.ContentCopyIcon(), nil)
	copyBtn.OnTapped = func() {
		fyne.CurrentApp().Clipboard().SetContent(path)
		copyBtn.SetText(lang.L("Copied"))
	}
	d := dialog.NewCustom(title, lang.L("Close"), container.NewVBox(msg, p, container.NewHBox(copyBtn)), w)
	d.Resize(fyne.NewSize(520, 0))
	kit.ShowDialog(d, w)
}

// NameList is names one per line for a confirmation: the first five, then
// how many more.
func NameList(names []string) string {
	const shown = 5
	if len(names) <= shown {
		return strings.Join(names, "\n")
	}
	more := len(names) - shown
	return strings.Join(names[:shown], "\n") + "\n" + lang.N("and {{.Count}} more", more, map[string]any{"Count": app.Number(more)})
}
