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
	gosse "github.com/tmaxmax/go-sse"
)

// Validator checks requests and responses against the document; safe for concurrent use.
type Validator struct {
	doc     *openapi3.T
	router  routers.Router
	options openapi3filter.Options
}

// schemaOptions leave the schema and the value out of errors: the reason is enough.
var schemaOptions = []openapi3.SchemaValidationOption{openapi3.VisitAsResponse(), openapi3.DisableSchemaErrorDetails()}

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
	if ref := doc.Components.Schemas["Error"]; ref == nil || ref.Value == nil {
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
			SkipSettingDefaults:     true,
			SchemaValidationOptions: schemaOptions[1:],
		},
	}, nil
}

// bearerPresent accepts any request that carries a Bearer token.
func bearerPresent(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	scheme, token, ok := strings.Cut(in.RequestValidationInput.Request.Header.Get("Authorization"), " ")
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
	req := r.Clone(r.Context())
	req.GetBody, req.Body, req.ContentLength = nil, io.NopCloser(bytes.NewReader(body)), int64(len(body))
	if skipBody || len(body) == 0 {
		req.Body, req.ContentLength = http.NoBody, 0
	}
	if skipBody {
		opts.ExcludeRequestBody = true
		if rb := route.Operation.RequestBody; rb != nil && rb.Value != nil {
			if ct := r.Header.Get("Content-Type"); rb.Value.Content.Get(ct) == nil {
				return fmt.Errorf("%s %s: request content type %q is not one the operation accepts", r.Method, r.URL.Path, ct)
			}
		}
	}
	input := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: &opts}
	if err := openapi3filter.ValidateRequest(req.Context(), input); err != nil {
		return fmt.Errorf("%s %s: %w", r.Method, r.URL.Path, err)
	}
	return nil
}

// ValidateResponse checks an answer to r: an unknown path may only answer
// the shared error body; a stream is checked event by event.
func (v *Validator) ValidateResponse(r *http.Request, status int, header http.Header, body []byte) error {
	err := v.validateResponse(r, status, header, body, false)
	if err != nil {
		return fmt.Errorf("%s %s answered %d: %w", r.Method, r.URL.Path, status, err)
	}
	return nil
}

// validateResponse checks status, headers and, unless excludeBody, the body.
func (v *Validator) validateResponse(r *http.Request, status int, header http.Header, body []byte, excludeBody bool) error {
	if err := checkRetryHint(status, header, body); err != nil && !excludeBody {
		return err
	}
	route, params, err := v.router.FindRoute(r)
	switch {
	case err != nil && status < 400:
		return fmt.Errorf("the operation is not in the contract: %w", err)
	case proxyError(status, header, body) && (err != nil || !isHTML(header)):
		// No body and no content type: only the status is left to check.
		if err == nil && route.Operation.Responses.Status(status) == nil {
			return errors.New("status is not in the contract")
		}
		return nil
	case err != nil:
		return v.validateErrorBody(header, body)
	}
	opts := v.options
	stream := isEventStream(header)
	if excludeBody || stream {
		// A stream is not one JSON value: it is checked event by event.
		opts.ExcludeResponseBody = true
		if err := checkContentType(route, status, header); err != nil {
			return err
		}
	}
	input := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: r, PathParams: params, Route: route, Options: &opts},
		Status:                 status,
		Header:                 header,
		Options:                &opts,
	}
	input.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(r.Context(), input); err != nil {
		return err
	}
	if stream && !excludeBody {
		return v.checkEvents(route, status, header, body)
	}
	return nil
}

// checkContentType checks the answer's content type is declared for status.
func checkContentType(route *routers.Route, status int, header http.Header) error {
	content, ok := responseContent(route, status)
	if !ok {
		return fmt.Errorf("status %d is not in the contract", status)
	}
	if ct := header.Get("Content-Type"); len(content) > 0 && content.Get(ct) == nil {
		return fmt.Errorf("content type %q is not in the contract for status %d", ct, status)
	}
	return nil
}

// responseContent is what the operation may answer with status.
func responseContent(route *routers.Route, status int) (openapi3.Content, bool) {
	ref := route.Operation.Responses.Status(status)
	if ref == nil {
		ref = route.Operation.Responses.Default()
	}
	if ref == nil || ref.Value == nil {
		return nil, false
	}
	return ref.Value.Content, true
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
	if err := v.doc.Components.Schemas["Error"].Value.VisitJSON(value, schemaOptions...); err != nil {
		return fmt.Errorf("error answer does not match the Error schema: %w", err)
	}
	return nil
}

// checkEvents checks the data of each event of a stream against the schema
// its operation names (x-sse-data-schema); x-sse-done is the data that ends it.
func (v *Validator) checkEvents(route *routers.Route, status int, header http.Header, body []byte) error {
	content, _ := responseContent(route, status)
	mt := content.Get(header.Get("Content-Type"))
	if mt == nil {
		return nil
	}
	name, _ := mt.Extensions["x-sse-data-schema"].(string)
	schema := v.doc.Components.Schemas[name]
	if schema == nil || schema.Value == nil {
		return nil
	}
	done, _ := mt.Extensions["x-sse-done"].(string)
	var errs []error
	ended := false
	n := 0
	for ev, err := range gosse.Read(bytes.NewReader(body), nil) {
		if err != nil {
			return errors.Join(append(errs, err)...)
		}
		n++
		if done != "" && ev.Data == done {
			ended = true
			continue
		}
		if ended {
			errs = append(errs, fmt.Errorf("event %d arrives after %s", n, done))
		}
		var value any
		if err := json.Unmarshal([]byte(ev.Data), &value); err != nil {
			errs = append(errs, fmt.Errorf("event %d: data is not JSON: %v: %q", n, err, ev.Data))
		} else if err := schema.Value.VisitJSON(value, schemaOptions...); err != nil {
			errs = append(errs, fmt.Errorf("event %d: data does not match %s: %v: %s", n, name, err, ev.Data))
		}
	}
	return errors.Join(errs...)
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
	return status >= 500 && (isHTML(header) || len(body) == 0 && header.Get("Content-Type") == "")
}

// mediaType is h's content type without parameters, "" when unreadable.
func mediaType(h http.Header) string {
	mt, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
	return mt
}

func isHTML(h http.Header) bool { return mediaType(h) == "text/html" }

func isMultipart(h http.Header) bool { return strings.HasPrefix(mediaType(h), "multipart/") }

func isEventStream(h http.Header) bool { return mediaType(h) == "text/event-stream" }
