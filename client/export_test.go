package client

import (
	"time"

	"golang.org/x/net/http/httpproxy"
)

// Settings only tests change.

// PollWaits gives Wait's waits between polls, from first on.
func PollWaits(first time.Duration) func() time.Duration { return pollWaits(first) }

// WithRetryAfterCap caps how long a Retry-After header (or a 429's
// retry_after) may make a retry wait; a 429 asking for longer is returned.
func WithRetryAfterCap(d time.Duration) Option {
	return func(c *config) { c.retryAfterMax = max(d, 0) }
}

// WithRetryBudget sets how long one call may spend waiting between tries.
func WithRetryBudget(d time.Duration) Option {
	return func(c *config) { c.retryBudget = max(d, 0) }
}

// WithStreamIdleTimeout ends a stream with ErrStreamIdle when no event arrives for d.
func WithStreamIdleTimeout(d time.Duration) Option {
	return func(c *config) { c.streamIdleTimeout = d }
}

// WithMaxEventSize caps the size of one streamed event.
func WithMaxEventSize(n int) Option {
	return func(c *config) { c.maxEventSize = n }
}

// Sent counts the requests the pacer let go.
func (p *Pacer) Sent() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.sent
}

// GNOMEProxy reads GNOME's proxy settings through get.
func GNOMEProxy(get func(schema, key string) string) *httpproxy.Config { return gnomeProxy(get) }
