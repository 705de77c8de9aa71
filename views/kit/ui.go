package kit

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
)

// Do runs fn on the UI goroutine. Screens use it, not fyne.Do, so tests can
// run updates on the test goroutine via a Queue: the test driver runs fyne.Do
// inline, racing the test.
func Do(fn func()) {
	if q := queue.Load(); q != nil {
		q.mu.Lock()
		q.fns = append(q.fns, fn)
		q.mu.Unlock()
		return
	}
	if fyne.CurrentApp() == nil {
		return // no window any more (late work after a test's app closed)
	}
	fyne.Do(fn)
}

var queue atomic.Pointer[Queue]

// Queue holds UI updates until a test runs them with Drain or WaitUntil.
// BusyAfter, when set, overrides busyAfter for ActShowing.
type Queue struct {
	mu        sync.Mutex
	fns       []func()
	BusyAfter time.Duration
}

// Cleaner is the part of testing.TB UseQueue needs.
type Cleaner interface {
	Helper()
	Cleanup(func())
	Fatalf(format string, args ...any)
}

// UseQueue makes Do queue updates until the test drains them, until the test
// ends. Not for parallel tests.
func UseQueue(t Cleaner) *Queue {
	q := &Queue{}
	queue.Store(q)
	t.Cleanup(func() { queue.CompareAndSwap(q, nil) })
	return q
}

// Drain runs queued updates, and any they queue, returning how many ran.
func (q *Queue) Drain() int {
	n := 0
	for {
		q.mu.Lock()
		fns := q.fns
		q.fns = nil
		q.mu.Unlock()
		if len(fns) == 0 {
			return n
		}
		for _, fn := range fns {
			fn()
			n++
		}
	}
}

// WaitUntil drains updates until cond holds; its limit only guards against a
// hang, failing with describe's text.
func (q *Queue) WaitUntil(t Cleaner, cond func() bool, describe func() string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		q.Drain()
		if cond() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting; last state: %s", describe())
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

var background atomic.Bool

// TrackForeground follows whether the window is in front, for notifications.
// Call once: Fyne keeps one callback pair per app.
func TrackForeground(a fyne.App) {
	lc := a.Lifecycle()
	lc.SetOnEnteredForeground(func() { background.Store(false) })
	lc.SetOnExitedForeground(func() { background.Store(true) })
}

// InForeground reports whether the window is in front.
func InForeground() bool { return !background.Load() }

// SetForeground lets tests pretend the window went to the background and back.
func SetForeground(front bool) { background.Store(!front) }

// Runner is what kit needs of the app to work off the UI goroutine: Go runs
// app work that closing waits for; Life ends at close.
type Runner interface {
	Go(fn func()) bool
	Life() context.Context
}

// Act runs work as the app's own, then then on the UI goroutine: how a button
// calls the service without holding the window.
func Act(a Runner, work func(ctx context.Context), then func()) {
	a.Go(func() {
		work(a.Life())
		if then != nil {
			Do(then)
		}
	})
}

// NewBorder is container.NewBorder with parts in reading order, the order Tab
// follows: Fyne's puts the centre first. (List rows keep Fyne's.)
func NewBorder(top, bottom, left, right fyne.CanvasObject, center ...fyne.CanvasObject) *fyne.Container {
	objs := append(append([]fyne.CanvasObject{top, left}, center...), right, bottom)
	objs = slices.DeleteFunc(objs, func(o fyne.CanvasObject) bool { return o == nil })
	return container.New(layout.NewBorderLayout(top, bottom, left, right), objs...)
}
