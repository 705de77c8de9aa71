package demoservice

import (
	"encoding/json"
	"io"
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
	res, err := e.srv.Client().Do(e.request("POST", "/agents/101/execute", chatReq(map[string]any{"stream": true}, "Write the minutes")))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	evs, err := readSSE(t, res.Body)
	if err != nil {
		t.Fatal(err)
	}
	data := dataEvents(evs)
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
