package screen

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"

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
