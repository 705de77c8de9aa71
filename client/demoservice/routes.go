package demoservice

import (
	"context"
	"crypto/subtle"
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// ctxKey keys values the middleware hands to handlers.
type ctxKey int

const workspaceKey ctxKey = iota

// workspaceOf returns the workspace selected for the request.
func workspaceOf(r *http.Request) int64 {
	id, _ := r.Context().Value(workspaceKey).(int64)
	return id
}

// routes builds the mux. Every API route passes through faults, auth and
// workspace selection; generated media is public like a CDN link.
func (s *Service) routes() *http.ServeMux {
	mux := http.NewServeMux()
	methods := map[string][]string{}
	api := func(method, path string, h http.HandlerFunc) {
		methods[path] = append(methods[path], method)
		mux.Handle(method+" "+path, s.guard(h))
	}

	api("GET", "/agents", s.listAgents)
	api("GET", "/agents/{id}", s.getAgent)
	api("POST", "/agents/{id}/execute", s.execute)
	// Assumption: polling an execution is GET /agents/{id}/responses/{responseId}
	// returning one execution record (DESIGN.md, "polling an execution").
	api("GET", "/agents/{id}/responses/{responseId}", s.getResponse)
	api("POST", "/agents/{id}/openai/chat/completions", s.chatCompletions)
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

	mux.HandleFunc("GET /generated/{kind}/{name}", s.serveMedia)

	// Assumption: an unknown route answers 404 and a method a path does not
	// offer answers 405 (with Allow), both as JSON with a message.
	// Paths registered without a method catch the other methods.
	for path, ms := range methods {
		allow := strings.Join(sortedMethods(ms), ", ")
		mux.Handle(path, s.guard(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", allow)
			writeError(w, http.StatusMethodNotAllowed, "The "+r.Method+" method is not supported for this route. Supported methods: "+allow+".")
		}))
	}
	mux.Handle("/", s.guard(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "The route "+strings.TrimPrefix(r.URL.Path, "/")+" could not be found.")
	}))
	return mux
}

func sortedMethods(ms []string) []string {
	out := append([]string(nil), ms...)
	if contains(out, "GET") {
		out = append(out, "HEAD")
	}
	sort.Strings(out)
	return out
}

// guard applies the faults in force, then authentication, then workspace
// selection, and calls h. Faults come first, so they also hit requests that
// would fail authentication.
//
// Assumption: a missing or wrong key answers 401 {"message":"Unauthenticated."}.
func (s *Service) guard(h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.applyFaults(w, r) {
			return
		}
		if !s.authorized(r) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="agent-execution-service"`)
			writeError(w, http.StatusUnauthorized, "Unauthenticated.")
			return
		}
		ws, ok := s.selectWorkspace(r)
		if !ok {
			writeError(w, http.StatusForbidden, "The workspace "+strconv.Quote(r.Header.Get("x-workspace-id"))+" is unknown or not accessible with this API key.")
			return
		}
		h(w, r.WithContext(context.WithValue(r.Context(), workspaceKey, ws)))
	})
}

// authorized checks the Bearer key in constant time.
func (s *Service) authorized(r *http.Request) bool {
	h := r.Header.Get("Authorization")
	const prefix = "bearer "
	if len(h) <= len(prefix) || !strings.EqualFold(h[:len(prefix)], prefix) {
		return false
	}
	key := strings.TrimSpace(h[len(prefix):])
	return subtle.ConstantTimeCompare([]byte(key), []byte(s.opts.APIKey)) == 1
}

// selectWorkspace reads x-workspace-id. No header selects the user's
// selected workspace (the first seeded one).
//
// Assumption: an unknown or non-integer workspace id answers 403 with a
// message; the interface does not show this error.
func (s *Service) selectWorkspace(r *http.Request) (int64, bool) {
	v := strings.TrimSpace(r.Header.Get("x-workspace-id"))
	if v == "" {
		return s.workspaces[0].ID, true
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, false
	}
	for _, ws := range s.workspaces {
		if ws.ID == id {
			return id, true
		}
	}
	return 0, false
}

// pathID parses a numeric path value; ok is false for anything else.
func pathID(r *http.Request, name string) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	return id, err == nil && id > 0
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
