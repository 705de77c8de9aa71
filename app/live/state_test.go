package live_test

import (
	"sync"
	"testing"

	"github.com/agentdesk/agentdesk/app/live"
)

// Updates from many goroutines never lose one another, every subscriber
// hears each, and the last version holds the last value.
func TestStateUpdatesFromManyGoroutines(t *testing.T) {
	s := live.NewState(0)
	var heard sync.WaitGroup
	var mu sync.Mutex
	calls := 0
	cancel := s.Subscribe(func() { mu.Lock(); calls++; mu.Unlock() })
	const n = 200
	heard.Add(n)
	for range n {
		go func() {
			defer heard.Done()
			s.Update(func(v int) int { return v + 1 })
		}()
	}
	heard.Wait()
	v, ver := s.Snapshot()
	if v != n || ver != n+1 {
		t.Fatalf("after %d updates: value %d at version %d, want %d at %d", n, v, ver, n, n+1)
	}
	if calls != n {
		t.Fatalf("subscriber heard %d changes, want %d", calls, n)
	}
	cancel()
	s.Set(0)
	if calls != n {
		t.Fatal("a cancelled subscriber still hears changes")
	}
}
