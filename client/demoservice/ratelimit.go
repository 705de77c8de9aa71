package demoservice

import (
	"math"
	"sync"
	"time"
)

// maxBuckets bounds the limiter's memory against ever new wrong keys.
const maxBuckets = 4096

// limiter is a token bucket per API key (Options.RatePerSecond, Burst).
// Assumption: the real service's numbers are not published; a community
// client reports about one request per second per key, so --serve-demo
// runs with 1 per second and a burst of 10.
type limiter struct {
	rate  float64
	burst float64
	now   func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

// newLimiter returns nil (no pacing) when rate is not positive.
func newLimiter(rate float64, burst int, now func() time.Time) *limiter {
	if rate <= 0 {
		return nil
	}
	b := float64(burst)
	if burst <= 0 {
		b = math.Max(1, math.Ceil(rate))
	}
	return &limiter{rate: rate, burst: b, now: now, buckets: map[string]*bucket{}}
}

// take spends a token of key's bucket, else reports false and the seconds to wait.
func (l *limiter) take(key string) (ok bool, retryAfter int) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b, found := l.buckets[key]
	if !found {
		if len(l.buckets) >= maxBuckets {
			l.buckets = map[string]*bucket{}
		}
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[key] = b
	}
	if elapsed := now.Sub(b.last).Seconds(); elapsed > 0 {
		b.tokens = math.Min(l.burst, b.tokens+elapsed*l.rate)
		b.last = now
	}
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	secs := int(math.Ceil((1 - b.tokens) / l.rate))
	return false, max(secs, 1)
}
