package demoservice

import (
	"context"
	"encoding/json"
	"image/png"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestExecuteValidation(t *testing.T) {
	e := start(t, Options{})
	path := "/agents/" + itoa(chatAgentID) + "/execute"
	withAnswers := func(change map[string]any) map[string]any {
		b := chatReq(nil, "hello")
		ans := b["answers"].(map[string]any)
		for k, v := range change {
			if v == nil {
				delete(ans, k)
			} else {
				ans[k] = v
			}
		}
		return b
	}
	cases := []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"missing temperature", withAnswers(map[string]any{"temperature": nil}), "temperature"},
		{"temperature as number", withAnswers(map[string]any{"temperature": 0.5}), "temperature"},
		{"temperature not an option", withAnswers(map[string]any{"temperature": "0.3"}), "temperature"},
		{"unknown model", withAnswers(map[string]any{"model": "gpt-2"}), "model"},
		{"unknown tool", withAnswers(map[string]any{"tools": "myspace"}), "tools"},
		{"root_id not a number", withAnswers(map[string]any{"root_id": "abc"}), "root_id"},
		{"answers not an object", map[string]any{"answers": "x", "messages": []any{map[string]any{"role": "user", "content": "x"}}}, "answers"},
		{"no answers at all", map[string]any{"messages": []any{map[string]any{"role": "user", "content": "x"}}}, "answers"},
		{"messages missing", map[string]any{"answers": chatAnswers}, "messages"},
		{"messages empty", map[string]any{"answers": chatAnswers, "messages": []any{}}, "messages"},
		{"message without content", map[string]any{"answers": chatAnswers, "messages": []any{map[string]any{"role": "user"}}}, "messages.0"},
		{"unknown file", chatReq(map[string]any{"file_ids": []int{424242}}), "file_ids"},
		{"file ids not a list", chatReq(map[string]any{"file_ids": "8001"}), "file_ids"},
		{"stream not a boolean", chatReq(map[string]any{"stream": "yes"}), "stream"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.t = t
			e.expectError("POST", path, c.body, 422, "", c.field)
		})
	}
	e.t = t

	// The question names are accepted at the top level and merged.
	top := map[string]any{"answers": map[string]any{}, "temperature": "1", "model": "gemini-2.5-pro", "tools": "internet",
		"messages": []any{map[string]any{"role": "user", "content": "Plan the budget review"}}, "wait_execution": true}
	out := e.call("POST", path, top, 200)
	if out["template_id"] != itoa(chatAgentID) {
		t.Fatalf("template_id %v", out["template_id"])
	}
	recs := e.svc.Executions()
	if got := recs[len(recs)-1].Answers; got["model"] != "gemini-2.5-pro" || got["tools"] != "internet" {
		t.Fatalf("top-level answers not merged: %v", got)
	}

	// Number questions take numbers or numeric strings.
	textPath := "/agents/" + itoa(textAgentID) + "/execute"
	e.call("POST", textPath, map[string]any{"answers": map[string]any{"prompt": "A note", "tone": "formal", "length": "120"}}, 200)
	e.call("POST", textPath, map[string]any{"answers": map[string]any{"prompt": "A note", "tone": "formal", "length": 120}}, 200)
	e.expectError("POST", textPath, map[string]any{"answers": map[string]any{"prompt": "A note", "tone": "formal", "length": "many"}}, 422, "", "length")
	e.expectError("POST", textPath, map[string]any{"answers": map[string]any{"prompt": "A note", "length": 100}}, 422, "", "tone")
	e.expectError("POST", textPath, map[string]any{"answers": map[string]any{"tone": "formal", "length": 100}}, 422, "The prompt field is required.", "prompt")
	e.expectError("POST", "/agents/99999/execute", chatReq(nil, "hi"), 404, "Agent not found", "")
	e.expectError("POST", "/agents/"+itoa(imageAgentID)+"/execute", map[string]any{"answers": map[string]any{"prompt": "A mug", "style": "photo"}}, 422, "", "aspect_ratio")
}

func TestChatMessageRules(t *testing.T) {
	e := start(t, Options{})
	msg := func(role string) map[string]any { return map[string]any{"role": role, "content": "text from " + role} }
	cases := []struct {
		name  string
		roles []string
		ok    bool
	}{
		{"single user", []string{"user"}, true},
		{"developer then user", []string{"developer", "user"}, true},
		{"full exchange", []string{"user", "assistant", "user"}, true},
		{"developer and exchange", []string{"developer", "user", "assistant", "user"}, true},
		{"two users", []string{"user", "user"}, false},
		{"two assistants", []string{"user", "assistant", "assistant", "user"}, false},
		{"starts with assistant", []string{"assistant", "user"}, false},
		{"ends with assistant", []string{"user", "assistant"}, false},
		{"system first", []string{"system", "user"}, false},
		{"system later", []string{"user", "assistant", "system"}, false},
		{"developer not first", []string{"user", "developer", "user"}, false},
		{"developer only", []string{"developer"}, false},
		{"two developers", []string{"developer", "developer", "user"}, false},
		{"unknown role", []string{"tool"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.t = t
			var msgs []any
			for _, r := range c.roles {
				msgs = append(msgs, msg(r))
			}
			body := map[string]any{"answers": chatAnswers, "messages": msgs}
			if c.ok {
				e.call("POST", "/agents/101/execute", body, 200)
				return
			}
			e.expectError("POST", "/agents/101/execute", body, 422, "Chat messages must be a pair of user/assistant", "messages")
		})
	}
}

func TestExecuteBlocking(t *testing.T) {
	e := start(t, Options{})
	body := chatReq(map[string]any{"wait_execution": true, "file_ids": []int{seededFileID}}, "How should we organise the quarterly budget review with finance?")
	out := e.call("POST", "/agents/101/execute", body, 200)
	recs := out["responses"].([]any)
	if len(recs) != 1 {
		t.Fatalf("responses: %v", recs)
	}
	rec := recs[0].(map[string]any)
	output, _ := rec["output"].(string)
	if rec["status"] != "completed" || len(output) < 100 || len(output) > 2500 || rec["input"] != "How should we organise the quarterly budget review with finance?" {
		t.Fatalf("record: %v", rec)
	}
	if !strings.Contains(strings.ToLower(output), "budget") && !strings.Contains(strings.ToLower(output), "quarterly") {
		t.Fatalf("reply does not echo the question's nouns: %s", output)
	}
	if c := num(rec["credits"]); c <= 0 || c > 1 {
		t.Fatalf("credits %v", rec["credits"])
	}
	if num(rec["root_id"]) != num(rec["id"]) || num(rec["template_id"]) != chatAgentID {
		t.Fatalf("root_id %v id %v template_id %v", rec["root_id"], rec["id"], rec["template_id"])
	}
	if !microZPattern.MatchString(rec["created_at"].(string)) {
		t.Fatalf("created_at %v", rec["created_at"])
	}
	last := e.svc.Executions()[len(e.svc.Executions())-1]
	if last.Mode != ModeWait || last.FileIDs[0] != seededFileID || last.Output != output || last.Status != StatusCompleted {
		t.Fatalf("recorded %+v", last)
	}
	// Same input, same reply.
	again := e.call("POST", "/agents/101/execute", body, 200)["responses"].([]any)[0].(map[string]any)
	if again["output"] != output {
		t.Fatal("the generator is not deterministic")
	}
}

func TestExecuteBlockingCapAnswersRunning(t *testing.T) {
	e := start(t, Options{Pace: 20 * time.Millisecond, WaitCap: 60 * time.Millisecond})
	out := e.call("POST", "/agents/101/execute", chatReq(map[string]any{"wait_execution": true}, "Write a long memo about office moves"), 200)
	rec := out["responses"].([]any)[0].(map[string]any)
	if rec["status"] != "running" || rec["credits"] != nil {
		t.Fatalf("after the cap: %v", rec)
	}
	// The client can switch to polling.
	id := int(num(rec["id"]))
	got := e.call("GET", "/agents/101/responses/"+itoa(id), nil, 200)
	if got["status"] != "running" && got["status"] != "completed" {
		t.Fatalf("poll after cap: %v", got)
	}
}

func TestExecutePollingProgression(t *testing.T) {
	e := start(t, Options{Pace: 2 * time.Millisecond})
	out := e.call("POST", "/agents/101/execute", chatReq(nil, "Summarise the supplier contract renewal"), 200)
	rec := out["responses"].([]any)[0].(map[string]any)
	if rec["status"] != "starting" || rec["output"] != "" || num(rec["credits"]) != startingCredits || rec["input"] != nil {
		t.Fatalf("first answer: %v", rec)
	}
	path := "/agents/101/responses/" + strconv.FormatFloat(num(rec["id"]), 'f', 0, 64)
	seen := map[string]bool{}
	deadline := time.Now().Add(20 * time.Second)
	var last map[string]any
	for time.Now().Before(deadline) {
		last = e.call("GET", path, nil, 200)
		seen[last["status"].(string)] = true
		if last["status"] == "completed" {
			break
		}
		if last["status"] == "running" && last["credits"] != nil {
			t.Fatalf("running record with credits: %v", last)
		}
		time.Sleep(3 * time.Millisecond)
	}
	if last["status"] != "completed" || !seen["running"] || len(last["output"].(string)) < 100 || num(last["credits"]) <= 0 {
		t.Fatalf("progression: seen %v, last %v", seen, last)
	}
	e.expectError("GET", "/agents/101/responses/1", nil, 404, "Response not found", "")
	e.expectError("GET", "/agents/102/responses/"+strconv.FormatFloat(num(rec["id"]), 'f', 0, 64), nil, 404, "Response not found", "")
	e.expectError("GET", "/agents/999999/responses/1", nil, 404, "Agent not found", "")

	// With Pace 0 a poll right after the answer sees the completed run.
	instant := start(t, Options{})
	first := instant.call("POST", "/agents/101/execute", chatReq(nil, "hello there"), 200)["responses"].([]any)[0].(map[string]any)
	done := instant.call("GET", "/agents/101/responses/"+strconv.FormatFloat(num(first["id"]), 'f', 0, 64), nil, 200)
	if first["status"] != "starting" || done["status"] != "completed" {
		t.Fatalf("instant: %v then %v", first["status"], done["status"])
	}
}

func TestExecuteStream(t *testing.T) {
	e := start(t, Options{})
	res, err := e.srv.Client().Do(e.request("POST", "/agents/101/execute", chatReq(map[string]any{"stream": true}, "Draft an agenda for the marketing offsite")))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("content type %q", ct)
	}
	evs, err := readSSE(t, res.Body)
	if err != nil {
		t.Fatal(err)
	}
	pings := 0
	for _, ev := range evs {
		if ev.comment && ev.data == ": ping" {
			pings++
		}
	}
	if pings == 0 {
		t.Fatal("no ping comments")
	}
	data := dataEvents(evs)
	if len(data) < 10 {
		t.Fatalf("%d events", len(data))
	}
	var text strings.Builder
	var id float64
	for i, d := range data {
		var rec map[string]any
		if err := json.Unmarshal([]byte(d), &rec); err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
		for _, key := range []string{"id", "status", "output", "error", "credits", "root_id", "created_at", "updated_at", "template_id"} {
			if _, ok := rec[key]; !ok {
				t.Fatalf("event %d lacks %s: %s", i, key, d)
			}
		}
		if rec["error"] != nil {
			t.Fatalf("error not null: %s", d)
		}
		if i == 0 {
			id = num(rec["id"])
		}
		if num(rec["id"]) != id || num(rec["root_id"]) != id {
			t.Fatalf("event %d ids: %s", i, d)
		}
		frag := rec["output"].(string)
		if i < len(data)-1 {
			if rec["status"] != "running" || rec["credits"] != nil {
				t.Fatalf("event %d: %s", i, d)
			}
			if n := utf8.RuneCountInString(frag); n < 1 || n > 12 {
				t.Fatalf("fragment %q has %d characters", frag, n)
			}
			text.WriteString(frag)
			continue
		}
		if rec["status"] != "completed" || frag != "" || num(rec["credits"]) <= 0 {
			t.Fatalf("last event: %s", d)
		}
	}
	recs := e.svc.Executions()
	last := recs[len(recs)-1]
	if last.Mode != ModeStream || last.Output != text.String() || last.Status != StatusCompleted || last.Stopped {
		t.Fatalf("recorded %q (%s), streamed %q", last.Output, last.Status, text.String())
	}
}

func TestStreamStopsWhenClientLeaves(t *testing.T) {
	e := start(t, Options{Pace: 10 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	req := e.request("POST", "/agents/101/execute", chatReq(map[string]any{"stream": true}, "Write a detailed travel policy"))
	res, err := e.srv.Client().Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	if _, err := res.Body.Read(buf); err != nil {
		t.Fatal(err)
	}
	cancel()
	res.Body.Close()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		recs := e.svc.Executions()
		if last := recs[len(recs)-1]; last.Stopped {
			if last.Status == StatusCompleted {
				t.Fatal("a stopped run must not complete")
			}
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("generation did not stop after the client left")
}

func TestRootIDContinuation(t *testing.T) {
	e := start(t, Options{})
	first := e.call("POST", "/agents/101/execute", chatReq(map[string]any{"wait_execution": true}, "Plan the team offsite"), 200)["responses"].([]any)[0].(map[string]any)
	root := num(first["root_id"])
	if root != num(first["id"]) {
		t.Fatalf("first message root %v id %v", root, first["id"])
	}
	body := chatReq(map[string]any{"wait_execution": true}, "Plan the team offsite", first["output"].(string), "Add a budget table")
	body["answers"].(map[string]any)["root_id"] = root
	second := e.call("POST", "/agents/101/execute", body, 200)["responses"].([]any)[0].(map[string]any)
	if num(second["root_id"]) != root || num(second["id"]) == root {
		t.Fatalf("continuation: %v", second)
	}
	// At the top level, in a stream.
	body = chatReq(map[string]any{"stream": true, "root_id": root}, "Plan the team offsite", "ok", "And a packing list")
	res, err := e.srv.Client().Do(e.request("POST", "/agents/101/execute", body))
	if err != nil {
		t.Fatal(err)
	}
	evs, _ := readSSE(t, res.Body)
	res.Body.Close()
	var rec map[string]any
	_ = json.Unmarshal([]byte(dataEvents(evs)[0]), &rec)
	if num(rec["root_id"]) != root {
		t.Fatalf("stream continuation root %v, want %v", rec["root_id"], root)
	}
}

func TestMediaAgents(t *testing.T) {
	e := start(t, Options{})
	out := e.call("POST", "/agents/"+itoa(imageAgentID)+"/execute", map[string]any{"wait_execution": true,
		"answers":  map[string]any{"prompt": "A ceramic coffee mug", "style": "photo", "aspect_ratio": "16:9"},
		"messages": []any{map[string]any{"role": "user", "content": "A ceramic coffee mug on a walnut desk"}}}, 200)
	rec := out["responses"].([]any)[0].(map[string]any)
	url := rec["output"].(string)
	if !strings.HasPrefix(url, e.srv.URL+"/generated/images/") || !strings.HasSuffix(url, ".png") {
		t.Fatalf("image url %q", url)
	}
	res, err := http.Get(url) // no key needed
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(res.Body)
	res.Body.Close()
	if err != nil || res.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("png: %v %q", err, res.Header.Get("Content-Type"))
	}
	if b := img.Bounds(); b.Dx() <= b.Dy() {
		t.Fatalf("16:9 picture is %v", b)
	}

	out = e.call("POST", "/agents/"+itoa(videoAgentID)+"/execute", map[string]any{"wait_execution": true,
		"answers": map[string]any{"prompt": "A welcome to the office", "duration": 15, "aspect_ratio": "9:16"}}, 200)
	url = out["responses"].([]any)[0].(map[string]any)["output"].(string)
	res, err = http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "video/mp4" || res.ContentLength < 1000 {
		t.Fatalf("video: %d %q %d", res.StatusCode, res.Header.Get("Content-Type"), res.ContentLength)
	}
	status, _, _ := e.do("GET", "/generated/images/999.png", nil)
	if status != 404 {
		t.Fatalf("unknown media: %d", status)
	}

	// Text agents stream markdown too.
	res, err = e.srv.Client().Do(e.request("POST", "/agents/"+itoa(textAgentID)+"/execute", map[string]any{"stream": true,
		"answers": map[string]any{"prompt": "The summer party", "tone": "friendly", "length": 150, "format": "paragraphs"}}))
	if err != nil {
		t.Fatal(err)
	}
	evs, _ := readSSE(t, res.Body)
	res.Body.Close()
	if data := dataEvents(evs); len(data) < 20 || !strings.Contains(data[len(data)-1], `"completed"`) {
		t.Fatalf("text stream: %d events", len(data))
	}
}

// A chat agent asked for a table answers with a table on what was asked,
// and asked for a formula with one; the long reply that tries a client out
// comes only when a long answer is asked for.
func TestAChatAskedForATableOrAFormulaGetsOneThatFits(t *testing.T) {
	e := start(t, Options{})
	ask := func(text string) string {
		t.Helper()
		rec := e.call("POST", "/agents/101/execute", chatReq(map[string]any{"wait_execution": true}, text), 200)["responses"].([]any)[0].(map[string]any)
		return rec["output"].(string)
	}
	for _, q := range []string{"Make a table of the action items for the supplier review", "Put the supplier review steps in a table"} {
		out := ask(q)
		if !strings.Contains(out, "|---|") || !strings.Contains(strings.ToLower(out), "supplier") || strings.Contains(out, "### Month") {
			t.Fatalf("%q got:\n%s", q, out)
		}
	}
	if out := ask("Give me a formula to add up the supplier invoices"); !strings.Contains(out, "```") || strings.Contains(out, "### Month") {
		t.Fatalf("a formula asked for got:\n%s", out)
	}
	if out := ask("Please write a long answer"); out != RichReply() {
		t.Fatal("a long answer asked for should be the long reply")
	}
}
