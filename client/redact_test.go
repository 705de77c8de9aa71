package client_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/client"
)

// echoKeyServer answers every call with the caller's own API key echoed
// back: in the request id header and inside answers that do not decode.
func echoKeyServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		w.Header().Set("x-request-id", "req-"+key)
		switch r.URL.Path {
		case "/agents/not-json":
			// Not JSON at all: the key sits across the 512-byte cut.
			w.Write([]byte(strings.Repeat("x", 505) + key + " and " + key))
		case "/agents":
			// JSON, but not a page of agents.
			w.Write([]byte(`"your key is ` + key + `"`))
		default:
			w.WriteHeader(http.StatusUnprocessableEntity)
			w.Write([]byte(`{"message":"bad","errors":{"` + key + `":["field ` + key + `"]}}`))
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestErrorsNeverCarryTheEchoedKey(t *testing.T) {
	const key = "sk-echoed-7d41c0ffee99"
	srv := echoKeyServer(t)
	c := client.New(client.WithBaseURL(srv.URL), client.WithAPIKey(key), client.WithMaxRetries(0))
	ctx := context.Background()

	_, err := c.GetAgent(ctx, "missing")
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("want an APIError, got %v", err)
	}
	if strings.Contains(apiErr.RequestID, key) || strings.Contains(err.Error(), key) || bytes.Contains(apiErr.Body, []byte(key)) {
		t.Fatalf("the key shows in the API error: request id %q, text %q", apiErr.RequestID, err.Error())
	}
	for f := range apiErr.Fields {
		if strings.Contains(f, key) {
			t.Fatalf("the key shows in a field name: %q", f)
		}
	}
	if !strings.Contains(apiErr.RequestID, "req-[redacted]") {
		t.Fatalf("the request id should stay, masked: %q", apiErr.RequestID)
	}

	for name, call := range map[string]func() error{
		"an answer that is not JSON": func() error { _, err := c.GetAgent(ctx, "not-json"); return err },
		"a page that is not a page":  func() error { _, err := c.ListAgents(ctx, client.ListAgentsParams{}); return err },
	} {
		err := call()
		var dec *client.DecodeError
		if !errors.As(err, &dec) {
			t.Fatalf("%s: want a DecodeError, got %v", name, err)
		}
		if strings.Contains(err.Error(), key) {
			t.Errorf("%s: the key shows in the error text: %q", name, err.Error())
		}
		// Not even the half of the key that the 512-byte cut leaves.
		if bytes.Contains(dec.Body, []byte(key[:8])) || len(dec.Body) > 512 {
			t.Errorf("%s: the key shows in the kept body (%d bytes): %q", name, len(dec.Body), dec.Body)
		}
		// The mask may itself be cut at 512 bytes.
		if !bytes.Contains(dec.Body, []byte("[redact")) {
			t.Errorf("%s: the kept body should say where the key was: %q", name, dec.Body)
		}
	}
}

func TestExecutionAndNetworkErrorsMaskKeys(t *testing.T) {
	const key = "sk-echoed-0a9b8c7d6e5f"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/agents/broken" { // the key as the status line
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Write([]byte(key + "\r\n\r\n"))
			conn.Close()
			return
		}
		w.Write([]byte(`{"id":"r1","status":"failed","error":"the key ` + key + ` is not allowed"}`))
	}))
	t.Cleanup(srv.Close)
	c := client.New(client.WithBaseURL(srv.URL), client.WithAPIKey(key), client.WithMaxRetries(0))
	_, err := c.Wait(context.Background(), "1", "r1")
	var exec *client.ExecutionError
	if !errors.As(err, &exec) || !strings.Contains(exec.Text, "[redacted]") {
		t.Fatalf("want an ExecutionError saying where the key was, got %v", err)
	}
	if strings.Contains(exec.Error(), key) {
		t.Errorf("execution error shows the key: %q", exec.Error())
	}
	_, err = c.GetAgent(context.Background(), "broken")
	var net *client.NetworkError
	if !errors.As(err, &net) || !strings.Contains(net.Err.Error(), key) {
		t.Fatalf("want a NetworkError quoting the key, got %v", err)
	}
	if strings.Contains(net.Error(), key) {
		t.Errorf("network error shows the key: %q", net.Error())
	}
}
