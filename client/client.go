package client

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Version is the SDK version sent in the default User-Agent.
const Version = "0.1.0"

// DefaultMaxRetries is how many times a request safe to repeat is retried.
const DefaultMaxRetries = 6

const (
	// maxErrorBody caps how much of an error body is read.
	maxErrorBody = 64 << 10
	// maxJSONBody caps a successful JSON answer (a page of records).
	maxJSONBody = 64 << 20
)

// Client talks to one service account; safe for concurrent use. Build it with New.
type Client struct {
	cfg config

	// What worked last of each reading (see inReading), under mu.
	mu            sync.Mutex
	memoryVariant MemoryVariant
	style         ExecuteStyle
	pollPath      PollPath
}

// learned is what c last found to work (kept in *field), unless this call
// chose otherwise with an option.
func learned[R comparable](c *Client, field *R, perCall, clientWide R) R {
	if perCall != clientWide {
		return perCall
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return *field
}

// inReading sends in first, and once more in second when other says the
// server refused first for its reading (before acting on it); the one that
// worked is kept in *field.
func inReading[R comparable, T any](c *Client, field *R, first, second R, other func(error) bool, send func(R) (T, error)) (T, error) {
	used := first
	out, err := send(first)
	if err != nil && other(err) {
		used = second
		out, err = send(second)
	}
	if err == nil {
		c.mu.Lock()
		*field = used
		c.mu.Unlock()
	}
	return out, err
}

// config is what an Option changes; per-call options work on a copy.
type config struct {
	baseURL           *url.URL
	baseErr           error
	apiKey            string
	workspace         string
	httpClient        *http.Client
	maxRetries        int
	userAgent         string
	memoryVariant     MemoryVariant
	pollInterval      time.Duration
	pacer             *Pacer
	retryBase         time.Duration
	retryMax          time.Duration
	retryAfterMax     time.Duration
	streamIdleTimeout time.Duration
	maxEventSize      int
	pollLimit         time.Duration
	onAccepted        func(e *Execution)
	rateLimitRetries  int
	retryBudget       time.Duration
	onRateLimit       func(wait time.Duration)
	executeStyle      ExecuteStyle
	pollPath          PollPath
}

// Option changes a setting of the Client, or of one call when passed to a method.
type Option func(*config)

// WithBaseURL sets the service's base URL ("https://aes.example.com/api").
func WithBaseURL(base string) Option {
	return func(c *config) {
		u, err := url.Parse(strings.TrimRight(strings.TrimSpace(base), "/"))
		switch {
		case err != nil:
			c.baseURL, c.baseErr = nil, fmt.Errorf("agentdesk: invalid base URL: %w", errors.Unwrap(err))
		case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
			c.baseURL, c.baseErr = nil, errors.New("agentdesk: the base URL must start with http:// or https:// and name a host")
		default:
			u.RawQuery, u.Fragment, u.User = "", "", nil
			c.baseURL, c.baseErr = u, nil
		}
	}
}

// WithAPIKey sets the Bearer key, sent only to the base URL's origin and
// masked as [redacted] in this client's errors.
func WithAPIKey(key string) Option {
	key = strings.TrimSpace(key)
	return func(c *config) { c.apiKey = key }
}

// WithWorkspace sets the x-workspace-id header ("" sends none).
func WithWorkspace(id string) Option { return func(c *config) { c.workspace = strings.TrimSpace(id) } }

// WithHTTPClient sets the HTTP client; its Timeout should be zero (streams
// last long). Its transport is wrapped so credentials stay on the origin.
func WithHTTPClient(hc *http.Client) Option { return func(c *config) { c.httpClient = hc } }

// WithMaxRetries sets how many times a safe request is retried (0: never).
func WithMaxRetries(n int) Option { return func(c *config) { c.maxRetries = max(n, 0) } }

// WithUserAgent sets the User-Agent header.
func WithUserAgent(ua string) Option { return func(c *config) { c.userAgent = ua } }

// WithMemoryVariant forces the memory variant (MemoryAuto detects it).
func WithMemoryVariant(v MemoryVariant) Option { return func(c *config) { c.memoryVariant = v } }

// WithPollInterval sets the first wait between polls in Wait and Run.
func WithPollInterval(d time.Duration) Option {
	return func(c *config) { setPositive(&c.pollInterval, d) }
}

// WithRetryBackoff sets the retry backoff: base × 2ⁿ, capped at max.
func WithRetryBackoff(base, max time.Duration) Option {
	return func(c *config) {
		setPositive(&c.retryBase, base)
		setPositive(&c.retryMax, max)
	}
}

// setPositive sets *dst to d, unless d is zero or less (a setting left as it was).
func setPositive(dst *time.Duration, d time.Duration) {
	if d > 0 {
		*dst = d
	}
}

// WithRateLimitRetries sets how many 429 answers one call waits out (default 3).
func WithRateLimitRetries(n int) Option { return func(c *config) { c.rateLimitRetries = max(n, 0) } }

// WithRateLimitNotice calls f, on the calling goroutine, before each wait a 429 imposes.
func WithRateLimitNotice(f func(wait time.Duration)) Option {
	return func(c *config) { c.onRateLimit = f }
}

// WithAccepted hears of a run the service goes on with after Run's wait,
// before polling for it: its id is what finds the result later.
func WithAccepted(f func(e *Execution)) Option { return func(c *config) { c.onAccepted = f } }

// WithPollLimit sets how long Wait and Run poll before ErrStillRunning.
func WithPollLimit(d time.Duration) Option { return func(c *config) { setPositive(&c.pollLimit, d) } }

// New returns a Client; without WithBaseURL every call fails with a clear error.
func New(opts ...Option) *Client {
	c := &Client{cfg: config{
		maxRetries:       DefaultMaxRetries,
		userAgent:        "agentdesk-go/" + Version,
		pollInterval:     3 * time.Second, // later waits grow, to save the key's quota
		retryBase:        500 * time.Millisecond,
		retryMax:         8 * time.Second,
		retryAfterMax:    60 * time.Second,
		rateLimitRetries: 3,
		retryBudget:      30 * time.Second, // waits per call; then "Try again" is the user's
		pollLimit:        10 * time.Minute,
		maxEventSize:     32 << 20, // a long code block may come in one event of some MiB
		baseErr:          errors.New("agentdesk: no base URL configured (use WithBaseURL)"),
	}}
	c.cfg = *c.callConfig(opts)
	c.style, c.pollPath, c.memoryVariant = c.cfg.executeStyle, c.cfg.pollPath, c.cfg.memoryVariant
	return c
}

// WithExecuteStyle sets the execute style to start with (StyleAuto detects it).
func WithExecuteStyle(s ExecuteStyle) Option { return func(c *config) { c.executeStyle = s } }

// WithPollPath sets the polling path to try first (PollAuto: the real service's).
func WithPollPath(p PollPath) Option { return func(c *config) { c.pollPath = p } }

// defaultHTTPClient has no overall Timeout: a blocking run may wait 100 s
// and streams last as long as the reply.
var defaultHTTPClient = &http.Client{Transport: func() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: 15 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	t.ResponseHeaderTimeout = 130 * time.Second
	t.MaxIdleConnsPerHost = 8
	return t
}()}

// callConfig applies per-call options to a copy of the client's settings.
func (c *Client) callConfig(opts []Option) *config {
	cfg := c.cfg
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	return &cfg
}

// ErrRedirectedAway means the service sent a call on to another address:
// that answer would not be the service's, so it is not followed.
var ErrRedirectedAway = errors.New("agentdesk: the service sent the request on to another address, which Agent Desk does not follow")

// client returns cfg's HTTP client wrapped by the credential guard; with
// stay, a redirect to another origin than the request's is refused.
func (cfg *config) client(stay bool) *http.Client {
	hc := cfg.httpClient
	if hc == nil {
		hc = defaultHTTPClient
	}
	cp := *hc
	next := cp.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	cp.Transport = &credentialGuard{cfg: cfg, next: next}
	if stay {
		check := cp.CheckRedirect
		cp.CheckRedirect = func(req *http.Request, via []*http.Request) error {
			if !sameOrigin(req.URL, via[0].URL) {
				return fmt.Errorf("%w (%s)", ErrRedirectedAway, req.URL.Host)
			}
			if check != nil {
				return check(req, via)
			}
			if len(via) >= 10 {
				return errors.New("stopped after 10 redirects")
			}
			return nil
		}
	}
	return &cp
}

// credentialGuard adds the key and workspace to requests for the base
// origin and strips them from any other, redirects included.
type credentialGuard struct {
	cfg  *config
	next http.RoundTripper
}

func (g *credentialGuard) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	if sameOrigin(r.URL, g.cfg.baseURL) {
		if g.cfg.apiKey != "" {
			r.Header.Set("Authorization", "Bearer "+g.cfg.apiKey)
		}
		if g.cfg.workspace != "" {
			r.Header.Set("x-workspace-id", g.cfg.workspace)
		}
	} else {
		r.Header.Del("Authorization")
		r.Header.Del("x-workspace-id")
	}
	return g.next.RoundTrip(r)
}

// sameOrigin compares scheme, host and port (with default ports filled in).
func sameOrigin(u, base *url.URL) bool {
	if u == nil || base == nil {
		return false
	}
	return strings.EqualFold(u.Scheme, base.Scheme) &&
		strings.EqualFold(u.Hostname(), base.Hostname()) &&
		portOf(u) == portOf(base)
}

func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}

// endpoint joins the base URL and an escaped path (see pathf).
func (cfg *config) endpoint(path string, q url.Values) (*url.URL, error) {
	if cfg.baseURL == nil {
		return nil, cfg.baseErr
	}
	raw := strings.TrimRight(cfg.baseURL.String(), "/") + path
	if len(q) > 0 {
		raw += "?" + q.Encode()
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("agentdesk: building the URL for %s: %w", path, errors.Unwrap(err))
	}
	return u, nil
}

// pathf formats a path, escaping each id as one segment.
func pathf(format string, ids ...ID) string {
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = url.PathEscape(string(id))
	}
	return fmt.Sprintf(format, args...)
}

// request describes one call.
type request struct {
	method string
	path   string
	query  url.Values
	url    *url.URL // replaces the base URL, path and query (downloads)
	stay   bool     // with url: a redirect to another origin is refused too
	body   any      // marshalled to JSON once; nil means no body
	retry  bool     // safe to repeat
	accept string   // default application/json
	// raw replaces body (uploads); sent again only after a 429, and only
	// when rewind gives it from its start once more (nil: it cannot).
	raw           io.Reader
	rewind        func() io.Reader
	contentType   string
	contentLength int64
	header        http.Header // more headers, such as a signed upload's
}

// send performs req with retries and returns a 2xx response; otherwise an
// *APIError or *NetworkError. With read, send hands it the response and
// asks again, as the retries allow, when read says the answer was cut;
// without, the caller closes the response.
func (c *Client) send(ctx context.Context, cfg *config, req request, read func(*http.Response) (err error, cut bool)) (*http.Response, error) {
	start, limited := time.Now(), 0 // limited counts 429 answers
	u, err := req.url, error(nil)
	if u == nil {
		if u, err = cfg.endpoint(req.path, req.query); err != nil {
			return nil, err
		}
	}
	var payload []byte
	if req.body != nil {
		payload, err = json.Marshal(req.body)
		if err != nil {
			return nil, fmt.Errorf("agentdesk: encoding the request: %w", err)
		}
	}
	hc := cfg.client(req.url == nil || req.stay)
	retries := cfg.retries(req)
	var fail error // the last attempt's
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return nil, contextError(req, err)
		}
		if err := cfg.pacer.wait(ctx); err != nil {
			return nil, contextError(req, err)
		}
		body := req.raw
		if attempt > 0 && req.raw != nil {
			if body = req.rewind(); body == nil {
				return nil, fail
			}
		}
		if payload != nil {
			body = bytes.NewReader(payload)
		}
		hreq, err := http.NewRequestWithContext(ctx, req.method, u.String(), body)
		if err != nil {
			return nil, fmt.Errorf("agentdesk: building the request: %w", err)
		}
		if req.raw != nil {
			hreq.ContentLength = req.contentLength // 0 or less: unknown, sent chunked
		}
		cfg.setHeaders(hreq, req, payload != nil)
		res, err := hc.Do(hreq)
		wait, again := cfg.backoff(attempt), false
		switch {
		case err != nil && ctx.Err() != nil:
			return nil, contextError(req, ctx.Err())
		case err != nil:
			fail, again = newNetworkError(cfg.apiKey, req.method, req.path, err), attempt < retries && !lasting(err)
		case res.StatusCode >= 200 && res.StatusCode < 300:
			cfg.pacer.answered()
			if read == nil {
				return res, nil
			}
			if fail, again = read(res); fail == nil {
				return res, nil
			}
			again = again && attempt < retries
		default:
			apiErr := readAPIError(res, req.method, req.path)
			apiErr.redact(cfg.apiKey)
			fail = apiErr
			told, ok := apiErr.Wait()
			if res.StatusCode == http.StatusTooManyRequests {
				// A 429 proves the service did not act, so any resendable body
				// may go again after the wait; a longer wait is the caller's.
				limited++
				if ok {
					wait = told
				}
				cfg.pacer.limited(min(wait, cfg.retryAfterMax)) // every request waits with this one
				again = (req.raw == nil || req.rewind != nil) && limited <= cfg.rateLimitRetries && wait <= cfg.retryAfterMax
				if again && cfg.inBudget(start, wait) && cfg.onRateLimit != nil {
					cfg.onRateLimit(wait)
				}
				break
			}
			cfg.pacer.answered()
			if ok {
				wait = min(told, cfg.retryAfterMax)
			}
			again = attempt < retries && retryableStatus(res.StatusCode)
		}
		if !again || !cfg.inBudget(start, wait) {
			return nil, fail
		}
		if err := sleepCtx(ctx, wait); err != nil {
			return nil, contextError(req, err)
		}
	}
}

func (cfg *config) setHeaders(hreq *http.Request, req request, jsonBody bool) {
	for k, v := range req.header {
		hreq.Header[k] = v
	}
	hreq.Header.Set("Accept", cmp.Or(req.accept, "application/json"))
	if cfg.userAgent != "" {
		hreq.Header.Set("User-Agent", cfg.userAgent)
	}
	switch {
	case req.contentType != "":
		hreq.Header.Set("Content-Type", req.contentType)
	case jsonBody:
		hreq.Header.Set("Content-Type", "application/json")
	}
}

// do sends req and decodes a JSON answer into out (when out is not nil). A
// safe request whose answer was cut is asked again.
func (c *Client) do(ctx context.Context, cfg *config, req request, out any) error {
	_, err := c.send(ctx, cfg, req, func(res *http.Response) (error, bool) {
		defer res.Body.Close()
		data, err := io.ReadAll(io.LimitReader(res.Body, maxJSONBody+1))
		switch {
		case err != nil && ctx.Err() != nil:
			return contextError(req, ctx.Err()), false
		case err != nil:
			return newNetworkError(cfg.apiKey, req.method, req.path, err), true
		case len(data) > maxJSONBody:
			return fmt.Errorf("agentdesk: %s %s: the answer exceeds %d MiB", req.method, req.path, maxJSONBody>>20), false
		case out == nil:
			return nil, false
		}
		if err := json.Unmarshal(data, out); err != nil {
			_, cut := errors.AsType[*json.SyntaxError](err)
			return cfg.decodeError(req.method, req.path, err, data), cut
		}
		return nil, false
	})
	return err
}

// retries is how many times req may be resent when the service may have acted.
func (cfg *config) retries(req request) int {
	if !req.retry || req.raw != nil {
		return 0
	}
	return cfg.maxRetries
}

// inBudget reports whether waiting wait more keeps the call within its budget.
func (cfg *config) inBudget(start time.Time, wait time.Duration) bool {
	return cfg.retryBudget <= 0 || time.Since(start)+wait <= cfg.retryBudget
}

func contextError(req request, err error) error {
	return fmt.Errorf("agentdesk: %s %s: %w", req.method, req.path, err)
}

// decodeError keeps the first 512 bytes of body, masked before the cut so
// that not even half an echoed key stays.
func (cfg *config) decodeError(method, path string, err error, body []byte) *DecodeError {
	const n = 512
	b := []byte(mask(cfg.apiKey, string(body[:min(len(body), n+len(cfg.apiKey))])))
	return &DecodeError{Method: method, Path: path, Err: err, Body: b[:min(len(b), n)], key: cfg.apiKey}
}

// doRaw sends req and decodes its JSON answer with decode (else a DecodeError).
func doRaw[T any](ctx context.Context, c *Client, cfg *config, req request, decode func(json.RawMessage) (T, error)) (T, error) {
	var raw json.RawMessage
	var zero T
	if err := c.do(ctx, cfg, req, &raw); err != nil {
		return zero, err
	}
	v, err := decode(raw)
	if err != nil {
		return zero, cfg.decodeError(req.method, req.path, err, raw)
	}
	return v, nil
}

// doRecord sends req and decodes its record, bare or under one of keys.
func doRecord[T any](ctx context.Context, c *Client, cfg *config, req request, keys ...string) (*T, error) {
	return doRaw(ctx, c, cfg, req, func(raw json.RawMessage) (*T, error) {
		var v T
		return &v, json.Unmarshal(unwrapRecord(raw, keys...), &v)
	})
}

// unwrapRecord returns the object under one of keys, else data.
func unwrapRecord(data json.RawMessage, keys ...string) json.RawMessage {
	var obj map[string]json.RawMessage
	if json.Unmarshal(data, &obj) != nil {
		return data
	}
	for _, k := range keys {
		if v, ok := obj[k]; ok {
			v = bytes.TrimSpace(v)
			if len(v) > 0 && v[0] == '{' {
				return v
			}
		}
	}
	return data
}
