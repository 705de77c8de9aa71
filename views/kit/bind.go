package kit

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentdesk/agentdesk/app"
)

// Frame is the shortest time between two updates of one binding: changes
// that come faster are drawn together, at most once a frame.
const Frame = time.Second / 60

// Bind shows every new snapshot of s with show, on the UI goroutine. It is
// how every screen follows the app's state: show gets the current snapshot
// at once (Bind is called on the UI goroutine), then the newest one after
// each change. Changes that come while an update waits for the UI are folded
// into it, so at most one update per binding is queued at any time, at most
// one a Frame however fast the state changes (a streaming reply publishes
// far more often than the screen draws), and show never sees an older
// snapshot after a newer. Nothing runs while nothing changes. stop ends the
// binding; an update already queued is then dropped.
func Bind[T any](s app.Observable[T], show func(T)) (stop func()) {
	b := &binding[T]{s: s, show: show, q: queue.Load()}
	cancel := s.Subscribe(b.changed)
	v, ver := s.Snapshot()
	b.last = ver
	show(v)
	var once sync.Once
	return func() {
		once.Do(func() {
			b.stopped.Store(true)
			cancel()
		})
	}
}

type binding[T any] struct {
	s       app.Observable[T]
	show    func(T)
	pending atomic.Bool
	stopped atomic.Bool
	shown   atomic.Int64 // when the last update ran (Unix nanoseconds)
	last    uint64       // UI goroutine only
	// q is the test queue the binding was made under (nil in the app): an
	// update due after that test ended is dropped, not run in the next.
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

// OnAccountChange calls reload on the UI goroutine each time an account is
// activated after this call (switching accounts, or the same one again
// after its key changed): screens drop what they show of the old one.
func OnAccountChange(a *app.App, reload func()) (stop func()) {
	return onSessionCount(a, func(s app.Session) uint64 { return s.Activations }, reload)
}

// OnServiceBack calls reload on the UI goroutine each time the active
// account's service can be reached again after it could not (the status
// bar checks by itself), so that a screen loads what it could not.
func OnServiceBack(a *app.App, reload func()) (stop func()) {
	returns := -1
	return Bind(a.Connection(), func(c app.Connection) {
		if returns >= 0 && c.Returns > returns {
			reload()
		}
		returns = c.Returns
	})
}

// OnCharge calls update on the UI goroutine each time a charged call is
// recorded after this call, and each time an account is activated.
func OnCharge(a *app.App, update func()) (stop func()) {
	return onSessionCount(a, func(s app.Session) uint64 { return s.Charges + s.Activations }, update)
}

func onSessionCount(a *app.App, count func(app.Session) uint64, fn func()) (stop func()) {
	first := true
	var seen uint64
	return Bind(a.Session(), func(s app.Session) {
		n := count(s)
		if first || n == seen {
			first, seen = false, n
			return
		}
		seen = n
		fn()
	})
}
