package contract

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// maxBuffered caps a body held for validation; larger ones pass unchecked.
const maxBuffered = 8 << 20

// Handler wraps next and reports every answer outside the contract, and
// every request outside it that the service accepted. Streams pass through,
// their events checked one by one.
func (v *Validator) Handler(next http.Handler, report func(format string, args ...any)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, skipBody := bufferRequest(r)
		reqErr := v.validateRequest(r, body, skipBody)

		rec := &recorder{w: w, v: v, r: r}
		next.ServeHTTP(rec, r)
		if !rec.wroteHeader {
			rec.WriteHeader(http.StatusOK)
		}

		if reqErr != nil && rec.status < 400 {
			report("contract: the service answered %d to a request outside the contract: %v", rec.status, reqErr)
		}
		var respErr error
		switch {
		case rec.events != nil:
			respErr = v.ValidateResponse(r, rec.status, rec.header, nil)
			if len(rec.events.errs) > 0 {
				respErr = errors.Join(respErr, fmt.Errorf("%s %s: %w", r.Method, r.URL.Path, errors.Join(rec.events.errs...)))
			}
		case rec.skipBody:
			respErr = v.validateHeadersOnly(r, rec.status, rec.header)
		default:
			respErr = v.ValidateResponse(r, rec.status, rec.header, rec.body.Bytes())
		}
		if respErr != nil {
			report("contract: %v", respErr)
		}
	})
}

// validateHeadersOnly checks an answer whose body was not kept.
func (v *Validator) validateHeadersOnly(r *http.Request, status int, header http.Header) error {
	route, params, err := v.router.FindRoute(r)
	if err != nil {
		return v.ValidateResponse(r, status, header, nil)
	}
	return v.validateResponse(r, route, params, status, header, nil, true)
}

// bufferRequest reads a body for validation and puts an equivalent one back;
// multipart bodies are not read.
func bufferRequest(r *http.Request) (body []byte, skip bool) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, false
	}
	if isMultipart(r.Header) {
		return nil, true
	}
	r.Body, body = buffer(r.Body)
	return body, body == nil
}

// buffer reads rc up to the cap and returns what to pass on and the body
// (nil when not read whole).
func buffer(rc io.ReadCloser) (io.ReadCloser, []byte) {
	buf, over, err := readCapped(rc)
	passOn := restoredBody{Reader: io.MultiReader(bytes.NewReader(buf), rc), Closer: rc}
	if over || err != nil {
		return passOn, nil
	}
	return passOn, buf
}

// readCapped reads at most maxBuffered+1 bytes; over reports that more remain.
func readCapped(rd io.Reader) (buf []byte, over bool, err error) {
	buf, err = io.ReadAll(io.LimitReader(rd, maxBuffered+1))
	return buf, len(buf) > maxBuffered, err
}

// restoredBody hands out bytes already read, then the rest of the original.
type restoredBody struct {
	io.Reader
	io.Closer
}

// recorder passes an answer through, keeping its status, headers and body or events.
type recorder struct {
	w http.ResponseWriter
	v *Validator
	r *http.Request

	wroteHeader bool
	status      int
	header      http.Header
	body        bytes.Buffer
	skipBody    bool
	events      *eventChecker
}

func (rec *recorder) Header() http.Header { return rec.w.Header() }

func (rec *recorder) WriteHeader(code int) {
	if rec.wroteHeader {
		return
	}
	if code >= 100 && code < 200 {
		rec.w.WriteHeader(code) // informational; the real answer follows
		return
	}
	rec.wroteHeader = true
	rec.status = code
	rec.header = rec.w.Header().Clone()
	switch {
	case isEventStream(rec.header):
		if route, _, err := rec.v.router.FindRoute(rec.r); err == nil {
			rec.events = rec.v.eventChecker(route, code, rec.header)
		}
		if rec.events == nil {
			rec.skipBody = true
		}
	case !isJSON(rec.header):
		rec.skipBody = true
	}
	rec.w.WriteHeader(code)
}

func (rec *recorder) Write(p []byte) (int, error) {
	if !rec.wroteHeader {
		if rec.w.Header().Get("Content-Type") == "" && len(p) > 0 {
			// Record what net/http will sniff and send, as the client sees it.
			rec.w.Header().Set("Content-Type", http.DetectContentType(p))
		}
		rec.WriteHeader(http.StatusOK)
	}
	n, err := rec.w.Write(p)
	switch {
	case rec.events != nil:
		rec.events.write(p[:n])
		rec.Flush()
	case rec.skipBody:
	case rec.body.Len()+n > maxBuffered:
		rec.skipBody = true
		rec.body = bytes.Buffer{}
	default:
		rec.body.Write(p[:n])
	}
	return n, err
}

// Flush passes flushes through, so streamed events reach the client at once.
func (rec *recorder) Flush() {
	if !rec.wroteHeader {
		rec.WriteHeader(http.StatusOK)
	}
	_ = http.NewResponseController(rec.w).Flush()
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (rec *recorder) Unwrap() http.ResponseWriter { return rec.w }

// Transport wraps next (default http.DefaultTransport) and reports every
// request outside the contract; the request is sent whatever the outcome.
func (v *Validator) Transport(next http.RoundTripper, report func(format string, args ...any)) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return &transport{v: v, next: next, report: report}
}

type transport struct {
	v      *Validator
	next   http.RoundTripper
	report func(format string, args ...any)
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	out := req
	var body []byte
	skip := false
	switch {
	case req.Body == nil || req.Body == http.NoBody:
	case isMultipart(req.Header):
		skip = true
	case req.GetBody != nil:
		skip = true
		if rc, err := req.GetBody(); err == nil {
			buf, over, err := readCapped(rc)
			rc.Close()
			if err == nil && !over {
				body, skip = buf, false
			}
		}
	default:
		out = req.Clone(req.Context())
		out.Body, body = buffer(req.Body)
		skip = body == nil
	}
	if err := t.v.validateRequest(req, body, skip); err != nil {
		t.report("contract: the client sent a request outside the contract: %v", err)
	}
	return t.next.RoundTrip(out)
}
