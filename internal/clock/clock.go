// Package clock is what Agent Desk's waits run on (a list's refresh, a
// debounce, a tip's delay), so that tests move time on instead of sleeping.
package clock

import (
	"sync"
	"time"
)

// Timer is a wait started with AfterFunc.
type Timer interface {
	Stop() bool
	Reset(d time.Duration) bool
}

// Clock tells the time and runs functions after a while.
type Clock interface {
	Now() time.Time
	AfterFunc(d time.Duration, fn func()) Timer
}

// Real is the system's clock.
type Real struct{}

func (Real) Now() time.Time { return time.Now() }

func (Real) AfterFunc(d time.Duration, fn func()) Timer { return time.AfterFunc(d, fn) }

// Or is c, or the system's clock when c is nil.
func Or(c Clock) Clock {
	if c == nil {
		return Real{}
	}
	return c
}

// Fake is a clock a test moves on with Advance; the functions of the waits
// that come due run inside Advance, in their order.
type Fake struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

// NewFake is a Fake that starts at the present time.
func NewFake() *Fake { return &Fake{now: time.Now()} }

func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// AfterFunc runs fn once Advance has moved the clock d on.
func (f *Fake) AfterFunc(d time.Duration, fn func()) Timer {
	t := &fakeTimer{f: f, fn: fn}
	t.Reset(d)
	return t
}

// Waiting is how many waits have not come due: none means nothing is
// planned, however far the clock moves.
func (f *Fake) Waiting() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.timers)
}

// Advance moves the clock on by d and runs the waits then due, and any
// they start that are due too.
func (f *Fake) Advance(d time.Duration) {
	f.mu.Lock()
	f.now = f.now.Add(d)
	f.mu.Unlock()
	for {
		f.mu.Lock()
		var next *fakeTimer
		for _, t := range f.timers {
			if !t.at.After(f.now) && (next == nil || t.at.Before(next.at)) {
				next = t
			}
		}
		if next != nil {
			f.remove(next)
		}
		f.mu.Unlock()
		if next == nil {
			return
		}
		next.fn()
	}
}

// remove takes t off the clock; f.mu is held.
func (f *Fake) remove(t *fakeTimer) bool {
	for i, o := range f.timers {
		if o == t {
			f.timers = append(f.timers[:i], f.timers[i+1:]...)
			return true
		}
	}
	return false
}

type fakeTimer struct {
	f  *Fake
	at time.Time
	fn func()
}

func (t *fakeTimer) Stop() bool {
	t.f.mu.Lock()
	defer t.f.mu.Unlock()
	return t.f.remove(t)
}

func (t *fakeTimer) Reset(d time.Duration) bool {
	t.f.mu.Lock()
	defer t.f.mu.Unlock()
	was := t.f.remove(t)
	t.at = t.f.now.Add(d)
	t.f.timers = append(t.f.timers, t)
	return was
}
