package client

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"mime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sse "github.com/tmaxmax/go-sse"

	"github.com/agentdesk/agentdesk/internal/recovered"
)

// eventSource reads the Server-Sent Events of one response, once, with
// sse.Read: never go-sse's reconnecting client, which would re-send a paid POST.
type eventSource struct {
	method, path string
	key          string // the client's API key, masked in its errors
	ctx          context.Context
	cancel       context.CancelFunc
	body         io.ReadCloser
	maxEventSize int

	pending []string // events from a non-stream answer, served instead of a body

	mu   sync.Mutex // serialises next and stop
	next func() (sse.Event, error, bool)
	stop func()

	idle      time.Duration
	timer     *time.Timer
	idleFired atomic.Bool
	closed    atomic.Bool
	closeOnce sync.Once
}

// openEvents sends req (never retried) for an event stream; a 2xx answer
// that is not one is handed to fallback, which may turn it into events.
func (c *Client) openEvents(ctx context.Context, cfg *config, req request, fallback func([]byte) ([]string, error)) (*eventSource, error) {
	sctx, cancel := context.WithCancel(ctx)
	s := &eventSource{method: req.method, path: req.path, key: cfg.apiKey, ctx: sctx, cancel: cancel, maxEventSize: cfg.maxEventSize, idle: cfg.streamIdleTimeout}
	if s.idle > 0 {
		// The idle timeout also covers the wait for the first byte.
		s.timer = time.AfterFunc(s.idle, func() { s.idleFired.Store(true); cancel() })
	}
	req.accept = "text/event-stream"
	req.retry = false
	res, err := c.send(sctx, cfg, req, nil)
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

// read returns the next event's data; ok is false at the end (err nil) or on failure.
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

// shut frees everything at once, from any goroutine, many times; byCaller
// marks the stream as closed by Close rather than finished.
func (s *eventSource) shut(byCaller bool) {
	s.closeOnce.Do(func() {
		s.closed.Store(byCaller)
		s.release()
		if s.stop != nil {
			// Switching to the iter.Pull2 coroutine from a goroutine locked
			// to its thread (the UI's) panics, so it is stopped from its own.
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

// Stream is a streamed execution: records whose outputs are text fragments,
// ending with a completed record carrying the credits. Use it like
// bufio.Scanner (Next, Fragment, Err); Text and Close are safe from any goroutine.
type Stream struct {
	streamState[Execution]
	final  *Execution
	times  timeCache
	execID ID
}

// streamState is what Stream and ChatCompletionStream share.
type streamState[T any] struct {
	src      *eventSource
	cur      T
	fragment string
	err      error
	done     bool

	textMu sync.Mutex
	text   strings.Builder
}

// nextData returns the next event's non-blank data; at the end or [DONE] it
// ends the stream, ErrStreamIncomplete unless complete(atDone) says it is whole.
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

// guard, deferred with recover()'s value, ends the stream at an event whose reading panicked.
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
	s.src.shut(false)
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

// Err returns why the stream stopped early, nil after a complete stream.
func (s *streamState[T]) Err() error { return s.err }

// Text returns all text received so far; safe from any goroutine.
func (s *streamState[T]) Text() string {
	s.textMu.Lock()
	defer s.textMu.Unlock()
	return s.text.String()
}

// Close stops the stream at once, from any goroutine; Text keeps what came.
func (s *streamState[T]) Close() error {
	s.src.shut(true)
	return nil
}

// Stream executes a chat agent with stream: true (never retried).
func (c *Client) Stream(ctx context.Context, agentID ID, params ExecuteParams, opts ...Option) (*Stream, error) {
	cfg := c.callConfig(opts)
	src, err := sendExecute(c, cfg, agentID, params, false, true, func(req request) (*eventSource, error) {
		return c.openEvents(ctx, cfg, req, executionFallback)
	})
	if err != nil {
		return nil, err
	}
	return &Stream{streamState: streamState[Execution]{src: src}}, nil
}

// executionFallback turns a plain execute answer into one event.
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

// Next advances to the next event; false at the end or on failure (see Err).
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
	s.fragment = e.Result() // a failed run's output is its reason, not text
	if e.Succeeded() {
		// a server repeating the whole text at the end is not appended twice
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
		s.src.shut(false)
	}
	return true
}

// ExecutionID returns the last execution id the records named; after a cut
// stream, poll it (see [Client.Wait]) instead of running the agent again.
func (s *Stream) ExecutionID() ID { return s.execID }

// Final returns the completed event, or nil before it or on failure.
func (s *Stream) Final() *Execution { return s.final }
