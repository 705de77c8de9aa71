package app_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
)

// openOnFaults is an app on a service of its own, retrying as it does for
// users, with enough webhooks for 17 pages of the service's 15; it returns
// how many webhooks there are.
func openOnFaults(t *testing.T) (*app.App, *demoservice.Service, int) {
	t.Helper()
	srv, svc := demoservice.NewTestService(t, demoservice.Options{APIKey: "k"})
	a := apptest.OnURL(t, srv.URL)
	ctx := context.Background()
	seeded, err := a.Catalog().Webhooks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n := len(seeded.Webhooks)
	for ; n <= 16*15; n++ {
		if _, err := a.Client().CreateWebhook(ctx, "101", client.WebhookParams{URL: fmt.Sprintf("https://hooks.example.com/%d", n)}); err != nil {
			t.Fatal(err)
		}
	}
	return a, svc, n
}

// Every list fills completely when every fifth request fails, in each way
// a service or the way to it fails (429 with its wait, an HTML 500 from a
// proxy, a connection closed before the answer, a 200 whose JSON stops
// halfway) and all of them in turn: the app asks again for what it may.
func TestEveryListFillsWhenEveryFifthRequestFails(t *testing.T) {
	for _, kind := range append(append([]string(nil), demoservice.EveryKinds...), demoservice.EveryMix) {
		t.Run(kind, func(t *testing.T) {
			a, svc, webhooks := openOnFaults(t)
			svc.SetFaults(demoservice.Faults{Every: 5, EveryFault: kind})

			b := a.Agents().NewBrowser(0)
			b.Search(app.AgentQuery{})
			var agents app.AgentPage
			eventually(t, "every agent", func() bool {
				agents = page(b)
				if !agents.Loading && agents.HasMore && agents.Err == nil {
					b.LoadMore()
				}
				return !agents.Loading && (!agents.HasMore || agents.Err != nil)
			})
			if agents.Err != nil || len(agents.Agents) != agents.Total || agents.Total == 0 {
				t.Fatalf("agents: %d of %d, error %v", len(agents.Agents), agents.Total, agents.Err)
			}

			h := a.Catalog().NewWebhooks()
			h.Reload()
			hooks, _ := waitFor(t, h.List, "the webhooks", func(st live.ListState[client.Webhook]) bool { return st.Loaded && !st.Loading })
			if hooks.Err != nil || hooks.Incomplete || len(hooks.Items) != webhooks {
				t.Fatalf("webhooks: %d of %d, error %v", len(hooks.Items), webhooks, hooks.Err)
			}

			r := a.Catalog().NewResourceSearch()
			r.Find("", "")
			res, _ := waitFor(t, r.List, "the resources", func(st live.ListState[client.Resource]) bool { return st.Loaded && !st.Loading })
			if res.Err != nil || res.Incomplete || len(res.Items) == 0 {
				t.Fatalf("resources: %d, error %v", len(res.Items), res.Err)
			}

			files := a.Files().NewList("desc")
			for files.HasMore() {
				if _, err := files.LoadMore(context.Background()); err != nil {
					t.Fatalf("files after %d: %v", len(now(files.State()).Files), err)
				}
			}
		})
	}
}

// posts counts, by path, the requests that create or cost which the
// service may have acted on: all but those it refused with 429 (which
// proves it did not; the app may ask again after the wait).
type posts struct {
	next http.Handler
	mu   sync.Mutex
	n    map[string]int
}

func (p *posts) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		p.next.ServeHTTP(w, r)
		return
	}
	// Counted as it arrives, before the service answers: a client that
	// sees its connection cut may look before the handler has returned.
	p.mu.Lock()
	p.n[r.URL.Path]++
	p.mu.Unlock()
	st := &statusOf{ResponseWriter: w}
	p.next.ServeHTTP(st, r)
	if st.code == http.StatusTooManyRequests {
		p.mu.Lock()
		p.n[r.URL.Path]--
		p.mu.Unlock()
	}
}

// statusOf notes the status of the answer written through it.
type statusOf struct {
	http.ResponseWriter
	code int
}

func (s *statusOf) WriteHeader(code int) {
	s.code = code
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusOf) Unwrap() http.ResponseWriter { return s.ResponseWriter }

func (s *statusOf) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (s *statusOf) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return http.NewResponseController(s.ResponseWriter).Hijack()
}

func (p *posts) count(path string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.n[path]
}

// Whatever way a request that costs credits or creates something fails,
// the app sends it once: a run, a chat message, a webhook and a memory
// each reach the service once, also when the service acted on it and only
// its answer was lost (a JSON body cut halfway, a connection closed in the
// middle of it) or the connection closed before anything was known. (A 429
// says the service did not act: it is waited out and asked again, as the
// client's own tests check.)
func TestNothingThatCostsOrCreatesIsSentTwice(t *testing.T) {
	for _, kind := range []string{demoservice.EveryHTML500, demoservice.EveryReset, demoservice.EveryTruncated, demoservice.EveryCutBody} {
		t.Run(kind, func(t *testing.T) {
			svc := demoservice.New(demoservice.Options{APIKey: "k"})
			t.Cleanup(func() { _ = svc.Close() })
			counter := &posts{next: svc, n: map[string]int{}}
			srv := httptest.NewServer(counter)
			t.Cleanup(srv.Close)
			a := apptest.OnURL(t, srv.URL)
			ctx := context.Background()
			text := getAgent(t, a, "119")
			chat := chatAgent(t, a)
			// every request fails from now on, the first try of each too
			svc.SetFaults(demoservice.Faults{Every: 1, EveryFault: kind})

			ar, err := a.Runs().Runner().Start(text, map[string]string{"prompt": "A note about lunch", "tone": "formal", "length": "120"}, nil)
			if err == nil {
				_, _ = finished(t, ar)
			}
			s, err := a.Chats().New(ctx, chat)
			if err == nil {
				_ = s.Send(ctx, "Hello", nil)
				s.Wait()
			}
			_ = a.Catalog().NewWebhooks().Add(ctx, "101", "https://hooks.example.com/once", "POST", true)
			_, _ = a.Memories().Create(ctx, app.MemoryEdit{Content: "Call back within a day"})

			for _, path := range []string{"/agents/119/execute", "/agents/" + string(chat.ID) + "/execute", "/agents/101/webhooks", "/memories"} {
				if n := counter.count(path); n != 1 {
					t.Errorf("POST %s reached the service %d times, want once", path, n)
				}
			}
		})
	}
}

// BenchmarkWebhooksUnderFaults measures reading the workspace's 17 pages
// of webhooks with the retries users get (backoff from 0.5 s, a 429's
// wait of 1 s), with no fault (clean-ms) and with every fifth request
// failing in turn as 429, HTML 500, closed connection, cut JSON and a
// connection closed in the body
// (mix-ms); and the rate of requests held by a pace of 4 a second
// (paced-rps, from 40 list requests after the burst of 5).
func BenchmarkWebhooksUnderFaults(b *testing.B) {
	var clean, mix time.Duration
	var rps float64
	for i := 0; i < b.N; i++ {
		for _, faults := range []demoservice.Faults{{}, {Every: 5, EveryFault: demoservice.EveryMix}} {
			srv, svc := demoservice.NewTestService(b, demoservice.Options{APIKey: "k"})
			a := apptest.OnURL(b, srv.URL, func(c *app.Config) { c.FastRetries = false })
			ctx := context.Background()
			for n := 0; n < 16*15; n++ {
				if _, err := a.Client().CreateWebhook(ctx, "101", client.WebhookParams{URL: fmt.Sprintf("https://hooks.example.com/%d", n)}); err != nil {
					b.Fatal(err)
				}
			}
			svc.SetFaults(faults)
			t0 := time.Now()
			l, err := a.Catalog().Webhooks(ctx)
			took := time.Since(t0)
			if err != nil || len(l.Webhooks) <= 16*15 {
				b.Fatalf("%d webhooks, %v", len(l.Webhooks), err)
			}
			if faults.Every == 0 {
				clean += took
			} else {
				mix += took
			}
		}

		srv, _ := demoservice.NewTestService(b, demoservice.Options{APIKey: "k"})
		c := client.New(client.WithBaseURL(srv.URL), client.WithAPIKey("k"), client.WithPacer(client.NewPacer(4, 5)))
		const burst, n = 5, 40
		var t0 time.Time
		for k := 0; k < burst+n; k++ {
			if k == burst {
				t0 = time.Now()
			}
			if _, err := c.ListAgents(context.Background(), client.ListAgentsParams{PerPage: 1}); err != nil {
				b.Fatal(err)
			}
		}
		rps += n / time.Since(t0).Seconds()
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
	b.ReportMetric(ms(clean), "clean-ms")
	b.ReportMetric(ms(mix), "mix-ms")
	b.ReportMetric(ms(mix)/ms(clean), "mix/clean")
	b.ReportMetric(rps/float64(b.N), "paced-rps")
}
