// Package kit is Agent Desk's widgets and shared screen states. It knows
// nothing of the app beyond small interfaces, so it builds and tests alone.
package kit

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
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
	mu     sync.Mutex
	fns    []func()
	clock  bool
	now    time.Time
	timers []*queueTimer
}

// UseClock has kit's waits run on q's clock from now on.
func (q *Queue) UseClock() {
	q.mu.Lock()
	q.clock, q.now = true, time.Now()
	q.mu.Unlock()
}

// Advance moves q's clock on by d, runs the waits then due in their order
// (and any they start that are due too), and drains.
func (q *Queue) Advance(d time.Duration) {
	q.mu.Lock()
	q.now = q.now.Add(d)
	q.mu.Unlock()
	for {
		q.mu.Lock()
		var next *queueTimer
		for _, t := range q.timers {
			if !t.at.After(q.now) && (next == nil || t.at.Before(next.at)) {
				next = t
			}
		}
		if next != nil {
			q.remove(next)
		}
		q.mu.Unlock()
		if next == nil {
			break
		}
		next.fn()
	}
	q.Drain()
}

// remove takes t off q's clock; q.mu is held.
func (q *Queue) remove(t *queueTimer) bool {
	for i, o := range q.timers {
		if o == t {
			q.timers = append(q.timers[:i], q.timers[i+1:]...)
			return true
		}
	}
	return false
}

// queueTimer is a wait on a Queue's clock.
type queueTimer struct {
	q  *Queue
	at time.Time
	fn func()
}

func (t *queueTimer) Stop() bool {
	t.q.mu.Lock()
	defer t.q.mu.Unlock()
	return t.q.remove(t)
}

func (t *queueTimer) Reset(d time.Duration) bool {
	t.q.mu.Lock()
	defer t.q.mu.Unlock()
	was := t.q.remove(t)
	t.at = t.q.now.Add(d)
	t.q.timers = append(t.q.timers, t)
	return was
}

// timer is a wait kit started: time's, or a test's clock's.
type timer interface {
	Stop() bool
	Reset(d time.Duration) bool
}

// testClock is the queue whose clock runs kit's waits, or nil.
func testClock() *Queue {
	if q := queue.Load(); q != nil {
		q.mu.Lock()
		defer q.mu.Unlock()
		if q.clock {
			return q
		}
	}
	return nil
}

// afterFunc runs fn after d, on the test's clock when it has one.
func afterFunc(d time.Duration, fn func()) timer {
	if q := testClock(); q != nil {
		t := &queueTimer{q: q, fn: fn}
		t.Reset(d)
		return t
	}
	return time.AfterFunc(d, fn)
}

// now is the time, by the test's clock when it has one.
func now() time.Time {
	if q := testClock(); q != nil {
		q.mu.Lock()
		defer q.mu.Unlock()
		return q.now
	}
	return time.Now()
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
