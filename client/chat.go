package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
)

// ChatCompletionParams is a request to the chat-completions-compatible
// endpoint. Only model, messages, temperature and tools are supported by the
// service.
type ChatCompletionParams struct {
	Model string
	// Messages may use the roles system, user and assistant.
	Messages    []Message
	Temperature *float64
	// Tools is one of the agent's tools options ("no-tools", "internet", ...).
	Tools string
}

func (p ChatCompletionParams) body(stream bool) map[string]any {
	b := map[string]any{"messages": p.Messages}
	if p.Messages == nil {
		b["messages"] = []Message{}
	}
	if p.Model != "" {
		b["model"] = p.Model
	}
	if p.Temperature != nil {
		b["temperature"] = *p.Temperature
	}
	if p.Tools != "" {
		b["tools"] = p.Tools
	}
	b["stream"] = stream
	return b
}

// Float returns a pointer to v, for ChatCompletionParams.Temperature.
func Float(v float64) *float64 { return &v }

// ChatCompletion is the answer of the chat-completions-compatible endpoint.
//
// Assumption: the service follows the widely used chat-completions format
// (id, object, created, model, choices[].message, usage); unknown members are
// kept in Extra.
type ChatCompletion struct {
	ID      string                     `json:"id"`
	Object  string                     `json:"object"`
	Created int64                      `json:"created"`
	Model   string                     `json:"model"`
	Choices []ChatChoice               `json:"choices"`
	Usage   *ChatUsage                 `json:"usage,omitempty"`
	Extra   map[string]json.RawMessage `json:"-"`
}

// ChatChoice is one choice of a completion; in a streamed chunk Delta holds
// the new text instead of Message.
type ChatChoice struct {
	Index        int     `json:"index"`
	Message      Message `json:"message"`
	Delta        Message `json:"delta"`
	FinishReason string  `json:"finish_reason"`
}

// ChatUsage counts tokens.
type ChatUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// Text returns the content of the first choice.
func (c *ChatCompletion) Text() string {
	if c == nil || len(c.Choices) == 0 {
		return ""
	}
	if c.Choices[0].Message.Content != "" {
		return c.Choices[0].Message.Content
	}
	return c.Choices[0].Delta.Content
}

func (c *ChatCompletion) UnmarshalJSON(b []byte) error { return decodeLoose(b, c) }
func (c ChatCompletion) MarshalJSON() ([]byte, error)  { return encodeLoose(c) }

// ChatCompletion sends a chat-completions-compatible request
// (POST /agents/{id}/openai/chat/completions) and returns the whole answer.
// It is never retried: it costs credits.
func (c *Client) ChatCompletion(ctx context.Context, agentID ID, params ChatCompletionParams, opts ...Option) (*ChatCompletion, error) {
	return doRecord[ChatCompletion](ctx, c, c.callConfig(opts), request{method: http.MethodPost, path: pathf("/agents/%s/openai/chat/completions", agentID), body: params.body(false)})
}

// ChatCompletionStream is a streamed chat completion: chunks whose
// choices[0].delta.content are text fragments, ending at "data: [DONE]". It
// behaves like Stream: Next/Current/Fragment/Text/Err/Close, and Text keeps
// what was received after an error or Close.
type ChatCompletionStream struct {
	streamState[ChatCompletion]
	finished bool // a chunk carried a finish_reason
}

// ChatCompletionStream sends a chat-completions-compatible request with
// stream: true. It is never retried.
func (c *Client) ChatCompletionStream(ctx context.Context, agentID ID, params ChatCompletionParams, opts ...Option) (*ChatCompletionStream, error) {
	cfg := c.callConfig(opts)
	req := request{method: http.MethodPost, path: pathf("/agents/%s/openai/chat/completions", agentID), body: params.body(true)}
	src, err := c.openEvents(ctx, cfg, req, func(data []byte) ([]string, error) {
		// A server that ignored stream: true answered the whole completion.
		var cc ChatCompletion
		if err := json.Unmarshal(data, &cc); err != nil {
			return nil, err
		}
		if len(cc.Choices) == 0 {
			return nil, fmt.Errorf("the answer holds no choices")
		}
		return []string{string(data), "[DONE]"}, nil
	})
	if err != nil {
		return nil, err
	}
	return &ChatCompletionStream{streamState: streamState[ChatCompletion]{src: src}}, nil
}

// Next advances to the next chunk; false at [DONE] or on failure.
func (s *ChatCompletionStream) Next() (more bool) {
	defer func() { s.guard(recover(), &more) }()
	// Assumption: a stream that ends without [DONE] is complete only if a
	// chunk carried a finish_reason.
	data, ok := s.nextData(func(atDone bool) bool { return atDone || s.finished })
	if !ok {
		return false
	}
	var chunk ChatCompletion
	if err := json.Unmarshal([]byte(data), &chunk); err != nil {
		s.unreadable(err)
		return false
	}
	if raw, ok := chunk.Extra["error"]; ok && !isNull(raw) {
		s.end(&ExecutionError{Text: mask(s.src.key, errorValueText(raw))})
		return false
	}
	s.cur = chunk
	s.fragment = chunk.Text()
	for _, ch := range chunk.Choices {
		if ch.FinishReason != "" {
			s.finished = true
		}
	}
	s.appendText(s.fragment)
	return true
}
