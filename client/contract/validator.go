package contract

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

// Validator checks requests and responses against the document; safe for concurrent use.
type Validator struct {
	doc     *openapi3.T
	router  routers.Router
	options openapi3filter.Options
	errBody *openapi3.Schema
}

// NewValidator builds a validator over its own copy of the document, without
// servers so that paths match on any host.
func NewValidator() (*Validator, error) {
	doc, err := parseDocument()
	if err != nil {
		return nil, err
	}
	doc.Servers = nil
	router, err := legacy.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("contract: building the router: %w", err)
	}
	errRef := doc.Components.Schemas["Error"]
	if errRef == nil || errRef.Value == nil {
		return nil, errors.New("contract: the document has no Error schema")
	}
	return &Validator{
		doc:    doc,
		router: router,
		options: openapi3filter.Options{
			AuthenticationFunc: bearerPresent,
			// An answer with a status the document does not list is a mismatch,
			// not something to let through silently.
			IncludeResponseStatus: true,
			// Validation works on copies; defaults must not be written into them.
			SkipSettingDefaults: true,
		},
		errBody: errRef.Value,
	}, nil
}

// bearerPresent accepts any request that carries a Bearer token.
func bearerPresent(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	h := in.RequestValidationInput.Request.Header.Get("Authorization")
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return in.NewError(errors.New("no Authorization: Bearer <API_KEY> header"))
	}
	return nil
}

// ValidateRequest checks r with body (r.Body is not read); a nil multipart
// body checks only the content type.
func (v *Validator) ValidateRequest(r *http.Request, body []byte) error {
	return v.validateRequest(r, body, body == nil && isMultipart(r.Header))
}

// validateRequest checks r with body, or without it when skipBody is set.
func (v *Validator) validateRequest(r *http.Request, body []byte, skipBody bool) error {
	route, params, err := v.router.FindRoute(r)
	if err != nil {
		return fmt.Errorf("%s %s: %w", r.Method, r.URL.Path, err)
	}
	opts := v.options
	if skipBody {
		opts.ExcludeRequestBody = true
		if rb := route.Operation.RequestBody; rb != nil && rb.Value != nil {
			ct := r.Header.Get("Content-Type")
			if rb.Value.Content.Get(ct) == nil {
				return fmt.Errorf("%s %s: request content type %q is not one the operation accepts", r.Method, r.URL.Path, ct)
			}
		}
	}
	req := r.Clone(r.Context())
	req.GetBody = nil
	req.ContentLength = int64(len(body))
	if len(body) == 0 || skipBody {
		req.Body = http.NoBody
		req.ContentLength = 0
	} else {
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	input := &openapi3filter.RequestValidationInput{
		Request:    req,
		PathParams: params,
		Route:      route,
		Options:    &opts,
	}
	if err := openapi3filter.ValidateRequest(req.Context(), input); err != nil {
		return fmt.Errorf("%s %s: %w", r.Method, r.URL.Path, brief(err))
	}
	return nil
}

// ValidateResponse checks an answer to r: an unknown path may only answer
// the shared error body; a stream is checked event by event.
func (v *Validator) ValidateResponse(r *http.Request, status int, header http.Header, body []byte) error {
	if err := checkRetryHint(status, header, body); err != nil {
		return fmt.Errorf("%s %s answered %d: %w", r.Method, r.URL.Path, status, err)
	}
	route, params, err := v.router.FindRoute(r)
	if err != nil {
		if status < 400 {
			return fmt.Errorf("%s %s answered %d, but the operation is not in the contract: %w", r.Method, r.URL.Path, status, err)
		}
		if proxyError(status, header, body) {
			return nil
		}
		if err := v.validateErrorBody(header, body); err != nil {
			return fmt.Errorf("%s %s answered %d: %w", r.Method, r.URL.Path, status, err)
		}
		return nil
	}
	if proxyError(status, header, body) && !isHTML(header) {
		// No body and no content type: only the status is left to check.
		if route.Operation.Responses.Status(status) == nil {
			return fmt.Errorf("%s %s answered %d: status is not in the contract", r.Method, r.URL.Path, status)
		}
		return nil
	}
	if err := v.validateResponse(r, route, params, status, header, body, false); err != nil {
		return err
	}
	if isEventStream(header) && len(body) > 0 {
		check := v.eventChecker(route, status, header)
		if check == nil {
			return nil
		}
		check.write(body)
		if errs := check.errs; len(errs) > 0 {
			return fmt.Errorf("%s %s: %w", r.Method, r.URL.Path, errors.Join(errs...))
		}
	}
	return nil
}

// validateResponse checks status, headers and (unless a stream or excludeBody) the body.
func (v *Validator) validateResponse(r *http.Request, route *routers.Route, params map[string]string, status int, header http.Header, body []byte, excludeBody bool) error {
	opts := v.options
	if header == nil {
		header = http.Header{}
	}
	if excludeBody || isEventStream(header) {
		// Without a body (or with a stream, which is not one JSON value and is
		// checked event by event) only the content type is left to check.
		opts.ExcludeResponseBody = true
		if err := checkContentType(route, status, header); err != nil {
			return fmt.Errorf("%s %s answered %d: %w", r.Method, r.URL.Path, status, err)
		}
	}
	input := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request:    r,
			PathParams: params,
			Route:      route,
			Options:    &opts,
		},
		Status:  status,
		Header:  header,
		Options: &opts,
	}
	input.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(r.Context(), input); err != nil {
		return fmt.Errorf("%s %s answered %d: %w", r.Method, r.URL.Path, status, brief(err))
	}
	return nil
}

// checkContentType checks the answer's content type is declared for status.
func checkContentType(route *routers.Route, status int, header http.Header) error {
	ref := route.Operation.Responses.Status(status)
	if ref == nil {
		ref = route.Operation.Responses.Default()
	}
	if ref == nil || ref.Value == nil {
		return fmt.Errorf("status %d is not in the contract", status)
	}
	content := ref.Value.Content
	if len(content) == 0 {
		return nil
	}
	if ct := header.Get("Content-Type"); content.Get(ct) == nil {
		return fmt.Errorf("content type %q is not in the contract for status %d", ct, status)
	}
	return nil
}

// validateErrorBody checks an error answer of no operation is JSON with a message.
func (v *Validator) validateErrorBody(header http.Header, body []byte) error {
	if mediaType(header) != "application/json" {
		return fmt.Errorf("error answer has content type %q, want application/json", header.Get("Content-Type"))
	}
	var value any
	if err := json.Unmarshal(body, &value); err != nil {
		return fmt.Errorf("error answer is not JSON: %w", err)
	}
	if err := v.errBody.VisitJSON(value, openapi3.VisitAsResponse()); err != nil {
		return fmt.Errorf("error answer does not match the Error schema: %w", brief(err))
	}
	return nil
}

// eventChecker returns a checker for the operation's stream, nil without an event schema.
func (v *Validator) eventChecker(route *routers.Route, status int, header http.Header) *eventChecker {
	ref := route.Operation.Responses.Status(status)
	if ref == nil || ref.Value == nil {
		return nil
	}
	mt := ref.Value.Content.Get(header.Get("Content-Type"))
	if mt == nil {
		return nil
	}
	name, _ := mt.Extensions["x-sse-data-schema"].(string)
	schemaRef := v.doc.Components.Schemas[name]
	if schemaRef == nil || schemaRef.Value == nil {
		return nil
	}
	done, _ := mt.Extensions["x-sse-done"].(string)
	return &eventChecker{schema: schemaRef.Value, name: name, done: done}
}

// checkRetryHint holds a 429 to x-rule retry-after-header-or-body.
func checkRetryHint(status int, header http.Header, body []byte) error {
	if status != http.StatusTooManyRequests || header.Get("Retry-After") != "" {
		return nil
	}
	var b struct {
		RetryAfter *int `json:"retry_after"`
	}
	if json.Unmarshal(body, &b) == nil && b.RetryAfter != nil && *b.RetryAfter >= 1 {
		return nil
	}
	return errors.New("a 429 tells the wait in neither a Retry-After header nor a retry_after field")
}

// proxyError tells a proxy's 5xx: an HTML page, or no body and no content type.
func proxyError(status int, header http.Header, body []byte) bool {
	if status < 500 {
		return false
	}
	return isHTML(header) || (len(body) == 0 && header.Get("Content-Type") == "")
}

// mediaType is h's content type without parameters, "" when unreadable.
func mediaType(h http.Header) string {
	mt, _, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil {
		return ""
	}
	return mt
}

func isHTML(h http.Header) bool { return mediaType(h) == "text/html" }

func isMultipart(h http.Header) bool { return strings.HasPrefix(mediaType(h), "multipart/") }

func isEventStream(h http.Header) bool { return mediaType(h) == "text/event-stream" }

// isJSON tells whether an answer's body is worth buffering for validation.
func isJSON(h http.Header) bool {
	mt, _, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil {
		return h.Get("Content-Type") == ""
	}
	return mt == "application/json" || strings.HasSuffix(mt, "+json") || strings.HasPrefix(mt, "text/")
}

// briefError shortens a schema error's text to what is wrong, keeping its cause.
type briefError struct {
	msg string
	err error
}

func (e *briefError) Error() string { return e.msg }
func (e *briefError) Unwrap() error { return e.err }

func brief(err error) error {
	msg := err.Error()
	i := strings.Index(msg, "\nSchema:\n")
	if i < 0 {
		return err
	}
	return &briefError{msg: strings.TrimSpace(msg[:i]), err: err}
}
