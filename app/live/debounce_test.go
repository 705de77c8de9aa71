package live_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/internal/clock"
)

func TestDebouncerCoalesces(t *testing.T) {
	var calls atomic.Int32
	c := clock.NewFake()
	d := live.NewDebouncer(c, 80*time.Millisecond, func() { calls.Add(1) })
	for i := 0; i < 20; i++ {
		d.Trigger()
		c.Advance(5 * time.Millisecond)
	}
	if calls.Load() != 0 {
		t.Fatalf("ran while input kept coming: %d", calls.Load())
	}
	c.Advance(80 * time.Millisecond)
	c.Advance(150 * time.Millisecond)
	if calls.Load() != 1 {
		t.Errorf("calls = %d, want 1", calls.Load())
	}
	d.Flush() // nothing waiting: no call
	d.Trigger()
	d.Stop() // a waiting call runs at once
	d.Trigger()
	c.Advance(150 * time.Millisecond)
	if calls.Load() != 2 {
		t.Errorf("calls = %d, want 2", calls.Load())
	}
}
