// Package kit is Agent Desk's widgets and shared screen states. It knows
// nothing of the app beyond small interfaces, so it builds and tests alone.
package kit

import (
	"sync"
	"sync/atomic"
	"time"
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
