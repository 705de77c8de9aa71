package client_test

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/contract"
	"github.com/agentdesk/agentdesk/client/demoservice"
)

const testKey = "sk-test-5f1e9a7c3b"

var (
	validatorOnce sync.Once
	validator     *contract.Validator
	validatorErr  error
)

// contractClient returns an HTTP client whose transport checks every request
// against the project's OpenAPI document and fails t on any mismatch.
func contractClient(t testing.TB) *http.Client {
	t.Helper()
	validatorOnce.Do(func() { validator, validatorErr = contract.NewValidator() })
	if validatorErr != nil {
		t.Fatalf("contract validator: %v", validatorErr)
	}
	var mu sync.Mutex
	done := false
	t.Cleanup(func() { mu.Lock(); done = true; mu.Unlock() })
	report := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		if !done {
			t.Errorf("contract: "+format, args...)
		}
	}
	tr := &http.Transport{MaxIdleConnsPerHost: 8, ResponseHeaderTimeout: 130 * time.Second}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: validator.Transport(tr, report)}
}

// demo starts the built-in service over real HTTP and returns a client for
// it whose requests are checked by the contract validator.
func demo(t testing.TB, opts demoservice.Options, extra ...client.Option) (*client.Client, *demoservice.Service, *httptest.Server) {
	t.Helper()
	if opts.APIKey == "" {
		opts.APIKey = testKey
	}
	srv, svc := demoservice.NewTestService(t, opts)
	return checkedClient(t, srv.URL, opts.APIKey, extra...), svc, srv
}

// checkedClient is a fast client for url whose requests the contract
// validator checks.
func checkedClient(t testing.TB, url, key string, extra ...client.Option) *client.Client {
	return client.New(fastOptions(url, key, append([]client.Option{client.WithHTTPClient(contractClient(t))}, extra...)...)...)
}

// plain returns a client for an httptest server with fast retries.
func plain(url string, extra ...client.Option) *client.Client {
	return client.New(fastOptions(url, testKey, extra...)...)
}

// fastOptions point a client at url with key, retrying and polling fast so
// tests do not wait; extra come last and win.
func fastOptions(url, key string, extra ...client.Option) []client.Option {
	base := []client.Option{
		client.WithBaseURL(url),
		client.WithAPIKey(key),
		client.WithRetryBackoff(time.Millisecond, 20*time.Millisecond),
		client.WithPollInterval(5 * time.Millisecond),
	}
	return append(base, extra...)
}
