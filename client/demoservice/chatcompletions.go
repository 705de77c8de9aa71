package demoservice

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// Assumption: the chat-completions endpoint follows the widely used
// chat-completions request and response format (DESIGN.md): a plain answer
// is a chat.completion object with choices and usage; a streamed answer is a
// series of chat.completion.chunk objects whose first delta carries the role,
// a last chunk with finish_reason "stop", then "data: [DONE]".

type completionChoice struct {
	Index        int      `json:"index"`
	Message      *Message `json:"message,omitempty"`
	Delta        *delta   `json:"delta,omitempty"`
	FinishReason *string  `json:"finish_reason"`
}

type delta struct {
	Role    string `json:"role,omitempty"`
	Content string `json:"content,omitempty"`
}

type completionUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

type completion struct {
	ID      string             `json:"id"`
	Object  string             `json:"object"`
	Created int64              `json:"created"`
	Model   string             `json:"model"`
	Choices []completionChoice `json:"choices"`
	Usage   *completionUsage   `json:"usage,omitempty"`
}

// tokensOf estimates tokens the usual way: about four characters each.
func tokensOf(s string) int { return (len(s) + 3) / 4 }

// chatCompletions answers POST /agents/{id}/openai/chat/completions for chat
// agents; in the real reading errors take the chat-completions shape, system
// messages and any model name are accepted.
func (s *Service) chatCompletions(w http.ResponseWriter, r *http.Request) {
	a := s.agentFromPath(r)
	refuseInactive(a)
	if a.Type != TypeChat {
		invalid("agent", "Chat completions are available for chat agents only; this agent's type is "+a.Type+".")
	}
	body := readJSONObject(w, r)
	var errs fieldErrors
	msgs, ok := decodeMessages(body["messages"], &errs)
	if ok && len(msgs) == 0 {
		errs.add("messages", "The messages field is required.")
	}
	for i, m := range msgs {
		if m.Role != "system" && m.Role != "user" && m.Role != "assistant" {
			errs.add(fmt.Sprintf("messages.%d.role", i), "The role must be system, user or assistant.")
		}
	}
	modelQuestion := a.question("model")
	model := ""
	if len(modelQuestion.Options) > 0 {
		model = modelQuestion.Options[0]
	}
	if raw := body["model"]; raw != nil {
		// Assumption: the real service takes any model name (SDKs send their
		// own, such as gpt-4o) and runs the agent's default model for one it
		// does not offer; the answer names the model run.
		m, isStr := raw.(string)
		if isStr && slices.Contains(modelQuestion.Options, m) {
			model = m
		} else if !s.real || !isStr {
			errs.add("model", "The selected model is not offered by this agent.")
		}
	}
	if raw := body["tools"]; raw != nil {
		t, isStr := raw.(string)
		if !isStr || !slices.Contains(a.question("tools").Options, t) {
			errs.add("tools", "The selected tools is invalid.")
		}
	}
	if raw := body["temperature"]; raw != nil {
		if !isNumeric(raw) {
			errs.add("temperature", "The temperature field must be a number.")
		} else if t, _ := json.Number(fmt.Sprint(raw)).Float64(); t < 0 || t > 2 {
			errs.add("temperature", "The temperature field must be between 0 and 2.")
		}
	}
	stream := boolField(&errs, body, "stream")
	errs.check()

	answers := map[string]any{"model": model}
	for _, k := range []string{"temperature", "tools"} {
		if v, ok := body[k]; ok {
			answers[k] = v
		}
	}
	e := s.startExecution(r, a, executeRequest{answers: answers, messages: msgs}, ModeChatCompletions)
	id := fmt.Sprintf("chatcmpl-%d%s", e.rec.ID, shortHash("completion", fmt.Sprint(e.rec.ID)))
	created := s.now().Unix()
	prompt := 0
	for _, m := range msgs {
		prompt += tokensOf(m.Content)
	}

	if !stream {
		// A plain completion answers at once with the whole reply.
		s.mu.Lock()
		text := strings.Join(e.fragments, "")
		e.rec.Output = text
		s.mu.Unlock()
		s.finish(e, StatusCompleted, "", e.final)
		close(e.done)
		stop := "stop"
		writeJSON(w, http.StatusOK, completion{
			ID: id, Object: "chat.completion", Created: created, Model: model,
			Choices: []completionChoice{{Index: 0, Message: &Message{Role: "assistant", Content: text}, FinishReason: &stop}},
			Usage:   &completionUsage{PromptTokens: prompt, CompletionTokens: tokensOf(text), TotalTokens: prompt + tokensOf(text)},
		})
		return
	}
	chunk := func(d delta, finish *string) completion {
		return completion{ID: id, Object: "chat.completion.chunk", Created: created, Model: model,
			Choices: []completionChoice{{Index: 0, Delta: &d, FinishReason: finish}}}
	}
	s.streamRun(w, r, e, func(i int, frag string) any {
		d := delta{Content: frag}
		if i == 0 {
			d.Role = "assistant"
		}
		return chunk(d, nil)
	}, func(sw *sseWriter) {
		stop := "stop"
		if sw.event(chunk(delta{}, &stop)) {
			sw.raw([]byte("[DONE]"))
		}
	})
}
