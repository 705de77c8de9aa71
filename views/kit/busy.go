package kit

import (
	"context"
	"fyne.io/fyne/v2/lang"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
)

// BusyAfter is how long work the user waits on may take before the
// window shows that it is under way.
var BusyAfter = 500 * time.Millisecond

// busy are the windows with awaited work under way (UI goroutine only).
var busy = map[fyne.Window]bool{}

// ActShowing is Act for what the user waits on (linking files, creating a
// collection): when the work takes longer than BusyAfter, the window shows
// what is under way, with a moving bar and Cancel (or Esc), until it ends;
// quicker work shows nothing. While it runs the window starts no other
// awaited work (a second click on Process does nothing), so nothing is
// sent twice. Cancel cancels the work's context: what is done stays done,
// the rest is not started.
func ActShowing(a *app.App, w fyne.Window, what string, work func(ctx context.Context), then func()) {
	if w != nil && busy[w] {
		return
	}
	if w != nil {
		busy[w] = true
	}
	ctx, cancel := context.WithCancel(a.Life())
	done := false // UI goroutine only
	var d *dialog.CustomDialog
	timer := time.AfterFunc(BusyAfter, func() {
		Do(func() {
			if done || w == nil || a.Life().Err() != nil {
				return // ended, or the app closes and the work may never end
			}
			bar := widget.NewProgressBarInfinite()
			stop := NewButtonWithIcon(lang.L("Cancel"), theme.CancelIcon(), cancel)
			d = dialog.NewCustomWithoutButtons(what, container.NewVBox(bar), w)
			d.SetButtons([]fyne.CanvasObject{stop})
			d.Resize(fyne.NewSize(min(w.Canvas().Size().Width*0.8, 420), 0))
			ShowDialogKeys(d, w, nil, cancel)
		})
	})
	started := a.Go(func() {
		defer cancel()
		work(ctx)
		Do(func() {
			done = true
			timer.Stop()
			delete(busy, w)
			if d != nil {
				d.Hide()
			}
			if then != nil {
				then()
			}
		})
	})
	if !started { // the app is closing
		timer.Stop()
		cancel()
		delete(busy, w)
	}
}
