package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// APIError is every answer outside 2xx; its text never holds the key, headers or full URL.
type APIError struct {
	StatusCode int
	// Message is the service's message (or the HTTP status text).
	Message string
	// Detail is the service's secondary text (the "error" or "detail" member).
	Detail string
	// RequestID is the x-request-id header of the answer, when present.
	RequestID string
	// Body is the answer's body, read up to 64 KiB.
	Body []byte
	// Fields holds validation messages per field (the "errors" member of a 422).
	Fields map[string][]string
	// Method and Path name the call (the path has no query string).
	Method, Path string
	// RetryAfter is the raw Retry-After header of a 429 or 503, if any.
	RetryAfter string
	// Type and Code are a chat-completions error's.
	Type, Code string
	// Workspace is the x-workspace-id the request sent ("" for none).
	Workspace string
	// retryAfterBody is the body's retry_after, read as the header is.
	retryAfterBody string
}

// Wait returns the wait the service asked for: the body's retry_after, else
// the Retry-After header; ok is false when it said nothing.
func (e *APIError) Wait() (d time.Duration, ok bool) {
	if d, ok := parseRetryAfter(e.retryAfterBody, time.Now()); ok {
		return d, true
	}
	return parseRetryAfter(e.RetryAfter, time.Now())
}

// authWords tell a 403 about the key from one about access (the real
// service answers 403 "Invalid authentication" for both).
var authWords = []string{"authenticat", "api key", "api_key", "apikey", "token", "credential"}

// AboutKey reports a 401, or a 403 whose text speaks of authentication.
func (e *APIError) AboutKey() bool {
	switch e.StatusCode {
	case http.StatusUnauthorized:
		return true
	case http.StatusForbidden:
		text := e.words() + " " + strings.ToLower(e.Type+" "+e.Code)
		for _, w := range authWords {
			if strings.Contains(text, w) {
				return true
			}
		}
	}
	return false
}

func (e *APIError) Error() string {
	var b strings.Builder
	b.WriteString("agentdesk: ")
	if e.Method != "" {
		b.WriteString(e.Method + " " + e.Path + ": ")
	}
	fmt.Fprintf(&b, "%d %s", e.StatusCode, http.StatusText(e.StatusCode))
	if e.Message != "" && e.Message != http.StatusText(e.StatusCode) {
		b.WriteString(": " + e.Message)
	}
	if e.Detail != "" && e.Detail != e.Message {
		b.WriteString(" (" + e.Detail + ")")
	}
	if len(e.Fields) > 0 && !strings.Contains(e.Message, "(and") {
		for _, k := range slices.Sorted(maps.Keys(e.Fields)) {
			b.WriteString("; " + k + ": " + strings.Join(e.Fields[k], " "))
		}
	}
	if e.RequestID != "" {
		b.WriteString(" [request " + e.RequestID + "]")
	}
	// redact has masked the calling client's key in every field.
	return b.String()
}

// Field returns the first validation message for a field, or "".
func (e *APIError) Field(name string) string {
	if v := e.Fields[name]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// redact masks key in every field holding server bytes, field names included.
func (e *APIError) redact(key string) {
	if len(key) < minRedactLen {
		return
	}
	for _, s := range []*string{&e.Message, &e.Detail, &e.RequestID, &e.RetryAfter, &e.Type, &e.Code, &e.Path} {
		*s = mask(key, *s)
	}
	e.Body = bytes.ReplaceAll(e.Body, []byte(key), []byte(redactedMask))
	if len(e.Fields) > 0 {
		fields := make(map[string][]string, len(e.Fields))
		for k, v := range e.Fields {
			for i := range v {
				v[i] = mask(key, v[i])
			}
			k = mask(key, k)
			fields[k] = append(fields[k], v...)
		}
		e.Fields = fields
	}
}

// redactedMask replaces an API key found in anything a server sent.
const redactedMask = "[redacted]"

// minRedactLen is the shortest key masked: shorter ones would mangle words.
const minRedactLen = 4

// mask replaces key in s with [redacted].
func mask(key, s string) string {
	if len(key) < minRedactLen {
		return s
	}
	return strings.ReplaceAll(s, key, redactedMask)
}

// NetworkError is a failure to reach the service or to read its answer.
type NetworkError struct {
	Method, Path string
	Err          error
	key          string // the calling client's, masked by Error
}

// Error masks the key, which a transport error may quote.
func (e *NetworkError) Error() string {
	return mask(e.key, fmt.Sprintf("agentdesk: %s %s: cannot reach the service: %v", e.Method, e.Path, e.Err))
}

func (e *NetworkError) Unwrap() error { return e.Err }

// newNetworkError drops the *url.Error layer, which quotes the full URL.
func newNetworkError(key, method, path string, err error) *NetworkError {
	if ue, ok := errors.AsType[*url.Error](err); ok && ue.Err != nil {
		err = ue.Err
	}
	return &NetworkError{Method: method, Path: path, Err: err, key: key}
}

// DecodeError means a 2xx answer could not be decoded.
type DecodeError struct {
	Method, Path string
	Err          error
	Body         []byte // the answer's first 512 bytes, key masked
	key          string // the calling client's, masked by Error
}

// Error masks the key, which Err may quote.
func (e *DecodeError) Error() string {
	return mask(e.key, fmt.Sprintf("agentdesk: %s %s: unexpected answer: %v", e.Method, e.Path, e.Err))
}

func (e *DecodeError) Unwrap() error { return e.Err }

// ExecutionError is an execution that failed; the record comes alongside.
type ExecutionError struct {
	Execution Execution
	// Text is the execution's error in plain words.
	Text string
}

// Error is the text, else the status.
func (e *ExecutionError) Error() string {
	text := e.Text
	if text == "" {
		text = "status " + e.Execution.Status
	}
	return "agentdesk: the execution failed: " + text
}

var (
	// ErrPollingUnsupported means the server offers no polling path.
	ErrPollingUnsupported = errors.New("this server does not offer polling of executions; wait for the run to finish or use a stream")

	// ErrChatRules is the service's own sentence for a chat history that
	// breaks the rules (see CheckChatMessages).
	//lint:ignore ST1005 the service's exact sentence, capital and all
	ErrChatRules = errors.New("Chat messages must be a pair of user/assistant")

	// ErrStreamIncomplete means a stream ended before its final event (also io.ErrUnexpectedEOF).
	ErrStreamIncomplete = fmt.Errorf("agentdesk: the stream ended before the reply was complete (%w)", io.ErrUnexpectedEOF)

	// ErrStreamIdle means no event arrived within the stream idle timeout.
	ErrStreamIdle = errors.New("agentdesk: the stream stalled: no event arrived within the idle timeout")

	// ErrEventTooLarge means one streamed event exceeded the size cap.
	ErrEventTooLarge = errors.New("agentdesk: a streamed event exceeded the size limit")

	// ErrEventUnreadable means a streamed event could not be read; the stream ends there.
	ErrEventUnreadable = errors.New("agentdesk: a streamed event could not be read")

	// ErrStreamClosed is the error of a stream stopped by Close.
	ErrStreamClosed = errors.New("agentdesk: the stream was closed")

	// ErrStillRunning means Wait stopped polling an execution still going: poll again later.
	ErrStillRunning = errors.New("agentdesk: the execution is still running on the service")
)

// InputError is a request refused before sending for breaking a documented limit.
type InputError struct {
	Field   string // the input at fault, as the service names it
	Message string // plain words
	Err     error  // the rule broken, when it has a name (such as ErrUploadType)
}

func (e *InputError) Error() string { return e.Message }
func (e *InputError) Unwrap() error { return e.Err }

// StatusCode returns the HTTP status of an *APIError in err's chain, or 0.
func StatusCode(err error) int {
	if e, ok := errors.AsType[*APIError](err); ok {
		return e.StatusCode
	}
	return 0
}

// IsAuth reports whether the API key was rejected (see AboutKey).
func IsAuth(err error) bool {
	e, ok := errors.AsType[*APIError](err)
	return ok && e.AboutKey()
}

// IsForbidden reports a 403 that is not about the key.
func IsForbidden(err error) bool {
	e, ok := errors.AsType[*APIError](err)
	return ok && e.StatusCode == http.StatusForbidden && !e.AboutKey()
}

// IsWorkspaceRefusal reports a 400 or 422 that names the workspace: the
// real service's answer to a missing or bad x-workspace-id.
func IsWorkspaceRefusal(err error) bool {
	e := refusal(err)
	if e == nil {
		return false
	}
	for f := range e.Fields {
		if strings.Contains(strings.ToLower(f), "workspace") {
			return true
		}
	}
	return strings.Contains(e.words(), "workspace")
}

// IsNotFound reports a 404.
func IsNotFound(err error) bool { return StatusCode(err) == http.StatusNotFound }

// IsValidation reports a 422, a 400 or ErrChatRules.
func IsValidation(err error) bool { return refusal(err) != nil || errors.Is(err, ErrChatRules) }

// refusal returns err's *APIError when it is a 400 or a 422, else nil.
func refusal(err error) *APIError {
	if e, ok := errors.AsType[*APIError](err); ok && (e.StatusCode == http.StatusBadRequest || e.StatusCode == http.StatusUnprocessableEntity) {
		return e
	}
	return nil
}

// words is the error's text in lower case, for finding a name in it.
func (e *APIError) words() string { return strings.ToLower(e.Message + " " + e.Detail) }

// IsRateLimited reports a 429.
func IsRateLimited(err error) bool { return StatusCode(err) == http.StatusTooManyRequests }

// IsOffline reports a failure to reach the service, as opposed to an answer from it.
func IsOffline(err error) bool {
	_, ok := errors.AsType[*NetworkError](err)
	return ok
}

// readAPIError builds an *APIError from a non-2xx response and closes its body.
func readAPIError(res *http.Response, method, path string) *APIError {
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
	// Drain a little more so the connection can be reused, but never much.
	_, _ = io.CopyN(io.Discard, res.Body, 4<<10)
	e := &APIError{
		StatusCode: res.StatusCode,
		Body:       body,
		Method:     method,
		Path:       path,
		RequestID:  firstHeader(res.Header, "x-request-id", "request-id", "x-amzn-requestid"),
		RetryAfter: res.Header.Get("Retry-After"),
	}
	if res.Request != nil {
		e.Workspace = res.Request.Header.Get("x-workspace-id")
	}
	parseErrorBody(e, body)
	if e.Message == "" {
		e.Message = http.StatusText(res.StatusCode)
	}
	return e
}

func firstHeader(h http.Header, names ...string) string {
	for _, n := range names {
		if v := h.Get(n); v != "" {
			return v
		}
	}
	return ""
}

// parseErrorBody reads the common JSON error shapes; plain text becomes the message.
func parseErrorBody(e *APIError, body []byte) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return
	}
	var obj map[string]json.RawMessage
	if body[0] != '{' || json.Unmarshal(body, &obj) != nil {
		if body[0] != '<' && utf8.Valid(body) { // skip HTML error pages
			e.Message = oneLine(string(body), 300)
		}
		return
	}
	text := func(k string) string {
		if v, ok := obj[k]; ok && !isNull(v) {
			return oneLine(errorValueText(v), 500)
		}
		return ""
	}
	e.Message = text("message")
	e.Detail = text("detail")
	if d := text("error"); d != "" {
		if e.Message == "" {
			e.Message = d
		} else if e.Detail == "" {
			e.Detail = d
		}
	}
	if e.Message == "" {
		e.Message = text("title")
	}
	// the real service's "messages", the interface's "errors"
	for _, k := range []string{"errors", "messages"} {
		if raw, ok := obj[k]; ok && e.Fields == nil {
			e.Fields = parseFieldErrors(raw)
		}
	}
	if raw, ok := obj["error"]; ok {
		// The chat-completions shape: {"error":{"message","type","code"}}.
		var inner map[string]json.RawMessage
		if json.Unmarshal(raw, &inner) == nil {
			if f, ok := inner["errors"]; ok && e.Fields == nil {
				e.Fields = parseFieldErrors(f)
			}
			for k, dst := range map[string]*string{"type": &e.Type, "code": &e.Code} {
				if v, ok := inner[k]; ok && !isNull(v) {
					*dst = oneLine(errorValueText(v), 100)
				}
			}
		}
	}
	if raw, ok := obj["retry_after"]; ok {
		e.retryAfterBody = looseString(string(raw))
	}
}

// parseFieldErrors accepts {field: [msg...]}, {field: msg} and [{field, message}].
func parseFieldErrors(raw json.RawMessage) map[string][]string {
	out := map[string][]string{}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) == nil {
		for k, v := range m {
			var list []json.RawMessage
			if json.Unmarshal(v, &list) == nil {
				for _, item := range list {
					out[k] = append(out[k], errorValueText(item))
				}
			} else {
				out[k] = append(out[k], errorValueText(v))
			}
		}
	} else {
		var list []map[string]json.RawMessage
		if json.Unmarshal(raw, &list) == nil {
			first := func(item map[string]json.RawMessage, keys ...string) string {
				for _, k := range keys {
					if v, ok := item[k]; ok {
						return errorValueText(v)
					}
				}
				return ""
			}
			for _, item := range list {
				field := first(item, "field", "loc", "name", "path")
				out[field] = append(out[field], first(item, "message", "msg", "detail"))
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
