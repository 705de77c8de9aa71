package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/client"
)

// Tests of the places where the interface as first described and the real
// service differ: error shapes, statuses, limits checked before sending.

func TestErrorBodyShapes(t *testing.T) {
	cases := []struct {
		name      string
		status    int
		ctype     string
		body      string
		message   string
		field     string // a field that must carry a message
		auth      bool
		forbidden bool
	}{
		{"interface message", 422, "application/json", `{"message":"The memory field is required.","errors":{"memory":["The memory field is required."]}}`, "The memory field is required.", "memory", false, false},
		{"real validation", 400, "application/json", `{"error":"Validation failed","messages":{"url":["The url must use https."],"method":["The method must be POST or GET."]}}`, "Validation failed", "url", false, false},
		{"real auth 403", 403, "application/json", `{"error":"Invalid authentication"}`, "Invalid authentication", "", true, false},
		{"interface auth 401", 401, "application/json", `{"message":"Unauthenticated."}`, "Unauthenticated.", "", true, false},
		{"no access 403", 403, "application/json", `{"error":"You do not have access to this workspace."}`, "You do not have access to this workspace.", "", false, true},
		{"memory 403", 403, "application/json", `{"message":"Default collection cannot be deleted"}`, "Default collection cannot be deleted", "", false, true},
		{"chat-completions shape", 401, "application/json", `{"error":{"message":"Invalid API key","type":"authentication_error","code":"invalid_api_key"}}`, "Invalid API key", "", true, false},
		{"HTML 500", 500, "text/html", `<!doctype html><html><body><h1>Server Error</h1></body></html>`, "Internal Server Error", "", false, false},
		{"empty 502", 502, "", ``, "Bad Gateway", "", false, false},
		{"escaped unicode", 400, "application/json", `{"error":"Validation failed","messages":{"name":["Le nom est trop long \u2014 255 caract\u00e8res"]}}`, "Validation failed", "name", false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tc.ctype != "" {
					w.Header().Set("Content-Type", tc.ctype)
				}
				w.WriteHeader(tc.status)
				io.WriteString(w, tc.body)
			}))
			defer srv.Close()
			_, err := plain(srv.URL, client.WithMaxRetries(0)).ListFiles(context.Background(), client.ListFilesParams{})
			var e *client.APIError
			if !errors.As(err, &e) {
				t.Fatalf("want *APIError, got %v", err)
			}
			if e.StatusCode != tc.status || e.Message != tc.message {
				t.Fatalf("status %d message %q, want %d %q", e.StatusCode, e.Message, tc.status, tc.message)
			}
			if tc.field != "" && e.Field(tc.field) == "" {
				t.Fatalf("no message for field %q: %v", tc.field, e.Fields)
			}
			if client.IsAuth(err) != tc.auth || client.IsForbidden(err) != tc.forbidden {
				t.Fatalf("IsAuth %v IsForbidden %v, want %v %v", client.IsAuth(err), client.IsForbidden(err), tc.auth, tc.forbidden)
			}
			if strings.Contains(e.Error(), "<") {
				t.Fatalf("HTML leaked into the message: %s", e.Error())
			}
		})
	}
}

func TestExecutionStatusWords(t *testing.T) {
	cases := []struct {
		status, err          string
		terminal, ok, failed bool
	}{
		{"completed", "", true, true, false},
		{"succeeded", "", true, true, false},
		{"SUCCEEDED", "", true, true, false},
		{"failed", "", true, false, true},
		{"error", "", true, false, true},
		{"canceled", "", true, false, true},
		{"cancelled", "", true, false, true},
		{"succeeded", `"quota exceeded"`, true, false, true},
		{"starting", "", false, false, false},
		{"running", "", false, false, false},
		{"queued", "", false, false, false},
		{"in_progress", "", false, false, false},
		{"", "", false, false, false},
		{"running", `{"message":"model overloaded"}`, true, false, true},
	}
	for _, tc := range cases {
		e := client.Execution{Status: tc.status}
		if tc.err != "" {
			e.Error = json.RawMessage(tc.err)
		}
		if e.Terminal() != tc.terminal || e.Succeeded() != tc.ok || e.Failed() != tc.failed {
			t.Errorf("%q error %s: terminal %v ok %v failed %v", tc.status, tc.err, e.Terminal(), e.Succeeded(), e.Failed())
		}
	}
}

// pollServer answers an execute with a running record and every poll on
// the given path with the records of states in turn (the last repeats);
// other polling paths answer 404. It counts execute requests.
type pollServer struct {
	path     string // "/agent-responses/" or "/agents/7/responses/"
	states   []string
	executes atomic.Int64
	polls    atomic.Int64
	misses   atomic.Int64
}

func (p *pollServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/agents/7/execute":
		p.executes.Add(1)
		io.WriteString(w, `{"template_id":7,"responses":[{"id":99000000001,"status":"running","output":""}]}`)
	case r.Method == http.MethodGet && r.URL.Path == p.path+"99000000001":
		n := int(p.polls.Add(1)) - 1
		st := p.states[min(n, len(p.states)-1)]
		out := ""
		if st == "succeeded" || st == "completed" {
			out = "All done."
		}
		json.NewEncoder(w).Encode(map[string]any{"id": 99000000001, "status": st, "output": out, "credits": 0.0061})
	default:
		p.misses.Add(1)
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"message":"Not Found"}`)
	}
}

func TestPollingPathDetectedAndRemembered(t *testing.T) {
	for _, tc := range []struct {
		name, path string
		want       client.PollPath
		misses     int64
	}{
		{"real service path", "/agent-responses/", client.PollResponses, 0},
		{"agent-scoped path", "/agents/7/responses/", client.PollAgentScoped, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps := &pollServer{path: tc.path, states: []string{"running", "queued", "succeeded"}}
			srv := httptest.NewServer(ps)
			defer srv.Close()
			c := plain(srv.URL)
			e, err := c.Run(context.Background(), "7", client.ExecuteParams{Answers: map[string]any{"topic": "x"}})
			if err != nil || e.Output != "All done." || !e.Succeeded() {
				t.Fatalf("%+v %v", e, err)
			}
			if c.PollPath() != tc.want {
				t.Fatalf("path %q, want %q", c.PollPath(), tc.want)
			}
			// The wrong path is tried once, then never again.
			if ps.misses.Load() != tc.misses {
				t.Fatalf("%d polls on the wrong path, want %d", ps.misses.Load(), tc.misses)
			}
			if ps.executes.Load() != 1 {
				t.Fatalf("%d executions sent", ps.executes.Load())
			}
			// A new client told the path starts there.
			ps.polls.Store(0)
			c2 := plain(srv.URL, client.WithPollPath(tc.want))
			if _, err := c2.Poll(context.Background(), "7", "99000000001"); err != nil {
				t.Fatal(err)
			}
			if ps.misses.Load() != tc.misses {
				t.Fatal("a remembered path was not used first")
			}
		})
	}
}

func TestPollingUnsupportedOnBothPaths(t *testing.T) {
	ps := &pollServer{path: "/nowhere/", states: []string{"running"}}
	srv := httptest.NewServer(ps)
	defer srv.Close()
	c := plain(srv.URL)
	e, err := c.Run(context.Background(), "7", client.ExecuteParams{})
	if !errors.Is(err, client.ErrPollingUnsupported) || e == nil || e.ID != "99000000001" {
		t.Fatalf("%+v %v", e, err)
	}
	if ps.executes.Load() != 1 {
		t.Fatalf("%d executions sent", ps.executes.Load())
	}
}

func TestWaitStopsAtPollLimitWithoutRunningAgain(t *testing.T) {
	ps := &pollServer{path: "/agent-responses/", states: []string{"running"}}
	srv := httptest.NewServer(ps)
	defer srv.Close()
	c := plain(srv.URL, client.WithPollInterval(2*time.Millisecond), client.WithPollLimit(40*time.Millisecond))
	e, err := c.Run(context.Background(), "7", client.ExecuteParams{})
	if !errors.Is(err, client.ErrStillRunning) || e == nil || e.Status != "running" {
		t.Fatalf("%+v %v", e, err)
	}
	if ps.polls.Load() < 2 {
		t.Fatalf("only %d polls", ps.polls.Load())
	}
	if ps.executes.Load() != 1 {
		t.Fatalf("%d executions sent", ps.executes.Load())
	}
	// Checking again later finds the end, still without a new execution.
	ps.states = []string{"succeeded"}
	ps.polls.Store(0)
	e, err = c.Wait(context.Background(), "7", e.ID)
	if err != nil || e.Output != "All done." {
		t.Fatalf("%+v %v", e, err)
	}
	if ps.executes.Load() != 1 {
		t.Fatal("checking again sent the execution again")
	}
}

func TestPollIntervalsGrowToFiveTimesTheFirst(t *testing.T) {
	ps := &pollServer{path: "/agent-responses/", states: []string{"running", "running", "running", "running", "running", "running", "succeeded"}}
	var times []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			times = append(times, time.Now())
		}
		ps.ServeHTTP(w, r)
	}))
	defer srv.Close()
	first := 20 * time.Millisecond
	c := plain(srv.URL, client.WithPollInterval(first))
	if _, err := c.Run(context.Background(), "7", client.ExecuteParams{}); err != nil {
		t.Fatal(err)
	}
	// Gaps: 20, 30, 45, 67, 100, 100 ms (capped at five times the first).
	last := times[len(times)-1].Sub(times[len(times)-2])
	if last < 5*first-5*time.Millisecond {
		t.Fatalf("last gap %v, want about %v", last, 5*first)
	}
	if gap := times[1].Sub(times[0]); gap >= 5*first {
		t.Fatalf("first gap %v already at the cap", gap)
	}
}

func TestRateLimitWaitsWhatTheServiceSays(t *testing.T) {
	var n, executes atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if n.Add(1) == 1 {
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, `{"error":"Rate limit exceeded","retry_after":0.05}`)
			return
		}
		executes.Add(1)
		io.WriteString(w, `{"template_id":7,"responses":[{"id":5,"status":"succeeded","output":"ok"}]}`)
	}))
	defer srv.Close()
	var told []time.Duration
	start := time.Now()
	e, err := plain(srv.URL, client.WithRateLimitNotice(func(d time.Duration) { told = append(told, d) })).
		Run(context.Background(), "7", client.ExecuteParams{})
	if err != nil || e.Output != "ok" {
		t.Fatalf("%+v %v", e, err)
	}
	if len(told) != 1 || told[0] != 50*time.Millisecond {
		t.Fatalf("told %v, want one wait of 50ms", told)
	}
	if time.Since(start) < 50*time.Millisecond {
		t.Fatal("the wait was not kept")
	}
	if executes.Load() != 1 {
		t.Fatalf("%d executions ran", executes.Load())
	}
}

func TestRateLimitBeyondCapReturnsAtOnce(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusTooManyRequests)
		io.WriteString(w, `{"error":"Rate limit exceeded","retry_after":600}`)
	}))
	defer srv.Close()
	_, err := plain(srv.URL).Run(context.Background(), "7", client.ExecuteParams{})
	var e *client.APIError
	if !errors.As(err, &e) || !client.IsRateLimited(err) {
		t.Fatalf("%v", err)
	}
	// The body's retry_after wins over the header.
	if d, ok := e.Wait(); !ok || d != 600*time.Second {
		t.Fatalf("wait %v %v", d, ok)
	}
	if n.Load() != 1 {
		t.Fatalf("%d requests", n.Load())
	}
}

func TestLimitsCheckedBeforeSending(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { n.Add(1) }))
	defer srv.Close()
	c := plain(srv.URL)
	ctx := context.Background()
	ids := []client.ID{"1", "2", "3", "4", "5", "6"}
	var in *client.InputError
	if _, err := c.Stream(ctx, "7", client.ExecuteParams{Messages: hello(), FileIDs: ids}); !errors.As(err, &in) || in.Field != "file_ids" {
		t.Fatalf("six files: %v", err)
	}
	if _, err := c.UploadFile(ctx, client.UploadParams{Reader: strings.NewReader(""), Filename: "film.mp4", Size: client.MaxUploadBytes + 1}); !errors.As(err, &in) || in.Field != "file" || !strings.Contains(in.Message, "200 MB") {
		t.Fatalf("big file: %v", err)
	}
	for _, p := range []client.WebhookParams{
		{URL: "http://example.com/hook"},
		{URL: "example.com/hook"},
		{URL: "https://example.com/hook", Method: "PUT"},
		{URL: "https://example.com/hook", Status: "paused"},
	} {
		if _, err := c.CreateWebhook(ctx, "7", p); !errors.As(err, &in) {
			t.Fatalf("%+v: %v", p, err)
		}
	}
	if _, err := c.CreateCollection(ctx, "   "); !errors.As(err, &in) || in.Field != "name" {
		t.Fatalf("empty name: %v", err)
	}
	if _, err := c.CreateCollection(ctx, strings.Repeat("x", 256)); !errors.As(err, &in) {
		t.Fatalf("long name: %v", err)
	}
	if n.Load() != 0 {
		t.Fatalf("%d requests were sent", n.Load())
	}
}

// styleServer accepts an execute body in one style only, refusing the other
// as each reading's server would, and counts what it received and ran.
type styleServer struct {
	want     client.ExecuteStyle
	received atomic.Int64
	ran      atomic.Int64
	waitFlag atomic.Value // the wait flag's spellings in the last body
}

func (s *styleServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.received.Add(1)
	var body map[string]any
	json.NewDecoder(r.Body).Decode(&body)
	var flags []string
	for _, k := range []string{"wait_execution", "waitExecution"} {
		if _, ok := body[k]; ok {
			flags = append(flags, k)
		}
	}
	s.waitFlag.Store(strings.Join(flags, " "))
	w.Header().Set("Content-Type", "application/json")
	answers, nested := body["answers"].(map[string]any)
	switch s.want {
	case client.StyleAnswers:
		if !nested {
			w.WriteHeader(http.StatusUnprocessableEntity)
			io.WriteString(w, `{"message":"The answers field is required.","errors":{"answers":["The answers field is required."]}}`)
			return
		}
	case client.StyleRoot:
		if _, ok := body["tone"]; !ok {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"error":"Validation failed","messages":{"tone":["The tone field is required."]}}`)
			return
		}
		answers = body
	}
	if answers["tone"] == nil {
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":"Validation failed","messages":{"tone":["The tone field is required."]}}`)
		return
	}
	s.ran.Add(1)
	io.WriteString(w, `{"template_id":7,"responses":[{"id":5,"status":"succeeded","output":"ok"}]}`)
}

func TestExecuteStyleDetectedPerServer(t *testing.T) {
	for _, want := range []client.ExecuteStyle{client.StyleRoot, client.StyleAnswers} {
		t.Run(string(want), func(t *testing.T) {
			ss := &styleServer{want: want}
			srv := httptest.NewServer(ss)
			defer srv.Close()
			c := plain(srv.URL)
			p := client.ExecuteParams{Answers: map[string]any{"tone": "friendly", "length": 120}}
			if _, err := c.Run(context.Background(), "7", p); err != nil {
				t.Fatal(err)
			}
			if c.ExecuteStyle() != want {
				t.Fatalf("style %q, want %q", c.ExecuteStyle(), want)
			}
			wantFlag := map[client.ExecuteStyle]string{client.StyleRoot: "wait_execution waitExecution", client.StyleAnswers: "wait_execution"}[want]
			if ss.waitFlag.Load() != wantFlag {
				t.Fatalf("wait flag %v, want %s", ss.waitFlag.Load(), wantFlag)
			}
			// Once known, the style is used first: one request per run.
			before := ss.received.Load()
			if _, err := c.Run(context.Background(), "7", p); err != nil {
				t.Fatal(err)
			}
			if ss.received.Load()-before != 1 || ss.ran.Load() != 2 {
				t.Fatalf("second run: %d requests, %d ran", ss.received.Load()-before, ss.ran.Load())
			}
			// A question the user did not answer is the user's to fix: no
			// second request in the other style.
			before = ss.received.Load()
			_, err := c.Run(context.Background(), "7", client.ExecuteParams{Answers: map[string]any{"length": 120}})
			if client.StatusCode(err) != http.StatusBadRequest || ss.received.Load()-before != 1 {
				t.Fatalf("unanswered question: %v after %d requests", err, ss.received.Load()-before)
			}
		})
	}
}
