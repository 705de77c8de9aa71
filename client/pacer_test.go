package client_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/client"
)

// arrivals is a server that answers every request with an empty page of
// files and notes when each came and which it was (its ?order=).
type arrivals struct {
	mu    sync.Mutex
	times []time.Time
	names []string
	limit atomic.Int32 // answer this many requests with 429 first
}

func (a *arrivals) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	a.times = append(a.times, time.Now())
	a.names = append(a.names, r.URL.Query().Get("order"))
	a.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if a.limit.Add(-1) >= 0 {
		w.Header().Set("Retry-After", "0")
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, `{"error":"Rate limit exceeded"}`)
		return
	}
	fmt.Fprint(w, `{"data":[],"current_page":1,"last_page":1,"per_page":15,"total":0}`)
}

// pacedService is an arrivals server and a client paced at perSecond with
// bursts of burst.
func pacedService(t *testing.T, perSecond float64, burst int) (*arrivals, *client.Pacer, *client.Client) {
	srv := &arrivals{}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	p := client.NewPacer(perSecond, burst)
	return srv, p, plain(ts.URL, client.WithPacer(p))
}

// Requests from several screens at once never go faster than the pace:
// any k+1 consecutive requests span at least (k − burst) / rate.
func TestRequestsKeepToTheAccountsPace(t *testing.T) {
	srv := &arrivals{}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	const rate, burst = 20.0, 2
	p := client.NewPacer(rate, burst)
	c := plain(ts.URL, client.WithPacer(p))
	var wg sync.WaitGroup
	for g := 0; g < 3; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 7; i++ {
				if _, err := c.ListFiles(context.Background(), client.ListFilesParams{}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if len(srv.times) != 21 || p.Sent() != 21 {
		t.Fatalf("%d requests arrived, the pacer let %d go; want 21", len(srv.times), p.Sent())
	}
	for i := range srv.times {
		for j := i + burst + 1; j < len(srv.times); j++ {
			least := time.Duration(float64(j-i-burst) / rate * float64(time.Second))
			if got := srv.times[j].Sub(srv.times[i]); got < least-5*time.Millisecond {
				t.Fatalf("requests %d to %d came %v apart, faster than the pace allows (%v)", i, j, got, least)
			}
		}
	}
	span := srv.times[len(srv.times)-1].Sub(srv.times[0])
	t.Logf("21 requests from 3 screens in %v: %.1f a second (pace %v, burst %d)", span, float64(20)/span.Seconds(), rate, burst)
}

// A request the user waits for goes ahead of background ones (polling,
// refreshes) already waiting.
func TestInteractiveRequestsGoFirst(t *testing.T) {
	srv, _, c := pacedService(t, 5, 1)
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = c.ListFiles(client.Background(context.Background()), client.ListFilesParams{Order: "asc"})
		}()
	}
	time.Sleep(50 * time.Millisecond) // the first went, three wait
	if _, err := c.ListFiles(context.Background(), client.ListFilesParams{Order: "desc"}); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	at := -1
	for i, n := range srv.names {
		if n == "desc" {
			at = i
		}
	}
	if at < 0 || at > 2 {
		t.Fatalf("the user's request came %dth of %v; it should go before the waiting background ones", at+1, srv.names)
	}
}

// A 429 halves the pace; answers after it bring it back step by step, to
// just under the pace the 429 came at.
func TestA429SlowsTheAccountDownUntilItRecovers(t *testing.T) {
	srv, p, c := pacedService(t, 100, 5)
	srv.limit.Store(1)
	if _, err := c.ListFiles(context.Background(), client.ListFilesParams{}); err != nil {
		t.Fatal(err)
	}
	after := p.Rate()
	if after >= 100 {
		t.Fatalf("after a 429 the pace is %v a second, want it slower than 100", after)
	}
	for i := 0; i < 12; i++ {
		if _, err := c.ListFiles(context.Background(), client.ListFilesParams{}); err != nil {
			t.Fatal(err)
		}
	}
	if got := p.Rate(); got < 90 || got >= 100 {
		t.Fatalf("after a dozen answers the pace is %v a second, want it back just under 100 (it was %v)", got, after)
	}
}

// A service that refuses a pace (here: faster than 80 a second) is soon
// no longer asked at it: the pace settles just under the pace it refused
// rather than climbing back into a 429, and the account's hold, again and
// again.
func TestAPaceTheServiceRefusedIsNotTriedAgain(t *testing.T) {
	const refused = 80.0
	var p *client.Pacer
	var arrived, limited atomic.Int32
	var refusedAt []int32 // which requests had 429s
	var mu sync.Mutex
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := arrived.Add(1)
		w.Header().Set("Content-Type", "application/json")
		if p.Rate() > refused {
			limited.Add(1)
			mu.Lock()
			refusedAt = append(refusedAt, n)
			mu.Unlock()
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"error":"Rate limit exceeded"}`)
			return
		}
		fmt.Fprint(w, `{"data":[],"current_page":1,"last_page":1,"per_page":15,"total":0}`)
	}))
	defer ts.Close()
	p = client.NewPacer(100, 1)
	c := plain(ts.URL, client.WithPacer(p))
	const calls = 60
	for i := 0; i < calls; i++ {
		if _, err := c.ListFiles(context.Background(), client.ListFilesParams{}); err != nil {
			t.Fatal(err)
		}
	}
	n := arrived.Load()
	var recent int
	for _, at := range refusedAt {
		if at > n-30 {
			recent++
		}
	}
	if got := p.Rate(); recent > 0 || limited.Load() > 6 || got > refused || got < refused*0.9 {
		t.Fatalf("%d requests, %d of them 429s (%d among the last 30); the pace is %v a second: "+
			"want a few 429s at first, then none, the pace just under %v", n, limited.Load(), recent, got, refused)
	}
	t.Logf("%d requests, %d of them 429s, the pace settled at %.1f a second", n, limited.Load(), p.Rate())
}

// Requests refused together (sent before the first 429 came back) slow the
// account down once, not once each.
func TestRequestsRefusedTogetherSlowTheAccountOnce(t *testing.T) {
	var arrived atomic.Int32
	both := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch arrived.Add(1) {
		case 1:
			select { // the second comes before the first is answered
			case <-both:
			case <-time.After(5 * time.Second):
			}
		case 2:
			close(both)
		default:
			fmt.Fprint(w, `{"data":[],"current_page":1,"last_page":1,"per_page":15,"total":0}`)
			return
		}
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, `{"error":"Rate limit exceeded"}`)
	}))
	defer ts.Close()
	p := client.NewPacer(100, 2)
	c := plain(ts.URL, client.WithPacer(p))
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			if _, err := c.ListFiles(context.Background(), client.ListFilesParams{}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	// halved once (50), then the two answers bring it up a step each
	if got := p.Rate(); got < 60 || arrived.Load() != 4 {
		t.Fatalf("after two requests refused together and answered again (%d requests), the pace is %v a second; want it halved once, 70", arrived.Load(), got)
	}
}

// Without a pacer nothing waits; a pacer's wait ends with the request's
// context.
func TestAPacedRequestStopsWithItsContext(t *testing.T) {
	srv, _, c := pacedService(t, 0.5, 1)
	if _, err := c.ListFiles(context.Background(), client.ListFilesParams{}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := c.ListFiles(ctx, client.ListFilesParams{}); err == nil {
		t.Fatal("the second request should wait for its turn and stop with its context")
	}
	if len(srv.times) != 1 {
		t.Fatalf("%d requests reached the service, want 1", len(srv.times))
	}
	if client.NewPacer(0, 1) != nil {
		t.Fatal("a pace of 0 should pace nothing")
	}
}

// A call that keeps failing gives up within its retry budget rather than
// after its count of tries, and a hiccup within the budget is ridden out.
func TestRetriesStayWithinTheirBudget(t *testing.T) {
	var calls atomic.Int32
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		fmt.Fprint(w, "<html>Bad gateway</html>")
	}))
	defer failing.Close()
	c := client.New(client.WithBaseURL(failing.URL), client.WithAPIKey("k"),
		client.WithRetryBackoff(40*time.Millisecond, 40*time.Millisecond), client.WithMaxRetries(100), client.WithRetryBudget(200*time.Millisecond))
	start := time.Now()
	_, err := c.ListFiles(context.Background(), client.ListFilesParams{})
	took := time.Since(start)
	if err == nil || calls.Load() < 3 || calls.Load() > 7 || took > 2*time.Second {
		t.Fatalf("a failing call should try a few times within 200 ms of waits and give up: %d calls in %v, error %v", calls.Load(), took, err)
	}
}

// A 429 asking for an hour holds the account's other requests no longer
// than a call waits out a 429 by itself (the cap), not an hour.
func TestALongRetryAfterHoldsTheAccountOnlyUpToTheCap(t *testing.T) {
	var n atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if n.Add(1) == 1 {
			w.Header().Set("Retry-After", "3600")
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"error":"Rate limit exceeded"}`)
			return
		}
		fmt.Fprint(w, `{"data":[],"current_page":1,"last_page":1,"per_page":15,"total":0}`)
	}))
	defer ts.Close()
	p := client.NewPacer(100, 5)
	c := plain(ts.URL, client.WithPacer(p), client.WithRetryAfterCap(100*time.Millisecond))
	if _, err := c.ListFiles(context.Background(), client.ListFilesParams{}); err == nil {
		t.Fatal("a 429 asking for an hour should reach the caller")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if _, err := c.ListFiles(ctx, client.ListFilesParams{}); err != nil {
		t.Fatalf("the next request should go after the cap, not an hour later: %v", err)
	}
}

// A background request gives way to interactive ones only for a while:
// polling goes on while the user keeps the account busy.
func TestBackgroundRequestsAreNotStarved(t *testing.T) {
	_, _, c := pacedService(t, 10, 1)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for g := 0; g < 2; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				_, _ = c.ListFiles(context.Background(), client.ListFilesParams{Order: "desc"})
			}
		}()
	}
	time.Sleep(50 * time.Millisecond)
	ctx, cancel := context.WithTimeout(client.Background(context.Background()), 5*time.Second)
	defer cancel()
	_, err := c.ListFiles(ctx, client.ListFilesParams{Order: "asc"})
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatalf("the background request should go within a few seconds: %v", err)
	}
}

// Nothing listening at the address is said at once, not after retries.
func TestNothingListeningIsNotRetried(t *testing.T) {
	ts := httptest.NewServer(http.NotFoundHandler())
	url := ts.URL
	ts.Close()
	c := client.New(client.WithBaseURL(url), client.WithAPIKey("k"), client.WithRetryBackoff(300*time.Millisecond, time.Second))
	start := time.Now()
	_, err := c.ListFiles(context.Background(), client.ListFilesParams{})
	if err == nil || !client.IsOffline(err) {
		t.Fatalf("want an offline error, got %v", err)
	}
	if took := time.Since(start); took > 250*time.Millisecond {
		t.Fatalf("a refused connection took %v: it should not be retried", took)
	}
}
