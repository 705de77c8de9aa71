package live

import (
	"context"
	"sync"
)

// Newest runs one background job at a time for one piece of state: a start
// cancels the one under way, and only the newest job's news counts.
type Newest struct {
	mu     sync.Mutex
	gen    uint64
	cancel context.CancelFunc
}

// Start cancels the job under way and begins one under parent: its context,
// cancel and number.
func (n *Newest) Start(parent context.Context) (context.Context, context.CancelFunc, uint64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.cancel != nil {
		n.cancel()
	}
	n.gen++
	ctx, cancel := context.WithCancel(parent)
	n.cancel = cancel
	return ctx, cancel, n.gen
}

// Stop cancels the job under way and makes its news stale.
func (n *Newest) Stop() { n.interrupt(true) }

// Interrupt cancels the job under way; its news still counts.
func (n *Newest) Interrupt() { n.interrupt(false) }

func (n *Newest) interrupt(stale bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.cancel != nil {
		n.cancel()
	}
	if stale {
		n.gen++
	}
}

// Current reports whether job gen is still the newest.
func (n *Newest) Current(gen uint64) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return gen == n.gen
}

// Publish runs f while job gen is the newest, holding off any new start.
func (n *Newest) Publish(gen uint64, f func()) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if gen == n.gen {
		f()
	}
}
