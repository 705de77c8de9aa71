package live

import (
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/internal/clock"
)

// Debouncer runs fn once input has been quiet for delay.
type Debouncer struct {
	clock clock.Clock
	delay time.Duration
	fn    func()

	mu      sync.Mutex
	timer   clock.Timer
	pending bool
	stopped bool
	running sync.Mutex // held while fn runs: it never runs twice at once
}

// NewDebouncer calls fn delay after the last Trigger, by c.
func NewDebouncer(c clock.Clock, delay time.Duration, fn func()) *Debouncer {
	return &Debouncer{clock: clock.Or(c), delay: delay, fn: fn}
}

// Trigger (re)starts the wait.
func (d *Debouncer) Trigger() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.stopped {
		return
	}
	d.pending = true
	if d.timer == nil {
		d.timer = d.clock.AfterFunc(d.delay, d.fire)
		return
	}
	d.timer.Reset(d.delay)
}

func (d *Debouncer) fire() {
	d.running.Lock()
	defer d.running.Unlock()
	d.mu.Lock()
	if !d.pending {
		d.mu.Unlock()
		return
	}
	d.pending = false
	d.mu.Unlock()
	d.fn()
}

// Flush runs a waiting call now and waits for one in progress.
func (d *Debouncer) Flush() {
	d.mu.Lock()
	if d.timer != nil {
		d.timer.Stop()
	}
	d.mu.Unlock()
	d.fire()
}

// Cancel drops a waiting call (what it would do was done another way).
func (d *Debouncer) Cancel() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.pending = false
	if d.timer != nil {
		d.timer.Stop()
	}
}

// Stop runs a waiting call and refuses later Triggers.
func (d *Debouncer) Stop() {
	d.mu.Lock()
	d.stopped = true
	d.mu.Unlock()
	d.Flush()
}
