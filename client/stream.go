package client

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"mime"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sse "github.com/tmaxmax/go-sse"

	"github.com/agentdesk/agentdesk/internal/recovered"
)

// eventSource reads the data of Server-Sent Events from one response, once.
// It is shared by Stream and ChatCompletionStream.
//
// The response is parsed with go-sse's sse.Read, never with its reconnecting
// client: an execution is a POST that costs credits and must not be re-sent.
type eventSource struct {
	method, path string
	key          string // the client's API key, masked in its errors
	ctx          context.Context
	cancel       context.CancelFunc
	body         io.ReadCloser
	maxEventSize int

	// pending holds events decoded from a non-stream answer (a server that
	// ignored stream: true); they are served before (instead of) the body.
	pending []string

	mu   sync.Mutex // serialises next and stop
	next func() (sse.Event, error, bool)
	stop func()

	idle      time.Duration
	timer     *time.Timer
	idleFired atomic.Bool
	closed    atomic.Bool
	closeOnce sync.Once
}

// openEvents sends req (never retried) with Accept: text/event-stream and
// returns the event source. Non-2xx answers are *APIError. A 2xx answer that
// is not an event stream is handed to fallback, which may turn it into
// events.
func (c *Client) openEvents(ctx context.Context, cfg *config, req request, fallback func([]byte) ([]string, error)) (*eventSource, error) {
	sctx, cancel := context.WithCancel(ctx)
	s := &eventSource{method: req.method, path: req.path, key: cfg.apiKey, ctx: sctx, cancel: cancel, maxEventSize: cfg.maxEventSize, idle: cfg.streamIdleTimeout}
	if s.idle > 0 {
		// The idle timeout also covers the wait for the first byte.
		s.timer = time.AfterFunc(s.idle, func() { s.idleFired.Store(true); cancel() })
	}
	req.accept = "text/event-stream"
	req.retry = false
	res, err := c.send(sctx, cfg, req)
	if err != nil {
		s.release()
		if s.idleFired.Load() {
			return nil, fmt.Errorf("%w (%s %s)", ErrStreamIdle, req.method, req.path)
		}
		return nil, err
	}
	mt, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type"))
	if mt != "text/event-stream" {
		defer res.Body.Close()
		data, rerr := io.ReadAll(io.LimitReader(res.Body, maxJSONBody))
		s.release()
		if rerr != nil {
			return nil, newNetworkError(cfg.apiKey, req.method, req.path, rerr)
		}
		events, ferr := fallback(data)
		if ferr != nil {
			return nil, cfg.decodeError(req.method, req.path, fmt.Errorf("expected an event stream, got %q: %w", mt, ferr), data)
		}
		s.pending = events
		return s, nil
	}
	s.attach(res.Body)
	return s, nil
}

// attach starts reading events from body, once.
func (s *eventSource) attach(body io.ReadCloser) {
	s.body = body
	s.next, s.stop = iter.Pull2(iter.Seq2[sse.Event, error](sse.Read(body, &sse.ReadConfig{MaxEventSize: s.maxEventSize})))
	s.touch()
}

// touch restarts the idle timer after an event.
func (s *eventSource) touch() {
	if s.timer != nil && !s.idleFired.Load() {
		s.timer.Reset(s.idle)
	}
}

// read returns the data of the next event; ok is false at the end of the
// stream (err nil) or on failure.
func (s *eventSource) read() (data string, err error, ok bool) {
	if len(s.pending) > 0 {
		data, s.pending = s.pending[0], s.pending[1:]
		return data, nil, true
	}
	if s.next == nil || s.closed.Load() {
		return "", s.endError(nil), false
	}
	s.mu.Lock()
	ev, rerr, more := s.next()
	s.mu.Unlock()
	if !more {
		return "", s.endError(nil), false
	}
	if rerr != nil {
		return "", s.endError(rerr), false
	}
	s.touch()
	return ev.Data, nil, true
}

// endError explains why reading stopped: nil for a clean end of the body.
func (s *eventSource) endError(err error) error {
	switch {
	case s.closed.Load():
		return ErrStreamClosed
	case s.idleFired.Load():
		return fmt.Errorf("%w (%s %s, %s)", ErrStreamIdle, s.method, s.path, s.idle)
	case s.ctx.Err() != nil && err != nil:
		return fmt.Errorf("agentdesk: %s %s: %w", s.method, s.path, context.Cause(s.ctx))
	case err == nil:
		return nil
	case errors.Is(err, bufio.ErrTooLong):
		return fmt.Errorf("%w (%d bytes)", ErrEventTooLarge, s.maxEventSize)
	}
	return fmt.Errorf("%w: %w", ErrStreamIncomplete, newNetworkError(s.key, s.method, s.path, err))
}

// release stops the idle timer and the request, and frees the connection.
func (s *eventSource) release() {
	if s.timer != nil {
		s.timer.Stop()
	}
	s.cancel()
	if s.body != nil {
		s.body.Close()
	}
}

// close frees everything at once; safe from any goroutine, many times.
func (s *eventSource) close() { s.shut(true) }

// finish releases resources after the last event without marking the
// stream as closed by the caller.
func (s *eventSource) finish() { s.shut(false) }

func (s *eventSource) shut(byCaller bool) {
	s.closeOnce.Do(func() {
		s.closed.Store(byCaller)
		s.release()
		if s.stop != nil {
			// The event reader is a coroutine (iter.Pull2), and switching to
			// it from a goroutine locked to its OS thread panics; a desktop
			// app's UI goroutine is one. So the reader is stopped from a
			// goroutine of its own; a concurrent read returns promptly, as
			// its body is closed.
			done := make(chan struct{})
			go func() {
				defer close(done)
				s.mu.Lock()
				s.stop()
				s.mu.Unlock()
			}()
			<-done
		}
	})
}

// Stream is a streamed execution: a series of execution records whose
// outputs are text fragments, ending with a "completed" record carrying the
// credits. Use it like bufio.Scanner:
//
//	for s.Next() {
//		fmt.Print(s.Fragment())
//	}
//	if err := s.Err(); err != nil { ... }
//
// Text is safe to call from another goroutine at any time (for example a UI
// refreshing at its frame rate) and always returns everything received so
// far, also after an error, a cancellation or Close. Close may be called from
// any goroutine and frees the connection at once.
type Stream struct {
	streamState[Execution]
	final  *Execution
	times  timeCache
	execID ID
}

// streamState is what Stream and ChatCompletionStream keep alike, so both
// end, gather text and close the same way.
type streamState[T any] struct {
	src      *eventSource
	cur      T
	fragment string
	err      error
	done     bool

	textMu sync.Mutex
	text   strings.Builder
}

// nextData returns the data of the next event that has any (skipping a bare
// id or event name). At the end of the stream or at [DONE] it ends the
// stream and reports false; complete, told whether [DONE] came, says
// whether what arrived was whole, else Err is ErrStreamIncomplete.
func (s *streamState[T]) nextData(complete func(atDone bool) bool) (string, bool) {
	if s.done {
		return "", false
	}
	for {
		data, err, ok := s.src.read()
		if !ok || strings.TrimSpace(data) == "[DONE]" {
			s.end(err) // err is nil at [DONE]
			if s.err == nil && !complete(ok) {
				s.err = ErrStreamIncomplete
			}
			return "", false
		}
		if strings.TrimSpace(data) != "" {
			return data, true
		}
	}
}

// unreadable ends the stream at an event that could not be read.
func (s *streamState[T]) unreadable(err error) {
	s.fragment = ""
	s.end(fmt.Errorf("agentdesk: %s %s: %w: %w", s.src.method, s.src.path, ErrEventUnreadable, err))
}

// guard, deferred by Next with recover()'s value, ends the stream at an
// event whose reading panicked: a server's bytes never end the program.
func (s *streamState[T]) guard(r any, more *bool) {
	if err := recovered.From("a streamed event", r); err != nil {
		s.unreadable(err)
		*more = false
	}
}

// end stops reading; the first error is the one kept.
func (s *streamState[T]) end(err error) {
	s.done = true
	if s.err == nil {
		s.err = err
	}
	s.src.finish()
}

func (s *streamState[T]) appendText(t string) {
	if t == "" {
		return
	}
	s.textMu.Lock()
	s.text.WriteString(t)
	s.textMu.Unlock()
}

// Current returns the event or chunk Next moved to.
func (s *streamState[T]) Current() T { return s.cur }

// Fragment returns the text the current event added.
func (s *streamState[T]) Fragment() string { return s.fragment }

// Err returns why the stream stopped early, nil after a complete stream:
// an *ExecutionError for an event carrying an error, ErrStreamIncomplete,
// ErrEventTooLarge, ErrStreamIdle, ErrStreamClosed, the context's error, or
// a malformed-event error.
func (s *streamState[T]) Err() error { return s.err }

// Text returns all text received so far; safe from any goroutine.
func (s *streamState[T]) Text() string {
	s.textMu.Lock()
	defer s.textMu.Unlock()
	return s.text.String()
}

// Close stops the stream and frees the connection at once. It is safe to
// call from any goroutine and more than once. Text keeps what was received.
func (s *streamState[T]) Close() error {
	s.src.close()
	return nil
}

// Stream executes a chat agent with stream: true and returns the stream of
// its events. The request is never retried. When the server refuses (for
// example 422 for a broken chat history), the error is an *APIError and no
// stream is returned.
func (c *Client) Stream(ctx context.Context, agentID ID, params ExecuteParams, opts ...Option) (*Stream, error) {
	if err := params.check(); err != nil {
		return nil, err
	}
	cfg := c.callConfig(opts)
	path := pathf("/agents/%s/execute", agentID)
	src, err := sendExecute(c, cfg, params, func(body map[string]any) (*eventSource, error) {
		return c.openEvents(ctx, cfg, request{method: http.MethodPost, path: path, body: body}, executionFallback)
	}, false, true)
	if err != nil {
		return nil, err
	}
	return &Stream{streamState: streamState[Execution]{src: src}}, nil
}

// executionFallback turns a plain execute answer (a server that ignored
// stream: true) into events, so the caller still sees one stream.
func executionFallback(data []byte) ([]string, error) {
	e, err := decodeExecutionAnswer(data)
	if err != nil {
		return nil, err
	}
	b, err := e.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return []string{string(b)}, nil
}

// Next advances to the next event and reports whether there is one. It
// returns false at the end of the stream (after the completed event) or on
// failure; then check Err.
func (s *Stream) Next() (more bool) {
	defer func() { s.guard(recover(), &more) }()
	data, ok := s.nextData(func(bool) bool { return s.final != nil })
	if !ok {
		return false
	}
	var e Execution
	if err := decodeExecutionFast(data, &e, &s.times); err != nil {
		s.unreadable(err)
		return false
	}
	s.cur = e
	if e.ID != "" {
		s.execID = e.ID
	}
	s.fragment = e.Output
	if e.Succeeded() {
		// The completed event carries an empty output; should a server
		// repeat the whole text there, it is not appended twice.
		if s.fragment == s.Text() {
			s.fragment = ""
		}
	}
	s.appendText(s.fragment)
	switch {
	case e.Failed():
		s.end(failure(&e, s.src.key))
	case e.Succeeded():
		f := e
		s.final = &f
		s.done = true
		s.src.finish()
	}
	return true
}

// ExecutionID returns the execution id the stream's records named (the last
// non-empty one), or "" when none did. After a cut stream, poll it (see
// [Client.Wait]) to recover the final text without running the agent again.
func (s *Stream) ExecutionID() ID { return s.execID }

// Final returns the completed event (with the credits), or nil before it
// arrives or when the stream failed.
func (s *Stream) Final() *Execution { return s.final }
