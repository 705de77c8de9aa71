package demoservice

import (
	"math"
	"net/http"
	"strconv"
	"time"
)

// Faults make the service misbehave on purpose so clients can be checked
// against slow, failing and rate-limited servers. Switch them with SetFaults
// at any time; the zero value turns every fault off.
type Faults struct {
	// Latency is added before every answer.
	Latency time.Duration
	// Fail500 makes the next N requests answer 500 {"message","error"}.
	Fail500 int
	// RateLimit makes the next N requests answer 429 with Retry-After.
	RateLimit int
	// RetryAfter is the Retry-After value (whole seconds, at least 1).
	RetryAfter time.Duration
	// CutStreamAfter ends every stream abruptly (connection closed, no
	// completed event) after N events; 0 never cuts.
	CutStreamAfter int
	// MalformedEventAt sends the Nth stream event (1-based) as invalid JSON;
	// 0 never does.
	MalformedEventAt int
	// SlowFirstByte delays the response headers of every request.
	SlowFirstByte time.Duration
}

// SetFaults replaces the faults in force. Safe to call concurrently.
func (s *Service) SetFaults(f Faults) {
	s.mu.Lock()
	s.faults = f
	s.mu.Unlock()
}

// currentFaults returns a snapshot of the faults in force.
func (s *Service) currentFaults() Faults {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.faults
}

// applyFaults delays and possibly answers the request with an injected
// failure; it reports whether the request should go on.
func (s *Service) applyFaults(w http.ResponseWriter, r *http.Request) bool {
	f := s.currentFaults()
	if !s.sleep(r.Context(), f.SlowFirstByte) || !s.sleep(r.Context(), f.Latency) {
		if r.Context().Err() != nil {
			return false
		}
	}
	s.mu.Lock()
	fail, limit := s.faults.Fail500 > 0, false
	if fail {
		s.faults.Fail500--
	} else if s.faults.RateLimit > 0 {
		s.faults.RateLimit--
		limit = true
	}
	retry := s.faults.RetryAfter
	s.mu.Unlock()

	switch {
	case fail:
		writeJSON(w, http.StatusInternalServerError, map[string]string{
			"message": "Server Error",
			"error":   "The service failed while handling the request. Please try again.",
		})
		return false
	case limit:
		secs := int(math.Ceil(retry.Seconds()))
		if secs < 1 {
			secs = 1
		}
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		writeError(w, http.StatusTooManyRequests, "Too Many Attempts.")
		return false
	}
	return true
}
