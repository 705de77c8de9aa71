package demoservice

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// maxJSONBody bounds a JSON body; a chat resends its conversation each time.
const maxJSONBody = 16 << 20

func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		body = []byte(`{"message":"Server Error","error":"the answer could not be encoded"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// errStyle is the shape of error answers: the reading's, or chat-completions'.
type errStyle int

const (
	// styleSpec: {"message": ...}; validation 422 {"message","errors"}.
	styleSpec errStyle = iota
	// styleReal: {"error": ...}; validation 400 with "messages".
	styleReal
	// styleOpenAI: the chat-completions error shape; validation 400.
	styleOpenAI
)

func styleOf(r *http.Request) errStyle {
	st, _ := r.Context().Value(styleKey).(errStyle)
	return st
}

// writeError writes msg in the request's style; real and OpenAI styles use 400 for 422.
func writeError(w http.ResponseWriter, r *http.Request, status int, msg string) {
	st := styleOf(r)
	if st != styleSpec && status == http.StatusUnprocessableEntity {
		status = http.StatusBadRequest
	}
	writeJSON(w, status, errorBody(st, status, msg, ""))
}

// openAIKinds are the chat-completions error type and code by status;
// other statuses are invalid requests, or server errors from 500.
// Assumption: they follow that format's usual words; the real service
// documents neither.
var openAIKinds = map[int][2]string{
	http.StatusUnauthorized:          {"authentication_error", "invalid_api_key"},
	http.StatusForbidden:             {"permission_error", "forbidden"},
	http.StatusNotFound:              {"invalid_request_error", "not_found"},
	http.StatusMethodNotAllowed:      {"invalid_request_error", "method_not_allowed"},
	http.StatusRequestEntityTooLarge: {"invalid_request_error", "payload_too_large"},
	http.StatusTooManyRequests:       {"rate_limit_error", "rate_limit_exceeded"},
}

// errorBody is msg in style st; param names the failing field (chat completions).
func errorBody(st errStyle, status int, msg, param string) map[string]any {
	switch st {
	case styleReal:
		return map[string]any{"error": msg}
	case styleOpenAI:
		kind, ok := openAIKinds[status]
		switch {
		case ok:
		case status >= 500:
			kind = [2]string{"server_error", "internal_error"}
		default:
			kind = [2]string{"invalid_request_error", "invalid_request"}
		}
		var p any
		if param != "" {
			p = param
		}
		return map[string]any{"error": map[string]any{"message": msg, "type": kind[0], "code": kind[1], "param": p}}
	}
	return map[string]any{"message": msg}
}

// writeMessage writes {"message": msg}, as memory endpoints do in both readings.
func writeMessage(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"message": msg})
}

// fieldErrors collects messages per field in failure order, so the summary names the first.
type fieldErrors struct {
	order []string
	byKey map[string][]string
}

func (e *fieldErrors) add(field, msg string) {
	if e.byKey[field] == nil {
		e.order = append(e.order, field)
	}
	if e.byKey == nil {
		e.byKey = map[string][]string{}
	}
	e.byKey[field] = append(e.byKey[field], msg)
}

func (e *fieldErrors) addOnce(field, msg string) {
	if _, listed := e.byKey[field]; !listed {
		e.add(field, msg)
	}
}

func (e *fieldErrors) any() bool { return len(e.order) > 0 }

// check ends the request with the errors collected, if any.
func (e *fieldErrors) check() {
	if e.any() {
		panic(failure{fields: e})
	}
}

// write answers the validation error in the request's style.
// Assumption: spec validation errors follow the widely used
// {"message","errors":{"field":["..."]}} shape; the interface shows only
// message.
func (e *fieldErrors) write(w http.ResponseWriter, r *http.Request) {
	more := -1
	for _, msgs := range e.byKey {
		more += len(msgs)
	}
	msg := e.byKey[e.order[0]][0]
	if more == 1 {
		msg += " (and 1 more error)"
	} else if more > 1 {
		msg += fmt.Sprintf(" (and %d more errors)", more)
	}
	st, status := styleOf(r), http.StatusBadRequest
	switch st {
	case styleReal:
		body := errorBody(st, status, "Validation failed", "")
		body["messages"] = e.byKey
		writeJSON(w, status, body)
	case styleSpec:
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"message": msg, "errors": e.byKey})
	default:
		writeJSON(w, status, errorBody(st, status, msg, e.order[0]))
	}
}

// invalid ends the request with one field's validation error.
func invalid(field, msg string) {
	var e fieldErrors
	e.add(field, msg)
	e.check()
}

// failure is the answer of a request a check refused. Handlers and their
// helpers end a request by panicking with one (abort, invalid, check), and
// guard writes it, so no helper passes an ok flag up.
type failure struct {
	status int
	msg    string
	plain  bool // {"message"} in both readings, as memory endpoints answer
	fields *fieldErrors
}

func abort(status int, msg string) { panic(failure{status: status, msg: msg}) }

// abortPlain ends the request with {"message": msg}, as memory endpoints do in both readings.
func abortPlain(status int, msg string) { panic(failure{status: status, msg: msg, plain: true}) }

// answerFailure, deferred, writes a failure the handler panicked with; any other panic goes on.
func answerFailure(w http.ResponseWriter, r *http.Request) {
	v := recover()
	f, ok := v.(failure)
	switch {
	case v == nil:
	case !ok:
		panic(v)
	case f.fields != nil:
		f.fields.write(w, r)
	case f.plain:
		writeMessage(w, f.status, f.msg)
	default:
		writeError(w, r, f.status, f.msg)
	}
}

// readJSONObject decodes the body as a JSON object, numbers as json.Number;
// empty is {}; other bodies end the request.
// Assumption: a body that is not a JSON object answers 422 {"message": ...}
// (real: 400 {"error": ...}) without field errors.
func readJSONObject(w http.ResponseWriter, r *http.Request) map[string]any {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxJSONBody))
	if tooBig := (*http.MaxBytesError)(nil); errors.As(err, &tooBig) {
		abort(http.StatusRequestEntityTooLarge, "The request body is too large.")
	} else if err != nil {
		abort(http.StatusUnprocessableEntity, "The request body could not be read.")
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return map[string]any{}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		abort(http.StatusUnprocessableEntity, "The request body is not valid JSON.")
	}
	obj, ok := v.(map[string]any)
	if !ok {
		abort(http.StatusUnprocessableEntity, "The request body must be a JSON object.")
	}
	return obj
}

func asInt(v any) (int64, bool) {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i, true
		}
		if f, err := x.Float64(); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return int64(f), true
		}
	case string:
		return asInt(json.Number(strings.TrimSpace(x)))
	case float64:
		if x == math.Trunc(x) {
			return int64(x), true
		}
	}
	return 0, false
}

func isNumeric(v any) bool {
	s := strings.TrimSpace(fmt.Sprint(v))
	_, err := strconv.ParseFloat(s, 64)
	return (is[json.Number](v) || is[string](v)) && err == nil && json.Valid([]byte(s))
}

// roundCredits keeps credits to four decimals, as the service reports them.
func roundCredits(c float64) float64 { return math.Round(c*1e4) / 1e4 }

// Default page sizes stated by the interface.
const (
	defaultPerPage = 15
	maxPerPage     = 100
)

type pageQuery struct {
	page, perPage int
}

// readPage validates page and per_page (default perPage, at most maxPer),
// ending the request naming the field on failure.
// Assumption: the per_page bounds stated for the file list (1..100) hold for
// every paginated list but memories and collections.
func readPage(r *http.Request, perPage, maxPer int) pageQuery {
	q := r.URL.Query()
	var errs fieldErrors
	p := pageQuery{
		page:    intParam(&errs, q, "page", 1, 1, math.MaxInt, "The page field must be an integer of at least 1."),
		perPage: intParam(&errs, q, "per_page", perPage, 1, maxPer, fmt.Sprintf("The per_page field must be an integer between 1 and %d.", maxPer)),
	}
	errs.check()
	return p
}

// intParam reads query parameter name as an integer within lo..hi, def when
// absent; otherwise it adds msg to errs.
func intParam(errs *fieldErrors, q url.Values, name string, def, lo, hi int, msg string) int {
	v := q.Get(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		errs.add(name, msg)
		return def
	}
	return n
}

func (p pageQuery) window(total int) (lo, hi int) {
	lo = min((p.page-1)*p.perPage, total)
	return lo, min(lo+p.perPage, total)
}

// lastPage is the number of the last page; 1 for an empty list.
func (p pageQuery) lastPage(total int) int { return max(1, (total+p.perPage-1)/p.perPage) }

// meta holds page p's pagination fields over total items. The wire objects
// order their keys alphabetically, as maps marshal.
// Assumption: on an empty page from and to are null, as the widely used
// envelope does.
func (p pageQuery) meta(total int) map[string]any {
	m := map[string]any{"current_page": p.page, "from": nil, "last_page": p.lastPage(total), "per_page": p.perPage, "to": nil, "total": total}
	if lo, hi := p.window(total); lo < hi {
		m["from"], m["to"] = lo+1, hi
	}
	return m
}

func (p pageQuery) shortMeta(total int) map[string]any {
	return map[string]any{"current_page": p.page, "last_page": p.lastPage(total), "total": total}
}

func pageOf[T any](items []T, p pageQuery) []T {
	lo, hi := p.window(len(items))
	return append([]T{}, items[lo:hi]...)
}

func wire[T, U any](items []T, conv func(T) U) []U {
	out := make([]U, 0, len(items))
	for _, it := range items {
		out = append(out, conv(it))
	}
	return out
}

type pageLink struct {
	URL    *string `json:"url"`
	Label  string  `json:"label"`
	Active bool    `json:"active"`
}

func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// newEnvelope is page p (page, of total items) in the pagination envelope
// of agents and webhooks (variant A). Page URLs are absolute and keep the other query
// parameters, so next_page_url keeps the filter.
func newEnvelope[T any](r *http.Request, p pageQuery, page []T, total int) map[string]any {
	path := baseURL(r) + r.URL.Path
	pageURL := func(n int) *string {
		q := r.URL.Query()
		q.Set("page", strconv.Itoa(n))
		u := path + "?" + q.Encode()
		return &u
	}
	last := p.lastPage(total)
	var prev, next *string
	if p.page > 1 {
		prev = pageURL(min(p.page-1, last))
	}
	if p.page < last {
		next = pageURL(p.page + 1)
	}
	links := []pageLink{{URL: prev, Label: "pagination.previous"}}
	for n := 1; n <= last; n++ {
		links = append(links, pageLink{URL: pageURL(n), Label: strconv.Itoa(n), Active: n == p.page})
	}
	links = append(links, pageLink{URL: next, Label: "pagination.next"})
	e := p.meta(total)
	maps.Copy(e, map[string]any{"data": page, "first_page_url": *pageURL(1), "last_page_url": *pageURL(last),
		"links": links, "next_page_url": next, "path": path, "prev_page_url": prev})
	return e
}
