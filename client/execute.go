package client

import (
	"cmp"
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

// ExecuteStyle names how an execute request carries its inputs, per reading.
type ExecuteStyle string

const (
	// StyleAuto starts with StyleRoot and switches once when a server's
	// validation error names the other style's fields.
	StyleAuto ExecuteStyle = ""
	// StyleRoot puts every input at the root with waitExecution (the real service).
	StyleRoot ExecuteStyle = "root"
	// StyleAnswers puts inputs in answers with wait_execution (the spec).
	StyleAnswers ExecuteStyle = "answers"
)

// rootQuestions also go at the root in the answers style; the first three as strings.
var rootQuestions = []string{"temperature", "model", "tools", "root_id"}

// reservedFields are body fields no answer replaces.
var reservedFields = map[string]bool{"answers": true, "messages": true, "file_ids": true, "stream": true, "wait_execution": true, "waitExecution": true}

// normalized returns the answers in wire types, dropping an empty root_id.
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

// wantsOtherStyle reports a refusal of style naming the other style's
// fields; it happens before anything runs, so resending costs nothing.
func (p ExecuteParams) wantsOtherStyle(err error, style ExecuteStyle) bool {
	e := refusal(err)
	switch {
	case e == nil:
		return false
	case style != StyleAnswers:
		return e.Fields["answers"] != nil || len(e.Fields) == 0 && strings.Contains(e.words(), "answers")
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

// ExecuteStyle returns the style detected or given (StyleAuto before the first execution).
func (c *Client) ExecuteStyle() ExecuteStyle {
	return learned(c, &c.style, c.cfg.executeStyle, c.cfg.executeStyle)
}

// sendExecute checks p and sends it to the agent with the account's style,
// once more in the other style when refused for it, and remembers the style
// that worked. Never retried otherwise: an execution costs credits.
func sendExecute[T any](c *Client, cfg *config, agentID ID, p ExecuteParams, wait, stream bool, send func(request) (T, error)) (T, error) {
	if err := p.check(); err != nil {
		var zero T
		return zero, err
	}
	style, other := cmp.Or(learned(c, &c.style, cfg.executeStyle, c.cfg.executeStyle), StyleRoot), StyleAnswers
	if style == StyleAnswers {
		other = StyleRoot
	}
	return inReading(c, &c.style, style, other, func(err error) bool { return p.wantsOtherStyle(err, style) },
		func(s ExecuteStyle) (T, error) {
			return send(request{method: http.MethodPost, path: pathf("/agents/%s/execute", agentID), body: p.body(s, wait, stream)})
		})
}

func (c *Client) execute(ctx context.Context, agentID ID, p ExecuteParams, wait bool, opts []Option) (*Execution, error) {
	cfg := c.callConfig(opts)
	e, err := sendExecute(c, cfg, agentID, p, wait, false, func(req request) (*Execution, error) {
		return doRaw(ctx, c, cfg, req, decodeExecutionAnswer)
	})
	if err != nil {
		return nil, err
	}
	if e.TemplateID == "" {
		e.TemplateID = agentID
	}
	return e, nil
}

// decodeExecutionAnswer reads {"template_id", "responses": [...]}, a bare
// record, or a wrapped one. Assumption: the first response is the new one.
func decodeExecutionAnswer(raw json.RawMessage) (*Execution, error) {
	var ans struct {
		TemplateID ID          `json:"template_id"`
		Responses  []Execution `json:"responses"`
	}
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

// Run executes an agent and waits for the result, polling (see Wait) when
// the service's 100 s wait ends first. A failure returns the record and an
// *ExecutionError. Never retried: an execution costs credits.
func (c *Client) Run(ctx context.Context, agentID ID, params ExecuteParams, opts ...Option) (*Execution, error) {
	e, err := c.execute(ctx, agentID, params, true, opts)
	if err != nil {
		return nil, err
	}
	if !e.Terminal() {
		if f := c.callConfig(opts).onAccepted; f != nil && e.ID != "" {
			f(e)
		}
		w, err := c.Wait(ctx, agentID, e.ID, opts...)
		if w == nil {
			w = e // keep what was received, e.g. when polling is unsupported
		}
		return w, err
	}
	return e, failure(e, c.callConfig(opts).apiKey)
}

// Start executes an agent without waiting; follow it with Poll or Wait.
func (c *Client) Start(ctx context.Context, agentID ID, params ExecuteParams, opts ...Option) (*Execution, error) {
	return c.execute(ctx, agentID, params, false, opts)
}

// PollPath names where a server answers the state of an execution.
type PollPath string

const (
	// PollAuto tries PollResponses, then PollAgentScoped on a 404 or 405.
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

// PollPath returns the polling path that answered last (PollAuto before the first poll).
func (c *Client) PollPath() PollPath { return learned(c, &c.pollPath, c.cfg.pollPath, c.cfg.pollPath) }

// Poll reads an execution's state once, on whichever polling path the
// server offers; with neither the error wraps ErrPollingUnsupported.
func (c *Client) Poll(ctx context.Context, agentID, responseID ID, opts ...Option) (*Execution, error) {
	cfg := c.callConfig(opts)
	first, second := cmp.Or(learned(c, &c.pollPath, cfg.pollPath, c.cfg.pollPath), PollResponses), PollAgentScoped
	if first == PollAgentScoped {
		second = PollResponses
	}
	missing := func(err error) bool {
		s := StatusCode(err)
		return s == http.StatusNotFound || s == http.StatusMethodNotAllowed
	}
	e, err := inReading(c, &c.pollPath, first, second, missing, func(pp PollPath) (*Execution, error) {
		return doRaw(ctx, c, cfg, request{method: http.MethodGet, path: pp.path(agentID, responseID), retry: true}, decodeExecutionAnswer)
	})
	if missing(err) {
		return nil, fmt.Errorf("%w: %w", ErrPollingUnsupported, err)
	}
	return e, err
}

// Wait polls an execution until it is terminal, ctx ends (last record and
// ctx's error) or the poll limit passes (last record and ErrStillRunning).
// Waits start at the poll interval and grow by half, up to five times it
// and never beyond MaxPollInterval (unless the interval itself is longer).
func (c *Client) Wait(ctx context.Context, agentID, responseID ID, opts ...Option) (*Execution, error) {
	cfg := c.callConfig(opts)
	next := pollWaits(cfg.pollInterval)
	interval := next()
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
		interval = next()
	}
}

// pollWaits gives the waits between polls, from first on: each half as
// long again, up to five times first and never beyond MaxPollInterval
// (unless first itself is longer).
func pollWaits(first time.Duration) func() time.Duration {
	limit := max(min(5*first, MaxPollInterval), first)
	wait := first
	return func() time.Duration {
		w := wait
		wait = min(wait*3/2, limit)
		return w
	}
}

// MaxPollInterval is the longest wait between two polls of a long run, to
// spare the key's quota without leaving a finished run unseen for long.
const MaxPollInterval = 15 * time.Second

// failure returns an *ExecutionError for a failed record with key masked.
func failure(e *Execution, key string) error {
	if e == nil || !e.Failed() {
		return nil
	}
	f := *e
	f.Status = mask(key, f.Status)
	return &ExecutionError{Execution: f, Text: mask(key, e.Reason())}
}

// CheckChatMessages applies the service's rules for a chat history: an
// optional developer message, then user and assistant alternating, from
// user to user. It returns ErrChatRules.
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
