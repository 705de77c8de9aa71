package demoservice

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestFaultFail500(t *testing.T) {
	e := start(t, Options{})
	e.svc.SetFaults(Faults{Fail500: 2})
	for i := 0; i < 2; i++ {
		out := e.expectError("GET", "/agents", nil, 500, "Server Error", "")
		if msg, _ := out["error"].(string); msg == "" {
			t.Fatalf("500 without error: %v", out)
		}
	}
	e.call("GET", "/agents", nil, 200)
}

func TestFaultRateLimit(t *testing.T) {
	e := start(t, Options{})
	e.svc.SetFaults(Faults{RateLimit: 1, RetryAfter: 1500 * time.Millisecond})
	status, data, hdr := e.do("GET", "/resources", nil)
	if status != 429 || hdr.Get("Retry-After") != "2" || !strings.Contains(string(data), "Too Many Attempts.") {
		t.Fatalf("429: %d %q %s", status, hdr.Get("Retry-After"), data)
	}
	e.call("GET", "/resources", nil, 200)
	e.svc.SetFaults(Faults{RateLimit: 1})
	if _, _, hdr := e.do("GET", "/resources", nil); hdr.Get("Retry-After") != "1" {
		t.Fatalf("minimum Retry-After: %q", hdr.Get("Retry-After"))
	}
}

func TestFaultLatencyAndSlowFirstByte(t *testing.T) {
	e := start(t, Options{})
	for _, f := range []Faults{{Latency: 80 * time.Millisecond}, {SlowFirstByte: 80 * time.Millisecond}} {
		e.svc.SetFaults(f)
		began := time.Now()
		e.call("GET", "/agents/101", nil, 200)
		if took := time.Since(began); took < 80*time.Millisecond {
			t.Fatalf("%+v: answered after %v", f, took)
		}
	}
	e.svc.SetFaults(Faults{})
	e.call("GET", "/agents/101", nil, 200)
}

func TestFaultCutStream(t *testing.T) {
	e := start(t, Options{})
	e.svc.SetFaults(Faults{CutStreamAfter: 3})
	res, err := e.srv.Client().Do(e.request("POST", "/agents/101/execute", chatReq(map[string]any{"stream": true}, "Write the minutes")))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, readErr := io.ReadAll(res.Body)
	if readErr == nil {
		t.Fatal("a cut stream must end with a read error")
	}
	evs, _ := readSSE(t, strings.NewReader(string(body)))
	data := dataEvents(evs)
	if len(data) != 3 || strings.Contains(string(body), `"completed"`) {
		t.Fatalf("cut stream: %d events: %s", len(data), body)
	}
	recs := e.svc.Executions()
	if !recs[len(recs)-1].Stopped {
		t.Fatal("cut stream not recorded as stopped")
	}
	// Chat-completion streams are cut the same way.
	res, err = e.srv.Client().Do(e.request("POST", "/agents/101/openai/chat/completions", map[string]any{"stream": true, "messages": []any{map[string]any{"role": "user", "content": "hi"}}}))
	if err != nil {
		t.Fatal(err)
	}
	_, readErr = io.ReadAll(res.Body)
	res.Body.Close()
	if readErr == nil {
		t.Fatal("cut completion stream read cleanly")
	}
}

func TestFaultMalformedEvent(t *testing.T) {
	e := startUnchecked(t, Options{})
	e.svc.SetFaults(Faults{MalformedEventAt: 2})
	data := e.streamData("POST", "/agents/101/execute", chatReq(map[string]any{"stream": true}, "Write the minutes"))
	for i, d := range data {
		valid := json.Valid([]byte(d))
		if (i == 1) == valid {
			t.Fatalf("event %d valid=%v: %s", i+1, valid, d)
		}
	}
	if !strings.Contains(data[len(data)-1], `"completed"`) {
		t.Fatal("stream did not go on after the malformed event")
	}
}

func TestFaultHTMLAndEmpty500(t *testing.T) {
	for _, api := range []string{APISpec, APIReal} {
		t.Run(api, func(t *testing.T) {
			e := start(t, Options{API: api})
			e.svc.SetFaults(Faults{HTML500: 1, Empty500: 1})
			status, data, hdr := e.do("GET", "/agents", nil)
			if status != 500 || !strings.HasPrefix(hdr.Get("Content-Type"), "text/html") || !strings.Contains(string(data), "<html>") {
				t.Fatalf("HTML 500: %d %q %s", status, hdr.Get("Content-Type"), data)
			}
			status, data, _ = e.do("GET", "/agents", nil)
			if status != 500 || len(data) != 0 {
				t.Fatalf("empty 500: %d %q", status, data)
			}
			e.call("GET", "/agents", nil, 200)
		})
	}
}

func TestFaultRetryAfterPlaces(t *testing.T) {
	cases := []struct {
		api, in          string
		header, inBody   bool
		bodyKey, bodyMsg string
	}{
		{APISpec, "", true, false, "message", "Too Many Attempts."},
		{APISpec, RetryInBody, false, true, "message", "Too Many Attempts."},
		{APISpec, RetryInBoth, true, true, "message", "Too Many Attempts."},
		{APIReal, "", true, true, "error", "Rate limit exceeded"},
		{APIReal, RetryInHeader, true, false, "error", "Rate limit exceeded"},
		{APIReal, RetryInBody, false, true, "error", "Rate limit exceeded"},
	}
	for _, c := range cases {
		t.Run(c.api+"/"+c.in, func(t *testing.T) {
			e := start(t, Options{API: c.api})
			e.svc.SetFaults(Faults{RateLimit: 1, RetryAfter: 3 * time.Second, RetryAfterIn: c.in})
			status, data, hdr := e.do("GET", "/agents", nil)
			var out map[string]any
			_ = json.Unmarshal(data, &out)
			if status != 429 || out[c.bodyKey] != c.bodyMsg {
				t.Fatalf("429: %d %s", status, data)
			}
			if got := hdr.Get("Retry-After"); (got == "3") != c.header || (got != "" && got != "3") {
				t.Fatalf("Retry-After %q, want present=%v", got, c.header)
			}
			if ra, has := out["retry_after"]; has != c.inBody || (has && num(ra) != 3) {
				t.Fatalf("retry_after %v, want present=%v", ra, c.inBody)
			}
		})
	}
}

func TestExecuteRequestsCountsRefusedOnes(t *testing.T) {
	e := start(t, Options{})
	e.svc.SetFaults(Faults{Fail500: 1})
	e.call("POST", "/agents/101/execute", chatReq(nil, "hi"), 500)
	e.call("POST", "/agents/101/execute", chatReq(nil, "hi"), 401, "Authorization", "Bearer wrong")
	e.call("POST", "/agents/101/execute", map[string]any{}, 422)
	e.call("POST", "/agents/999999/execute", chatReq(nil, "hi"), 404)
	e.call("POST", "/agents/101/execute", chatReq(nil, "hi"), 200)
	e.call("GET", "/agents/101", nil, 200)
	if got := e.svc.ExecuteRequests(); got != 5 {
		t.Fatalf("ExecuteRequests %d, want 5", got)
	}
	if got := len(e.svc.Executions()); got != 1 {
		t.Fatalf("%d executions ran, want 1", got)
	}
}

func TestPacingTokenBucket(t *testing.T) {
	for _, api := range []string{APISpec, APIReal} {
		t.Run(api, func(t *testing.T) {
			clock := newFakeClock()
			e := start(t, Options{API: api, RatePerSecond: 0.5, Burst: 3, Now: clock.Now})
			for i := 0; i < 3; i++ {
				e.call("GET", "/agents/101", nil, 200)
			}
			status, data, hdr := e.do("GET", "/agents/101", nil)
			if status != 429 || hdr.Get("Retry-After") != "2" {
				t.Fatalf("beyond the burst: %d %q %s", status, hdr.Get("Retry-After"), data)
			}
			if api == APIReal && !strings.Contains(string(data), `"retry_after":2`) {
				t.Fatalf("real 429 body %s", data)
			}
			// Another key has a bucket of its own (and is then refused by auth).
			if status, _, _ := e.do("GET", "/agents/101", nil, "Authorization", "Bearer other"); status == 429 {
				t.Fatal("a second key shares the first key's bucket")
			}
			clock.Advance(1500 * time.Millisecond)
			if status, _, hdr := e.do("GET", "/agents/101", nil); status != 429 || hdr.Get("Retry-After") != "1" {
				t.Fatalf("three quarters of a token: %d %q", status, hdr.Get("Retry-After"))
			}
			clock.Advance(500 * time.Millisecond)
			e.call("GET", "/agents/101", nil, 200)
			e.call("GET", "/agents/101", nil, 429)
			clock.Advance(time.Hour) // refills to the burst, not beyond
			for i := 0; i < 3; i++ {
				e.call("GET", "/agents/101", nil, 200)
			}
			e.call("GET", "/agents/101", nil, 429)
		})
	}
	// No pacing by default.
	e := start(t, Options{})
	for i := 0; i < 50; i++ {
		e.call("GET", "/agents/101", nil, 200)
	}
}

func TestFaultRedirectTo(t *testing.T) {
	e := startUnchecked(t, Options{API: APIReal})
	e.svc.SetFaults(Faults{RedirectTo: "https://elsewhere.example/"})
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, c := range []struct {
		method, path string
		body         any
		status       int
	}{
		{"GET", "/agents?page=2", nil, http.StatusFound},
		{"POST", "/agents/101/execute?waitExecution=true", realRoot(nil, "hi"), http.StatusTemporaryRedirect},
		{"POST", "/v2/files/sign", map[string]any{"filename": "a.txt", "size": 1}, http.StatusTemporaryRedirect},
	} {
		res, err := noFollow.Do(e.request(c.method, c.path, c.body))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != c.status || res.Header.Get("Location") != "https://elsewhere.example"+c.path {
			t.Fatalf("%s %s: %d to %q", c.method, c.path, res.StatusCode, res.Header.Get("Location"))
		}
	}
	if len(e.svc.Executions()) != 0 {
		t.Fatal("a redirected execute ran")
	}
	e.svc.SetFaults(Faults{})
	e.call("GET", "/agents", nil, 200)
}

// TestFaultRunForOutlastsWaitCap: a run lasting longer than the wait cap on
// the service's clock answers a blocking execute still running, and
// succeeds once that clock has moved on.
func TestFaultRunForOutlastsWaitCap(t *testing.T) {
	clk := newFakeClock()
	e := startReal(t, Options{Now: clk.Now, WaitCap: 30 * time.Millisecond, Faults: Faults{RunFor: 150 * time.Second}})
	rec := e.call("POST", "/agents/101/execute", realRoot(map[string]any{"waitExecution": true}, "Write the minutes"), 200)["responses"].([]any)[0].(map[string]any)
	if rec["status"] != StatusRunning && rec["status"] != StatusStarting {
		t.Fatalf("blocking answer %v", rec)
	}
	poll := "/agent-responses/" + itoa(int(num(rec["id"])))
	if got := e.call("GET", poll, nil, 200); got["status"] == StatusSucceeded {
		t.Fatalf("finished before its time: %v", got)
	}
	clk.Advance(150 * time.Second)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if got := e.call("GET", poll, nil, 200); got["status"] == StatusSucceeded {
			if num(got["credits"]) <= 0 || len(got["output"].(string)) == 0 {
				t.Fatalf("succeeded %v", got)
			}
			return
		}
	}
	t.Fatal("the run never finished")
}
