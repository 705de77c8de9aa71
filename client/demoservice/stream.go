package demoservice

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

const pingEvery = 8

// sseWriter writes flushed Server-Sent Events with the stream faults in force at start.
type sseWriter struct {
	w      http.ResponseWriter
	rc     *http.ResponseController
	faults Faults
	sent   int
	// cut is set when a fault broke the connection, not the run.
	cut bool
}

func (s *Service) newSSE(w http.ResponseWriter) *sseWriter {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	sw := &sseWriter{w: w, rc: http.NewResponseController(w), faults: s.currentFaults()}
	_ = sw.rc.Flush()
	return sw
}

// event sends one JSON data event, cutting the connection (panicking with
// http.ErrAbortHandler) when CutStreamAfter says so. False when the client left.
func (sw *sseWriter) event(v any) bool {
	if sw.faults.CutStreamAfter > 0 && sw.sent >= sw.faults.CutStreamAfter {
		sw.cut = true
		panic(http.ErrAbortHandler)
	}
	sw.sent++
	var data []byte
	if sw.faults.MalformedEventAt == sw.sent {
		// A broken stream: the run goes on for a client that looks it up.
		sw.cut = true
		data = []byte(`{"id":` + `"status":"running","output":`)
		if sw.faults.MalformedEvent != "" {
			data = []byte(sw.faults.MalformedEvent)
		}
	} else {
		var err error
		if data, err = json.Marshal(v); err != nil {
			return false
		}
	}
	return sw.raw(data)
}

// raw sends data as one event without fault handling (used for [DONE]).
func (sw *sseWriter) raw(data []byte) bool {
	buf := make([]byte, 0, len(data)+8)
	buf = append(buf, "data: "...)
	buf = append(buf, data...)
	buf = append(buf, "\n\n"...)
	if sw.sent%pingEvery == 0 && sw.sent > 0 {
		buf = append(buf, ": ping\n\n"...)
	}
	if _, err := sw.w.Write(buf); err != nil {
		return false
	}
	_ = sw.rc.Flush()
	return true
}

// run drives e: running, then a fragment each Pace, each added to the output
// and, when frame is set, rendered by it under the lock and sent; then
// completed, or failed halfway (Faults.FailExecutions). It reports false,
// leaving e as it is, when ctx or the service ends or a send fails.
func (s *Service) run(ctx context.Context, e *execution, frame func(i int, frag string) any, send func(any) bool) bool {
	s.mu.Lock()
	e.rec.Status, e.rec.Credits, e.rec.UpdatedAt = StatusRunning, nil, s.now()
	s.mu.Unlock()
	for i, frag := range e.fragments {
		if e.fail && i == len(e.fragments)/2 {
			// Assumption: a failed run is charged half its credits, for the work done.
			s.finish(e, StatusFailed, failedRunMessage, roundCredits(e.final/2))
			return true
		}
		if !s.sleep(ctx, s.opts.Pace) {
			return false
		}
		var ev any
		s.mu.Lock()
		e.rec.Output += frag
		e.rec.UpdatedAt = s.now()
		if frame != nil {
			ev = frame(i, frag)
		}
		s.mu.Unlock()
		if frame != nil && !send(ev) {
			return false
		}
	}
	if !s.held(ctx) || !s.lasted(ctx, e) || !s.sleep(ctx, s.opts.Pace) {
		return false
	}
	s.finish(e, StatusCompleted, "", e.final)
	return true
}

// clockTick is how often a run looks at the service's clock (Faults.RunFor).
const clockTick = 20 * time.Millisecond

// lasted waits until e has run Faults.RunFor on the service's clock; false
// when ctx ends first.
func (s *Service) lasted(ctx context.Context, e *execution) bool {
	until := e.rec.CreatedAt.Add(s.currentFaults().RunFor)
	for left := until.Sub(s.now()); left > 0; left = until.Sub(s.now()) {
		if !s.sleep(ctx, min(left, clockTick)) {
			return false
		}
	}
	return true
}

// held waits while Faults.Hold is open; false when ctx ends first.
func (s *Service) held(ctx context.Context) bool {
	s.mu.Lock()
	hold := s.faults.Hold
	s.mu.Unlock()
	if hold == nil {
		return true
	}
	select {
	case <-hold:
		return true
	case <-ctx.Done():
		return false
	}
}

// progress drives a polled or awaited run after a Pace of starting.
func (s *Service) progress(e *execution) {
	defer close(e.done)
	if s.sleep(s.ctx, s.opts.Pace) {
		s.run(s.ctx, e, nil, nil)
	}
}

// finish ends the run with status, the error (failed: "") and the credits charged.
func (s *Service) finish(e *execution, status, errMsg string, credits float64) {
	s.mu.Lock()
	e.rec.Status, e.rec.Error, e.rec.Credits, e.rec.UpdatedAt = status, errMsg, &credits, s.now()
	s.mu.Unlock()
}

// streamRun runs e as events frame renders, then end sends the last ones.
// A client that leaves stops the run; a broken network (a fault's cut) does
// not, and polling finds the reply.
// Assumption: the service's generation does not depend on the connection
// that asked for it.
func (s *Service) streamRun(w http.ResponseWriter, r *http.Request, e *execution, frame func(i int, frag string) any, end func(sw *sseWriter)) {
	sw := s.newSSE(w)
	ended := false
	defer func() {
		if !ended {
			s.mu.Lock()
			e.rec.Stopped = true
			e.rec.UpdatedAt = s.now()
			if sw.cut {
				e.rec.Output = strings.Join(e.fragments, "")
			}
			s.mu.Unlock()
			if sw.cut {
				s.finish(e, StatusCompleted, "", e.final)
			}
		}
		close(e.done)
	}()
	if ended = s.run(r.Context(), e, frame, sw.event); ended {
		end(sw)
	}
}

// streamExecution streams a running event per fragment, then the ended
// record with empty output: completed with final credits or, for a failing
// run (Faults.FailExecutions), failed with its credits and its reason.
// Assumption: the real reading's failed event carries the reason in output
// with a null error, as its polled record does (the failure event is not
// documented); the spec reading's carries an empty output and error
// {"message"}.
func (s *Service) streamExecution(w http.ResponseWriter, r *http.Request, e *execution) {
	s.streamRun(w, r, e, func(_ int, frag string) any {
		ev := s.wire(e, false, false)
		ev.Output = frag
		return ev
	}, func(sw *sseWriter) {
		ev := s.recordOf(e, false, false)
		if ev.Status != StatusFailed || !s.real {
			ev.Output = "" // the text came in the running events
		}
		sw.event(ev)
	})
}
