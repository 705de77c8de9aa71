package demoservice

import (
	"encoding/json"
	"net/http"
	"strings"
)

// pingEvery is how many events pass between ": ping" comment lines.
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

// newSSE starts an event stream answer.
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

// streamRun sends e's fragments as frame renders them (under the lock, once
// added to the output), then end finishes the run, setting completed when it
// does. Deferred, so a cut connection ends too: a client that leaves stops
// the run; a broken network does not, and polling finds the reply.
// Assumption: the service's generation does not depend on the connection
// that asked for it.
func (s *Service) streamRun(w http.ResponseWriter, r *http.Request, e *execution, frame func(i int, frag string) any, end func(sw *sseWriter, completed *bool)) {
	sw := s.newSSE(w)
	completed := false
	defer func() {
		if !completed {
			s.mu.Lock()
			e.rec.Stopped = true
			e.rec.UpdatedAt = s.now()
			if sw.cut {
				e.rec.Output = strings.Join(e.fragments, "")
			}
			s.mu.Unlock()
			if sw.cut {
				s.complete(e)
			}
		}
		close(e.done)
	}()
	s.mu.Lock()
	e.rec.Status, e.rec.Credits = StatusRunning, nil
	s.mu.Unlock()
	for i, frag := range e.fragments {
		if i > 0 && !s.sleep(r.Context(), s.opts.Pace) {
			return
		}
		if i == e.failAt() {
			s.failRun(e)
			completed = true
			s.sendEnded(sw, e)
			return
		}
		s.mu.Lock()
		e.rec.Output += frag
		e.rec.UpdatedAt = s.now()
		ev := frame(i, frag)
		s.mu.Unlock()
		if !sw.event(ev) {
			return
		}
	}
	end(sw, &completed)
}

// streamExecution streams a running event per fragment, then completed with final credits.
// Assumption: a failing run (Faults.FailExecutions) ends with a failed
// event: empty output, its credits and a non-null error.
func (s *Service) streamExecution(w http.ResponseWriter, r *http.Request, e *execution) {
	s.streamRun(w, r, e, func(_ int, frag string) any {
		ev := e.wire(false, false)
		ev.Output = frag
		return ev
	}, func(sw *sseWriter, completed *bool) {
		if !s.sleep(r.Context(), s.opts.Pace) {
			return
		}
		s.complete(e)
		*completed = true
		s.sendEnded(sw, e)
	})
}

// sendEnded sends the ended record (failed or completed) with empty output.
func (s *Service) sendEnded(sw *sseWriter, e *execution) {
	ev := s.recordOf(e, false, false)
	ev.Output = ""
	sw.event(ev)
}
