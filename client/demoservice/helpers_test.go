package demoservice

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/client/contract"
)

// Seeded records the tests rely on.
const (
	chatAgentID   = 101
	textAgentID   = 119
	imageAgentID  = 131
	videoAgentID  = 139
	otherWSAgent  = 145 // first agent of workspace 2
	seededFileID  = 8002
	otherWSFileID = 8019 // first file of workspace 2
	testKey       = "test-key"
)

// chatAnswers are valid answers for a chat agent.
var chatAnswers = map[string]any{"temperature": "0.5", "model": "gpt-4o-2024-08-06", "tools": "no-tools"}

// env is one service behind a real HTTP server whose every answer is checked
// against the interface contract.
type env struct {
	t   *testing.T
	svc *Service
	srv *httptest.Server
}

func start(t *testing.T, opts Options) *env {
	t.Helper()
	return startWith(t, opts, true)
}

// startUnchecked serves without the contract check, for faults that break
// the contract on purpose (malformed events).
func startUnchecked(t *testing.T, opts Options) *env {
	t.Helper()
	return startWith(t, opts, false)
}

func startWith(t *testing.T, opts Options, checked bool) *env {
	t.Helper()
	if opts.APIKey == "" {
		opts.APIKey = testKey
	}
	if opts.API == "" {
		// These tests describe the interface as first described; the real
		// reading has tests of its own that say so.
		opts.API = APISpec
	}
	svc := New(opts)
	var h http.Handler = svc
	if checked {
		v, err := contract.NewValidator()
		if err != nil {
			t.Fatalf("contract: %v", err)
		}
		h = v.Handler(svc, t.Errorf)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		_ = svc.Close()
		srv.Close()
	})
	return &env{t: t, svc: svc, srv: srv}
}

// request builds an authorised request; body is JSON-encoded unless it is
// already []byte or an io.Reader. hdr holds header name/value pairs.
func (e *env) request(method, path string, body any, hdr ...string) *http.Request {
	e.t.Helper()
	return e.requestTo(e.srv.URL, method, path, body, hdr...)
}

// requestTo is request against another base URL.
func (e *env) requestTo(base, method, path string, body any, hdr ...string) *http.Request {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	case io.Reader:
		rd = b
	default:
		data, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testKey)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i+1] == "" {
			req.Header.Del(hdr[i])
		} else {
			req.Header.Set(hdr[i], hdr[i+1])
		}
	}
	return req
}

// do sends a request and returns the status and body.
func (e *env) do(method, path string, body any, hdr ...string) (int, []byte, http.Header) {
	e.t.Helper()
	res, err := e.srv.Client().Do(e.request(method, path, body, hdr...))
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		e.t.Fatalf("%s %s: reading: %v", method, path, err)
	}
	return res.StatusCode, data, res.Header
}

// call sends a request, expects status want and decodes the JSON answer.
func (e *env) call(method, path string, body any, want int, hdr ...string) map[string]any {
	e.t.Helper()
	status, data, _ := e.do(method, path, body, hdr...)
	if status != want {
		e.t.Fatalf("%s %s: status %d, want %d: %s", method, path, status, want, data)
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		e.t.Fatalf("%s %s: not a JSON object: %v: %s", method, path, err, data)
	}
	return out
}

// expectError checks an error answer: status, message (when msg != "") and,
// when field != "", that errors names the field.
func (e *env) expectError(method, path string, body any, status int, msg, field string, hdr ...string) map[string]any {
	e.t.Helper()
	out := e.call(method, path, body, status, hdr...)
	got, _ := out["message"].(string)
	if got == "" {
		e.t.Fatalf("%s %s: error without message: %v", method, path, out)
	}
	if msg != "" && got != msg {
		e.t.Fatalf("%s %s: message %q, want %q", method, path, got, msg)
	}
	if field != "" {
		errs, _ := out["errors"].(map[string]any)
		if _, ok := errs[field]; !ok {
			e.t.Fatalf("%s %s: errors %v do not name %q", method, path, out["errors"], field)
		}
	}
	return out
}

// sseEvent is one event of a stream: its data, or a comment.
type sseEvent struct {
	data    string
	comment bool
}

// readSSE reads a whole event stream.
func readSSE(t *testing.T, r io.Reader) ([]sseEvent, error) {
	t.Helper()
	var out []sseEvent
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "data: "):
			out = append(out, sseEvent{data: strings.TrimPrefix(line, "data: ")})
		case strings.HasPrefix(line, ":"):
			out = append(out, sseEvent{data: line, comment: true})
		}
	}
	return out, sc.Err()
}

// streamData sends a request whose answer is a stream and returns its data
// events.
func (e *env) streamData(method, path string, body any) []string {
	e.t.Helper()
	res, err := e.srv.Client().Do(e.request(method, path, body))
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	evs, err := readSSE(e.t, res.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return dataEvents(evs)
}

// dataEvents keeps the data events only.
func dataEvents(evs []sseEvent) []string {
	var out []string
	for _, ev := range evs {
		if !ev.comment {
			out = append(out, ev.data)
		}
	}
	return out
}

// chatReq is an execute body for a chat agent.
func chatReq(extra map[string]any, msgs ...string) map[string]any {
	var messages []map[string]string
	for i, m := range msgs {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		messages = append(messages, map[string]string{"role": role, "content": m})
	}
	answers := map[string]any{}
	for k, v := range chatAnswers {
		answers[k] = v
	}
	body := map[string]any{"answers": answers, "messages": messages}
	for k, v := range extra {
		body[k] = v
	}
	return body
}

func num(v any) float64 {
	f, _ := v.(float64)
	return f
}

func itoa(n int) string { return strconv.Itoa(n) }

// fakeClock is a settable Options.Now for pacing tests.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{t: time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// agentsInOrder is the service's agents as lists show them: by id.
func agentsInOrder(svc *Service) []*Agent {
	var out []*Agent
	for _, id := range slices.Sorted(maps.Keys(svc.agents)) {
		out = append(out, svc.agents[id])
	}
	return out
}

// oddCatalogue is the odd seed in id order; OddBigID comes last.
func oddCatalogue() []Agent {
	var out []Agent
	for i, c := range catalogue.Odd {
		out = append(out, c.agent(OddFirstID+int64(i), &catalogue))
	}
	return out
}
