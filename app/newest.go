package app

import (
	"context"
	"sync"
)

// newest runs one background job at a time for one piece of state: a start
// cancels the job under way, and only the newest job's news counts.
type newest struct {
	mu     sync.Mutex
	gen    uint64
	cancel context.CancelFunc
}

// start cancels the job under way and begins one under parent, returning its
// context, cancel and number.
func (n *newest) start(parent context.Context) (context.Context, context.CancelFunc, uint64) {
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

// stop cancels the job under way and makes its news stale.
func (n *newest) stop() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.cancel != nil {
		n.cancel()
	}
	n.gen++
}

// interrupt cancels the job under way; its news still counts.
func (n *newest) interrupt() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.cancel != nil {
		n.cancel()
	}
}

// current reports whether job gen is still the newest.
func (n *newest) current(gen uint64) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return gen == n.gen
}

// publish runs f while gen is newest, holding off new starts until done.
func (n *newest) publish(gen uint64, f func()) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if gen == n.gen {
		f()
	}
}
