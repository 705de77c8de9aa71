package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
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

// body is the wire form of POST /agents/{id}/execute. The question names
// temperature, model, tools and root_id are also sent at the top level, as
// the service reads them there; temperature, model and tools always go as
// strings and root_id as a number.
func (p ExecuteParams) body(wait, stream bool) map[string]any {
	answers := make(map[string]any, len(p.Answers))
	for k, v := range p.Answers {
		answers[k] = v
	}
	b := map[string]any{"answers": answers}
	for _, name := range []string{"temperature", "model", "tools"} {
		if v, ok := answers[name]; ok && v != nil {
			s := answerString(v)
			answers[name], b[name] = s, s
		}
	}
	if v, ok := answers["root_id"]; ok && v != nil {
		if id := ID(answerString(v)); id != "" {
			answers["root_id"], b["root_id"] = id, id
		} else {
			delete(answers, "root_id")
		}
	}
	if len(p.Messages) > 0 {
		b["messages"] = p.Messages
	}
	if len(p.FileIDs) > 0 {
		b["file_ids"] = p.FileIDs
	}
	if stream {
		b["stream"] = true
	} else {
		b["wait_execution"] = wait
	}
	return b
}

// answerString formats an answer the way a select option is written.
func answerString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case ID:
		return string(x)
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
	if len(p.Messages) > 0 {
		return CheckChatMessages(p.Messages)
	}
	return nil
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
	var raw json.RawMessage
	// Never retried: an execution costs credits and may already be running.
	if err := c.do(ctx, cfg, request{method: http.MethodPost, path: path, body: p.body(wait, false)}, &raw); err != nil {
		return nil, err
	}
	e, err := decodeExecutionAnswer(raw)
	if err != nil {
		return nil, &DecodeError{Method: http.MethodPost, Path: path, Err: err, Body: truncate(raw, 512)}
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

// Run executes an agent and waits for the result (wait_execution true). The
// service waits at most 100 seconds; if the record is still starting or
// running then, Run polls (see Wait) until it is terminal or ctx ends.
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
	return e, failure(e)
}

// Start executes an agent without waiting (wait_execution false) and returns
// the record in status "starting". Follow it with Poll or Wait.
func (c *Client) Start(ctx context.Context, agentID ID, params ExecuteParams, opts ...Option) (*Execution, error) {
	return c.execute(ctx, agentID, params, false, opts)
}

// Poll reads the current state of an execution once.
//
// Assumption: the service does not document this endpoint; the client uses
// GET /agents/{id}/responses/{responseId} answering one execution record. A
// 404 or 405 there means the server offers no polling: the error wraps
// ErrPollingUnsupported (and the *APIError).
func (c *Client) Poll(ctx context.Context, agentID, responseID ID, opts ...Option) (*Execution, error) {
	cfg := c.callConfig(opts)
	path := pathf("/agents/%s/responses/%s", agentID, responseID)
	var raw json.RawMessage
	err := c.do(ctx, cfg, request{method: http.MethodGet, path: path, retry: true}, &raw)
	if err != nil {
		if s := StatusCode(err); s == http.StatusNotFound || s == http.StatusMethodNotAllowed {
			return nil, fmt.Errorf("%w: %w", ErrPollingUnsupported, err)
		}
		return nil, err
	}
	e, err := decodeExecutionAnswer(raw)
	if err != nil {
		return nil, &DecodeError{Method: http.MethodGet, Path: path, Err: err, Body: truncate(raw, 512)}
	}
	return e, nil
}

// Wait polls an execution until it is terminal or ctx ends, starting with the
// poll interval (WithPollInterval, default 1 s) and growing it by half each
// time up to ten times that (at least 5 s). Transient failures are retried
// inside each poll. A failed execution returns the record and an
// *ExecutionError; when ctx ends, the last record seen is returned with the
// context's error.
func (c *Client) Wait(ctx context.Context, agentID, responseID ID, opts ...Option) (*Execution, error) {
	cfg := c.callConfig(opts)
	interval := cfg.pollInterval
	if interval <= 0 {
		interval = DefaultPollInterval
	}
	maxInterval := max(10*interval, 5*time.Second)
	var last *Execution
	for {
		e, err := c.Poll(ctx, agentID, responseID, opts...)
		if err != nil {
			return last, err
		}
		last = e
		if e.Terminal() {
			return e, failure(e)
		}
		if err := sleepCtx(ctx, interval); err != nil {
			return last, fmt.Errorf("agentdesk: waiting for execution %s: %w", responseID, err)
		}
		interval = min(interval*3/2, maxInterval)
	}
}

// failure returns an *ExecutionError for a failed record, else nil.
func failure(e *Execution) error {
	if e == nil || !e.Failed() {
		return nil
	}
	return &ExecutionError{Execution: *e, Text: e.ErrorText()}
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
