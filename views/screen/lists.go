package screen

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/views/kit"
)

// Confirm asks title with yes and no as its answers and runs do on yes; what
// cannot be undone (destructive) is never confirmed by Enter.
func Confirm(w fyne.Window, title, text, yes, no string, destructive bool, do func()) *dialog.ConfirmDialog {
	d := dialog.NewConfirm(title, text, func(ok bool) {
		if ok {
			do()
		}
	}, w)
	d.SetConfirmText(yes)
	d.SetDismissText(no)
	if destructive {
		kit.ShowDestructive(d, w)
	} else {
		kit.ShowDialog(d, w)
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
