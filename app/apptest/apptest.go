// Package apptest opens an App for tests: a temp folder, the instant demo
// and an in-memory keyring, so the machine's real keyring is never touched.
package apptest

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
)

// Speak has Agent Desk speak lang for the test's duration, whatever the
// machine's locale; English again afterwards. Tests that set the language
// do not run in parallel: it is the process's.
func Speak(t testing.TB, lang string) {
	t.Helper()
	// Registered first, run last: once the environment is put back.
	t.Cleanup(func() { _ = app.UseLanguage("en") })
	for _, v := range []string{"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"} {
		t.Setenv(v, "")
	}
	t.Setenv("LANG", "C")
	if err := app.UseLanguage(lang); err != nil {
		t.Fatal(err)
	}
	if got := app.LanguageInUse(); got != lang {
		t.Fatalf("speaks %q, want %q", got, lang)
	}
}

// Open returns a demo-mode App under t.TempDir(); change may adjust Config.
func Open(t testing.TB, change ...func(*app.Config)) *app.App {
	t.Helper()
	cfg := app.Config{Paths: storage.PathsIn(t.TempDir()), StartDemo: DemoStarter(demoservice.Options{}), Keyring: NewKeyring(), FastRetries: true}
	for _, c := range change {
		c(&cfg)
	}
	a, err := app.Open(context.Background(), cfg)
	if err != nil {
		t.Fatalf("app.Open: %v", err)
	}
	t.Cleanup(func() { _ = a.Close() })
	return a
}

// DemoStarter starts the demo made with opts on loopback, as main does; a
// zero Pace answers at once.
func DemoStarter(opts demoservice.Options) func(key string) (app.DemoServer, error) {
	return func(key string) (app.DemoServer, error) {
		opts.APIKey = key
		// As in the app, the demo speaks the language in use when it starts.
		opts.Language = cmp.Or(opts.Language, app.LanguageInUse())
		return demoservice.Listen("127.0.0.1:0", opts)
	}
}

// WithDemo makes Open's built-in demo with opts.
func WithDemo(opts demoservice.Options) func(*app.Config) {
	return func(c *app.Config) { c.StartDemo = DemoStarter(opts) }
}

// Demo is a's running built-in service; nil when a real account is active.
func Demo(a *app.App) *demoservice.Server {
	s, _ := a.Demo().(*demoservice.Server)
	return s
}

// Keyring is an in-memory keyring.
type Keyring struct {
	mu     sync.Mutex
	m      map[string]string
	broken bool
}

// NewKeyring returns an empty in-memory keyring.
func NewKeyring() *Keyring { return &Keyring{m: map[string]string{}} }

// NewBrokenKeyring fails every call, like a desktop without a keyring.
func NewBrokenKeyring() *Keyring { return &Keyring{m: map[string]string{}, broken: true} }

var errNotFound = errors.New("secret not found in keyring")

var errNoKeyring = errors.New("no keyring")

func (k *Keyring) Set(service, user, password string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.broken {
		return errNoKeyring
	}
	k.m[service+"\x00"+user] = password
	return nil
}

func (k *Keyring) Get(service, user string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.broken {
		return "", errNoKeyring
	}
	v, ok := k.m[service+"\x00"+user]
	if !ok {
		return "", errNotFound
	}
	return v, nil
}

func (k *Keyring) Delete(service, user string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.broken {
		return errNoKeyring
	}
	delete(k.m, service+"\x00"+user)
	return nil
}

// NothingOutlives fails t, listing all goroutines, when more run than before
// once self-ending ones had a moment; settle runs at each wait.
func NothingOutlives(t testing.TB, before int, settle func()) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		if settle != nil {
			settle()
		}
	}
	if after := runtime.NumGoroutine(); after > before {
		buf := make([]byte, 1<<20)
		t.Fatalf("%d goroutines before Agent Desk opened, %d after it closed:\n%s", before, after, buf[:runtime.Stack(buf, true)])
	}
}

// OnService opens an App on a built-in service of its own (opts; no retries),
// for tests that set that service's state and faults.
func OnService(t testing.TB, opts demoservice.Options) (*app.App, *demoservice.Service) {
	t.Helper()
	opts.APIKey = "k"
	srv, svc := demoservice.NewTestService(t, opts)
	a := OnURL(t, srv.URL, func(c *app.Config) { c.ClientOptions = append(c.ClientOptions, client.WithMaxRetries(0)) })
	return a, svc
}

// OnURL opens an App talking to url with key "k", retrying as for users.
func OnURL(t testing.TB, url string, change ...func(*app.Config)) *app.App {
	t.Helper()
	return Open(t, append([]func(*app.Config){func(c *app.Config) {
		c.ClientOptions = []client.Option{client.WithBaseURL(url), client.WithAPIKey("k")}
	}}, change...)...)
}

// Rewriting makes the built-in service say something else: in GET answers
// under Prefix, Old becomes New. For hostile or unusual server tests.
type Rewriting struct {
	// Next sends the requests (http.DefaultTransport when nil).
	Next     http.RoundTripper
	Prefix   string
	Old, New string
}

// RoundTrip sends r and rewrites the answer's body.
func (rt Rewriting) RoundTrip(r *http.Request) (*http.Response, error) {
	next := rt.Next
	if next == nil {
		next = http.DefaultTransport
	}
	res, err := next.RoundTrip(r)
	if err != nil || r.Method != http.MethodGet || !strings.HasPrefix(r.URL.Path, rt.Prefix) {
		return res, err
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	body = bytes.ReplaceAll(body, []byte(rt.Old), []byte(rt.New))
	res.Body = io.NopCloser(bytes.NewReader(body))
	res.ContentLength = int64(len(body))
	res.Header.Set("Content-Length", strconv.Itoa(len(body)))
	return res, nil
}

// Holding holds requests for one path, once Hold is called, until Let: a
// service slow to answer one question.
type Holding struct {
	Path string
	held atomic.Bool
	let  chan struct{}
	once sync.Once
}

func NewHolding(path string) *Holding { return &Holding{Path: path, let: make(chan struct{})} }

// Hold holds the path's requests from now on.
func (h *Holding) Hold() { h.held.Store(true) }

// Let answers the held requests and those after them.
func (h *Holding) Let() { h.once.Do(func() { close(h.let) }) }

func (h *Holding) RoundTrip(r *http.Request) (*http.Response, error) {
	if h.held.Load() && r.URL.Path == h.Path {
		select {
		case <-h.let:
		case <-r.Context().Done():
			return nil, r.Context().Err()
		}
	}
	return http.DefaultTransport.RoundTrip(r)
}

// RowOnItsWay starts batch id's next row and leaves it running, as a crash would.
func RowOnItsWay(t testing.TB, a *app.App, agent client.Agent, id int64) storage.BatchRow {
	t.Helper()
	ctx := context.Background()
	r, ok, err := a.DB().TakeWaitingRow(ctx, id)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	e, err := a.Client().Start(ctx, agent.ID, client.ExecuteParams{Answers: map[string]any{"prompt": r.Cells[0], "tone": "friendly"}})
	if err != nil {
		t.Fatal(err)
	}
	r.State, r.ExecutionID = storage.RowRunning, string(e.ID)
	if _, err := a.DB().MoveRow(ctx, storage.RowSending, r); err != nil {
		t.Fatal(err)
	}
	return r
}
