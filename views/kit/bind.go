// Package kit is Agent Desk's widgets and the designed states (loading,
// empty, error) every screen shows alike. It knows nothing of the app: what
// it needs of it comes in as small interfaces (Runner, Observable,
// Pictures), so it can be built and tested alone.
package kit

import (
	"sync"
	"sync/atomic"
	"time"
)

// Frame is the shortest time between two updates of one binding: changes
// that come faster are drawn together, at most once a frame.
const Frame = time.Second / 60

// Observable is a value the app publishes (live.Observable): Snapshot is
// the current value and its version, Subscribe calls changed after each
// new version and must only schedule work.
type Observable[T any] interface {
	Snapshot() (T, uint64)
	Subscribe(changed func()) (cancel func())
}

// Bind shows every new snapshot of s with show, on the UI goroutine. It is
// how every screen follows the app's state: show gets the current snapshot
// at once (Bind is called on the UI goroutine), then the newest one after
// each change. Changes that come while an update waits for the UI are folded
// into it, so at most one update per binding is queued at any time, at most
// one a Frame however fast the state changes (a streaming reply publishes
// far more often than the screen draws), and show never sees an older
// snapshot after a newer. Nothing runs while nothing changes. stop ends the
// binding; an update already queued is then dropped.
func Bind[T any](s Observable[T], show func(T)) (stop func()) {
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
	s       Observable[T]
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
