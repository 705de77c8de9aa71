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

type ctxKey int

const (
	workspaceKey ctxKey = iota
	styleKey
)

func workspaceOf(r *http.Request) int64 {
	id, _ := r.Context().Value(workspaceKey).(int64)
	return id
}

// routes builds the mux. API routes pass faults, pacing, auth and workspace
// (guard); generated media is public like a CDN link. A reading's own
// operations are unknown routes in the other.
func (s *Service) routes() *http.ServeMux {
	mux := http.NewServeMux()
	methods := map[string][]string{}
	styles := map[string]errStyle{}
	base, chat := styleSpec, styleSpec
	if s.real {
		base, chat = styleReal, styleOpenAI
	}
	memB := s.opts.MemoryVariant == "B"
	for _, rt := range []struct {
		pattern string
		h       http.HandlerFunc
		on      bool
	}{
		{"GET /agents", s.listAgents, true},
		{"GET /agents/{id}", s.getAgent, true},
		{"POST /agents/{id}/execute", s.execute, true},
		{"GET /agent-responses/{id}", s.poll, s.real},
		// Assumption: polling an execution is GET /agents/{id}/responses/{responseId}
		// returning one execution record (DESIGN.md, "polling an execution").
		{"GET /agents/{id}/responses/{responseId}", s.poll, !s.real},
		{"POST /agents/{id}/openai/chat/completions", s.chatCompletions, true},
		{"POST /agents/{id}/files", s.linkAgentFiles, true},
		{"GET /agents/{id}/files", s.listAgentFiles, true},
		{"DELETE /agents/{id}/files/{fileId}", s.deleteAgentFile, true},
		{"GET /agents/{id}/webhooks", s.listAgentWebhooks, true},
		{"POST /agents/{id}/webhooks", s.createWebhook, s.real},
		{"GET /files", s.listFiles, true},
		// Assumption: uploading is POST /files, multipart/form-data, field "file",
		// answering a File object (DESIGN.md, "uploading a file").
		{"POST /files", s.uploadFile, true},
		{"GET /files/{id}", s.answerFile(false), s.real},
		{"DELETE /files/{id}", s.deleteFile, s.real},
		{"POST /files/{id}/process", s.answerFile(true), s.real},
		{"POST /v2/files/sign", s.signUpload, s.real},
		{"POST /v2/files/register", s.registerUpload, s.real},
		{"GET /memories", s.listMemories, s.real},
		{"POST /memories", s.createMemory, true},
		{"PATCH /memories/{id}", s.updateMemory, !memB},
		{"PUT /memories/{id}", s.updateMemory, memB},
		{"DELETE /memories/{id}", s.deleteMemory, s.real},
		{"GET /memory-collections", s.listCollections, s.real},
		{"POST /memory-collections", s.createCollection, s.real},
		{"PUT /memory-collections/{id}", s.updateCollection, true},
		{"DELETE /memory-collections/{id}", s.deleteCollection, s.real},
		{"GET /resources", s.listResources, true},
		{"GET /webhooks", s.listWebhooks, true},
		{"DELETE /webhooks/{id}", s.deleteWebhook, s.real},
	} {
		if !rt.on {
			continue
		}
		method, path, _ := strings.Cut(rt.pattern, " ")
		methods[path] = append(methods[path], method)
		styles[path] = base
		if strings.Contains(path, "/openai/") {
			styles[path] = chat
		}
		mux.Handle(rt.pattern, s.guard(styles[path], rt.h))
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
		mux.Handle(path, s.guard(styles[path], func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", allow)
			writeError(w, r, http.StatusMethodNotAllowed, "The "+r.Method+" method is not supported for this route. Supported methods: "+allow+".")
		}))
	}
	mux.Handle("/", s.guard(base, func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, http.StatusNotFound, "The route "+strings.TrimPrefix(r.URL.Path, "/")+" could not be found.")
	}))
	return mux
}

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
		if r.Pattern == "POST /agents/{id}/execute" {
			s.execRequests.Add(1) // refused attempts count too
		}
		w, ok := s.applyFaults(w, r)
		if !ok || !s.paced(w, r) {
			return
		}
		defer answerFailure(w, r)
		if !s.authorized(r) {
			status := http.StatusForbidden
			if st != styleReal {
				status = http.StatusUnauthorized
				w.Header().Set("WWW-Authenticate", `Bearer realm="agent-execution-service"`)
			}
			writeError(w, r, status, [...]string{styleSpec: "Unauthenticated.", styleReal: "Invalid authentication", styleOpenAI: "Invalid API key"}[st])
			return
		}
		h(w, r.WithContext(context.WithValue(r.Context(), workspaceKey, s.selectWorkspace(r))))
	})
}

func bearerKey(r *http.Request) string {
	h := r.Header.Get("Authorization")
	const prefix = "bearer "
	if len(h) <= len(prefix) || !strings.EqualFold(h[:len(prefix)], prefix) {
		return ""
	}
	return strings.TrimSpace(h[len(prefix):])
}

func (s *Service) authorized(r *http.Request) bool {
	key := bearerKey(r)
	return key != "" && subtle.ConstantTimeCompare([]byte(key), []byte(s.opts.APIKey)) == 1
}

// paced spends a token of the key's bucket; without one it answers 429.
func (s *Service) paced(w http.ResponseWriter, r *http.Request) bool {
	if s.limiter == nil {
		return true
	}
	secs := s.limiter.take(bearerKey(r))
	if secs > 0 {
		s.writeRateLimited(w, r, secs, s.currentFaults().RetryAfterIn)
	}
	return secs == 0
}

// selectWorkspace reads x-workspace-id, none meaning the first seeded
// workspace; others end the request.
// Assumption (spec): an unknown or non-integer workspace id answers 403
// with a message; the interface does not show this error. The real service
// answers 400 Validation failed for a non-integer and 403 "You do not have
// access to this workspace." for a workspace of someone else. The header is
// read on every route, also those whose documentation does not list it.
func (s *Service) selectWorkspace(r *http.Request) int64 {
	v := strings.TrimSpace(r.Header.Get("x-workspace-id"))
	if v == "" && s.opts.RequireWorkspace && s.listsWorkspace(r.URL.Path) {
		invalid("x-workspace-id", "The x-workspace-id field is required.")
	}
	if v == "" {
		return s.workspaces[0]
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil && s.real {
		invalid("x-workspace-id", "The x-workspace-id must be an integer.")
	}
	if err == nil && slices.Contains(s.workspaces, id) {
		return id
	}
	if s.real {
		abort(http.StatusForbidden, "You do not have access to this workspace.")
	}
	abort(http.StatusForbidden, "The workspace "+strconv.Quote(r.Header.Get("x-workspace-id"))+" is unknown or not accessible with this API key.")
	return 0
}

// listsWorkspace reports whether the documentation lists x-workspace-id
// for path: all but polling, memories and collections.
func (s *Service) listsWorkspace(path string) bool {
	for _, p := range []string{"/agent-responses", "/memories", "/memory-collections"} {
		if strings.HasPrefix(path, p) {
			return false
		}
	}
	return true
}

// byPath finds records[path value name] when mine accepts it and runs then
// on it, all under the lock; otherwise it ends the request with 404
// notFound, {"message"} in both readings when mine is nil (the user's
// memories and collections).
func byPath[T any](s *Service, r *http.Request, name string, records map[int64]*T, mine func(*T) bool, notFound string, then ...func(id int64, rec *T)) *T {
	id, _ := strconv.ParseInt(r.PathValue(name), 10, 64)
	s.mu.Lock()
	defer s.mu.Unlock() // also when a 404 ends the request
	rec, ok := records[id]
	if !ok && mine == nil {
		abortPlain(http.StatusNotFound, notFound)
	} else if !ok || (mine != nil && !mine(rec)) {
		abort(http.StatusNotFound, notFound)
	}
	for _, f := range then {
		f(id, rec)
	}
	return rec
}

// maxBuckets bounds the limiter's memory against ever new wrong keys.
const maxBuckets = 4096

// limiter is a token bucket per API key (Options.RatePerSecond, Burst),
// each kept as the time it is full again.
// Assumption: the real service's numbers are not published; a community
// client reports about one request per second per key, so --serve-demo
// runs with 1 per second and a burst of 10.
type limiter struct {
	every, depth time.Duration // a token's time; the whole bucket's
	now          func() time.Time

	mu   sync.Mutex
	full map[string]time.Time
}

func newLimiter(rate float64, burst int, now func() time.Time) *limiter {
	if rate <= 0 {
		return nil
	}
	if burst <= 0 {
		burst = int(math.Max(1, math.Ceil(rate)))
	}
	every := time.Duration(float64(time.Second) / rate)
	return &limiter{every: every, depth: time.Duration(burst) * every, now: now, full: map[string]time.Time{}}
}

// take spends a token of key's bucket, else returns the seconds to wait (0: taken).
func (l *limiter) take(key string) (retryAfter int) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.full) >= maxBuckets {
		clear(l.full)
	}
	full := l.full[key]
	if full.Before(now) {
		full = now
	}
	if wait := full.Add(l.every - l.depth).Sub(now); wait > 0 {
		return max(1, int(math.Ceil(wait.Seconds())))
	}
	l.full[key] = full.Add(l.every)
	return 0
}
