package kit

import (
	"context"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
)

// BusyAfter is how long work the user waits on may take before the
// window shows that it is under way.
var BusyAfter = 500 * time.Millisecond

// ActShowing is Act for what the user waits on (linking files, creating a
// collection): when the work takes longer than BusyAfter, the window shows
// what is under way, with a moving bar, until it ends; quicker work shows
// nothing. The window takes no other action meanwhile, so nothing is
// started twice.
func ActShowing(a *app.App, w fyne.Window, what string, work func(ctx context.Context), then func()) {
	done := false // UI goroutine only
	var d *dialog.CustomDialog
	timer := time.AfterFunc(BusyAfter, func() {
		Do(func() {
			if done || w == nil {
				return
			}
			bar := widget.NewProgressBarInfinite()
			d = dialog.NewCustomWithoutButtons(what, container.NewVBox(bar), w)
			d.Resize(fyne.NewSize(min(w.Canvas().Size().Width*0.8, 420), 0))
			ShowDialogKeys(d, w, nil, nil)
		})
	})
	Act(a, work, func() {
		done = true
		timer.Stop()
		if d != nil {
			d.Hide()
		}
		if then != nil {
			then()
		}
	})
}
