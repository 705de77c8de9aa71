// Package demoservice is an in-process Agent Execution Service with real
// state, for the demo mode, the tests and `agentdesk --serve-demo ADDR`. It
// follows APISpec (agent-execution-service.md) or APIReal (real-service.md);
// Agent Desk must work with both. Choices filling gaps in the interface are
// marked by a comment that starts with "Assumption:".
package demoservice

import (
	"cmp"
	"context"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The readings of the interface a Service can follow (Options.API).
const (
	// APISpec is the interface as first described.
	APISpec = "spec"
	// APIReal is the deployed service as real-service.md describes it, and
	// the reading of any other Options.API: the one staff meet.
	APIReal = "real"
)

// Options configure a Service; the zero value is instant and accepts the key "demo".
type Options struct {
	// API is APISpec or APIReal (the default).
	API string
	// APIKey is the Bearer key accepted; "" means "demo".
	APIKey string
	// MemoryVariant selects the memory interface: "A" (default) or "B".
	MemoryVariant string
	// WebhookVariant selects the shape of GET /webhooks: "A" (default) or "B".
	WebhookVariant string
	// Pace is the delay between fragments and progress steps; 0 is instant.
	Pace time.Duration
	// Now is an optional clock, read by pacing too, so tests need not wait.
	Now func() time.Time
	// WaitCap bounds a blocking execution's wait before it answers still running.
	WaitCap time.Duration
	// MaxUploadBytes bounds one upload; larger answer 413. The default depends on the reading.
	MaxUploadBytes int64
	// RatePerSecond and Burst pace requests per key with a token bucket;
	// beyond it 429. RatePerSecond 0 is off; Burst 0 means max(1, RatePerSecond).
	RatePerSecond float64
	Burst         int
	// ExtraAgents adds generated text agents to the first workspace, for long lists.
	ExtraAgents int
	// Seed is SeedStandard or SeedOdd; "" is the default (SetDefaultSeed).
	Seed string
	// Faults are in force from the start; SetFaults changes them.
	Faults Faults
	// RequireWorkspace refuses a request without x-workspace-id on the
	// routes documented with it (400 Validation failed naming the header),
	// as the real service says it will and some accounts meet already.
	RequireWorkspace bool
	// Language is what the seed and the replies speak, a tag such as
	// "pt-BR" (Languages); English when "" or another.
	Language string
}

// RealMaxUploadBytes is the real service's documented upload limit, 200 MB
// in the decimal units its documentation uses; the spec reading's default is
// 512 MiB.
const RealMaxUploadBytes int64 = 200_000_000

const demoUserID int64 = 7

// Service implements every endpoint of the Agent Execution Service; safe for concurrent use.
type Service struct {
	opts   Options
	speech *speech // the language of the seed and the replies
	real   bool    // the real reading is in force
	mux    *http.ServeMux

	execRequests atomic.Int64 // ExecuteRequests
	limiter      *limiter     // nil when pacing is off
	storage      storage      // where signed addresses point (largefiles.go)

	// ctx ends when the service is closed; background progressions watch it.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu     sync.Mutex
	faults Faults
	// everyCount counts requests for Faults.Every; everyTaken its faults (EveryMix's turn).
	everyCount, everyTaken int
	workspaces             []int64 // the first when a request names none
	agents                 map[int64]*Agent
	executions             map[int64]*execution
	files                  map[int64]*File
	agentFiles             map[int64][]int64 // agent id → linked file ids in link order
	memories               map[int64]*Memory
	collections            map[int64]*Collection
	resources              []resource
	webhooks               map[int64]*webhook
	objects                map[string]*object       // signed uploads by object path
	media                  map[string]func() []byte // "images/12.png" → its bytes
	nextExecID             int64
	nextFileID             int64
	nextMemID              int64
}

// New builds a Service with seeded data.
func New(opts Options) *Service {
	opts.APIKey = cmp.Or(opts.APIKey, "demo")
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.WaitCap <= 0 {
		opts.WaitCap = 100 * time.Second // the interface's blocking timeout
	}
	if opts.API != APISpec {
		opts.API = APIReal
	}
	opts.Seed = cmp.Or(opts.Seed, DefaultSeed())
	if opts.MaxUploadBytes <= 0 {
		opts.MaxUploadBytes = map[string]int64{APISpec: 512 << 20, APIReal: RealMaxUploadBytes}[opts.API]
	}
	s := &Service{
		opts:        opts,
		speech:      speechFor(opts.Language),
		real:        opts.API == APIReal,
		limiter:     newLimiter(opts.RatePerSecond, opts.Burst, opts.Now),
		agents:      map[int64]*Agent{},
		executions:  map[int64]*execution{},
		files:       map[int64]*File{},
		agentFiles:  map[int64][]int64{},
		memories:    map[int64]*Memory{},
		collections: map[int64]*Collection{},
		media:       map[string]func() []byte{},
		webhooks:    map[int64]*webhook{},
		objects:     map[string]*object{},
		nextExecID:  48200,
		nextFileID:  9100,
		nextMemID:   560,
		faults:      opts.Faults,
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.storage.init()
	s.seed()
	s.mux = s.routes()
	return s
}

// ServeHTTP answers one request (routes.go).
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mux.ServeHTTP(w, r)
}

func (s *Service) API() string { return s.opts.API }

// ExecuteRequests counts execute requests received, refused ones included:
// tests prove a client never sends a run twice.
func (s *Service) ExecuteRequests() int { return int(s.execRequests.Load()) }

// Close stops and waits for background work and closes the storage
// listener; requests in flight on the service's own server go on.
func (s *Service) Close() error {
	s.mu.Lock()
	s.cancel()
	s.mu.Unlock()
	err := s.storage.close()
	s.wg.Wait()
	return err
}

func (s *Service) now() time.Time { return s.opts.Now().UTC() }

// goBackground runs f tracked for Close; f must return soon after s.ctx ends.
func (s *Service) goBackground(f func()) {
	// Adding under the lock orders Add before Close's Wait.
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ctx.Err() == nil {
		s.wg.Go(f)
	}
}

// collect snapshots the records keep accepts, in id order.
func collect[T any](s *Service, records map[int64]*T, keep func(*T) bool) []T {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []T
	for _, id := range slices.Sorted(maps.Keys(records)) {
		if keep(records[id]) {
			out = append(out, *records[id])
		}
	}
	return out
}

// collectPage is collect for page p alone, with the count of all: the rest
// is counted, not copied, so listing 10,000 agents copies one page.
func collectPage[T any](s *Service, records map[int64]*T, keep func(*T) bool, p pageQuery) (page []T, total int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	kept := make([]int64, 0, len(records))
	for id, r := range records {
		if keep(r) {
			kept = append(kept, id)
		}
	}
	slices.Sort(kept)
	lo, hi := p.window(len(kept))
	page = make([]T, 0, hi-lo)
	for _, id := range kept[lo:hi] {
		page = append(page, *records[id])
	}
	return page, len(kept)
}

// sleep waits d or until the request or service ends, reporting whether d passed.
func (s *Service) sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil && s.ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	case <-s.ctx.Done():
		return false
	}
}

type Server struct {
	// Service is the running service, for faults and inspection.
	Service *Service
	srv     *http.Server
	ln      net.Listener
	done    chan struct{}
}

// Listen starts a Service on addr (for example "127.0.0.1:0").
func Listen(addr string, opts Options) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	svc := New(opts)
	// Signed upload addresses listen where the service does, so whoever
	// reaches the service reaches them.
	svc.storage.host = ln.Addr().(*net.TCPAddr).IP.String()
	s := &Server{
		Service: svc,
		ln:      ln,
		done:    make(chan struct{}),
		srv:     &http.Server{Handler: svc, ReadHeaderTimeout: 10 * time.Second},
	}
	go func() {
		defer close(s.done)
		// Serve returns http.ErrServerClosed once Close is called.
		_ = s.srv.Serve(ln)
	}()
	return s, nil
}

func (s *Server) URL() string { return "http://" + s.ln.Addr().String() }

func (s *Server) Close() error {
	err := s.srv.Close()
	<-s.done
	if cerr := s.Service.Close(); err == nil {
		err = cerr
	}
	return err
}

// NewTestService starts a Service on an httptest server, closed when the test ends.
func NewTestService(t testing.TB, opts Options) (*httptest.Server, *Service) {
	t.Helper()
	svc := New(opts)
	ts := httptest.NewServer(svc)
	t.Cleanup(func() {
		// Closing the service first releases handlers waiting on a run.
		_ = svc.Close()
		ts.Close()
	})
	return ts, svc
}
