package client

import (
	"context"
	"sync"
	"time"
)

// Pacer keeps one account's requests within what its service allows: a
// token bucket. A 429 halves the rate and holds every request for its wait;
// later answers bring the rate back to just under where the 429 came.
// Requests the user waits for go ahead of Background ones.
type Pacer struct {
	mu   sync.Mutex
	base float64 // requests a second when all is well
	rate float64 // now
	// ceiling is as far as answers bring the rate back; a quiet spell raises it.
	ceiling float64
	moved   time.Time // when the ceiling last moved
	burst   float64
	tokens  float64
	last    time.Time
	hold    time.Time // no request before this (a 429's wait)
	waiting int       // interactive requests waiting for a token
	sent    int
	now     func() time.Time
}

// NewPacer paces at perSecond with bursts of burst; a rate ≤ 0 paces nothing (nil).
func NewPacer(perSecond float64, burst int) *Pacer {
	if perSecond <= 0 {
		return nil
	}
	return &Pacer{base: perSecond, rate: perSecond, ceiling: perSecond, burst: float64(max(burst, 1)), tokens: float64(max(burst, 1)), now: time.Now}
}

// WithPacer paces every request of the client through p (nil: none).
func WithPacer(p *Pacer) Option { return func(c *config) { c.pacer = p } }

// Rate is the requests a second the pacer allows now.
func (p *Pacer) Rate() float64 {
	if p == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rate
}

type backgroundKey struct{}

// Background marks ctx's requests as background work.
func Background(ctx context.Context) context.Context {
	return context.WithValue(ctx, backgroundKey{}, true)
}

// Background requests look every yieldEvery whether interactive ones are
// gone, and stop giving way after giveWay.
const (
	yieldEvery = 20 * time.Millisecond
	giveWay    = 2 * time.Second
)

// wait blocks until a request may go, or ctx ends.
func (p *Pacer) wait(ctx context.Context) error {
	if p == nil {
		return nil
	}
	background, _ := ctx.Value(backgroundKey{}).(bool)
	start := p.now()
	if !background {
		p.mu.Lock()
		p.waiting++
		p.mu.Unlock()
		defer func() {
			p.mu.Lock()
			p.waiting--
			p.mu.Unlock()
		}()
	}
	for {
		p.mu.Lock()
		now := p.now()
		p.refill(now)
		var d time.Duration
		switch {
		case now.Before(p.hold):
			d = p.hold.Sub(now)
		case background && p.waiting > 0 && now.Sub(start) < giveWay:
			d = yieldEvery
		case p.tokens >= 1:
			p.tokens--
			p.sent++
			p.mu.Unlock()
			return nil
		default:
			d = time.Duration((1 - p.tokens) / p.rate * float64(time.Second))
			if background {
				d = min(d, yieldEvery)
			}
		}
		p.mu.Unlock()
		if err := sleepCtx(ctx, max(d, time.Millisecond)); err != nil {
			return err
		}
	}
}

func (p *Pacer) refill(now time.Time) {
	switch {
	case p.last.IsZero():
		p.last = now
	case now.After(p.last):
		// nothing builds up before last (the end of a hold)
		p.tokens = min(p.burst, p.tokens+now.Sub(p.last).Seconds()*p.rate)
		p.last = now
	}
}

// ceilingStep is how far under a 429's rate the ceiling goes, and up each ceilingQuiet.
const (
	ceilingStep  = 1.0 / 32
	ceilingQuiet = time.Minute
)

// limited slows down after a 429 that asked for wait.
func (p *Pacer) limited(wait time.Duration) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	// a 429 during a hold answers a request sent before it: already slowed
	if !now.Before(p.hold) {
		p.ceiling = max(min(p.ceiling, p.rate)*(1-ceilingStep), p.base/16)
		p.rate = max(p.rate/2, p.base/16)
		p.moved = now
	}
	p.tokens = 0
	if until := now.Add(wait); until.After(p.hold) {
		p.hold = until
	}
	if p.hold.After(p.last) {
		p.last = p.hold
	}
}

// answered brings the rate back a step, up to the ceiling.
func (p *Pacer) answered() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if now := p.now(); p.ceiling < p.base && now.Sub(p.moved) >= ceilingQuiet {
		p.ceiling = min(p.base, p.ceiling+p.base*ceilingStep)
		p.moved = now
	}
	p.rate = min(p.ceiling, p.rate+p.base/10)
}
