package client_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
)

// counted wraps a handler and counts requests by "METHOD path".
type counted struct {
	next http.Handler
	n    atomic.Int64
	auth atomic.Int64 // requests that carried an Authorization header
}

func (c *counted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.n.Add(1)
	if r.Header.Get("Authorization") != "" {
		c.auth.Add(1)
	}
	c.next.ServeHTTP(w, r)
}

// demoCounted starts the built-in service behind a request counter.
func demoCounted(t *testing.T, opts demoservice.Options, extra ...client.Option) (*client.Client, *demoservice.Service, *counted) {
	t.Helper()
	if opts.APIKey == "" {
		opts.APIKey = testKey
	}
	svc := demoservice.New(opts)
	t.Cleanup(func() { svc.Close() })
	cnt := &counted{next: svc}
	srv := httptest.NewServer(cnt)
	t.Cleanup(srv.Close)
	return checkedClient(t, srv.URL, opts.APIKey, extra...), svc, cnt
}

// sse writes an event-stream answer frame by frame, flushing each.
func sse(frames ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		for _, f := range frames {
			if strings.HasPrefix(f, "sleep:") {
				d, _ := time.ParseDuration(strings.TrimPrefix(f, "sleep:"))
				select {
				case <-time.After(d):
				case <-r.Context().Done():
					return
				}
				continue
			}
			io.WriteString(w, f)
			w.(http.Flusher).Flush()
		}
	}
}

func ev(status, output, credits string) string {
	return fmt.Sprintf("data: {\"id\":7,\"status\":%q,\"output\":%q,\"error\":null,\"credits\":%s,\"root_id\":7,\"created_at\":\"2024-05-01T10:00:00.000000Z\",\"updated_at\":\"2024-05-01T10:00:00.000000Z\",\"template_id\":3}\n\n", status, output, credits)
}

var chatParams = client.ExecuteParams{
	Answers:  map[string]any{"model": "m", "temperature": "0.5", "tools": "no-tools"},
	Messages: []client.Message{{Role: client.RoleUser, Content: "Hi"}},
}

// keep fails the test when an error string contains the API key.
func keep(t *testing.T, err error) error {
	t.Helper()
	if err != nil && strings.Contains(err.Error(), testKey) {
		t.Fatalf("error string contains the API key: %v", err)
	}
	return err
}

func TestAuthRejectedNeverRetried(t *testing.T) {
	c, _, cnt := demoCounted(t, demoservice.Options{}, client.WithAPIKey("sk-wrong-key-123456"))
	_, err := c.ListAgents(context.Background(), client.ListAgentsParams{})
	keep(t, err)
	if !client.IsAuth(err) || client.IsOffline(err) {
		t.Fatalf("want auth error, got %v", err)
	}
	if strings.Contains(err.Error(), "sk-wrong-key-123456") {
		t.Fatalf("key in error: %v", err)
	}
	if cnt.n.Load() != 1 {
		t.Fatalf("401 was retried: %d requests", cnt.n.Load())
	}
}

func TestNotFoundAndValidation(t *testing.T) {
	c, _, _ := demoCounted(t, demoservice.Options{})
	ctx := context.Background()
	_, err := c.GetAgent(ctx, "999999")
	if !client.IsNotFound(keep(t, err)) {
		t.Fatalf("want 404, got %v", err)
	}
	a := firstAgent(t, c, client.AgentChat)
	// Missing required answers: the service answers 422 with field errors.
	_, err = c.Run(ctx, a.ID, client.ExecuteParams{Messages: hello()})
	var apiErr *client.APIError
	if !errors.As(keep(t, err), &apiErr) || !client.IsValidation(err) || len(apiErr.Fields) == 0 {
		t.Fatalf("want 422 with fields, got %#v", err)
	}
	// A history that breaks the chat rules never leaves the client.
	_, err = c.Run(ctx, a.ID, client.ExecuteParams{Answers: chatAnswers(a), Messages: []client.Message{{Role: client.RoleUser, Content: "a"}, {Role: client.RoleUser, Content: "b"}}})
	if !errors.Is(err, client.ErrChatRules) || err.Error() != "Chat messages must be a pair of user/assistant" {
		t.Fatalf("chat rules: %v", err)
	}
}

func TestValidationFieldsShapes(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("x-request-id", "req-42")
		w.WriteHeader(422)
		io.WriteString(w, `{"message":"The memory field is required.","errors":{"memory":["The memory field is required."],"collection_id":"bad"}}`)
	}))
	defer srv.Close()
	_, err := plain(srv.URL, client.WithMemoryVariant(client.MemoryA)).CreateMemory(context.Background(), client.MemoryParams{})
	var e *client.APIError
	if !errors.As(err, &e) || e.RequestID != "req-42" || e.Field("memory") != "The memory field is required." || e.Field("collection_id") != "bad" {
		t.Fatalf("%#v", err)
	}
	if !strings.Contains(e.Error(), "req-42") || !strings.Contains(e.Error(), "The memory field is required.") {
		t.Fatalf("message: %s", e.Error())
	}
}

func TestRateLimitHonoursRetryAfter(t *testing.T) {
	c, svc, cnt := demoCounted(t, demoservice.Options{})
	svc.SetFaults(demoservice.Faults{RateLimit: 1, RetryAfter: time.Second})
	start := time.Now()
	p, err := c.ListAgents(context.Background(), client.ListAgentsParams{})
	if err != nil || len(p.Data) == 0 {
		t.Fatalf("after 429: %v", err)
	}
	if waited := time.Since(start); waited < 900*time.Millisecond {
		t.Fatalf("Retry-After ignored: retried after %v", waited)
	}
	if cnt.n.Load() != 2 {
		t.Fatalf("%d requests, want 2", cnt.n.Load())
	}
	// Without retries the 429 surfaces.
	svc.SetFaults(demoservice.Faults{RateLimit: 1, RetryAfter: time.Second})
	_, err = c.ListAgents(context.Background(), client.ListAgentsParams{}, client.WithMaxRetries(0), client.WithRateLimitRetries(0))
	var e *client.APIError
	if !client.IsRateLimited(keep(t, err)) || !errors.As(err, &e) || e.RetryAfter == "" {
		t.Fatalf("want 429, got %v", err)
	}
}

func TestRetryAfterCapped(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Retry-After", time.Now().Add(time.Hour).UTC().Format(http.TimeFormat))
			w.WriteHeader(503)
			return
		}
		io.WriteString(w, `{"id":1,"title":"x"}`)
	}))
	defer srv.Close()
	a, err := plain(srv.URL, client.WithRetryAfterCap(10*time.Millisecond)).GetAgent(context.Background(), "1")
	if err != nil || a.Title != "x" {
		t.Fatalf("%+v %v", a, err)
	}
}

func TestServerErrorRetriedOnGet(t *testing.T) {
	c, svc, cnt := demoCounted(t, demoservice.Options{})
	svc.SetFaults(demoservice.Faults{Fail500: 2})
	if _, err := c.ListAgents(context.Background(), client.ListAgentsParams{}); err != nil {
		t.Fatalf("after two 500s: %v", err)
	}
	if cnt.n.Load() != 3 {
		t.Fatalf("%d requests, want 3", cnt.n.Load())
	}
}

func TestNeverRepeatsCostlyRequests(t *testing.T) {
	c, svc, cnt := demoCounted(t, demoservice.Options{})
	ctx := context.Background()
	a := firstAgent(t, c, client.AgentChat)
	before := len(svc.Executions())
	for name, call := range map[string]func() error{
		"run": func() error {
			_, err := c.Run(ctx, a.ID, client.ExecuteParams{Answers: chatAnswers(a), Messages: hello()})
			return err
		},
		"start": func() error {
			_, err := c.Start(ctx, a.ID, client.ExecuteParams{Answers: chatAnswers(a), Messages: hello()})
			return err
		},
		"stream": func() error {
			_, err := c.Stream(ctx, a.ID, client.ExecuteParams{Answers: chatAnswers(a), Messages: hello()})
			return err
		},
		"chat": func() error {
			_, err := c.ChatCompletion(ctx, a.ID, client.ChatCompletionParams{Messages: hello()})
			return err
		},
		"upload": func() error {
			_, err := c.UploadFile(ctx, client.UploadParams{Reader: strings.NewReader("x"), Filename: "x.txt", Size: 1})
			return err
		},
		"memory": func() error { _, err := c.CreateMemory(ctx, client.MemoryParams{Content: "x"}); return err },
		"link":   func() error { _, err := c.LinkFiles(ctx, a.ID, []client.ID{"1"}); return err },
	} {
		svc.SetFaults(demoservice.Faults{Fail500: 1})
		n0 := cnt.n.Load()
		err := call()
		if client.StatusCode(keep(t, err)) != 500 {
			t.Fatalf("%s: want the 500, got %v", name, err)
		}
		if d := cnt.n.Load() - n0; d != 1 {
			t.Fatalf("%s: sent %d times", name, d)
		}
	}
	if len(svc.Executions()) != before {
		t.Fatal("an execution was created by a failed request")
	}
	if c.MemoryVariant() != client.MemoryAuto {
		t.Fatal("a 500 decided the memory variant")
	}
}

func TestOffline(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	_, err := plain(url, client.WithMaxRetries(1)).ListAgents(context.Background(), client.ListAgentsParams{Q: "secret-query"})
	if !client.IsOffline(keep(t, err)) || client.IsAuth(err) {
		t.Fatalf("want offline, got %v", err)
	}
	if strings.Contains(err.Error(), "secret-query") {
		t.Fatalf("query in error: %v", err)
	}
}

func TestContextStopsRetries(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "20")
		w.WriteHeader(429)
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := plain(srv.URL).ListAgents(ctx, client.ListAgentsParams{})
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Fatalf("%v after %v", err, time.Since(start))
	}
}

func TestStreamFaultsFromService(t *testing.T) {
	cases := []struct {
		name   string
		faults demoservice.Faults
		opts   []client.Option
		check  func(t *testing.T, s *client.Stream)
	}{
		{"cut mid-way", demoservice.Faults{CutStreamAfter: 3}, nil, func(t *testing.T, s *client.Stream) {
			if !errors.Is(s.Err(), client.ErrStreamIncomplete) || !errors.Is(s.Err(), io.ErrUnexpectedEOF) {
				t.Fatalf("err %v", s.Err())
			}
			if s.Text() == "" || s.Final() != nil {
				t.Fatalf("partial text lost: %q", s.Text())
			}
		}},
		{"malformed event", demoservice.Faults{MalformedEventAt: 3}, nil, func(t *testing.T, s *client.Stream) {
			if !errors.Is(s.Err(), client.ErrEventUnreadable) || s.Text() == "" {
				t.Fatalf("err %v text %q", s.Err(), s.Text())
			}
		}},
		{"slow first byte", demoservice.Faults{SlowFirstByte: 150 * time.Millisecond}, nil, func(t *testing.T, s *client.Stream) {
			if s.Err() != nil || s.Final() == nil {
				t.Fatalf("err %v", s.Err())
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, svc, _ := demoCounted(t, demoservice.Options{})
			a := firstAgent(t, c, client.AgentChat)
			svc.SetFaults(tc.faults)
			s, err := c.Stream(context.Background(), a.ID, client.ExecuteParams{Answers: chatAnswers(a), Messages: hello()}, tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			for s.Next() {
			}
			keep(t, s.Err())
			tc.check(t, s)
		})
	}
}

func TestStreamSlowFirstByteIdleTimeout(t *testing.T) {
	c, svc, _ := demoCounted(t, demoservice.Options{})
	a := firstAgent(t, c, client.AgentChat)
	svc.SetFaults(demoservice.Faults{SlowFirstByte: 2 * time.Second})
	_, err := c.Stream(context.Background(), a.ID, client.ExecuteParams{Answers: chatAnswers(a), Messages: hello()}, client.WithStreamIdleTimeout(50*time.Millisecond))
	if !errors.Is(err, client.ErrStreamIdle) {
		t.Fatalf("want idle timeout, got %v", err)
	}
}

func TestStreamCloseFreesConnection(t *testing.T) {
	c, svc, _ := demoCounted(t, demoservice.Options{Pace: 50 * time.Millisecond})
	a := firstAgent(t, c, client.AgentChat)
	s, err := c.Stream(context.Background(), a.ID, client.ExecuteParams{Answers: chatAnswers(a), Messages: hello()})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Next() {
		t.Fatal(s.Err())
	}
	first := s.Text()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for s.Next() {
		}
	}()
	time.Sleep(60 * time.Millisecond)
	start := time.Now()
	s.Close()
	<-done
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("Close took %v", took)
	}
	if !errors.Is(s.Err(), client.ErrStreamClosed) || !strings.HasPrefix(s.Text(), first) {
		t.Fatalf("err %v text %q", s.Err(), s.Text())
	}
	// The service sees the client leave and stops generating.
	deadline := time.Now().Add(5 * time.Second)
	for {
		ex := svc.Executions()
		if last := ex[len(ex)-1]; last.Stopped {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the service never saw the stream close")
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.Close() // twice is fine
}

func TestStreamContextCancel(t *testing.T) {
	srv := httptest.NewServer(sse(ev("running", "Hel", "null"), "sleep:30s"))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	s, err := plain(srv.URL).Stream(ctx, "3", chatParams)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Next() {
		t.Fatal(s.Err())
	}
	time.AfterFunc(20*time.Millisecond, cancel)
	if s.Next() {
		t.Fatal("event after cancel")
	}
	if !errors.Is(s.Err(), context.Canceled) || s.Text() != "Hel" {
		t.Fatalf("err %v text %q", s.Err(), s.Text())
	}
}

func TestStreamFrames(t *testing.T) {
	big := strings.Repeat("x", 4096)
	cases := []struct {
		name   string
		frames []string
		opts   []client.Option
		text   string
		check  func(error) bool
	}{
		{"complete with comments and DONE", []string{": ping\n\n", ev("running", "Hel", "null"), ": keep-alive\n", ev("running", "lo", "null"), ev("completed", "", "0.25"), "data: [DONE]\n\n"}, nil, "Hello",
			func(err error) bool { return err == nil }},
		{"CRLF line endings", []string{strings.ReplaceAll(ev("running", "A", "null"), "\n", "\r\n"), strings.ReplaceAll(ev("completed", "", "1"), "\n", "\r\n")}, nil, "A",
			func(err error) bool { return err == nil }},
		{"ends without completed", []string{ev("running", "Hel", "null")}, nil, "Hel",
			func(err error) bool { return errors.Is(err, client.ErrStreamIncomplete) }},
		{"DONE before completed", []string{ev("running", "Hel", "null"), "data: [DONE]\n\n"}, nil, "Hel",
			func(err error) bool { return errors.Is(err, client.ErrStreamIncomplete) }},
		{"error event", []string{ev("running", "Hel", "null"), `data: {"id":7,"status":"running","output":"","error":{"message":"model overloaded"},"credits":null,"root_id":7,"template_id":3}` + "\n\n"}, nil, "Hel",
			func(err error) bool {
				var e *client.ExecutionError
				return errors.As(err, &e) && e.Text == "model overloaded" && strings.Contains(err.Error(), "model overloaded")
			}},
		{"failed status", []string{ev("running", "Hel", "null"), ev("failed", "", "null")}, nil, "Hel",
			func(err error) bool { var e *client.ExecutionError; return errors.As(err, &e) }},
		{"oversize event", []string{ev("running", "Hel", "null"), ev("running", big, "null"), ev("completed", "", "1")}, []client.Option{client.WithMaxEventSize(1024)}, "Hel",
			func(err error) bool { return errors.Is(err, client.ErrEventTooLarge) }},
		{"undecodable event", []string{ev("running", "Hel", "null"), "data: {\"id\":\n\n"}, nil, "Hel",
			func(err error) bool { return errors.Is(err, client.ErrEventUnreadable) }},
		{"event cut after a backslash", []string{ev("running", "Hel", "null"), "data: {\"x\":\"\\\n\n"}, nil, "Hel",
			func(err error) bool { return errors.Is(err, client.ErrEventUnreadable) }},
		{"idle timeout", []string{ev("running", "Hel", "null"), "sleep:10s"}, []client.Option{client.WithStreamIdleTimeout(50 * time.Millisecond)}, "Hel",
			func(err error) bool { return errors.Is(err, client.ErrStreamIdle) }},
		{"multi-line data", []string{"data: {\"id\":7,\"status\":\"running\",\ndata: \"output\":\"Hi\",\"credits\":null}\n\n", ev("completed", "", "1")}, nil, "Hi",
			func(err error) bool { return err == nil }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(sse(tc.frames...))
			defer srv.Close()
			s, err := plain(srv.URL).Stream(context.Background(), "3", chatParams, tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			for s.Next() {
			}
			if !tc.check(s.Err()) {
				t.Fatalf("unexpected err: %v", s.Err())
			}
			if s.Text() != tc.text {
				t.Fatalf("text %q, want %q", s.Text(), tc.text)
			}
		})
	}
}

func TestStreamRefusedWithJSON(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Accept") != "text/event-stream" {
			t.Errorf("Accept %q", r.Header.Get("Accept"))
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(422)
		io.WriteString(w, `{"message":"Chat messages must be a pair of user/assistant"}`)
	}))
	defer srv.Close()
	_, err := plain(srv.URL).Stream(context.Background(), "3", chatParams)
	var e *client.APIError
	if !errors.As(err, &e) || e.StatusCode != 422 || e.Message != "Chat messages must be a pair of user/assistant" {
		t.Fatalf("%v", err)
	}
}

func TestStreamServerIgnoredStreamFlag(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"template_id":"3","responses":[{"id":9,"status":"completed","output":"whole reply","error":null,"credits":1.5,"root_id":9}]}`)
	}))
	defer srv.Close()
	s, err := plain(srv.URL).Stream(context.Background(), "3", chatParams)
	if err != nil {
		t.Fatal(err)
	}
	for s.Next() {
	}
	if s.Err() != nil || s.Text() != "whole reply" || s.Final() == nil || s.Final().Credits.Value != 1.5 {
		t.Fatalf("%v %q", s.Err(), s.Text())
	}
}

func TestChatStreamFrames(t *testing.T) {
	chunk := func(content string) string {
		return fmt.Sprintf("data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":%q},\"finish_reason\":null}]}\n\n", content)
	}
	srv := httptest.NewServer(sse(chunk("Hel"), ": ping\n\n", chunk("lo"), "data: [DONE]\n\n"))
	defer srv.Close()
	s, err := plain(srv.URL).ChatCompletionStream(context.Background(), "3", client.ChatCompletionParams{Messages: hello()})
	if err != nil {
		t.Fatal(err)
	}
	for s.Next() {
	}
	if s.Err() != nil || s.Text() != "Hello" {
		t.Fatalf("%v %q", s.Err(), s.Text())
	}
	cut := httptest.NewServer(sse(chunk("Hel")))
	defer cut.Close()
	s, err = plain(cut.URL).ChatCompletionStream(context.Background(), "3", client.ChatCompletionParams{Messages: hello()})
	if err != nil {
		t.Fatal(err)
	}
	for s.Next() {
	}
	if !errors.Is(s.Err(), client.ErrStreamIncomplete) || s.Text() != "Hel" {
		t.Fatalf("%v %q", s.Err(), s.Text())
	}
}

func TestForeignNextPageNotFollowed(t *testing.T) {
	var foreignHits atomic.Int64
	foreign := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		foreignHits.Add(1)
		io.WriteString(w, `{"current_page":2,"data":[],"last_page":2}`)
	}))
	defer foreign.Close()
	var pages []string
	home := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+testKey {
			t.Errorf("home request without key")
		}
		page := r.URL.Query().Get("page")
		pages = append(pages, page+"/"+r.URL.Query().Get("type"))
		if page == "" || page == "1" {
			fmt.Fprintf(w, `{"current_page":1,"data":[{"id":1,"title":"a"}],"last_page":2,"per_page":1,"total":2,"next_page_url":"%s/agents?page=2"}`, foreign.URL)
			return
		}
		io.WriteString(w, `{"current_page":2,"data":[{"id":2,"title":"b"}],"last_page":2,"per_page":1,"total":2,"next_page_url":null}`)
	}))
	defer home.Close()
	var ids []client.ID
	for a, err := range plain(home.URL).Agents(context.Background(), client.ListAgentsParams{Type: "chat"}) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, a.ID)
	}
	if foreignHits.Load() != 0 {
		t.Fatal("the foreign next_page_url was requested")
	}
	if len(ids) != 2 || strings.Join(pages, ",") != "/chat,2/chat" {
		t.Fatalf("ids %v pages %v", ids, pages)
	}
}

func TestCredentialsStayOnOrigin(t *testing.T) {
	var foreignAuth, foreignWS atomic.Int64
	foreign := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			foreignAuth.Add(1)
		}
		if r.Header.Get("x-workspace-id") != "" {
			foreignWS.Add(1)
		}
		w.Header().Set("Content-Type", "image/png")
		io.WriteString(w, "PNG")
	}))
	defer foreign.Close()
	home := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+testKey || r.Header.Get("x-workspace-id") != "5" {
			t.Errorf("home request without credentials: %q", r.URL.Path)
		}
		switch r.URL.Path {
		case "/redirect":
			http.Redirect(w, r, foreign.URL+"/img.png", http.StatusFound)
		default:
			w.Header().Set("Content-Type", "image/png")
			io.WriteString(w, "HOME")
		}
	}))
	defer home.Close()
	c := plain(home.URL, client.WithWorkspace("5"))
	ctx := context.Background()
	var b strings.Builder
	if ct, err := c.Download(ctx, foreign.URL+"/out.png", &b); err != nil || ct != "image/png" || b.String() != "PNG" {
		t.Fatalf("foreign download: %v %q", err, b.String())
	}
	b.Reset()
	if _, err := c.Download(ctx, home.URL+"/generated/a.png", &b); err != nil || b.String() != "HOME" {
		t.Fatalf("home download: %v", err)
	}
	b.Reset()
	if _, err := c.Download(ctx, "/generated/b.png", &b); err != nil || b.String() != "HOME" {
		t.Fatalf("relative download: %v", err)
	}
	b.Reset()
	if _, err := c.Download(ctx, home.URL+"/redirect", &b); err != nil || b.String() != "PNG" {
		t.Fatalf("redirected download: %v", err)
	}
	if foreignAuth.Load() != 0 || foreignWS.Load() != 0 {
		t.Fatalf("credentials sent to a foreign origin: auth %d, workspace %d", foreignAuth.Load(), foreignWS.Load())
	}
}

func TestKeyNeverInErrors(t *testing.T) {
	// A server that echoes the Authorization header back in its error body.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(400)
		fmt.Fprintf(w, `{"message":"bad header %s","errors":{"auth":["%s"]}}`, r.Header.Get("Authorization"), r.Header.Get("Authorization"))
	}))
	defer srv.Close()
	_, err := plain(srv.URL).GetAgent(context.Background(), "1")
	var e *client.APIError
	if !errors.As(err, &e) || strings.Contains(err.Error(), testKey) || strings.Contains(string(e.Body), testKey) || strings.Contains(e.Field("auth"), testKey) {
		t.Fatalf("key leaked: %v / %s", err, e.Body)
	}
	// Errors from a bad base URL do not print the URL's secrets either.
	_, err = client.New(client.WithBaseURL("ht!tp://user:"+testKey+"@host"), client.WithAPIKey(testKey)).ListAgents(context.Background(), client.ListAgentsParams{})
	keep(t, err)
}

func TestWorkspaceHeaderAndUserAgent(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("x-workspace-id") != "77" || r.Header.Get("User-Agent") != "desk/1" {
			t.Errorf("headers: %v", r.Header)
		}
		io.WriteString(w, `{"data":[]}`)
	}))
	defer srv.Close()
	c := plain(srv.URL, client.WithWorkspace("12"), client.WithUserAgent("desk/1"))
	// Per-call options override the client's.
	if _, err := c.ListFiles(context.Background(), client.ListFilesParams{}, client.WithWorkspace("77")); err != nil {
		t.Fatal(err)
	}
}

func TestRunPollingUnsupportedKeepsRecord(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			io.WriteString(w, `{"template_id":"3","responses":[{"id":9,"status":"running","output":"par","error":null,"credits":null,"root_id":9}]}`)
			return
		}
		w.WriteHeader(404)
		io.WriteString(w, `{"message":"Not Found"}`)
	}))
	defer srv.Close()
	e, err := plain(srv.URL).Run(context.Background(), "3", client.ExecuteParams{Answers: map[string]any{"tone": "neutral"}})
	if !errors.Is(err, client.ErrPollingUnsupported) || e == nil || e.Output != "par" {
		t.Fatalf("%+v %v", e, err)
	}
}

// TestStreamCloseFromALockedThread closes a stream from a goroutine locked to
// its OS thread, as a desktop app's UI goroutine is.
func TestStreamCloseFromALockedThread(t *testing.T) {
	srv, svc := demoservice.NewTestService(t, demoservice.Options{APIKey: "k", Pace: 5 * time.Millisecond})
	_ = svc
	c := client.New(client.WithBaseURL(srv.URL), client.WithAPIKey("k"))
	s, err := c.Stream(context.Background(), "101", client.ExecuteParams{
		Answers:  map[string]any{"temperature": "0.5", "model": "gpt-4o-2024-08-06", "tools": "no-tools"},
		Messages: []client.Message{{Role: client.RoleUser, Content: "Plan the offsite"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Next() {
		t.Fatalf("no first fragment: %v", s.Err())
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		_ = s.Close()
	}()
	<-done
	for s.Next() {
	}
	if s.Text() == "" {
		t.Fatal("the text received before Close was lost")
	}
}

// A list whose answer stops halfway (a proxy cut the JSON) is asked for
// again; a create whose answer stops halfway is not: the service made the
// record, and asking again would make a second one.
func TestACutAnswerIsAskedAgainOnlyWhenSafe(t *testing.T) {
	c, svc, cnt := demoCounted(t, demoservice.Options{}, client.WithRetryBackoff(time.Millisecond, time.Millisecond))
	ctx := context.Background()
	svc.SetFaults(demoservice.Faults{Every: 1, EveryFault: demoservice.EveryTruncated})
	// every answer is cut: the list is asked for as often as retries go
	if _, err := c.ListAgents(ctx, client.ListAgentsParams{}); err == nil {
		t.Fatal("every answer was cut: the list cannot be read")
	} else if !errors.As(err, new(*client.DecodeError)) {
		t.Fatalf("a cut answer is an unreadable one, got %v", err)
	}
	if n := cnt.n.Load(); n < 2 {
		t.Fatalf("a cut list was asked for %d times; it should be asked again", n)
	}
	// every second answer is cut: the list comes whole
	svc.SetFaults(demoservice.Faults{Every: 2, EveryFault: demoservice.EveryTruncated})
	cnt.n.Store(0)
	for i := 0; i < 3; i++ {
		if _, err := c.ListAgents(ctx, client.ListAgentsParams{}); err != nil {
			t.Fatalf("read %d: %v", i, err)
		}
	}
	// failures of every kind share the call's tries: 500s, then cut
	// answers, at most 1+DefaultMaxRetries requests in all
	svc.SetFaults(demoservice.Faults{HTML500: 3, Every: 1, EveryFault: demoservice.EveryTruncated})
	cnt.n.Store(0)
	if _, err := c.ListAgents(ctx, client.ListAgentsParams{}); err == nil {
		t.Fatal("every answer failed: the list cannot be read")
	}
	if n := cnt.n.Load(); n != 1+client.DefaultMaxRetries {
		t.Fatalf("one list was asked for %d times; a call tries %d times in all", n, 1+client.DefaultMaxRetries)
	}
	// a create is sent once, its cut answer reported
	svc.SetFaults(demoservice.Faults{Every: 1, EveryFault: demoservice.EveryTruncated})
	cnt.n.Store(0)
	if _, err := c.CreateWebhook(ctx, "101", client.WebhookParams{URL: "https://hooks.example.com/cut"}); !errors.As(err, new(*client.DecodeError)) {
		t.Fatalf("a create's cut answer should be reported as unreadable, got %v", err)
	}
	if n := cnt.n.Load(); n != 1 {
		t.Fatalf("a create was sent %d times", n)
	}
}
