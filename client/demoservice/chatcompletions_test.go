package demoservice

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestChatCompletions(t *testing.T) {
	e := start(t, Options{})
	path := "/agents/101/openai/chat/completions"
	body := map[string]any{"model": "claude-sonnet-4-20250514", "temperature": 0.2, "tools": "no-tools",
		"messages": []any{
			map[string]any{"role": "system", "content": "You are a helpful office assistant."},
			map[string]any{"role": "user", "content": "How do I book the large meeting room?"},
		}}
	out := e.call("POST", path, body, 200)
	choice := out["choices"].([]any)[0].(map[string]any)
	msg := choice["message"].(map[string]any)
	usage := out["usage"].(map[string]any)
	if !strings.HasPrefix(out["id"].(string), "chatcmpl-") || out["object"] != "chat.completion" || out["model"] != "claude-sonnet-4-20250514" || num(out["created"]) == 0 {
		t.Fatalf("completion: %v", out)
	}
	if msg["role"] != "assistant" || len(msg["content"].(string)) < 100 || choice["finish_reason"] != "stop" || num(choice["index"]) != 0 {
		t.Fatalf("choice: %v", choice)
	}
	if num(usage["total_tokens"]) != num(usage["prompt_tokens"])+num(usage["completion_tokens"]) || num(usage["completion_tokens"]) == 0 {
		t.Fatalf("usage: %v", usage)
	}
	recs := e.svc.Executions()
	if last := recs[len(recs)-1]; last.Mode != ModeChatCompletions || last.Status != StatusCompleted || last.Output != msg["content"] {
		t.Fatalf("recorded %+v", last)
	}

	body["stream"] = true
	data := e.streamData("POST", path, body)
	if data[len(data)-1] != "[DONE]" {
		t.Fatalf("stream does not end with [DONE]: %q", data[len(data)-1])
	}
	var text strings.Builder
	for i, d := range data[:len(data)-1] {
		var chunk struct {
			ID      string `json:"id"`
			Object  string `json:"object"`
			Choices []struct {
				Delta        map[string]string `json:"delta"`
				FinishReason *string           `json:"finish_reason"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(d), &chunk); err != nil {
			t.Fatalf("chunk %d: %v", i, err)
		}
		c := chunk.Choices[0]
		if chunk.Object != "chat.completion.chunk" || !strings.HasPrefix(chunk.ID, "chatcmpl-") {
			t.Fatalf("chunk %d: %s", i, d)
		}
		if (i == 0) != (c.Delta["role"] == "assistant") {
			t.Fatalf("role on chunk %d: %s", i, d)
		}
		last := i == len(data)-2
		if last != (c.FinishReason != nil && *c.FinishReason == "stop") {
			t.Fatalf("finish_reason on chunk %d: %s", i, d)
		}
		text.WriteString(c.Delta["content"])
	}
	if text.String() != msg["content"] {
		t.Fatal("streamed and plain completions differ for the same input")
	}

	e.expectError("POST", "/agents/"+itoa(textAgentID)+"/openai/chat/completions", body, 422, "", "")
	e.expectError("POST", "/agents/999999/openai/chat/completions", body, 404, "Agent not found", "")
	e.expectError("POST", path, map[string]any{"messages": []any{}}, 422, "", "messages")
	e.expectError("POST", path, map[string]any{"model": "gpt-2", "messages": []any{map[string]any{"role": "user", "content": "x"}}}, 422, "", "model")
}
