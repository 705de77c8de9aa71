package screen

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/live"
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

// ShowList puts in stack what st is: loading, its error (which stays until a
// retry brings the list), empty, or list, under partial's words when only n
// items could be read; it returns the items listed, nil when none are.
func ShowList[T any](stack *fyne.Container, list fyne.CanvasObject, st live.ListState[T], loading string, empty func() fyne.CanvasObject, retry func(), partial func(n int, why string) string) []T {
	switch {
	case st.Incomplete && len(st.Items) > 0:
		kit.SetBody(stack, kit.Partial(list, partial(len(st.Items), app.Describe(st.Err)), st.Loading, retry))
		return st.Items
	case st.Err != nil && !(st.Loading && len(st.Items) == 0):
		kit.ShowBody(stack, Error(st.Err, retry))
	case len(st.Items) > 0:
		kit.ShowBody(stack, list)
		return st.Items
	case st.Loaded && !st.Loading:
		kit.SetBody(stack, empty())
	default:
		kit.SetBody(stack, kit.Loading(loading))
	}
	return nil
}
