package demoservice

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Tests of the real reading (Options.API = APIReal), and of the places where
// the spec reading must answer differently.

// startReal serves the real reading, every answer checked by the contract.
func startReal(t *testing.T, opts Options) *env {
	t.Helper()
	opts.API = APIReal
	return startWith(t, opts, realChecked)
}

// realChecked is whether startReal checks answers against the contract.
const realChecked = true

// realRoot is a real-reading execute body for a chat agent: every input at
// the root.
func realRoot(extra map[string]any, msgs ...string) map[string]any {
	body := chatReq(extra, msgs...)
	for k, v := range body["answers"].(map[string]any) {
		body[k] = v
	}
	delete(body, "answers")
	return body
}

// expectReal checks a real-reading error: status, {"error": msg} (msg ""
// for any), and when field != "" the Validation failed shape naming it.
func (e *env) expectReal(method, path string, body any, status int, msg, field string, hdr ...string) map[string]any {
	e.t.Helper()
	out := e.call(method, path, body, status, hdr...)
	got, _ := out["error"].(string)
	if got == "" || (msg != "" && got != msg) {
		e.t.Fatalf("%s %s: error %v, want %q", method, path, out["error"], msg)
	}
	if _, has := out["message"]; has {
		e.t.Fatalf("%s %s: real error carries message: %v", method, path, out)
	}
	if field != "" {
		msgs, _ := out["messages"].(map[string]any)
		list, _ := msgs[field].([]any)
		if got != "Validation failed" || status != 400 || len(list) == 0 {
			e.t.Fatalf("%s %s: %v does not name %q as Validation failed", method, path, out, field)
		}
	}
	return out
}

func TestRealDefaultReadingIsOneConstant(t *testing.T) {
	if got := New(Options{}).API(); got != APIReal {
		t.Fatalf("the zero Options follow %q", got)
	}
	if New(Options{API: "other"}).API() != APIReal || New(Options{API: APIReal}).API() != APIReal {
		t.Fatal("API() does not report the reading")
	}
	if got := New(Options{API: APIReal}).opts.MaxUploadBytes; got != RealMaxUploadBytes {
		t.Fatalf("real upload limit %d", got)
	}
}

func TestRealAuthentication(t *testing.T) {
	e := startReal(t, Options{})
	for _, auth := range []string{"", "Bearer wrong", "Basic dGVzdA==", "Bearer"} {
		for _, path := range []string{"/agents", "/files", "/agent-responses/1", "/memories", "/nothing"} {
			out := e.call("GET", path, nil, 403, "Authorization", auth)
			if out["error"] != "Invalid authentication" || len(out) != 1 {
				t.Fatalf("%s with %q: %v", path, auth, out)
			}
		}
	}
	e.call("GET", "/agents/101", nil, 200, "Authorization", "bearer "+testKey)
}

func TestRealWorkspaces(t *testing.T) {
	e := startReal(t, Options{})
	if ws := e.svc.workspaces; len(ws) != 1 || ws[0] != 1 {
		t.Fatalf("workspaces %v", ws)
	}
	none := e.call("GET", "/agents?per_page=100", nil, 200)
	one := e.call("GET", "/agents?per_page=100", nil, 200, "x-workspace-id", "1")
	if none["total"] != one["total"] || num(one["total"]) == 0 {
		t.Fatalf("no header %v, header 1 %v", none["total"], one["total"])
	}
	for _, it := range one["data"].([]any) {
		if num(it.(map[string]any)["workspace_id"]) != 1 {
			t.Fatalf("lists %v", it)
		}
	}
	for _, bad := range []string{"abc", "1.5", "x1"} {
		e.expectReal("GET", "/agents", nil, 400, "Validation failed", "x-workspace-id", "x-workspace-id", bad)
	}
	out := e.expectReal("GET", "/agents", nil, 400, "", "x-workspace-id", "x-workspace-id", "main")
	if msg := out["messages"].(map[string]any)["x-workspace-id"].([]any)[0]; msg != "The x-workspace-id must be an integer." {
		t.Fatalf("message %v", msg)
	}
	for _, other := range []string{"2", "999", "-1"} {
		out := e.expectReal("GET", "/files", nil, 403, "You do not have access to this workspace.", "", "x-workspace-id", other)
		if strings.Contains(strings.ToLower(out["error"].(string)), "authentication") {
			t.Fatal("a workspace refusal must not read as an authentication failure")
		}
	}
	// The second workspace's records do not exist here.
	e.expectReal("GET", "/agents/"+itoa(otherWSAgent), nil, 404, "Agent not found", "")
	for _, f := range e.svc.Files() {
		if f.WorkspaceID != 1 {
			t.Fatalf("file of workspace %d seeded", f.WorkspaceID)
		}
	}
}

func TestRealValidationAndRoutingShapes(t *testing.T) {
	e := startReal(t, Options{})
	e.expectReal("GET", "/agents?type=robot", nil, 400, "Validation failed", "type")
	e.expectReal("GET", "/files?per_page=101", nil, 400, "Validation failed", "per_page")
	e.expectReal("GET", "/nothing/here", nil, 404, "", "")
	e.expectReal("GET", "/agents/999999", nil, 404, "Agent not found", "")
	e.expectReal("DELETE", "/agents", nil, 405, "", "")
	e.expectReal("POST", "/agents/101/execute", []byte(`{"temperature":`), 400, "", "")
	e.svc.SetFaults(Faults{Fail500: 1})
	out := e.expectReal("GET", "/agents", nil, 500, "Internal server error", "")
	if len(out) != 1 {
		t.Fatalf("500 body %v", out)
	}
}

func TestRealExecuteRootInputs(t *testing.T) {
	e := startReal(t, Options{})
	path := "/agents/101/execute"

	// Inputs at the root win over the same names in answers.
	body := realRoot(nil, "Plan the budget review")
	body["answers"] = map[string]any{"model": "gpt-2", "tools": "internet"}
	out := e.call("POST", path, body, 200)
	rec := out["responses"].([]any)[0].(map[string]any)
	if out["template_id"] != "101" || rec["status"] != StatusStarting {
		t.Fatalf("non-blocking answer %v", out)
	}
	last := e.svc.Executions()[len(e.svc.Executions())-1]
	if last.Answers["model"] != chatAnswers["model"] || last.Answers["tools"] != "no-tools" || last.Mode != ModePoll {
		t.Fatalf("recorded %+v", last.Answers)
	}

	// A required question missing at the root and in answers is named.
	for _, q := range []string{"temperature", "model", "tools", "messages"} {
		b := realRoot(nil, "hi")
		delete(b, q)
		e.expectReal("POST", path, b, 400, "Validation failed", q)
	}
	bad := realRoot(nil, "hi")
	bad["answers"] = "model"
	e.expectReal("POST", path, bad, 400, "Validation failed", "answers")
	// Other question names of other agents go at the root too.
	e.call("POST", "/agents/"+itoa(textAgentID)+"/execute", map[string]any{"prompt": "A note", "tone": "formal", "length": 100, "language": "de"}, 200)
	if got := e.svc.Executions()[len(e.svc.Executions())-1].Answers; got["language"] != "de" {
		t.Fatalf("root answers %v", got)
	}
	// Chat rules hold; the error is a Validation failed naming messages.
	out = e.expectReal("POST", path, realRoot(nil, "a", "b"), 400, "Validation failed", "messages")
	if got := out["messages"].(map[string]any)["messages"].([]any)[0]; got != chatRuleMessage {
		t.Fatalf("chat rule message %v", got)
	}
}

// TestRealExecuteTakesTheOlderStyle: the real service's older documentation
// puts inputs in answers and waits with wait_execution; it runs, in every
// mode, with root fields filling what answers lacks.
func TestRealExecuteTakesTheOlderStyle(t *testing.T) {
	e := startReal(t, Options{})
	path := "/agents/101/execute"
	rec := e.call("POST", path, chatReq(map[string]any{"wait_execution": true}, "Plan the budget review"), 200)["responses"].([]any)[0].(map[string]any)
	if rec["status"] != StatusSucceeded || rec["input"] != "Plan the budget review" {
		t.Fatalf("blocking answer %v", rec)
	}
	if got := e.svc.Executions()[0]; got.Mode != ModeWait || got.Answers["model"] != chatAnswers["model"] {
		t.Fatalf("recorded %+v", got)
	}
	rec = e.call("POST", path+"?wait_execution=true", chatReq(nil, "hi"), 200)["responses"].([]any)[0].(map[string]any)
	if rec["status"] != StatusSucceeded {
		t.Fatalf("query flag: %v", rec)
	}
	if data := e.streamData("POST", path, chatReq(map[string]any{"stream": true}, "hi")); !strings.Contains(data[len(data)-1], `"completed"`) {
		t.Fatalf("stream ends %s", data[len(data)-1])
	}
	// Messages and root_id in answers; the root's temperature wins.
	body := chatReq(map[string]any{"temperature": "1", "wait_execution": true})
	answers := body["answers"].(map[string]any)
	answers["messages"] = []any{map[string]any{"role": "user", "content": "Continue"}}
	answers["root_id"] = 48201
	delete(body, "messages")
	e.call("POST", path, body, 200)
	last := e.svc.Executions()[len(e.svc.Executions())-1]
	if last.Input != "Continue" || last.RootID != 48201 || last.Answers["temperature"] != "1" {
		t.Fatalf("recorded %+v", last)
	}
	// A text agent's inputs in answers.
	e.call("POST", "/agents/"+itoa(textAgentID)+"/execute", map[string]any{"answers": map[string]any{"prompt": "A note", "tone": "formal", "length": 100}}, 200)
	e.expectReal("POST", "/agents/"+itoa(textAgentID)+"/execute", map[string]any{"answers": map[string]any{"prompt": "A note", "length": 100}}, 400, "", "tone")
}

func TestRealExecuteWaitSpellings(t *testing.T) {
	e := startReal(t, Options{})
	cases := []struct {
		name  string
		query string
		extra map[string]any
		wait  bool
	}{
		{"body waitExecution", "", map[string]any{"waitExecution": true}, true},
		{"body wait_execution", "", map[string]any{"wait_execution": true}, true},
		{"query waitExecution", "?waitExecution=true", nil, true},
		{"query wait_execution", "?wait_execution=true", nil, true},
		{"query 1", "?waitExecution=1", nil, true},
		{"query false", "?waitExecution=false", nil, false},
		{"body false", "", map[string]any{"waitExecution": false}, false},
		{"none", "", nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.t = t
			out := e.call("POST", "/agents/101/execute"+c.query, realRoot(c.extra, "Write the minutes"), 200)
			rec := out["responses"].([]any)[0].(map[string]any)
			if c.wait {
				if rec["status"] != StatusSucceeded || rec["error"] != nil || num(rec["credits"]) <= 0 || len(rec["output"].(string)) < 50 || rec["input"] != "Write the minutes" {
					t.Fatalf("blocking answer %v", rec)
				}
			} else if rec["status"] != StatusStarting {
				t.Fatalf("non-blocking answer %v", rec)
			}
		})
	}
	e.t = t
	e.expectReal("POST", "/agents/101/execute?waitExecution=maybe", realRoot(nil, "x"), 400, "", "waitExecution")
	e.expectReal("POST", "/agents/101/execute", realRoot(map[string]any{"waitExecution": "yes"}, "x"), 400, "", "waitExecution")
}

func TestRealPolling(t *testing.T) {
	e := startReal(t, Options{Pace: 2 * time.Millisecond})
	first := e.call("POST", "/agents/101/execute", realRoot(nil, "Summarise the supplier contract"), 200)["responses"].([]any)[0].(map[string]any)
	id := itoa(int(num(first["id"])))
	seen := map[string]bool{}
	var last map[string]any
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(3 * time.Millisecond) {
		last = e.call("GET", "/agent-responses/"+id, nil, 200)
		seen[last["status"].(string)] = true
		if last["status"] == StatusSucceeded {
			break
		}
	}
	if last["status"] != StatusSucceeded || !seen[StatusRunning] || seen[StatusCompleted] || num(last["credits"]) <= 0 || last["input"] != "Summarise the supplier contract" || num(last["template_id"]) != 101 {
		t.Fatalf("seen %v, last %v", seen, last)
	}
	// Inside the service the run is completed.
	if got := e.svc.Executions()[0].Status; got != StatusCompleted {
		t.Fatalf("recorded status %q", got)
	}
	e.expectReal("GET", "/agent-responses/1", nil, 404, "Response not found", "")
	e.expectReal("GET", "/agent-responses/abc", nil, 404, "", "")
	// The spec reading's polling path is not offered.
	e.expectReal("GET", "/agents/101/responses/"+id, nil, 404, "", "")

	// And the spec reading does not offer the real one.
	spec := start(t, Options{})
	rec := spec.call("POST", "/agents/101/execute", chatReq(nil, "hello"), 200)["responses"].([]any)[0].(map[string]any)
	spec.expectError("GET", "/agent-responses/"+itoa(int(num(rec["id"]))), nil, 404, "", "")
	if got := spec.call("GET", "/agents/101/responses/"+itoa(int(num(rec["id"]))), nil, 200); got["status"] != StatusCompleted {
		t.Fatalf("spec poll %v", got)
	}
}

func TestRealStreamEndsCompleted(t *testing.T) {
	e := startReal(t, Options{})
	data := e.streamData("POST", "/agents/101/execute", realRoot(map[string]any{"stream": true}, "Draft an agenda"))
	var lastRec map[string]any
	for i, d := range data {
		var rec map[string]any
		if err := json.Unmarshal([]byte(d), &rec); err != nil {
			t.Fatal(err)
		}
		if i < len(data)-1 && rec["status"] != StatusRunning {
			t.Fatalf("event %d: %s", i, d)
		}
		lastRec = rec
	}
	if len(data) < 5 || lastRec["status"] != StatusCompleted || num(lastRec["credits"]) <= 0 || lastRec["output"] != "" {
		t.Fatalf("%d events, last %v", len(data), lastRec)
	}
}

func TestExecuteAnswersRequiredInSpecReading(t *testing.T) {
	e := start(t, Options{})
	for name, body := range map[string]map[string]any{
		"root inputs only":     realRoot(nil, "hello"),
		"root inputs and wait": realRoot(map[string]any{"waitExecution": true}, "hello"),
		"nothing":              {},
	} {
		t.Run(name, func(t *testing.T) {
			e.t = t
			out := e.expectError("POST", "/agents/101/execute", body, 422, "", "answers")
			if !strings.Contains(out["message"].(string), "answers") && name != "nothing" {
				t.Fatalf("message %v", out["message"])
			}
		})
	}
	e.t = t
	if n := len(e.svc.Executions()); n != 0 {
		t.Fatalf("%d runs started", n)
	}
	// The spec reading takes no wait flag from the query string.
	rec := e.call("POST", "/agents/101/execute?waitExecution=true", chatReq(nil, "hi"), 200)["responses"].([]any)[0].(map[string]any)
	if rec["status"] != StatusStarting {
		t.Fatalf("query wait honoured in the spec reading: %v", rec)
	}
}

func TestRealFileIDsPerSend(t *testing.T) {
	e := startReal(t, Options{})
	ids := []int{8001, 8002, 8003, 8004, 8005}
	e.call("POST", "/agents/101/execute", realRoot(map[string]any{"file_ids": ids}, "hi"), 200)
	out := e.expectReal("POST", "/agents/101/execute", realRoot(map[string]any{"file_ids": append(ids, 8006)}, "hi"), 400, "", "file_ids")
	if msg := out["messages"].(map[string]any)["file_ids"].([]any)[0].(string); !strings.Contains(msg, "at most 5 files per send") {
		t.Fatalf("message %q", msg)
	}
	// The spec reading sets no such limit.
	start(t, Options{}).call("POST", "/agents/101/execute", chatReq(map[string]any{"file_ids": append(ids, 8006)}, "hi"), 200)
}

func TestFailedExecutions(t *testing.T) {
	for _, api := range []string{APISpec, APIReal} {
		t.Run(api, func(t *testing.T) {
			e := startWith(t, Options{API: api}, api == APISpec || realChecked)
			body := func(extra map[string]any) map[string]any {
				if api == APIReal {
					return realRoot(extra, "Write the minutes")
				}
				return chatReq(extra, "Write the minutes")
			}
			// The reason: the spec reading's error {"message"}, the real
			// one's output with a null error.
			failedAsReading := func(rec map[string]any) bool {
				errObj, _ := rec["error"].(map[string]any)
				if api == APIReal {
					_, has := rec["error"]
					return has && rec["error"] == nil && rec["output"] == failedRunMessage
				}
				return errObj["message"] == failedRunMessage
			}
			e.svc.SetFaults(Faults{FailExecutions: 3})
			// Blocking.
			rec := e.call("POST", "/agents/101/execute", body(map[string]any{"wait_execution": true}), 200)["responses"].([]any)[0].(map[string]any)
			if rec["status"] != StatusFailed || !failedAsReading(rec) || num(rec["credits"]) <= 0 {
				t.Fatalf("blocking failed run %v", rec)
			}
			// Polled.
			first := e.call("POST", "/agents/101/execute", body(nil), 200)["responses"].([]any)[0].(map[string]any)
			poll := "/agents/101/responses/"
			if api == APIReal {
				poll = "/agent-responses/"
			}
			got := e.call("GET", poll+itoa(int(num(first["id"]))), nil, 200)
			if got["status"] != StatusFailed || !failedAsReading(got) {
				t.Fatalf("polled failed run %v", got)
			}
			// Streamed.
			res, err := e.srv.Client().Do(e.request("POST", "/agents/101/execute", body(map[string]any{"stream": true})))
			if err != nil {
				t.Fatal(err)
			}
			evs, _ := readSSE(t, res.Body)
			res.Body.Close()
			data := dataEvents(evs)
			var last map[string]any
			_ = json.Unmarshal([]byte(data[len(data)-1]), &last)
			if last["status"] != StatusFailed || len(data) < 2 || !failedAsReading(last) || (api == APISpec && last["output"] != "") {
				t.Fatalf("stream of a failed run ends %v", last)
			}
			recs := e.svc.Executions()
			for _, r := range recs {
				if r.Status != StatusFailed || r.Error == "" || r.Output == "" || r.Stopped {
					t.Fatalf("recorded %+v", r)
				}
			}
			// The fault is spent.
			rec = e.call("POST", "/agents/101/execute", body(map[string]any{"wait_execution": true}), 200)["responses"].([]any)[0].(map[string]any)
			if rec["status"] == StatusFailed || rec["error"] != nil {
				t.Fatalf("run after the fault %v", rec)
			}
		})
	}
}

func TestRealMemories(t *testing.T) {
	e := startReal(t, Options{})
	// The seed has 4 memories; add 9 more, 3 of them without a collection.
	for i := 0; i < 9; i++ {
		body := map[string]any{"memory": "Note " + itoa(i)}
		if i%3 != 0 {
			body["collection_id"] = 2
		}
		out := e.call("POST", "/memories", body, 201)
		if m := out["memory"].(map[string]any); i%3 == 0 && num(m["collection_id"]) != float64(defaultCollectionID) {
			t.Fatalf("memory without collection_id filed under %v", m["collection_id"])
		}
	}
	page := e.call("GET", "/memories", nil, 200)
	items, meta := page["memories"].([]any), page["meta"].(map[string]any)
	if page["message"] != "Memories fetched successfully!" || len(items) != 10 || num(meta["total"]) != 13 || num(meta["last_page"]) != 2 || num(meta["current_page"]) != 1 || len(meta) != 3 {
		t.Fatalf("first page: %d items, %v", len(items), page)
	}
	first := items[0].(map[string]any)
	if first["memory"] != "Note 8" || num(first["user_id"]) != float64(demoUserID) || len(first) != 5 {
		t.Fatalf("newest first, five fields: %v", first)
	}
	if second := e.call("GET", "/memories?page=2", nil, 200)["memories"].([]any); len(second) != 3 {
		t.Fatalf("second page %d", len(second))
	}
	if all := e.call("GET", "/memories?per_page=50", nil, 200)["memories"].([]any); len(all) != 13 {
		t.Fatalf("per_page 50: %d", len(all))
	}
	filtered := e.call("GET", "/memories?collection_id=2&per_page=50", nil, 200)
	if num(filtered["meta"].(map[string]any)["total"]) != 7 {
		t.Fatalf("collection 2: %v", filtered["meta"])
	}
	for _, it := range filtered["memories"].([]any) {
		if num(it.(map[string]any)["collection_id"]) != 2 {
			t.Fatalf("filter lets through %v", it)
		}
	}
	if n := len(e.call("GET", "/memories?collection_id=999", nil, 200)["memories"].([]any)); n != 0 {
		t.Fatalf("unknown collection lists %d", n)
	}
	e.expectReal("GET", "/memories?per_page=51", nil, 400, "Validation failed", "per_page")
	e.expectReal("GET", "/memories?collection_id=two", nil, 400, "Validation failed", "collection_id")

	if out := e.call("DELETE", "/memories/501", nil, 200); out["message"] != "Memory deleted successfully" {
		t.Fatalf("delete: %v", out)
	}
	if _, ok := e.svc.Memory(501); ok {
		t.Fatal("memory 501 still stored")
	}
	for _, m := range []string{"DELETE", "PATCH"} {
		out := e.call(m, "/memories/501", map[string]any{"memory": "x"}, 404)
		if out["message"] != "Memory not found" || out["error"] != nil {
			t.Fatalf("%s of a deleted memory: %v", m, out)
		}
	}
	// Validation uses the real shape on memories too.
	e.expectReal("POST", "/memories", map[string]any{}, 400, "Validation failed", "memory")
}

func TestRealMemoryCollections(t *testing.T) {
	e := startReal(t, Options{})
	list := e.call("GET", "/memory-collections", nil, 200)
	colls := list["collections"].([]any)
	def := colls[0].(map[string]any)
	if list["message"] != "success" || len(colls) != 4 || num(list["meta"].(map[string]any)["total"]) != 4 {
		t.Fatalf("list: %v", list)
	}
	if num(def["id"]) != float64(defaultCollectionID) || def["name"] != "default" || def["display_name"] != "My Memories" || num(def["user_id"]) != float64(demoUserID) {
		t.Fatalf("default collection: %v", def)
	}
	for q, want := range map[string]int{"MEMORIES": 1, "default": 1, "li": 2, "zzz": 0} {
		if got := len(e.call("GET", "/memory-collections?search="+q, nil, 200)["collections"].([]any)); got != want {
			t.Fatalf("search %q: %d, want %d", q, got, want)
		}
	}

	created := e.call("POST", "/memory-collections", map[string]any{"name": "Suppliers"}, 201)
	c := created["collection"].(map[string]any)
	if created["message"] != "Collection created successfully" || c["name"] != "Suppliers" || c["display_name"] != "Suppliers" || num(c["user_id"]) != float64(demoUserID) || num(c["id"]) != 5 {
		t.Fatalf("create: %v", created)
	}
	e.expectReal("POST", "/memory-collections", map[string]any{}, 400, "Validation failed", "name")
	e.expectReal("POST", "/memory-collections", map[string]any{"name": strings.Repeat("n", 256)}, 400, "Validation failed", "name")
	e.expectReal("POST", "/memory-collections", map[string]any{"name": 5}, 400, "Validation failed", "name")
	e.call("POST", "/memory-collections", map[string]any{"name": strings.Repeat("n", 255)}, 201)
	for i := 0; i < 6; i++ {
		e.call("POST", "/memory-collections", map[string]any{"name": "Batch " + itoa(i)}, 201)
	}
	page := e.call("GET", "/memory-collections", nil, 200)
	if len(page["collections"].([]any)) != 10 || num(page["meta"].(map[string]any)["last_page"]) != 2 {
		t.Fatalf("default per_page 10: %v", page["meta"])
	}
	e.expectReal("GET", "/memory-collections?per_page=51", nil, 400, "Validation failed", "per_page")

	// Deleting a collection deletes its memories.
	id := itoa(int(num(c["id"])))
	for i := 0; i < 3; i++ {
		e.call("POST", "/memories", map[string]any{"memory": "Supplier note " + itoa(i), "collection_id": num(c["id"])}, 201)
	}
	before := len(e.call("GET", "/memories?per_page=50", nil, 200)["memories"].([]any))
	if out := e.call("DELETE", "/memory-collections/"+id, nil, 200); out["message"] != "Collection deleted successfully" {
		t.Fatalf("delete: %v", out)
	}
	if after := len(e.call("GET", "/memories?per_page=50", nil, 200)["memories"].([]any)); after != before-3 {
		t.Fatalf("memories %d after, %d before", after, before)
	}
	if out := e.call("DELETE", "/memory-collections/"+id, nil, 404); out["message"] != "Collection not found" || len(out) != 1 {
		t.Fatalf("delete twice: %v", out)
	}
	if out := e.call("DELETE", "/memory-collections/1", nil, 403); out["message"] != "Default collection cannot be deleted" || len(out) != 1 {
		t.Fatalf("delete default: %v", out)
	}
	if _, ok := e.svc.Collection(1); !ok {
		t.Fatal("default collection gone")
	}
	if out := e.call("PUT", "/memory-collections/999", map[string]any{"name": "x"}, 404); out["message"] != "Collection not found" {
		t.Fatalf("rename missing: %v", out)
	}
	renamed := e.call("PUT", "/memory-collections/2", map[string]any{"name": "Key clients"}, 200)["collection"].(map[string]any)
	if renamed["name"] != "Key clients" || renamed["display_name"] != "Key clients" {
		t.Fatalf("rename: %v", renamed)
	}
}

// TestRealOnlyOperationsInSpecReading checks the spec reading answers the
// real reading's extra operations as it always did: unknown route or
// method.
func TestRealOnlyOperationsInSpecReading(t *testing.T) {
	e := start(t, Options{})
	for _, c := range []struct {
		method, path string
		status       int
	}{
		{"GET", "/memories", 405},
		{"DELETE", "/memories/501", 405},
		{"GET", "/memory-collections", 404},
		{"POST", "/memory-collections", 404},
		{"DELETE", "/memory-collections/2", 405},
		{"POST", "/agents/101/webhooks", 405},
		{"DELETE", "/webhooks/301", 404},
		{"GET", "/files/8001", 404},
		{"DELETE", "/files/8001", 404},
		{"POST", "/files/8001/process", 404},
		{"GET", "/agent-responses/1", 404},
	} {
		e.expectError(c.method, c.path, map[string]any{"name": "x"}, c.status, "", "")
	}
	if _, ok := e.svc.Memory(501); !ok {
		t.Fatal("memory deleted in the spec reading")
	}
	if c, _ := e.svc.Collection(1); c.Name != "General" || c.DisplayName != "" {
		t.Fatalf("spec default collection %+v", c)
	}
}

func TestRealWebhooks(t *testing.T) {
	e := startReal(t, Options{WebhookVariant: "B"})
	before := num(e.call("GET", "/webhooks", nil, 200)["total"])
	created := e.call("POST", "/agents/102/webhooks", map[string]any{"url": "https://hooks.example.com/runs", "method": "GET", "status": "inactive"}, 201)
	for _, k := range []string{"id", "template_id", "user_id", "url", "method", "status", "created_at", "updated_at"} {
		if _, ok := created[k]; !ok {
			t.Fatalf("created webhook lacks %s: %v", k, created)
		}
	}
	if num(created["template_id"]) != 102 || created["method"] != "GET" || created["status"] != "inactive" || created["url"] != "https://hooks.example.com/runs" || !microZPattern.MatchString(created["created_at"].(string)) {
		t.Fatalf("created: %v", created)
	}
	plain := e.call("POST", "/agents/102/webhooks", map[string]any{"url": "https://hooks.example.com/other", "method": "POST"}, 201)
	if plain["status"] != "active" {
		t.Fatalf("default status: %v", plain)
	}
	agent := e.call("GET", "/agents/102/webhooks", nil, 200)["data"].([]any)
	if len(agent) != 2 || agent[0].(map[string]any)["method"] != "GET" || agent[0].(map[string]any)["status"] != "inactive" {
		t.Fatalf("agent list: %v", agent)
	}
	all := e.call("GET", "/webhooks?per_page=100", nil, 200) // envelope even with variant B asked for
	if num(all["total"]) != before+2 || all["data"] == nil {
		t.Fatalf("list: %v", all["total"])
	}

	for _, c := range []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"no url", map[string]any{"method": "POST"}, "url"},
		{"http url", map[string]any{"url": "http://hooks.example.com", "method": "POST"}, "url"},
		{"not a url", map[string]any{"url": "hooks", "method": "POST"}, "url"},
		{"no method", map[string]any{"url": "https://hooks.example.com"}, "method"},
		{"PUT", map[string]any{"url": "https://hooks.example.com", "method": "PUT"}, "method"},
		{"bad status", map[string]any{"url": "https://hooks.example.com", "method": "POST", "status": "paused"}, "status"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e.t = t
			e.expectReal("POST", "/agents/102/webhooks", c.body, 400, "Validation failed", c.field)
		})
	}
	e.t = t
	e.expectReal("POST", "/agents/999999/webhooks", map[string]any{"url": "https://x.example", "method": "POST"}, 404, "Agent not found", "")

	id := itoa(int(num(created["id"])))
	if out := e.call("DELETE", "/webhooks/"+id, nil, 200); out["message"] != "Webhook deleted successfully" {
		t.Fatalf("delete: %v", out)
	}
	e.expectReal("DELETE", "/webhooks/"+id, nil, 404, "Webhook not found", "")
	e.expectReal("DELETE", "/webhooks/abc", nil, 404, "Webhook not found", "")
	if n := len(e.call("GET", "/agents/102/webhooks", nil, 200)["data"].([]any)); n != 1 {
		t.Fatalf("%d webhooks left on the agent", n)
	}
}

// uploadProcess uploads content with the process field set to process
// ("" leaves the field out).
func (e *env) uploadProcess(name string, content []byte, process string) (int, map[string]any) {
	e.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	if process != "" {
		mw.WriteField("process", process) // before the file: order must not matter
	}
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write(content)
	return e.postForm(&buf, mw)
}

func TestRealFiles(t *testing.T) {
	e := startReal(t, Options{})
	content := []byte("Minutes of the board meeting\n")
	status, f := e.upload("file", "minutes.txt", content)
	if status != 200 || f["status"] != FileWaiting || num(f["credits"]) != 0 || f["object"] != "file" || num(f["bytes"]) != float64(len(content)) {
		t.Fatalf("upload: %d %v", status, f)
	}
	id := itoa(int(num(f["id"])))
	if got := e.call("GET", "/files/"+id, nil, 200); got["status"] != FileWaiting || got["filename"] != "minutes.txt" {
		t.Fatalf("get: %v", got)
	}
	done := e.call("POST", "/files/"+id+"/process", nil, 200)
	if done["status"] != FileCompleted || num(done["credits"]) <= 0 {
		t.Fatalf("process with Pace 0: %v", done)
	}
	if again := e.call("POST", "/files/"+id+"/process", nil, 200); again["credits"] != done["credits"] {
		t.Fatalf("processing twice charged again: %v", again)
	}
	for _, p := range []string{"true", "1"} {
		if status, g := e.uploadProcess("sheet.csv", []byte("a,b\n1,2\n"), p); status != 200 || g["status"] != FileCompleted || num(g["credits"]) <= 0 {
			t.Fatalf("process=%s at upload: %d %v", p, status, g)
		}
	}
	if status, g := e.uploadProcess("sheet.csv", []byte("a,b\n"), "false"); status != 200 || g["status"] != FileWaiting {
		t.Fatalf("process=false: %d %v", status, g)
	}
	if status, g := e.uploadProcess("sheet.csv", []byte("a,b\n"), "soon"); status != 400 || g["messages"].(map[string]any)["process"] == nil {
		t.Fatalf("process=soon: %d %v", status, g)
	}
	if status, g := e.upload("", "", nil); status != 400 || g["error"] != "Validation failed" || g["messages"].(map[string]any)["file"] == nil {
		t.Fatalf("no file: %d %v", status, g)
	}

	// Deleting unlinks the file from agents.
	e.call("POST", "/agents/103/files", map[string]any{"file_ids": []any{num(f["id"]), 8001}}, 200)
	if out := e.call("DELETE", "/files/"+id, nil, 200); out["message"] != "File deleted successfully" {
		t.Fatalf("delete: %v", out)
	}
	set := e.call("GET", "/agents/103/files", nil, 200)["files"].([]any)
	if len(set) != 1 || num(set[0].(map[string]any)["id"]) != 8001 {
		t.Fatalf("agent files after delete: %v", set)
	}
	e.expectReal("GET", "/files/"+id, nil, 404, "File not found", "")
	e.expectReal("DELETE", "/files/"+id, nil, 404, "File not found", "")
	e.expectReal("POST", "/files/"+id+"/process", nil, 404, "File not found", "")
	e.expectReal("GET", "/files/abc", nil, 404, "File not found", "")
}

func TestRealFileProcessingProgresses(t *testing.T) {
	e := startReal(t, Options{Pace: time.Millisecond})
	_, f := e.upload("file", "report.pdf", []byte("%PDF-1.4 report"))
	id := itoa(int(num(f["id"])))
	link := e.call("POST", "/agents/102/files", map[string]any{"file_ids": []any{num(f["id"])}}, 200)
	if link["status"] != FileInProgress || num(link["files_count"].(map[string]any)["in_progress"]) != 1 {
		t.Fatalf("link a waiting file: %v", link)
	}
	started := e.call("POST", "/files/"+id+"/process", nil, 200)
	if started["status"] != FileInProgress || num(started["credits"]) != 0 {
		t.Fatalf("process: %v", started)
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		got := e.call("GET", "/files/"+id, nil, 200)
		if got["status"] == FileCompleted {
			if num(got["credits"]) <= 0 {
				t.Fatalf("completed without credits: %v", got)
			}
			return
		}
		if got["status"] != FileInProgress {
			t.Fatalf("status %v", got["status"])
		}
	}
	t.Fatal("processing never completed")
}

func TestRealUploadLimits(t *testing.T) {
	e := startReal(t, Options{MaxUploadBytes: 1024})
	status, out := e.upload("file", "big.bin", bytes.Repeat([]byte("x"), 1025))
	if status != 413 || out["error"] != "File too large. The limit is 1024 bytes." {
		t.Fatalf("too large: %d %v", status, out)
	}
	if RealMaxUploadBytes != 200_000_000 || sizeText(RealMaxUploadBytes) != "200 MB" || sizeText(1500) != "1500 bytes" || sizeText(2000) != "2 KB" || sizeText(200<<20) != "209715200 bytes" {
		t.Fatalf("size text %q %q", sizeText(RealMaxUploadBytes), sizeText(1500))
	}
	// The workspace holds 18 seeded files; 12 more fill it.
	stored := len(e.svc.Files())
	for i := stored; i < maxStoredFiles; i++ {
		if status, out := e.upload("file", "f"+itoa(i)+".txt", []byte("x")); status != 200 {
			t.Fatalf("upload %d: %d %v", i+1, status, out)
		}
	}
	status, out = e.upload("file", "one-too-many.txt", []byte("x"))
	msgs, _ := out["messages"].(map[string]any)
	if status != 400 || out["error"] != "Validation failed" || msgs["file"].([]any)[0] != "You can store at most 30 files. Delete some first." {
		t.Fatalf("31st file: %d %v", status, out)
	}
	e.call("DELETE", "/files/8001", nil, 200)
	if status, _ := e.upload("file", "fits-again.txt", []byte("x")); status != 200 {
		t.Fatalf("after a delete: %d", status)
	}
	// The spec reading keeps no such limit.
	spec := start(t, Options{})
	for i := 0; i < maxStoredFiles; i++ {
		if status, _ := spec.upload("file", "s.txt", []byte("x")); status != 200 {
			t.Fatalf("spec upload %d: %d", i, status)
		}
	}
}

func TestRealChatCompletions(t *testing.T) {
	e := startReal(t, Options{})
	path := "/agents/101/openai/chat/completions"
	msgs := []any{
		map[string]any{"role": "system", "content": "You are brief."},
		map[string]any{"role": "user", "content": "How do I book a room?"},
	}
	chatModels := catalogue.Questions[TypeChat][1].Options
	out := e.call("POST", path, map[string]any{"model": "gpt-4o", "temperature": "1", "messages": msgs}, 200)
	if out["object"] != "chat.completion" || out["model"] != chatModels[0] {
		t.Fatalf("unknown model runs the default: %v", out["model"])
	}
	if out := e.call("POST", path, map[string]any{"model": chatModels[3], "messages": msgs}, 200); out["model"] != chatModels[3] {
		t.Fatalf("offered model: %v", out["model"])
	}

	// expectOpenAI checks the chat-completions error shape.
	expectOpenAI := func(status int, typ, code, param string, body any, hdr ...string) {
		t.Helper()
		got := e.call("POST", path, body, status, hdr...)
		inner, _ := got["error"].(map[string]any)
		if status == 429 && num(got["retry_after"]) >= 1 {
			delete(got, "retry_after") // the real 429's field, beside error
		}
		if len(got) != 1 || inner == nil || inner["message"] == "" || inner["type"] != typ || inner["code"] != code {
			t.Fatalf("%d: %v", status, got)
		}
		if param != "" && inner["param"] != param {
			t.Fatalf("param %v, want %s", inner["param"], param)
		}
	}
	good := map[string]any{"messages": msgs}
	expectOpenAI(401, "authentication_error", "invalid_api_key", "", good, "Authorization", "Bearer wrong")
	expectOpenAI(401, "authentication_error", "invalid_api_key", "", good, "Authorization", "")
	expectOpenAI(400, "invalid_request_error", "invalid_request", "messages", map[string]any{"messages": []any{}})
	expectOpenAI(400, "invalid_request_error", "invalid_request", "temperature", map[string]any{"messages": msgs, "temperature": "hot"})
	expectOpenAI(400, "invalid_request_error", "invalid_request", "", []byte(`{"messages":`))
	expectOpenAI(403, "permission_error", "forbidden", "", good, "x-workspace-id", "2")
	expectOpenAI(400, "invalid_request_error", "invalid_request", "x-workspace-id", good, "x-workspace-id", "two")
	e.svc.SetFaults(Faults{Fail500: 1})
	expectOpenAI(500, "server_error", "internal_error", "", good)
	e.svc.SetFaults(Faults{RateLimit: 1})
	expectOpenAI(429, "rate_limit_error", "rate_limit_exceeded", "", good)
	got := e.call("POST", "/agents/999999/openai/chat/completions", good, 404)
	if inner, _ := got["error"].(map[string]any); inner["code"] != "not_found" {
		t.Fatalf("404: %v", got)
	}
	got = e.call("POST", "/agents/"+itoa(textAgentID)+"/openai/chat/completions", good, 400)
	if _, isObj := got["error"].(map[string]any); !isObj {
		t.Fatalf("text agent: %v", got)
	}
	status, data, hdr := e.do("GET", path, nil)
	if status != 405 || !strings.Contains(string(data), `"method_not_allowed"`) || hdr.Get("Allow") == "" {
		t.Fatalf("405: %d %s", status, data)
	}

	// The spec reading keeps its own shapes here.
	spec := start(t, Options{})
	spec.expectError("POST", path, good, 401, "Unauthenticated.", "", "Authorization", "Bearer wrong")
	spec.expectError("POST", path, map[string]any{"model": "gpt-4o", "messages": msgs}, 422, "", "model")
}

// RequireWorkspace refuses a request without x-workspace-id on the routes
// documented with it, and lets polling and memories go without.
func TestRequireWorkspace(t *testing.T) {
	srv, _ := NewTestService(t, Options{APIKey: "k", RequireWorkspace: true})
	get := func(path, ws string) (int, string) {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		req.Header.Set("Authorization", "Bearer k")
		if ws != "" {
			req.Header.Set("x-workspace-id", ws)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, body := get("/agents", ""); code != http.StatusBadRequest || !strings.Contains(body, `"x-workspace-id"`) {
		t.Fatalf("no workspace: %d %s", code, body)
	}
	if code, body := get("/agents", "1"); code != http.StatusOK {
		t.Fatalf("workspace 1: %d %s", code, body)
	}
	if code, body := get("/memories", ""); code != http.StatusOK {
		t.Fatalf("memories need no workspace: %d %s", code, body)
	}
}
