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

// busyAfter is how long work the user waits on may take before the
// window shows that it is under way (a test's Queue may say less).
const busyAfter = 500 * time.Millisecond

// busy are the windows with awaited work under way (UI goroutine only).
var busy = map[fyne.Window]bool{}

// ActShowing is Act for what the user waits on (linking files, creating a
// collection): when the work takes longer than busyAfter, the window shows
// what is under way, with a moving bar and Cancel (or Esc), until it ends;
// quicker work shows nothing. While it runs the window starts no other
// awaited work (a second click on Process does nothing), so nothing is
// sent twice. Cancel cancels the work's context: what is done stays done,
// the rest is not started.
func ActShowing(a Runner, w fyne.Window, what string, work func(ctx context.Context), then func()) {
	actShowing(a, w, what, nil, func(ctx context.Context, _ *Progress) { work(ctx) }, then)
}

// ActShowingProgress is ActShowing for work that says how far it has
// gone (reading a sheet of many rows): the window fills a bar and shows
// the work's line under it, so a long wait is seen to move.
func ActShowingProgress(a Runner, w fyne.Window, what string, work func(ctx context.Context, p *Progress), then func()) {
	actShowing(a, w, what, &Progress{}, work, then)
}

// Progress is how far work ActShowingProgress runs has gone. The work
// sets it from its goroutine as often as it likes: the window takes the
// latest when it next draws.
type Progress struct {
	mu      sync.Mutex
	done    float64
	line    string
	pending bool                            // an update is on its way to the UI goroutine
	show    func(done float64, line string) // the window's, while it shows
}

// Set says how far the work has gone: done from 0 to 1 (0: not known)
// and a line saying it ("12,000 rows read so far").
func (p *Progress) Set(done float64, line string) {
	p.mu.Lock()
	p.done, p.line = done, line
	if p.pending {
		p.mu.Unlock()
		return
	}
	p.pending = true
	p.mu.Unlock()
	Do(p.flush)
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

// shownBy has show show the progress from now on (nil: no more), the
// latest at once (UI goroutine).
func (p *Progress) shownBy(show func(done float64, line string)) {
	p.mu.Lock()
	p.show = show
	p.mu.Unlock()
	p.flush()
}

func actShowing(a Runner, w fyne.Window, what string, p *Progress, work func(ctx context.Context, p *Progress), then func()) {
	if w != nil && busy[w] {
		return
	}
	if w != nil {
		busy[w] = true
	}
	ctx, cancel := context.WithCancel(a.Life())
	done := false // UI goroutine only
	var d *dialog.CustomDialog
	after := busyAfter
	if q := queue.Load(); q != nil && q.BusyAfter > 0 {
		after = q.BusyAfter
	}
	timer := time.AfterFunc(after, func() {
		Do(func() {
			if done || w == nil || a.Life().Err() != nil {
				return // ended, or the app closes and the work may never end
			}
			bar := widget.NewProgressBarInfinite()
			body := container.NewVBox(bar)
			if p != nil {
				// The filling bar takes the moving one's place once the
				// work knows how far it is; the line has its room from
				// the start, so the window does not jump.
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
			stop := NewButtonWithIcon(lang.L("Cancel"), theme.CancelIcon(), cancel)
			d = dialog.NewCustomWithoutButtons(what, body, w)
			d.SetButtons([]fyne.CanvasObject{stop})
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
			delete(busy, w)
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
		delete(busy, w)
	}
}
