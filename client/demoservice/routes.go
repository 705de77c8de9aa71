package demoservice

import (
	"context"
	"crypto/subtle"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ctxKey keys values the middleware hands to handlers.
type ctxKey int

const (
	workspaceKey ctxKey = iota
	styleKey
)

// workspaceOf returns the workspace selected for the request.
func workspaceOf(r *http.Request) int64 {
	id, _ := r.Context().Value(workspaceKey).(int64)
	return id
}

// routes builds the mux. API routes pass faults, pacing, auth and workspace;
// generated media is public like a CDN link. A reading's own operations are
// unknown routes in the other.
func (s *Service) routes() *http.ServeMux {
	mux := http.NewServeMux()
	methods := map[string][]string{}
	styles := map[string]errStyle{}
	base, chat := styleSpec, styleSpec
	if s.real {
		base, chat = styleReal, styleOpenAI
	}
	handle := func(method, path string, st errStyle, h http.Handler) {
		methods[path] = append(methods[path], method)
		styles[path] = st
		mux.Handle(method+" "+path, h)
	}
	api := func(method, path string, h http.HandlerFunc) {
		handle(method, path, base, s.guard(base, h))
	}

	api("GET", "/agents", s.listAgents)
	api("GET", "/agents/{id}", s.getAgent)
	// Counted before the guard, so refused attempts count too.
	execute := s.guard(base, s.execute)
	handle("POST", "/agents/{id}/execute", base, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.execRequests.Add(1)
		execute.ServeHTTP(w, r)
	}))
	if s.real {
		api("GET", "/agent-responses/{id}", s.getAgentResponse)
	} else {
		// Assumption: polling an execution is GET /agents/{id}/responses/{responseId}
		// returning one execution record (DESIGN.md, "polling an execution").
		api("GET", "/agents/{id}/responses/{responseId}", s.getResponse)
	}
	handle("POST", "/agents/{id}/openai/chat/completions", chat, s.guard(chat, s.chatCompletions))
	api("POST", "/agents/{id}/files", s.linkAgentFiles)
	api("GET", "/agents/{id}/files", s.listAgentFiles)
	api("DELETE", "/agents/{id}/files/{fileId}", s.deleteAgentFile)
	api("GET", "/agents/{id}/webhooks", s.listAgentWebhooks)
	api("GET", "/files", s.listFiles)
	// Assumption: uploading is POST /files, multipart/form-data, field "file",
	// answering a File object (DESIGN.md, "uploading a file").
	api("POST", "/files", s.uploadFile)
	api("POST", "/memories", s.createMemory)
	if s.opts.MemoryVariant == "B" {
		api("PUT", "/memories/{id}", s.updateMemoryB)
	} else {
		api("PATCH", "/memories/{id}", s.updateMemoryA)
	}
	api("PUT", "/memory-collections/{id}", s.updateCollection)
	api("GET", "/resources", s.listResources)
	api("GET", "/webhooks", s.listWebhooks)

	if s.real {
		api("GET", "/files/{id}", s.answerFile(false))
		api("DELETE", "/files/{id}", s.deleteFile)
		api("POST", "/files/{id}/process", s.answerFile(true))
		api("GET", "/memories", s.listMemories)
		api("DELETE", "/memories/{id}", s.deleteMemory)
		api("GET", "/memory-collections", s.listCollections)
		api("POST", "/memory-collections", s.createCollection)
		api("DELETE", "/memory-collections/{id}", s.deleteCollection)
		api("POST", "/agents/{id}/webhooks", s.createWebhook)
		api("DELETE", "/webhooks/{id}", s.deleteWebhook)
	}

	mux.Handle("GET /generated/{kind}/{name}", s.styled(base, s.serveMedia))

	// Assumption: an unknown route answers 404 and a method a path does not
	// offer answers 405 (with Allow), both as JSON with a message (real:
	// with an error).
	for path, ms := range methods {
		if slices.Contains(ms, "GET") {
			ms = append(ms, "HEAD")
		}
		slices.Sort(ms)
		allow := strings.Join(ms, ", ")
		st := styles[path]
		mux.Handle(path, s.guard(st, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", allow)
			writeError(w, r, http.StatusMethodNotAllowed, "The "+r.Method+" method is not supported for this route. Supported methods: "+allow+".")
		}))
	}
	mux.Handle("/", s.guard(base, func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, http.StatusNotFound, "The route "+strings.TrimPrefix(r.URL.Path, "/")+" could not be found.")
	}))
	return mux
}

// styled hands h requests that carry the error style st.
func (s *Service) styled(st errStyle, h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h(w, r.WithContext(context.WithValue(r.Context(), styleKey, st)))
	})
}

// guard applies faults, pacing, authentication and workspace, then calls h,
// answering errors in style st. Faults come first, so they hit requests that
// would fail auth, and spend no pacing token.
// Assumption (spec): a missing or wrong key answers 401
// {"message":"Unauthenticated."}. The real service answers 403
// {"error":"Invalid authentication"}; on its chat-completions route the
// answer is 401 in the chat-completions error shape, so the usual client
// libraries report an authentication error.
func (s *Service) guard(st errStyle, h http.HandlerFunc) http.Handler {
	return s.styled(st, func(w http.ResponseWriter, r *http.Request) {
		w, ok := s.applyFaults(w, r)
		if !ok || !s.paced(w, r) {
			return
		}
		if !s.authorized(r) {
			status := http.StatusForbidden
			if st != styleReal {
				status = http.StatusUnauthorized
				w.Header().Set("WWW-Authenticate", `Bearer realm="agent-execution-service"`)
			}
			writeError(w, r, status, [...]string{styleSpec: "Unauthenticated.", styleReal: "Invalid authentication", styleOpenAI: "Invalid API key"}[st])
			return
		}
		ws, ok := s.selectWorkspace(w, r)
		if !ok {
			return
		}
		h(w, r.WithContext(context.WithValue(r.Context(), workspaceKey, ws)))
	})
}

// bearerKey is the key of an Authorization: Bearer header, "" without one.
func bearerKey(r *http.Request) string {
	h := r.Header.Get("Authorization")
	const prefix = "bearer "
	if len(h) <= len(prefix) || !strings.EqualFold(h[:len(prefix)], prefix) {
		return ""
	}
	return strings.TrimSpace(h[len(prefix):])
}

// authorized checks the Bearer key in constant time.
func (s *Service) authorized(r *http.Request) bool {
	key := bearerKey(r)
	return key != "" && subtle.ConstantTimeCompare([]byte(key), []byte(s.opts.APIKey)) == 1
}

// paced spends a token of the key's bucket; without one it answers 429.
func (s *Service) paced(w http.ResponseWriter, r *http.Request) bool {
	if s.limiter == nil {
		return true
	}
	ok, secs := s.limiter.take(bearerKey(r))
	if !ok {
		s.writeRateLimited(w, r, secs, s.currentFaults().RetryAfterIn)
	}
	return ok
}

// selectWorkspace reads x-workspace-id, none meaning the first seeded
// workspace. On failure it answers and reports false.
// Assumption (spec): an unknown or non-integer workspace id answers 403
// with a message; the interface does not show this error. The real service
// answers 400 Validation failed for a non-integer and 403 "You do not have
// access to this workspace." for a workspace of someone else. The header is
// read on every route, also those whose documentation does not list it.
func (s *Service) selectWorkspace(w http.ResponseWriter, r *http.Request) (int64, bool) {
	v := strings.TrimSpace(r.Header.Get("x-workspace-id"))
	if v == "" {
		return s.workspaces[0].ID, true
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil && s.real {
		validationError(w, r, "x-workspace-id", "The x-workspace-id must be an integer.")
		return 0, false
	}
	if err == nil && slices.ContainsFunc(s.workspaces, func(ws Workspace) bool { return ws.ID == id }) {
		return id, true
	}
	if s.real {
		writeError(w, r, http.StatusForbidden, "You do not have access to this workspace.")
	} else {
		writeError(w, r, http.StatusForbidden, "The workspace "+strconv.Quote(r.Header.Get("x-workspace-id"))+" is unknown or not accessible with this API key.")
	}
	return 0, false
}

// byPath finds records[path value name] when mine (nil: any) accepts it
// under the lock; otherwise it answers 404 notFound ("": the caller does).
func byPath[T any](s *Service, w http.ResponseWriter, r *http.Request, name string, records map[int64]*T, mine func(*T) bool, notFound string) (*T, bool) {
	id, _ := strconv.ParseInt(r.PathValue(name), 10, 64)
	s.mu.Lock()
	rec, ok := records[id]
	ok = ok && (mine == nil || mine(rec))
	s.mu.Unlock()
	if !ok && notFound != "" {
		writeError(w, r, http.StatusNotFound, notFound)
	}
	return rec, ok
}

// maxBuckets bounds the limiter's memory against ever new wrong keys.
const maxBuckets = 4096

// limiter is a token bucket per API key (Options.RatePerSecond, Burst).
// Assumption: the real service's numbers are not published; a community
// client reports about one request per second per key, so --serve-demo
// runs with 1 per second and a burst of 10.
type limiter struct {
	rate  float64
	burst float64
	now   func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

// newLimiter returns nil (no pacing) when rate is not positive.
func newLimiter(rate float64, burst int, now func() time.Time) *limiter {
	if rate <= 0 {
		return nil
	}
	b := float64(burst)
	if burst <= 0 {
		b = math.Max(1, math.Ceil(rate))
	}
	return &limiter{rate: rate, burst: b, now: now, buckets: map[string]*bucket{}}
}

// take spends a token of key's bucket, else reports false and the seconds to wait.
func (l *limiter) take(key string) (ok bool, retryAfter int) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b, found := l.buckets[key]
	if !found {
		if len(l.buckets) >= maxBuckets {
			l.buckets = map[string]*bucket{}
		}
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[key] = b
	}
	if elapsed := now.Sub(b.last).Seconds(); elapsed > 0 {
		b.tokens = math.Min(l.burst, b.tokens+elapsed*l.rate)
		b.last = now
	}
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	secs := int(math.Ceil((1 - b.tokens) / l.rate))
	return false, max(secs, 1)
}
