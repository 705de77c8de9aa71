package kit

import (
	"context"
	"sync"
	"time"

	"fyne.io/fyne/v2/lang"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// ProgressAfter is how long awaited work runs before the window shows it.
const ProgressAfter = 500 * time.Millisecond

// ActShowing is Act for work the user waits on: past ProgressAfter the window
// shows it with a bar and Cancel. While it runs no other awaited work starts,
// so nothing is sent twice. Cancel stops what is not done yet.
func ActShowing(a Runner, w fyne.Window, what string, work func(ctx context.Context), then func()) {
	actShowing(a, w, what, nil, func(ctx context.Context, _ *Progress) { work(ctx) }, then)
}

// ActShowingProgress is ActShowing for work that reports progress, so a long
// wait is seen to move.
func ActShowingProgress(a Runner, w fyne.Window, what string, work func(ctx context.Context, p *Progress), then func()) {
	actShowing(a, w, what, &Progress{}, work, then)
}

// Progress is how far ActShowingProgress's work has gone; set it from any
// goroutine, the window draws the latest.
type Progress struct {
	mu      sync.Mutex
	done    float64
	line    string
	pending bool                            // an update is on its way to the UI goroutine
	show    func(done float64, line string) // the window's, while it shows
}

// Set says how far the work has gone: done in 0..1 (0: unknown) and a line.
func (p *Progress) Set(done float64, line string) {
	p.mu.Lock()
	p.done, p.line = done, line
	first := !p.pending
	p.pending = true
	p.mu.Unlock()
	if first {
		Do(p.flush)
	}
}

// flush shows the latest progress (UI goroutine).
func (p *Progress) flush() {
	p.mu.Lock()
	done, line, show := p.done, p.line, p.show
	p.pending = false
	p.mu.Unlock()
	if show != nil {
		show(done, line)
	}
}

// shownBy has show show progress from now on, the latest at once (UI goroutine).
func (p *Progress) shownBy(show func(done float64, line string)) {
	p.mu.Lock()
	p.show = show
	p.mu.Unlock()
	p.flush()
}

func actShowing(a Runner, w fyne.Window, what string, p *Progress, work func(ctx context.Context, p *Progress), then func()) {
	l := &Layer{} // the window's, which knows whether awaited work is under way (without a window, a stand-in)
	if w != nil {
		if l = windowLayer(w.Canvas()); l.busy {
			return
		}
		l.busy = true
	}
	ctx, cancel := context.WithCancel(a.Life())
	done := false // UI goroutine only
	var d *dialog.CustomDialog
	timer := clockNow().AfterFunc(ProgressAfter, func() {
		Do(func() {
			if done || w == nil || a.Life().Err() != nil {
				return // ended, or the app closes and the work may never end
			}
			bar := widget.NewProgressBarInfinite()
			body := container.NewVBox(bar)
			if p != nil {
				// The line has room from the start, so the window does not jump.
				filled, line := widget.NewProgressBar(), widget.NewLabel("")
				filled.Hide()
				body = container.NewVBox(container.NewStack(bar, filled), line)
				p.shownBy(func(done float64, text string) {
					if done > 0 && !filled.Visible() {
						bar.Stop()
						bar.Hide()
						filled.Show()
					}
					if done > 0 {
						filled.SetValue(done)
					}
					line.SetText(text)
				})
			}
			d = dialog.NewCustomWithoutButtons(what, body, w)
			d.SetButtons([]fyne.CanvasObject{NewButtonWithIcon(lang.L("Cancel"), theme.CancelIcon(), cancel)})
			d.Resize(fyne.NewSize(min(w.Canvas().Size().Width*0.8, 420), 0))
			ShowDialogKeys(d, w, nil, cancel)
		})
	})
	started := a.Go(func() {
		defer cancel()
		work(ctx, p)
		Do(func() {
			done = true
			timer.Stop()
			l.busy = false
			if p != nil {
				p.shownBy(nil)
			}
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
		l.busy = false
	}
}
