package contract

import (
	"bytes"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
)

// maxBuffered caps a body held for validation; larger ones pass unchecked.
const maxBuffered = 8 << 20

// Handler wraps next and reports every answer outside the contract, and
// every request outside it that the service accepted. Streams pass through
// as they are written, and are checked event by event at their end.
func (v *Validator) Handler(next http.Handler, report func(format string, args ...any)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var reqErr error
		r.Body, reqErr = v.checkRequest(r)

		rec := &recorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		rec.WriteHeader(http.StatusOK) // when next wrote nothing

		if reqErr != nil && rec.status < 400 {
			report("contract: the service answered %d to a request outside the contract: %v", rec.status, reqErr)
		}
		err := v.validateResponse(r, rec.status, rec.header, rec.body.Bytes(), rec.skipBody)
		if err != nil {
			report("contract: %s %s answered %d: %v", r.Method, r.URL.Path, rec.status, err)
		}
	})
}

// checkRequest validates r with its body, read up to the cap (a multipart
// body is not read), and returns the body to pass on in its place.
func (v *Validator) checkRequest(r *http.Request) (io.ReadCloser, error) {
	if r.Body == nil || r.Body == http.NoBody || isMultipart(r.Header) {
		return r.Body, v.ValidateRequest(r, nil)
	}
	buf, err := io.ReadAll(io.LimitReader(r.Body, maxBuffered+1))
	passOn := struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(buf), r.Body), r.Body}
	if err != nil || len(buf) > maxBuffered {
		return passOn, v.validateRequest(r, nil, true)
	}
	return passOn, v.ValidateRequest(r, buf)
}

// recorder passes an answer through, keeping its status, headers and body.
type recorder struct {
	http.ResponseWriter
	status   int
	header   http.Header
	body     bytes.Buffer
	skipBody bool
}

func (rec *recorder) WriteHeader(code int) {
	switch {
	case rec.status != 0:
		return
	case code < 200:
		rec.ResponseWriter.WriteHeader(code) // informational; the real answer follows
		return
	}
	rec.status = code
	rec.header = rec.Header().Clone()
	if !isJSON(rec.header) {
		rec.skipBody = true
	}
	rec.ResponseWriter.WriteHeader(code)
}

func (rec *recorder) Write(p []byte) (int, error) {
	if rec.status == 0 {
		if rec.Header().Get("Content-Type") == "" && len(p) > 0 {
			// Record what net/http will sniff and send, as the client sees it.
			rec.Header().Set("Content-Type", http.DetectContentType(p))
		}
		rec.WriteHeader(http.StatusOK)
	}
	n, err := rec.ResponseWriter.Write(p)
	if !rec.skipBody && rec.body.Len()+n > maxBuffered {
		rec.skipBody = true
		rec.body = bytes.Buffer{}
	}
	if !rec.skipBody {
		rec.body.Write(p[:n])
	}
	return n, err
}

// Flush passes flushes through, so streamed events reach the client at once.
func (rec *recorder) Flush() {
	rec.WriteHeader(http.StatusOK)
	_ = http.NewResponseController(rec.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (rec *recorder) Unwrap() http.ResponseWriter { return rec.ResponseWriter }

// isJSON tells whether an answer's body is worth buffering for validation
// (text, event streams included).
func isJSON(h http.Header) bool {
	mt, _, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil {
		return h.Get("Content-Type") == ""
	}
	return mt == "application/json" || strings.HasSuffix(mt, "+json") || strings.HasPrefix(mt, "text/")
}

// Transport wraps next (default http.DefaultTransport) and reports every
// request outside the contract; the request is sent whatever the outcome.
// A request to a signed upload address is not the service's: it is reported
// only when it carries the account's key or workspace.
func (v *Validator) Transport(next http.RoundTripper, report func(format string, args ...any)) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return roundTripper(func(req *http.Request) (*http.Response, error) {
		if signedAddress(req.URL) {
			if req.Header.Get("Authorization") != "" || req.Header.Get("x-workspace-id") != "" {
				report("contract: the client sent the account's key or workspace to a signed address: %s %s%s", req.Method, req.URL.Host, req.URL.Path)
			}
			return next.RoundTrip(req)
		}
		out := req.Clone(req.Context())
		var err error
		if out.Body, err = v.checkRequest(req); err != nil {
			report("contract: the client sent a request outside the contract: %v", err)
		}
		return next.RoundTrip(out)
	})
}

// signedAddress tells an address that carries its own authorisation in its
// query (a signature), as a cloud bucket's signed upload address does.
func signedAddress(u *url.URL) bool {
	for k := range u.Query() {
		if strings.Contains(strings.ToLower(k), "signature") {
			return true
		}
	}
	return false
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }
