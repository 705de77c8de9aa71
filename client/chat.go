package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
)

// ChatCompletionParams is a request to the chat-completions-compatible endpoint.
type ChatCompletionParams struct {
	Model       string
	Messages    []Message // roles system, user and assistant
	Temperature *float64
	Tools       string // one of the agent's tools options
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

// ChatCompletion is the chat-completions answer. Assumption: the common
// format; unknown members (usage among them) are kept in Extra.
type ChatCompletion struct {
	ID      string                     `json:"id"`
	Object  string                     `json:"object"`
	Created int64                      `json:"created"`
	Model   string                     `json:"model"`
	Choices []ChatChoice               `json:"choices"`
	Extra   map[string]json.RawMessage `json:"-"`
}

// ChatChoice is one choice of a completion; a streamed chunk's text is in Delta.
type ChatChoice struct {
	Index        int     `json:"index"`
	Message      Message `json:"message"`
	Delta        Message `json:"delta"`
	FinishReason string  `json:"finish_reason"`
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

// ChatCompletion sends a chat-completions request and returns the whole answer; never retried.
func (c *Client) ChatCompletion(ctx context.Context, agentID ID, params ChatCompletionParams, opts ...Option) (*ChatCompletion, error) {
	return doRecord[ChatCompletion](ctx, c, c.callConfig(opts), request{method: http.MethodPost, path: pathf("/agents/%s/openai/chat/completions", agentID), body: params.body(false)})
}

// ChatCompletionStream is a streamed chat completion ending at [DONE]; it behaves like Stream.
type ChatCompletionStream struct {
	streamState[ChatCompletion]
	finished bool // a chunk carried a finish_reason
}

// ChatCompletionStream sends a chat-completions request with stream: true; never retried.
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
	// Assumption: without [DONE], complete only if a chunk had a finish_reason.
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
