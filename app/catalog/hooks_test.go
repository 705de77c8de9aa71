package catalog_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/app/catalog"
	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
)

// runner runs a catalog's background work until the test ends.
type runner struct {
	wg   sync.WaitGroup
	life context.Context
}

func (r *runner) Go(fn func()) bool     { r.wg.Go(fn); return true }
func (r *runner) Life() context.Context { return r.life }

// served is a catalog on the demo made with opts, with 246 webhooks in its
// first workspace; the demo hears each request through hold (when not nil)
// and counts them by path and query.
type served struct {
	cat *catalog.Catalog
	run *runner

	mu    sync.Mutex
	asked []string
}

func serve(t *testing.T, opts demoservice.Options, hold func(r *http.Request) int) *served {
	t.Helper()
	opts.APIKey = "k"
	svc := demoservice.New(opts)
	svc.FillWebhooks(246)
	s := &served{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.asked = append(s.asked, r.URL.RequestURI())
		s.mu.Unlock()
		if hold != nil {
			if code := hold(r); code != 0 {
				http.Error(w, `{"message":"Server Error"}`, code)
				return
			}
		}
		svc.ServeHTTP(w, r)
	}))
	life, cancel := context.WithCancel(context.Background())
	s.run = &runner{life: life}
	t.Cleanup(func() {
		cancel()
		s.run.wg.Wait()
		_ = svc.Close()
		srv.Close()
	})
	c := client.New(client.WithBaseURL(srv.URL), client.WithAPIKey("k"), client.WithMaxRetries(0))
	s.cat = catalog.New(func() *client.Client { return c }, s.run, nil)
	return s
}

// requests are those whose path and query start with prefix.
func (s *served) requests(prefix string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, a := range s.asked {
		if strings.HasPrefix(a, prefix) {
			out = append(out, a)
		}
	}
	return out
}

// waitOn waits until cond holds for o's value, hearing each change.
func waitOn[T any](t *testing.T, o live.Observable[T], what string, cond func(T) bool) T {
	t.Helper()
	changed := make(chan struct{}, 1)
	defer o.Subscribe(func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	})()
	timeout := time.After(10 * time.Second)
	for {
		v, _ := o.Snapshot()
		if cond(v) {
			return v
		}
		select {
		case <-changed:
		case <-timeout:
			t.Fatalf("gave up waiting for %s: %v", what, v)
		}
	}
}

func loaded(t *testing.T, h *catalog.Hooks) []client.Webhook {
	t.Helper()
	return waitOn(t, h.List, "the webhooks", func(st live.ListState[client.Webhook]) bool { return st.Loaded && !st.Loading }).Items
}

// The workspace's 246 webhooks are read a hundred at a time, in either
// variant, and no agent is read before a row asks for it.
func TestWorkspaceWebhooksAreReadAHundredAtATime(t *testing.T) {
	for _, c := range []struct {
		name string
		opts demoservice.Options
		page string
	}{
		{"real", demoservice.Options{API: demoservice.APIReal}, "per_page=100"},
		{"B", demoservice.Options{API: demoservice.APISpec, WebhookVariant: "B"}, "limit=100"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := serve(t, c.opts, nil)
			h := s.cat.NewWebhooks()
			h.Reload()
			if n := len(loaded(t, h)); n != 246 {
				t.Fatalf("%d webhooks listed", n)
			}
			pages := s.requests("/webhooks")
			for _, p := range pages {
				if !strings.Contains(p, c.page) {
					t.Fatalf("a page asked as %s", p)
				}
			}
			if len(pages) != 3 || len(s.requests("/agents")) != 0 {
				t.Fatalf("asked for %q", s.requests(""))
			}
		})
	}
}

// titled waits until the titles hold an agent's.
func titled(t *testing.T, h *catalog.Hooks, id client.ID) {
	t.Helper()
	waitOn(t, h.Titles(), "the title of agent "+id.String(), func(m map[string]string) bool { return m[id.String()] != "" })
}

// An agent's title is read once, however many rows ask for it, and kept
// through the next load. Titles are read one at a time, in the order asked.
func TestAnAgentsTitleIsReadOnceWhenRowsAskForIt(t *testing.T) {
	s := serve(t, demoservice.Options{API: demoservice.APIReal}, nil)
	h := s.cat.NewWebhooks()
	h.Reload()
	hooks := loaded(t, h)
	first, later := hooks[0].TemplateID, hooks[len(hooks)-1].TemplateID
	var rows sync.WaitGroup
	for range 10 {
		rows.Go(func() { h.WantTitle(first) })
	}
	rows.Wait()
	h.WantTitle(later)
	titled(t, h, first)
	titled(t, h, later)

	h.Reload()
	loaded(t, h)
	h.WantTitle(first)
	h.WantTitle("110") // read after first, were first read again
	titled(t, h, "110")
	if got := s.requests("/agents/"); len(got) != 3 {
		t.Fatalf("asked for %q", got)
	}
}

// A title that could not be read is not asked for again until the next
// load; then it is.
func TestATitleNotReadIsAskedAgainAfterTheNextLoad(t *testing.T) {
	var failing atomic.Bool
	failing.Store(true)
	s := serve(t, demoservice.Options{API: demoservice.APIReal}, func(r *http.Request) int {
		if r.URL.Path == "/agents/104" && failing.Load() {
			return http.StatusServiceUnavailable
		}
		return 0
	})
	h := s.cat.NewWebhooks()
	h.Reload()
	loaded(t, h)
	h.WantTitle("104")
	h.WantTitle("107")
	titled(t, h, "107")
	h.WantTitle("104")
	h.WantTitle("110")
	titled(t, h, "110")
	if got := s.requests("/agents/104"); len(got) != 1 {
		t.Fatalf("before the next load, agent 104 was asked for %d times", len(got))
	}
	failing.Store(false)
	h.Reload()
	loaded(t, h)
	h.WantTitle("104")
	titled(t, h, "104")
}

// Clear forgets the titles, and a title still being read then never lands.
func TestClearDropsTheTitlesAndOneStillBeingRead(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	s := serve(t, demoservice.Options{API: demoservice.APIReal}, func(r *http.Request) int {
		if r.URL.Path == "/agents/101" {
			close(entered)
			<-release
		}
		return 0
	})
	h := s.cat.NewWebhooks()
	h.Reload()
	loaded(t, h)
	h.WantTitle("104")
	titled(t, h, "104")
	h.WantTitle("101")
	<-entered
	h.Clear()
	if m, _ := h.Titles().Snapshot(); m != nil || len(h.Get().Items) != 0 {
		t.Fatalf("after Clear: titles %v, %d webhooks", m, len(h.Get().Items))
	}
	close(release)
	s.run.wg.Wait() // the reading of agent 101 is over
	if m, _ := h.Titles().Snapshot(); m != nil {
		t.Fatalf("a title read before Clear landed after it: %v", m)
	}
	h.WantTitle("104") // read again, for another account
	titled(t, h, "104")
	if got := s.requests("/agents/104"); len(got) != 2 {
		t.Fatalf("agent 104 asked for %d times", len(got))
	}
}
