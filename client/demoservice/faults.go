package demoservice

import (
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Faults make the service misbehave on purpose, to test clients against bad
// servers. SetFaults switches them; the zero value is none.
type Faults struct {
	// Latency is added before every answer.
	Latency time.Duration
	// Fail500 makes the next N requests answer 500 in the reading's shape.
	Fail500 int
	// HTML500 makes the next N requests answer 500 with HTML, as a proxy does.
	HTML500 int
	// Empty500 makes the next N requests answer 500 with no body at all.
	Empty500 int
	// RateLimit makes the next N requests answer 429.
	RateLimit int
	// RetryAfter is the wait a RateLimit 429 asks for (whole seconds, at least 1).
	RetryAfter time.Duration
	// RetryAfterIn is where a 429 tells the wait: "header", "body" or
	// "both"; "" is the reading's default.
	RetryAfterIn string
	// FailExecutions makes the next N executions fail halfway.
	FailExecutions int
	// CutStreamAfter closes every stream after N events; 0 never.
	CutStreamAfter int
	// MalformedEventAt sends the Nth stream event (1-based) as invalid JSON; 0 never.
	MalformedEventAt int
	// MalformedEvent is that event's body; "" is an object cut in half.
	MalformedEvent string
	// SlowFirstByte delays the response headers of every request.
	SlowFirstByte time.Duration
	// Reply makes every chat and text run answer exactly this markdown.
	Reply string
	// ReplyBytes makes every run produce this many bytes of output, in
	// large events: a service sending far more than anyone reads. 0 is off.
	ReplyBytes int
	// OneEvent sends each run's whole output in one event.
	OneEvent bool
	// Every makes every Nth request fail as EveryFault says; 0 never.
	Every int
	// EveryFault is one of EveryKinds or EveryMix (each in turn); "" is EveryRateLimit.
	EveryFault string
	// RunFor makes every run last at least this long on the service's clock
	// (Options.Now), looked at every clockTick: with a WaitCap shorter than
	// it, a blocking execute answers while the run goes on.
	RunFor time.Duration
	// CutUploadPut cuts the next N PUTs to a signed upload address halfway:
	// the connection closes after about half the bytes; nothing is stored.
	CutUploadPut int
	// RedirectTo, a base URL, makes every API request answer a redirect
	// there (302 for GET and HEAD, 307 keeping method and body for the
	// rest): a client must not follow it.
	RedirectTo string
	// Hold keeps every run unfinished, its output all sent, until it is
	// closed: a test acts while a reply is surely still on its way.
	Hold <-chan struct{} `json:"-"`
}

// How an Every request fails (Faults.EveryFault).
const (
	// EveryRateLimit answers 429, telling RetryAfter as RetryAfterIn says.
	EveryRateLimit = "ratelimit"
	// EveryHTML500 answers 500 with an HTML page, as a proxy does.
	EveryHTML500 = "html500"
	// EveryReset closes the connection before acting or answering.
	EveryReset = "reset"
	// EveryTruncated acts, then answers 200 with JSON cut halfway.
	EveryTruncated = "truncated"
	// EveryCutBody acts, then closes the connection halfway through the body.
	EveryCutBody = "cutbody"
	// EveryMix is each of the above in turn.
	EveryMix = "mix"
)

// EveryKinds are the ways an Every request can fail, in EveryMix's order.
var EveryKinds = []string{EveryRateLimit, EveryHTML500, EveryReset, EveryTruncated, EveryCutBody}

// Where a 429 tells how long to wait (Faults.RetryAfterIn).
const (
	RetryInHeader = "header"
	RetryInBody   = "body"
	RetryInBoth   = "both"
)

func (s *Service) SetFaults(f Faults) {
	s.mu.Lock()
	s.faults = f
	s.everyCount, s.everyTaken = 0, 0
	s.mu.Unlock()
}

func (s *Service) currentFaults() Faults {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.faults
}

// takeFault decrements and names the first counter in force ("" for none).
func (s *Service) takeFault() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := &s.faults
	for _, c := range []struct {
		name string
		n    *int
	}{{"fail500", &f.Fail500}, {"html500", &f.HTML500}, {"empty500", &f.Empty500}, {EveryRateLimit, &f.RateLimit}} {
		if *c.n > 0 {
			*c.n--
			return c.name
		}
	}
	if f.Every > 0 {
		s.everyCount++
		if s.everyCount%f.Every == 0 {
			kind := f.EveryFault
			switch kind {
			case "":
				kind = EveryRateLimit
			case EveryMix:
				kind = EveryKinds[s.everyTaken%len(EveryKinds)]
			}
			s.everyTaken++
			return kind
		}
	}
	return ""
}

const htmlErrorPage = `<!DOCTYPE html>
<html><head><title>500 Internal Server Error</title></head>
<body><h1>Server Error</h1><p>Something went wrong on our end. Please try again later.</p></body></html>
`

// applyFaults delays or answers with an injected failure, reporting whether
// to go on and the writer to answer with.
func (s *Service) applyFaults(w http.ResponseWriter, r *http.Request) (http.ResponseWriter, bool) {
	f := s.currentFaults()
	if (!s.sleep(r.Context(), f.SlowFirstByte) || !s.sleep(r.Context(), f.Latency)) && r.Context().Err() != nil {
		return w, false
	}
	if f.RedirectTo != "" {
		w.Header().Set("Location", strings.TrimSuffix(f.RedirectTo, "/")+r.URL.RequestURI())
		status := http.StatusTemporaryRedirect
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			status = http.StatusFound
		}
		w.WriteHeader(status)
		return w, false
	}
	switch s.takeFault() {
	case EveryReset:
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			_ = conn.Close()
			return w, false
		}
		panic(http.ErrAbortHandler) // closes the connection (HTTP/2 too)
	case EveryTruncated:
		return &halfBody{ResponseWriter: w}, true
	case EveryCutBody:
		return &halfBody{ResponseWriter: w, reset: true}, true
	case "fail500":
		if styleOf(r) != styleSpec {
			writeError(w, r, http.StatusInternalServerError, "Internal server error")
			break
		}
		writeJSON(w, http.StatusInternalServerError, map[string]string{
			"message": "Server Error",
			"error":   "The service failed while handling the request. Please try again.",
		})
	case "html500":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, htmlErrorPage)
	case "empty500":
		w.Header().Set("Content-Length", "0")
		w.WriteHeader(http.StatusInternalServerError)
	case EveryRateLimit: // also RateLimit's
		s.writeRateLimited(w, r, max(1, int(math.Ceil(f.RetryAfter.Seconds()))), f.RetryAfterIn)
	default:
		return w, true
	}
	return w, false
}

// halfBody passes on half of the one body written, then ends: valid headers,
// JSON cut mid-way; with reset, the full length is announced and the
// connection closed. Streams pass whole.
type halfBody struct {
	http.ResponseWriter
	reset bool
	cut   bool
}

func (h *halfBody) WriteHeader(code int) {
	if h.reset && h.Header().Get("Content-Type") != "text/event-stream" {
		return // sent with the body's length (Write)
	}
	h.ResponseWriter.WriteHeader(code)
	h.reset = false
}

func (h *halfBody) Write(p []byte) (int, error) {
	if h.cut || h.Header().Get("Content-Type") == "text/event-stream" {
		return h.ResponseWriter.Write(p)
	}
	h.cut = true
	if h.reset {
		h.Header().Set("Content-Length", strconv.Itoa(len(p)))
		h.ResponseWriter.WriteHeader(http.StatusOK)
	}
	if _, err := h.ResponseWriter.Write(p[:len(p)/2]); err != nil {
		return 0, err
	}
	if h.reset {
		rc := http.NewResponseController(h.ResponseWriter)
		_ = rc.Flush()
		if conn, _, err := rc.Hijack(); err == nil {
			_ = conn.Close()
		}
	}
	return len(p), nil
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (h *halfBody) Unwrap() http.ResponseWriter { return h.ResponseWriter }

// writeRateLimited answers 429 asking to wait secs seconds, in the reading's shape.
// Assumption: on the real chat-completions route the body is the
// chat-completions error shape, with retry_after beside error when the
// body is to tell the wait.
func (s *Service) writeRateLimited(w http.ResponseWriter, r *http.Request, secs int, where string) {
	if where == "" {
		where = RetryInHeader
		if s.real {
			where = RetryInBoth
		}
	}
	if where != RetryInBody {
		w.Header().Set("Retry-After", strconv.Itoa(secs))
	}
	msg := "Rate limit exceeded"
	if styleOf(r) == styleSpec {
		msg = "Too Many Attempts."
	}
	body := errorBody(styleOf(r), http.StatusTooManyRequests, msg, "")
	if where != RetryInHeader {
		body["retry_after"] = secs
	}
	writeJSON(w, http.StatusTooManyRequests, body)
}
