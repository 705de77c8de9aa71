package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ExecuteParams are the inputs of an execution.
type ExecuteParams struct {
	// Answers maps question names to values. For a chat agent: "model",
	// "temperature" and "tools" (one of each question's options, as
	// strings) and optionally "root_id" to continue a conversation.
	Answers map[string]any
	// Messages is the chat history for a chat agent (see CheckChatMessages).
	Messages []Message
	// FileIDs attaches files to the execution.
	FileIDs []ID
}

// ExecuteStyle names how an execute request carries its inputs. The two
// readings of the interface differ, and a server follows one of them.
type ExecuteStyle string

const (
	// StyleAuto starts with StyleRoot and switches, once per call, when a
	// server refuses the body with a validation error that names the other
	// style's fields; the style that worked is remembered.
	StyleAuto ExecuteStyle = ""
	// StyleRoot puts every input at the root of the body with waitExecution
	// (the real service).
	StyleRoot ExecuteStyle = "root"
	// StyleAnswers puts the inputs in an answers object with wait_execution
	// (the spec); the chat question names go at the root too.
	StyleAnswers ExecuteStyle = "answers"
)

// rootQuestions are the question names the interface also sends at the
// root in the answers style; temperature, model and tools always go as
// strings and root_id as an id.
var rootQuestions = []string{"temperature", "model", "tools", "root_id"}

// reservedFields are body fields of their own; an answer of that name
// never replaces them.
var reservedFields = map[string]bool{"answers": true, "messages": true, "file_ids": true, "stream": true, "wait_execution": true, "waitExecution": true}

// normalized returns the answers with the chat questions in their wire
// types, dropping an empty root_id.
func (p ExecuteParams) normalized() map[string]any {
	answers := make(map[string]any, len(p.Answers))
	for k, v := range p.Answers {
		answers[k] = v
	}
	for _, name := range rootQuestions[:3] {
		if v, ok := answers[name]; ok && v != nil {
			answers[name] = answerString(v)
		}
	}
	if v, ok := answers["root_id"]; ok && v != nil {
		if id := ID(answerString(v)); id != "" {
			answers["root_id"] = id
		} else {
			delete(answers, "root_id")
		}
	}
	return answers
}

// body is the wire form of POST /agents/{id}/execute in the given style.
func (p ExecuteParams) body(style ExecuteStyle, wait, stream bool) map[string]any {
	answers := p.normalized()
	b := map[string]any{}
	if style == StyleAnswers {
		b["answers"] = answers
		for _, name := range rootQuestions {
			if v, ok := answers[name]; ok && v != nil {
				b[name] = v
			}
		}
	} else {
		for k, v := range answers {
			if !reservedFields[k] && v != nil {
				b[k] = v
			}
		}
	}
	if len(p.Messages) > 0 {
		b["messages"] = p.Messages
	}
	if len(p.FileIDs) > 0 {
		b["file_ids"] = p.FileIDs
	}
	switch {
	case stream:
		b["stream"] = true
	case style == StyleAnswers:
		b["wait_execution"] = wait
	default:
		// A server reads its own spelling and ignores the other.
		b["waitExecution"] = wait
		b["wait_execution"] = wait
	}
	return b
}

// wantsOtherStyle reports whether err is a server's refusal of style that
// names the other style's fields: "answers" missing (the server wants the
// answers style), or an input that was sent only inside answers (the
// server reads the root). Such a refusal happens before anything runs, so
// sending the execution again in the other style costs nothing.
func (p ExecuteParams) wantsOtherStyle(err error, style ExecuteStyle) bool {
	var e *APIError
	if !errors.As(err, &e) || (e.StatusCode != http.StatusBadRequest && e.StatusCode != http.StatusUnprocessableEntity) {
		return false
	}
	if style != StyleAnswers {
		if _, ok := e.Fields["answers"]; ok {
			return true
		}
		return len(e.Fields) == 0 && strings.Contains(strings.ToLower(e.Message+" "+e.Detail), "answers")
	}
	for name := range e.Fields {
		if _, sent := p.Answers[name]; sent && !slices.Contains(rootQuestions, name) {
			return true
		}
	}
	return false
}

// MaxFilesPerSend is how many files the real service takes on one chat send.
const MaxFilesPerSend = 5

// answerString formats an answer the way a select option is written.
func answerString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'f', -1, 32)
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}

func (p ExecuteParams) check() error {
	if len(p.FileIDs) > MaxFilesPerSend {
		return &InputError{Field: "file_ids", Message: fmt.Sprintf("The service takes at most %d files at a time; %d are attached. Remove %d, then send again.", MaxFilesPerSend, len(p.FileIDs), len(p.FileIDs)-MaxFilesPerSend)}
	}
	if len(p.Messages) > 0 {
		return CheckChatMessages(p.Messages)
	}
	return nil
}

// ExecuteStyle returns the execute style in use: the one detected (or
// given with WithExecuteStyle), StyleAuto before the first execution. Store
// it per account and pass it back with WithExecuteStyle.
func (c *Client) ExecuteStyle() ExecuteStyle {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.style
}

func (c *Client) styleFor(cfg *config) ExecuteStyle {
	if cfg.executeStyle != c.cfg.executeStyle {
		return cfg.executeStyle // a per-call option
	}
	return c.ExecuteStyle()
}

// sendExecute sends one execution with the account's style; when the server
// refuses the body for its style (before running anything), it is sent once
// in the other style, and the style that worked is remembered.
func sendExecute[T any](c *Client, cfg *config, p ExecuteParams, send func(body map[string]any) (T, error), wait, stream bool) (T, error) {
	style := c.styleFor(cfg)
	if style == StyleAuto {
		style = StyleRoot
	}
	out, err := send(p.body(style, wait, stream))
	if err != nil && p.wantsOtherStyle(err, style) {
		style = otherStyle(style)
		out, err = send(p.body(style, wait, stream))
	}
	if err == nil {
		c.mu.Lock()
		c.style = style
		c.mu.Unlock()
	}
	return out, err
}

func otherStyle(s ExecuteStyle) ExecuteStyle {
	if s == StyleAnswers {
		return StyleRoot
	}
	return StyleAnswers
}

// executeAnswer is the non-stream answer: the agent id and the records.
type executeAnswer struct {
	TemplateID ID          `json:"template_id"`
	Responses  []Execution `json:"responses"`
}

func (c *Client) execute(ctx context.Context, agentID ID, p ExecuteParams, wait bool, opts []Option) (*Execution, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	cfg := c.callConfig(opts)
	path := pathf("/agents/%s/execute", agentID)
	// Never retried on failure: an execution costs credits and may already
	// be running. Only a refusal the server made before acting (a 429, or a
	// validation error about the body's style) leads to a second request.
	e, err := sendExecute(c, cfg, p, func(body map[string]any) (*Execution, error) {
		return doRaw(ctx, c, cfg, request{method: http.MethodPost, path: path, body: body}, decodeExecutionAnswer)
	}, wait, false)
	if err != nil {
		return nil, err
	}
	if e.TemplateID == "" {
		e.TemplateID = agentID
	}
	return e, nil
}

// decodeExecutionAnswer reads {"template_id", "responses": [...]}, a bare
// record, or a record wrapped in "data".
//
// Assumption: when responses holds several records, the first is the
// execution just created.
func decodeExecutionAnswer(raw json.RawMessage) (*Execution, error) {
	var ans executeAnswer
	if err := json.Unmarshal(raw, &ans); err == nil && len(ans.Responses) > 0 {
		e := ans.Responses[0]
		if e.TemplateID == "" {
			e.TemplateID = ans.TemplateID
		}
		return &e, nil
	}
	var e Execution
	if err := json.Unmarshal(unwrapRecord(raw, "data", "response", "execution"), &e); err != nil {
		return nil, err
	}
	if e.ID == "" && e.Status == "" {
		return nil, errors.New("the answer holds no execution record")
	}
	return &e, nil
}

// Run executes an agent and waits for the result (the wait flag set). The
// service waits at most 100 seconds; if the record is still going then, Run
// polls (see Wait) until it is terminal, ctx ends, or the poll limit passes
// (ErrStillRunning, with the last record).
//
// A failed execution returns the record (with any partial output) and an
// *ExecutionError. Run is never retried: an execution costs credits.
func (c *Client) Run(ctx context.Context, agentID ID, params ExecuteParams, opts ...Option) (*Execution, error) {
	e, err := c.execute(ctx, agentID, params, true, opts)
	if err != nil {
		return nil, err
	}
	if !e.Terminal() {
		w, err := c.Wait(ctx, agentID, e.ID, opts...)
		if w == nil {
			w = e // keep what was received, e.g. when polling is unsupported
		}
		return w, err
	}
	return e, failure(e, c.callConfig(opts).apiKey)
}

// Start executes an agent without waiting (the wait flag false) and returns
// the record as the service answered it (starting, running...). Follow it
// with Poll or Wait.
func (c *Client) Start(ctx context.Context, agentID ID, params ExecuteParams, opts ...Option) (*Execution, error) {
	return c.execute(ctx, agentID, params, false, opts)
}

// PollPath names where a server answers the state of an execution.
type PollPath string

const (
	// PollAuto tries PollResponses first and falls back to PollAgentScoped
	// only on a 404 or 405; the path that answered is remembered.
	PollAuto PollPath = ""
	// PollResponses is GET /agent-responses/{id} (the real service).
	PollResponses PollPath = "agent-responses"
	// PollAgentScoped is GET /agents/{id}/responses/{responseId} (the spec).
	PollAgentScoped PollPath = "agent-scoped"
)

func (p PollPath) path(agentID, responseID ID) string {
	if p == PollAgentScoped {
		return pathf("/agents/%s/responses/%s", agentID, responseID)
	}
	return pathf("/agent-responses/%s", responseID)
}

// PollPath returns the polling path in use: the one that answered last (or
// was given with WithPollPath), PollAuto before the first poll. Store it per
// account and pass it back with WithPollPath.
func (c *Client) PollPath() PollPath {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pollPath
}

// Poll reads the current state of an execution once, on the path the
// server offers: GET /agent-responses/{id} first, and only when a server
// answers 404 or 405 there, GET /agents/{id}/responses/{responseId}. When
// neither is offered the error wraps ErrPollingUnsupported (and the
// *APIError). Polling only reads: it never runs the agent again.
func (c *Client) Poll(ctx context.Context, agentID, responseID ID, opts ...Option) (*Execution, error) {
	cfg := c.callConfig(opts)
	first := cfg.pollPath
	if first == c.cfg.pollPath { // no per-call choice: what worked last
		first = c.PollPath()
	}
	if first == PollAuto {
		first = PollResponses
	}
	var err error
	for _, pp := range []PollPath{first, otherPollPath(first)} {
		var e *Execution
		req := request{method: http.MethodGet, path: pp.path(agentID, responseID), retry: true}
		if e, err = doRaw(ctx, c, cfg, req, decodeExecutionAnswer); err == nil {
			c.mu.Lock()
			c.pollPath = pp
			c.mu.Unlock()
			return e, nil
		}
		if s := StatusCode(err); s != http.StatusNotFound && s != http.StatusMethodNotAllowed {
			return nil, err
		}
	}
	return nil, fmt.Errorf("%w: %w", ErrPollingUnsupported, err)
}

func otherPollPath(p PollPath) PollPath {
	if p == PollAgentScoped {
		return PollResponses
	}
	return PollAgentScoped
}

// Wait polls an execution until it is terminal, ctx ends, or the poll limit
// passes (WithPollLimit, 10 minutes by default). The first wait is the poll
// interval (WithPollInterval, 3 s by default); each later one is half as
// long again, up to five times the first (15 s). Transient failures are
// retried inside each poll.
//
// A failed execution returns the record and an *ExecutionError. When the
// limit passes, the last record and an error wrapping ErrStillRunning are
// returned: the execution may still finish on the service; poll it again
// later. When ctx ends, the last record seen is returned with the context's
// error.
func (c *Client) Wait(ctx context.Context, agentID, responseID ID, opts ...Option) (*Execution, error) {
	cfg := c.callConfig(opts)
	interval := cfg.pollInterval
	maxInterval := 5 * interval
	deadline := time.Now().Add(cfg.pollLimit)
	var last *Execution
	for {
		// Polls give way to what the user is doing (see Pacer).
		e, err := c.Poll(Background(ctx), agentID, responseID, opts...)
		if err != nil {
			return last, err
		}
		last = e
		if e.Terminal() {
			return e, failure(e, cfg.apiKey)
		}
		if time.Now().Add(interval).After(deadline) {
			return last, fmt.Errorf("%w (execution %s, status %q)", ErrStillRunning, responseID, e.Status)
		}
		if err := sleepCtx(ctx, interval); err != nil {
			return last, fmt.Errorf("agentdesk: waiting for execution %s: %w", responseID, err)
		}
		interval = min(interval*3/2, maxInterval)
	}
}

// failure returns an *ExecutionError for a failed record, else nil, with
// key (the calling client's) masked in the server's text and status.
func failure(e *Execution, key string) error {
	if e == nil || !e.Failed() {
		return nil
	}
	f := *e
	f.Status = mask(key, f.Status)
	return &ExecutionError{Execution: f, Text: mask(key, e.ErrorText())}
}

// CheckChatMessages applies the service's rules for a chat agent's history
// before anything is sent: an optional developer message first, then user
// and assistant messages alternating, starting and ending with user; system
// is not supported. It returns ErrChatRules, whose text is the service's own.
func CheckChatMessages(msgs []Message) error {
	if len(msgs) > 0 && msgs[0].Role == RoleDeveloper {
		msgs = msgs[1:]
	}
	if len(msgs) == 0 || len(msgs)%2 == 0 {
		return ErrChatRules
	}
	for i, m := range msgs {
		want := RoleUser
		if i%2 == 1 {
			want = RoleAssistant
		}
		if m.Role != want {
			return ErrChatRules
		}
	}
	return nil
}
