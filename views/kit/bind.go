// Package kit is Agent Desk's widgets and shared screen states. It knows
// nothing of the app beyond small interfaces, so it builds and tests alone.
package kit

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"

	"github.com/agentdesk/agentdesk/internal/clock"
)

// Frame is the shortest time between two updates of one binding.
const Frame = time.Second / 60

// Observable is a value the app publishes (live.Observable): Snapshot is
// the current value and its version, Subscribe calls changed after each
// new version and must only schedule work.
type Observable[T any] interface {
	Snapshot() (T, uint64)
	Subscribe(changed func()) (cancel func())
}

// Bind shows s's current snapshot with show at once, then the newest after
// each change, on the UI goroutine. Changes are folded so at most one update
// is queued, at most one per Frame, never older after newer. stop ends it,
// dropping a queued update.
func Bind[T any](s Observable[T], show func(T)) (stop func()) {
	b := &binding[T]{s: s, show: show, q: queue.Load()}
	cancel := s.Subscribe(b.changed)
	v, ver := s.Snapshot()
	b.last = ver
	show(v)
	return sync.OnceFunc(func() {
		b.stopped.Store(true)
		cancel()
	})
}

type binding[T any] struct {
	s       Observable[T]
	show    func(T)
	pending atomic.Bool
	stopped atomic.Bool
	shown   atomic.Int64 // when the last update ran (Unix nanoseconds)
	last    uint64       // UI goroutine only
	// q is the test queue it was made under: updates after that test are dropped.
	q *Queue
}

func (b *binding[T]) do() {
	if b.stopped.Load() || (b.q != nil && queue.Load() != b.q) {
		return
	}
	Do(b.apply)
}

func (b *binding[T]) changed() {
	if b.stopped.Load() || !b.pending.CompareAndSwap(false, true) {
		return
	}
	if wait := Frame - time.Duration(time.Now().UnixNano()-b.shown.Load()); wait > 0 {
		time.AfterFunc(wait, b.do)
		return
	}
	b.do()
}

func (b *binding[T]) apply() {
	b.pending.Store(false)
	if b.stopped.Load() {
		return
	}
	b.shown.Store(time.Now().UnixNano())
	v, ver := b.s.Snapshot()
	if ver == b.last {
		return
	}
	b.last = ver
	b.show(v)
}

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
// Once the test calls UseClock, kit's own waits (a tip's delay, the
// progress window's, a late release of text) run on the queue's clock,
// which the test moves with Advance instead of sleeping.
type Queue struct {
	mu    sync.Mutex
	fns   []func()
	clock atomic.Pointer[clock.Fake]
}

func (q *Queue) UseClock() { q.clock.Store(clock.NewFake()) }

// Advance moves q's clock on by d, runs the waits then due, and drains.
func (q *Queue) Advance(d time.Duration) {
	if c := q.clock.Load(); c != nil {
		c.Advance(d)
	}
	q.Drain()
}

// clockNow is the clock kit's waits run on: a test's, or the system's.
func clockNow() clock.Clock {
	if q := queue.Load(); q != nil {
		if c := q.clock.Load(); c != nil {
			return c
		}
	}
	return clock.Real{}
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

// TrackForeground follows whether w is in front, for tips and
// notifications; its layer keeps the answer. Call once: Fyne keeps one
// callback pair per app.
func TrackForeground(a fyne.App, w fyne.Window) {
	lc := a.Lifecycle()
	lc.SetOnEnteredForeground(func() { SetForeground(w, true) })
	lc.SetOnExitedForeground(func() { SetForeground(w, false) })
}

// InForeground reports whether w is in front (a window not tracked is).
func InForeground(w fyne.Window) bool {
	if w == nil {
		return true
	}
	l := LayerOf(w.Canvas())
	return l == nil || !l.background.Load()
}

func SetForeground(w fyne.Window, front bool) {
	if l := LayerOf(w.Canvas()); l != nil {
		l.background.Store(!front)
	} else if !front {
		windowLayer(w.Canvas()).background.Store(true)
	}
}

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
