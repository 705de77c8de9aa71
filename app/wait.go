package app

import (
	"sync"
	"time"
)

// serviceWait is when the service will take requests again after a 429; zero for none.
type serviceWait struct {
	mu    sync.Mutex
	until time.Time
}

// set records a wait of d from now (0 clears it).
func (w *serviceWait) set(d time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if d <= 0 {
		w.until = time.Time{}
		return
	}
	w.until = time.Now().Add(d)
}

// Until is the end of the wait, or the zero time once it has passed.
func (w *serviceWait) Until() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	if time.Now().After(w.until) {
		return time.Time{}
	}
	return w.until
}
