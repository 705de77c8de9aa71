package client_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/contract"
	"github.com/agentdesk/agentdesk/client/demoservice"
)

const testKey = "sk-test-5f1e9a7c3b"

var loadValidator = sync.OnceValues(contract.NewValidator)

// contractClient returns an HTTP client whose transport checks every request
// against the project's OpenAPI document and fails t on any mismatch.
func contractClient(t testing.TB) *http.Client {
	t.Helper()
	validator, err := loadValidator()
	if err != nil {
		t.Fatalf("contract validator: %v", err)
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

// fillAnswers answers an agent's questions by their type, not their names,
// so it serves any agent of the built-in service or of a deployed one:
// every select question gets choose(options); every other required question
// a plausible value for its type (see answerByType). The messages question
// is left out: a run carries its messages on their own.
func fillAnswers(a *client.Agent, choose func(options []string) string) map[string]any {
	answers := map[string]any{}
	for _, q := range a.Questions {
		switch {
		case q.Type == client.QuestionSelect:
			if len(q.Options) > 0 {
				answers[q.Name] = choose(q.Options)
			}
		case q.Required && q.Name != "messages":
			if v, ok := answerByType(q); ok {
				answers[q.Name] = v
			}
		}
	}
	return answers
}

// answerByType is a plausible answer to a question of any type: a number
// within the question's min and max when it has them, a date, a yes, the
// first choice of a multiselect, and a short sentence for text, textarea and
// any type this package does not know. A file question has no answer (ok is
// false): it needs an uploaded file's id, which a test uploads itself.
func answerByType(q client.Question) (v any, ok bool) {
	const sentence = "A short note inviting the team to lunch on Friday."
	switch q.Type {
	case client.QuestionNumber:
		return numberWithin(q, 10), true
	case client.QuestionArray:
		return []any{sentence}, true
	case "date":
		return "2024-05-01", true
	case "boolean":
		return true, true
	case "multiselect":
		opts := q.Options
		if len(opts) == 0 {
			opts = strings.Split(q.Description, ",")
		}
		return strings.TrimSpace(opts[0]), true
	case "object":
		return map[string]any{"note": sentence}, true
	case "file":
		return nil, false
	}
	return sentence, true
}

// numberWithin is want moved inside the question's min and max, read from
// its extra keys as a number or a numeric string, when it has them.
func numberWithin(q client.Question, want float64) float64 {
	bound := func(key string) (float64, bool) {
		var v any
		if json.Unmarshal(q.Extra[key], &v) != nil {
			return 0, false
		}
		switch x := v.(type) {
		case float64:
			return x, true
		case string:
			f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
			return f, err == nil
		}
		return 0, false
	}
	if lo, ok := bound("min"); ok && want < lo {
		want = lo
	}
	if hi, ok := bound("max"); ok && want > hi {
		want = hi
	}
	return want
}
