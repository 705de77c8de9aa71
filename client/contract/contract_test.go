package contract

import (
	"bufio"
	"crypto/rand"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

func newValidator(t *testing.T) *Validator {
	t.Helper()
	v, err := NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// request builds a request as the client would send it: with the Bearer header
// and, for a body, a JSON content type.
func request(method, target, body string) *http.Request {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	r := httptest.NewRequest(method, "http://agents.example.com"+target, rd)
	r.Header.Set("Authorization", "Bearer k")
	if body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	return r
}

func jsonHeader() http.Header {
	return http.Header{"Content-Type": {"application/json"}}
}

func TestDocumentLoadsAndRecordsAssumptions(t *testing.T) {
	doc, err := Document()
	if err != nil {
		t.Fatal(err)
	}
	again, err := Document()
	if err != nil || again != doc {
		t.Fatalf("Document() should load once and share the result")
	}
	// Every gap the project fills in must be marked as an assumption.
	for _, path := range []string{
		"/agents/{id}/responses/{responseId}",
		"/memories/{memoryId}",
		"/generated/images/{name}",
		"/generated/videos/{name}",
	} {
		item := doc.Paths.Value(path)
		if item == nil {
			t.Errorf("path %s missing", path)
			continue
		}
		if _, ok := item.Extensions["x-assumption"]; !ok {
			t.Errorf("path %s carries no x-assumption", path)
		}
	}
	if _, ok := doc.Paths.Value("/files").Post.Extensions["x-assumption"]; !ok {
		t.Errorf("POST /files carries no x-assumption")
	}
	for _, name := range []string{"Unauthorized", "Forbidden", "NotFound", "MethodNotAllowed", "PayloadTooLarge", "TooManyRequests"} {
		resp := doc.Components.Responses[name]
		if resp == nil || !strings.HasPrefix(*resp.Value.Description, "Assumption:") {
			t.Errorf("shared response %s is not marked as an assumption", name)
		}
	}
	// Operations of one reading only say so.
	for path, item := range doc.Paths.Map() {
		pathReading, _ := item.Extensions["x-reading"].(string)
		for method, op := range item.Operations() {
			reading, _ := op.Extensions["x-reading"].(string)
			if reading == "" {
				reading = pathReading
			}
			if reading == "real" && !strings.HasPrefix(op.Description, "Real reading only") {
				t.Errorf("%s %s is real-only but its description does not say so: %q", method, path, op.Description)
			}
		}
	}
	for _, path := range []string{"/agent-responses/{id}", "/memory-collections", "/files/{fileId}", "/files/{fileId}/process", "/webhooks/{webhookId}", "/v2/files/sign", "/v2/files/register"} {
		if item := doc.Paths.Value(path); item == nil || item.Extensions["x-reading"] != "real" {
			t.Errorf("path %s is not marked x-reading: real", path)
		}
	}
	if doc.Paths.Value("/agents/{id}/responses/{responseId}").Extensions["x-reading"] != "spec" {
		t.Errorf("the spec polling path is not marked x-reading: spec")
	}
	// Every operation of the service (not the built-in media) requires the Bearer key.
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			secured := op.Security == nil || len(*op.Security) > 0
			if media := strings.HasPrefix(path, "/generated/"); secured == media {
				t.Errorf("%s %s: secured=%v", method, path, secured)
			}
		}
	}
}

func TestRequests(t *testing.T) {
	v := newValidator(t)
	long := strings.Repeat("é", 32000)
	tests := []struct {
		name        string
		method, url string
		body        string
		header      map[string]string
		ok          bool
	}{
		{"list agents", "GET", "/agents?q=x&type=chat&page=2&per_page=15", "", nil, true},
		{"list agents bad type", "GET", "/agents?type=robot", "", nil, false},
		{"workspace header", "GET", "/agents", "", map[string]string{"x-workspace-id": "7"}, true},
		{"workspace header not integer", "GET", "/agents", "", map[string]string{"x-workspace-id": "main"}, false},
		{"no key", "GET", "/agents", "", map[string]string{"Authorization": ""}, false},
		{"not bearer", "GET", "/agents", "", map[string]string{"Authorization": "Basic a2V5"}, false},
		{"get agent", "GET", "/agents/12", "", nil, true},
		{"get agent id not integer", "GET", "/agents/abc", "", nil, false},
		{"execute", "POST", "/agents/1/execute", `{"answers":{"x":1},"temperature":"0.5","model":"m","tools":"no-tools","root_id":3,"messages":[{"role":"developer","content":"d"},{"role":"user","content":"hi"}],"wait_execution":true,"file_ids":[1,"f-2"],"stream":false,"custom_question":"yes"}`, nil, true},
		{"execute with inputs at the root (real reading)", "POST", "/agents/1/execute", `{"temperature":"1","model":"m","tools":"no-tools","tone":"formal","messages":[{"role":"user","content":"hi"}],"waitExecution":true}`, nil, true},
		{"execute stream not boolean", "POST", "/agents/1/execute", `{"stream":"yes"}`, nil, false},
		{"execute waitExecution not boolean", "POST", "/agents/1/execute", `{"waitExecution":"yes"}`, nil, false},
		{"execute wait in the query", "POST", "/agents/1/execute?waitExecution=true", `{"temperature":"1"}`, nil, true},
		{"execute older wait in the query", "POST", "/agents/1/execute?wait_execution=true", `{"temperature":"1"}`, nil, true},
		{"execute wait in the query not boolean", "POST", "/agents/1/execute?waitExecution=maybe", `{"temperature":"1"}`, nil, false},
		{"execute answers not an object", "POST", "/agents/1/execute", `{"answers":"x"}`, nil, false},
		{"execute without body", "POST", "/agents/1/execute", "", nil, false},
		{"execute temperature as number", "POST", "/agents/1/execute", `{"answers":{},"temperature":0.5}`, nil, false},
		{"execute with system role", "POST", "/agents/1/execute", `{"answers":{},"messages":[{"role":"system","content":"s"}]}`, nil, false},
		{"execute file id object", "POST", "/agents/1/execute", `{"answers":{},"file_ids":[{"id":1}]}`, nil, false},
		{"poll", "GET", "/agents/1/responses/9", "", nil, true},
		{"poll (real reading)", "GET", "/agent-responses/9", "", nil, true},
		{"list memories", "GET", "/memories?page=1&per_page=50&collection_id=2", "", nil, true},
		{"list memories per_page 51", "GET", "/memories?per_page=51", "", nil, false},
		{"list memories collection not integer", "GET", "/memories?collection_id=two", "", nil, false},
		{"delete memory", "DELETE", "/memories/5", "", nil, true},
		{"delete memory string id", "DELETE", "/memories/abc", "", nil, false},
		{"list collections", "GET", "/memory-collections?search=cli&page=2&per_page=10", "", nil, true},
		{"create collection", "POST", "/memory-collections", `{"name":"Suppliers"}`, nil, true},
		{"create collection without name", "POST", "/memory-collections", `{}`, nil, false},
		{"create collection name too long", "POST", "/memory-collections", `{"name":"` + strings.Repeat("n", 256) + `"}`, nil, false},
		{"delete collection", "DELETE", "/memory-collections/3", "", nil, true},
		{"create webhook", "POST", "/agents/1/webhooks", `{"url":"https://hooks.example.com/a","method":"GET","status":"inactive"}`, nil, true},
		{"create webhook http", "POST", "/agents/1/webhooks", `{"url":"http://hooks.example.com/a","method":"POST"}`, nil, false},
		{"create webhook PUT", "POST", "/agents/1/webhooks", `{"url":"https://hooks.example.com/a","method":"PUT"}`, nil, false},
		{"create webhook without method", "POST", "/agents/1/webhooks", `{"url":"https://hooks.example.com/a"}`, nil, false},
		{"create webhook bad status", "POST", "/agents/1/webhooks", `{"url":"https://hooks.example.com/a","method":"POST","status":"paused"}`, nil, false},
		{"delete webhook", "DELETE", "/webhooks/3", "", nil, true},
		{"get file", "GET", "/files/3", "", nil, true},
		{"delete file", "DELETE", "/files/3", "", nil, true},
		{"process file", "POST", "/files/3/process", "", nil, true},
		{"get file string id", "GET", "/files/abc", "", nil, false},
		{"chat completions", "POST", "/agents/1/openai/chat/completions", `{"model":"m","messages":[{"role":"system","content":"s"},{"role":"user","content":"u"}],"temperature":0.2,"tools":"internet","stream":true}`, nil, true},
		{"chat completions developer role", "POST", "/agents/1/openai/chat/completions", `{"messages":[{"role":"developer","content":"s"}]}`, nil, false},
		{"link files", "POST", "/agents/1/files", `{"file_ids":[1,2]}`, nil, true},
		{"link files without ids", "POST", "/agents/1/files", `{}`, nil, false},
		{"list agent files", "GET", "/agents/1/files", "", nil, true},
		{"list agent files, string agent id", "GET", "/agents/a1/files", "", nil, true},
		{"delete agent file", "DELETE", "/agents/1/files/2", "", nil, true},
		{"list files", "GET", "/files?page=1&per_page=100&order=asc", "", nil, true},
		{"list files per_page 101", "GET", "/files?per_page=101", "", nil, false},
		{"list files per_page 0", "GET", "/files?per_page=0", "", nil, false},
		{"list files page 0", "GET", "/files?page=0", "", nil, false},
		{"list files bad order", "GET", "/files?order=newest", "", nil, false},
		{"create memory A", "POST", "/memories", `{"memory":"m","collection_id":3}`, nil, true},
		{"create memory A at limit", "POST", "/memories", `{"memory":"` + long + `"}`, nil, true},
		{"create memory A too long", "POST", "/memories", `{"memory":"` + long + `x"}`, nil, false},
		{"create memory B", "POST", "/memories", `{"content":"c","metadata":{"source":"s","tags":["a"]}}`, map[string]string{"x-workspace-id": "1"}, true},
		{"create memory both variants", "POST", "/memories", `{"memory":"m","content":"c"}`, nil, false},
		{"create memory neither", "POST", "/memories", `{"text":"m"}`, nil, false},
		{"update memory A", "PATCH", "/memories/5", `{"memory":"m"}`, nil, true},
		{"update memory A string id", "PATCH", "/memories/abc", `{"memory":"m"}`, nil, false},
		{"update memory B", "PUT", "/memories/abc", `{"metadata":{"k":1}}`, nil, true},
		{"update collection", "PUT", "/memory-collections/3", `{"name":"n"}`, nil, true},
		{"update collection without name", "PUT", "/memory-collections/3", `{}`, nil, false},
		{"list resources", "GET", "/resources?q=a&type=t&page=1&per_page=5", "", nil, true},
		{"agent webhooks", "GET", "/agents/1/webhooks?page=1&per_page=15", "", nil, true},
		{"webhooks A", "GET", "/webhooks?page=1&per_page=15", "", nil, true},
		{"webhooks B", "GET", "/webhooks?limit=100&offset=0", "", nil, true},
		{"webhooks B limit 101", "GET", "/webhooks?limit=101", "", nil, false},
		{"generated image without key", "GET", "/generated/images/a.png", "", map[string]string{"Authorization": ""}, true},
		{"unknown path", "GET", "/agents/1/nothing", "", nil, false},
		{"unknown method", "DELETE", "/agents", "", nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := request(tc.method, tc.url, tc.body)
			for k, val := range tc.header {
				if val == "" {
					r.Header.Del(k)
				} else {
					r.Header.Set(k, val)
				}
			}
			var body []byte
			if tc.body != "" {
				body = []byte(tc.body)
			}
			verdict(t, tc.ok, v.ValidateRequest(r, body))
		})
	}
}

// verdict checks that the validator accepted a case (ok) or refused it,
// and logs why it refused.
func verdict(t *testing.T, ok bool, err error) {
	t.Helper()
	if ok && err != nil {
		t.Errorf("refused: %v", err)
	}
	if !ok && err == nil {
		t.Errorf("accepted")
	}
	if err != nil {
		t.Logf("refused: %v", err)
	}
}

func TestRequestBodyIsNotTouched(t *testing.T) {
	v := newValidator(t)
	r := request("POST", "/agents/1/execute", `{"answers":{}}`)
	if err := v.ValidateRequest(r, []byte(`{"answers":{}}`)); err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(r.Body)
	if string(got) != `{"answers":{}}` {
		t.Fatalf("request body changed to %q", got)
	}
}

func TestUploadRequests(t *testing.T) {
	v := newValidator(t)
	ct, body := multipartFile(t, "file", "notes.txt", []byte("hello"))

	r := request("POST", "/files", "")
	r.Header.Set("Content-Type", ct)
	if err := v.ValidateRequest(r, nil); err != nil {
		t.Errorf("multipart upload, body not buffered: %v", err)
	}
	if err := v.ValidateRequest(r, body); err != nil {
		t.Errorf("multipart upload, body buffered: %v", err)
	}
	for value, ok := range map[string]bool{"true": true, "1": true, "false": true, "soon": false} {
		pct, pbody := multipartFileWith(t, "notes.txt", []byte("hello"), map[string]string{"process": value})
		r.Header.Set("Content-Type", pct)
		if err := v.ValidateRequest(r, pbody); (err == nil) != ok {
			t.Errorf("upload with process=%s: %v", value, err)
		}
	}
	wrongCT, wrongBody := multipartFile(t, "upload", "notes.txt", []byte("hello"))
	r.Header.Set("Content-Type", wrongCT)
	if err := v.ValidateRequest(r, wrongBody); err == nil {
		t.Errorf("multipart upload without a file field accepted")
	}
	r.Header.Set("Content-Type", "application/json")
	if err := v.ValidateRequest(r, []byte(`{"file":"x"}`)); err == nil {
		t.Errorf("JSON upload accepted")
	}
}

const (
	ts       = "2024-05-01T10:00:00.000000Z"
	tsOffset = "2024-05-01T10:00:00+00:00"
)

func agentJSON(id int) string {
	return fmt.Sprintf(`{"id":%d,"title":"Chat","description":null,"long_description":"l","workspace_id":1,"visibility":"public","slug":"chat","active":1,"type":"chat","questions":[{"type":"select","name":"temperature","description":"d","required":true,"options":["0","0.5"]},{"type":"number","name":"root_id","description":"d","required":false},{"type":"array","name":"messages","description":"d","required":true},{"type":"file","name":"future","description":"d","required":false}],"created_at":%q,"updated_at":%q,"created_by":2}`, id, ts, ts)
}

func envelope(data string, from, to string) string {
	return fmt.Sprintf(`{"current_page":1,"data":[%s],"first_page_url":"http://x/agents?page=1","from":%s,"last_page":1,"last_page_url":"http://x/agents?page=1","links":[{"url":null,"label":"pagination.previous","active":false},{"url":"http://x/agents?page=1","label":"1","active":true},{"url":null,"label":"pagination.next","active":false}],"next_page_url":null,"path":"http://x/agents","per_page":15,"prev_page_url":null,"to":%s,"total":1}`, data, from, to)
}

func recordJSON(status, output, credits string) string {
	return fmt.Sprintf(`{"id":5,"status":%q,"output":%q,"error":null,"credits":%s,"root_id":5,"created_at":%q,"updated_at":%q,"template_id":1}`, status, output, credits, ts, ts)
}

const (
	fileJSON    = `{"id":3,"object":"file","bytes":10,"created_at":"` + tsOffset + `","filename":"a.txt","credits":0.01,"status":"completed"}`
	webhookJSON = `{"id":1,"template_id":1,"user_id":2,"url":"https://example.com/h","method":"POST","success_count":1,"failure_count":0,"status":"active","created_at":"2024-05-01T10:00:00.000000Z","updated_at":"2024-05-01T10:00:00.000000Z","deleted_at":null}`
	webhookB    = `{"id":1,"url":"https://example.com/h","events":["agent.completed"],"secret":"s","created_at":"2024-05-01T10:00:00Z","updated_at":"2024-05-01T10:00:00Z"}`
	memoryA     = `{"id":1,"user_id":2,"memory":"m","credits":0.1,"collection_id":3}`
	memoryB     = `{"id":1,"content":"c","metadata":{"source":"s","tags":["a"]},"created_at":"` + tsOffset + `","updated_at":"` + tsOffset + `"}`
	resource    = `{"id":"r1","title":"t","description":"d","created_at":"2024-05-01T10:00:00Z","updated_at":"2024-05-01T10:00:00Z"}`
	meta        = `{"current_page":1,"from":1,"last_page":1,"per_page":15,"to":1,"total":1}`
)

func TestResponses(t *testing.T) {
	v := newValidator(t)
	tests := []struct {
		name        string
		method, url string
		status      int
		header      http.Header
		body        string
		ok          bool
	}{
		{"agents page", "GET", "/agents", 200, jsonHeader(), envelope(agentJSON(1), "1", "1"), true},
		{"agents empty page", "GET", "/agents", 200, jsonHeader(), envelope("", "null", "null"), true},
		{"agents page without links", "GET", "/agents", 200, jsonHeader(), strings.Replace(envelope(agentJSON(1), "1", "1"), `"links"`, `"linkz"`, 1), false},
		{"agent", "GET", "/agents/1", 200, jsonHeader(), agentJSON(1), true},
		{"agent with text timestamps", "GET", "/agents/1", 200, jsonHeader(), strings.ReplaceAll(agentJSON(1), ts, "yesterday"), false},
		{"agent unknown type", "GET", "/agents/1", 200, jsonHeader(), strings.Replace(agentJSON(1), `"type":"chat"`, `"type":"audio"`, 1), false},
		{"agent as text", "GET", "/agents/1", 200, http.Header{"Content-Type": {"text/plain"}}, agentJSON(1), false},
		{"execute", "POST", "/agents/1/execute", 200, jsonHeader(), `{"template_id":"1","responses":[` + recordJSON("starting", "", "0.001") + `]}`, true},
		{"execute integer template id", "POST", "/agents/1/execute", 200, jsonHeader(), `{"template_id":1,"responses":[` + recordJSON("completed", "hi", "0.1") + `]}`, true},
		{"execute failed status", "POST", "/agents/1/execute", 200, jsonHeader(), `{"template_id":"1","responses":[` + strings.Replace(recordJSON("failed", "", "null"), `"error":null`, `"error":{"message":"boom"}`, 1) + `]}`, true},
		{"execute credits as string", "POST", "/agents/1/execute", 200, jsonHeader(), `{"template_id":"1","responses":[` + recordJSON("starting", "", `"0.1"`) + `]}`, false},
		{"execute without responses", "POST", "/agents/1/execute", 200, jsonHeader(), `{"template_id":"1"}`, false},
		{"execute chat rule", "POST", "/agents/1/execute", 422, jsonHeader(), `{"message":"Chat messages must be a pair of user/assistant","errors":{"messages":["Chat messages must be a pair of user/assistant"]}}`, true},
		{"422 without message", "POST", "/agents/1/execute", 422, jsonHeader(), `{"errors":{"answers":["required"]}}`, false},
		{"422 errors not lists", "POST", "/agents/1/execute", 422, jsonHeader(), `{"message":"m","errors":{"answers":"required"}}`, false},
		{"poll", "GET", "/agents/1/responses/5", 200, jsonHeader(), recordJSON("running", "", "null"), true},
		{"chat completion", "POST", "/agents/1/openai/chat/completions", 200, jsonHeader(), `{"id":"c1","object":"chat.completion","created":1714557600,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`, true},
		{"chat completion without choices", "POST", "/agents/1/openai/chat/completions", 200, jsonHeader(), `{"id":"c1","object":"chat.completion","created":1,"model":"m"}`, false},
		{"link files", "POST", "/agents/1/files", 200, jsonHeader(), `{"id":1,"files":[` + fileJSON + `],"files_count":{"total":1,"completed":1,"failed":0,"in_progress":0},"status":"completed"}`, true},
		{"link files without count", "POST", "/agents/1/files", 200, jsonHeader(), `{"id":1,"files":[` + fileJSON + `],"status":"completed"}`, false},
		{"agent files", "GET", "/agents/1/files", 200, jsonHeader(), `{"id":1,"files":[],"status":"completed"}`, true},
		{"delete agent file", "DELETE", "/agents/1/files/3", 200, jsonHeader(), `{"id":1,"file":` + fileJSON + `,"removed":true}`, true},
		{"files", "GET", "/files", 200, jsonHeader(), `{"data":[` + fileJSON + `],"current_page":1,"total":1}`, true},
		{"file with Z timestamp", "GET", "/files", 200, jsonHeader(), `{"data":[` + strings.Replace(fileJSON, tsOffset, ts, 1) + `]}`, false},
		{"file wrong object", "GET", "/files", 200, jsonHeader(), `{"data":[` + strings.Replace(fileJSON, `"object":"file"`, `"object":"document"`, 1) + `]}`, false},
		{"upload", "POST", "/files", 201, jsonHeader(), fileJSON, true},
		{"memory A created", "POST", "/memories", 200, jsonHeader(), `{"message":"Memory created","memory":` + memoryA + `}`, true},
		{"memory B created", "POST", "/memories", 201, jsonHeader(), memoryB, true},
		{"memory server error", "POST", "/memories", 500, jsonHeader(), `{"message":"m","error":"e"}`, true},
		{"memory server error not string", "POST", "/memories", 500, jsonHeader(), `{"message":"m","error":{"code":1}}`, false},
		{"memory A updated", "PATCH", "/memories/1", 200, jsonHeader(), `{"message":"ok","memory":` + strings.Replace(memoryA, `}`, `,"collection":{"id":3,"user_id":2,"name":"n"}}`, 1) + `}`, true},
		{"memory A updated without collection", "PATCH", "/memories/1", 200, jsonHeader(), `{"message":"ok","memory":` + memoryA + `}`, false},
		{"memory A missing", "PATCH", "/memories/1", 404, jsonHeader(), `{"message":"Memory not found"}`, true},
		{"memory B updated", "PUT", "/memories/x", 200, jsonHeader(), memoryB, true},
		{"collection updated", "PUT", "/memory-collections/3", 200, jsonHeader(), `{"message":"ok","collection":{"id":3,"user_id":2,"name":"n"}}`, true},
		{"collection missing", "PUT", "/memory-collections/3", 404, jsonHeader(), `{"message":"Collection not found"}`, true},
		{"collection missing other text", "PUT", "/memory-collections/3", 404, jsonHeader(), `{"message":"Not found"}`, false},
		{"resources", "GET", "/resources", 200, jsonHeader(), `{"data":[` + resource + `],"meta":` + meta + `}`, true},
		{"resource integer id", "GET", "/resources", 200, jsonHeader(), `{"data":[` + strings.Replace(resource, `"r1"`, `1`, 1) + `],"meta":` + meta + `}`, false},
		{"agent webhooks", "GET", "/agents/1/webhooks", 200, jsonHeader(), envelope(webhookJSON, "1", "1"), true},
		{"webhooks A", "GET", "/webhooks", 200, jsonHeader(), envelope(webhookJSON, "1", "1"), true},
		{"webhooks B", "GET", "/webhooks", 200, jsonHeader(), `{"webhooks":[` + webhookB + `],"total":1,"limit":25,"offset":0}`, true},
		{"webhooks B without total", "GET", "/webhooks", 200, jsonHeader(), `{"webhooks":[],"limit":25,"offset":0}`, false},
		{"unauthorized", "GET", "/agents", 401, jsonHeader(), `{"message":"Unauthenticated."}`, true},
		{"unauthorized as text", "GET", "/agents", 401, http.Header{"Content-Type": {"text/plain"}}, "Unauthenticated.", false},
		{"rate limited", "GET", "/agents", 429, http.Header{"Content-Type": {"application/json"}, "Retry-After": {"2"}}, `{"message":"Too Many Attempts."}`, true},
		{"rate limited without Retry-After", "GET", "/agents", 429, jsonHeader(), `{"message":"Too Many Attempts."}`, false},
		{"undocumented status", "GET", "/agents", 418, jsonHeader(), `{"message":"teapot"}`, false},

		// The real reading's answers.
		{"real auth", "GET", "/agents", 403, jsonHeader(), `{"error":"Invalid authentication"}`, true},
		{"real workspace refused", "GET", "/files", 403, jsonHeader(), `{"error":"You do not have access to this workspace."}`, true},
		{"real validation", "GET", "/agents", 400, jsonHeader(), `{"error":"Validation failed","messages":{"x-workspace-id":["The x-workspace-id must be an integer."]}}`, true},
		{"real validation messages not lists", "GET", "/agents", 400, jsonHeader(), `{"error":"Validation failed","messages":{"type":"bad"}}`, false},
		{"real error not a string", "GET", "/agents", 404, jsonHeader(), `{"error":42}`, false},
		{"real execute refused", "POST", "/agents/1/execute", 400, jsonHeader(), `{"error":"Validation failed","messages":{"temperature":["The temperature field is required."]}}`, true},
		{"real blocking succeeded", "POST", "/agents/1/execute?waitExecution=true", 200, jsonHeader(), `{"template_id":"1","responses":[` + recordJSON("succeeded", "hi", "0.1") + `]}`, true},
		{"real poll succeeded", "GET", "/agent-responses/5", 200, jsonHeader(), strings.Replace(recordJSON("succeeded", "hi", "0.006145"), `"output"`, `"input":"hello","output"`, 1), true},
		{"real poll failed", "GET", "/agent-responses/5", 200, jsonHeader(), strings.Replace(recordJSON("failed", "", "0.01"), `"error":null`, `"error":{"message":"boom"}`, 1), true},
		{"real poll not found", "GET", "/agent-responses/5", 404, jsonHeader(), `{"error":"Response not found"}`, true},
		{"real 500", "GET", "/agents", 500, jsonHeader(), `{"error":"Internal server error"}`, true},
		{"real 429 with retry_after only", "GET", "/agents", 429, jsonHeader(), `{"error":"Rate limit exceeded","retry_after":60}`, true},
		{"real 429 with both", "GET", "/agents", 429, http.Header{"Content-Type": {"application/json"}, "Retry-After": {"60"}}, `{"error":"Rate limit exceeded","retry_after":60}`, true},
		{"429 telling no wait", "GET", "/agents", 429, jsonHeader(), `{"error":"Rate limit exceeded"}`, false},
		{"429 with retry_after 0", "GET", "/agents", 429, jsonHeader(), `{"error":"Rate limit exceeded","retry_after":0}`, false},
		{"HTML 500", "GET", "/agents", 500, http.Header{"Content-Type": {"text/html; charset=utf-8"}}, "<!DOCTYPE html><html><body><h1>Server Error</h1></body></html>", true},
		{"empty 500", "GET", "/agents", 500, http.Header{}, "", true},
		{"empty 500 on an unknown path", "GET", "/nothing", 500, http.Header{}, "", true},
		{"HTML 500 on an unknown path", "GET", "/nothing", 500, http.Header{"Content-Type": {"text/html"}}, "<html></html>", true},
		{"HTML 404", "GET", "/agents/1", 404, http.Header{"Content-Type": {"text/html"}}, "<html></html>", false},
		{"empty 200", "GET", "/agents/1", 200, http.Header{}, "", false},
		{"chat completions auth (real)", "POST", "/agents/1/openai/chat/completions", 401, jsonHeader(), `{"error":{"message":"Invalid API key","type":"authentication_error","code":"invalid_api_key","param":null}}`, true},
		{"chat completions validation (real)", "POST", "/agents/1/openai/chat/completions", 400, jsonHeader(), `{"error":{"message":"The messages field is required.","type":"invalid_request_error","code":"invalid_request","param":"messages"}}`, true},
		{"chat completions error without type", "POST", "/agents/1/openai/chat/completions", 401, jsonHeader(), `{"error":{"message":"Invalid API key"}}`, false},
		{"chat completions 500 (real)", "POST", "/agents/1/openai/chat/completions", 500, jsonHeader(), `{"error":{"message":"Internal server error","type":"server_error","code":"internal_error"}}`, true},
		{"memories", "GET", "/memories", 200, jsonHeader(), `{"message":"Memories fetched successfully!","memories":[` + memoryA + `],"meta":{"current_page":1,"last_page":1,"total":1}}`, true},
		{"memories without meta", "GET", "/memories", 200, jsonHeader(), `{"message":"Memories fetched successfully!","memories":[]}`, false},
		{"memory deleted", "DELETE", "/memories/1", 200, jsonHeader(), `{"message":"Memory deleted successfully"}`, true},
		{"memory to delete missing", "DELETE", "/memories/1", 404, jsonHeader(), `{"message":"Memory not found"}`, true},
		{"collections", "GET", "/memory-collections", 200, jsonHeader(), `{"message":"success","collections":[{"id":1,"user_id":7,"name":"default","display_name":"My Memories"}],"meta":{"current_page":1,"last_page":1,"total":1}}`, true},
		{"collections without display_name", "GET", "/memory-collections", 200, jsonHeader(), `{"message":"success","collections":[{"id":1,"user_id":7,"name":"default"}],"meta":{"current_page":1,"last_page":1,"total":1}}`, false},
		{"collection created", "POST", "/memory-collections", 201, jsonHeader(), `{"message":"Collection created successfully","collection":{"id":5,"user_id":7,"name":"n","display_name":"n"}}`, true},
		{"collection deleted", "DELETE", "/memory-collections/5", 200, jsonHeader(), `{"message":"Collection deleted successfully"}`, true},
		{"default collection kept", "DELETE", "/memory-collections/1", 403, jsonHeader(), `{"message":"Default collection cannot be deleted"}`, true},
		{"collection to delete missing", "DELETE", "/memory-collections/9", 404, jsonHeader(), `{"message":"Collection not found"}`, true},
		{"webhook created", "POST", "/agents/1/webhooks", 201, jsonHeader(), `{"id":9,"template_id":1,"user_id":7,"url":"https://h.example","method":"GET","status":"inactive","created_at":"` + ts + `","updated_at":"` + ts + `"}`, true},
		{"webhook created without status", "POST", "/agents/1/webhooks", 201, jsonHeader(), `{"id":9,"template_id":1,"user_id":7,"url":"https://h.example","method":"GET","created_at":"` + ts + `","updated_at":"` + ts + `"}`, false},
		{"webhook deleted", "DELETE", "/webhooks/9", 200, jsonHeader(), `{"message":"Webhook deleted successfully"}`, true},
		{"webhook to delete missing", "DELETE", "/webhooks/9", 404, jsonHeader(), `{"error":"Webhook not found"}`, true},
		{"file waiting", "GET", "/files/3", 200, jsonHeader(), strings.Replace(fileJSON, `"completed"`, `"waiting"`, 1), true},
		{"file processing", "POST", "/files/3/process", 200, jsonHeader(), strings.Replace(fileJSON, `"completed"`, `"in_progress"`, 1), true},
		{"file deleted", "DELETE", "/files/3", 200, jsonHeader(), `{"message":"File deleted successfully"}`, true},
		{"upload too large (real)", "POST", "/files", 413, jsonHeader(), `{"error":"File too large. The limit is 200 MB."}`, true},
		{"upload storage full (real)", "POST", "/files", 400, jsonHeader(), `{"error":"Validation failed","messages":{"file":["You can store at most 30 files. Delete some first."]}}`, true},
		{"unknown path 404", "GET", "/nothing", 404, jsonHeader(), `{"message":"Not found"}`, true},
		{"unknown path 404 text", "GET", "/nothing", 404, http.Header{"Content-Type": {"text/plain; charset=utf-8"}}, "404 page not found", false},
		{"unknown path 200", "GET", "/nothing", 200, jsonHeader(), `{}`, false},
		{"method not allowed", "DELETE", "/agents", 405, jsonHeader(), `{"message":"Method not allowed"}`, true},
		{"image", "GET", "/generated/images/a.png", 200, http.Header{"Content-Type": {"image/png"}}, "\x89PNG\r\n\x1a\n", true},
		{"image as JSON", "GET", "/generated/images/a.png", 200, jsonHeader(), `{}`, false},
		{"video range", "GET", "/generated/videos/a.mp4", 206, http.Header{"Content-Type": {"video/mp4"}}, "....", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			verdict(t, tc.ok, v.ValidateResponse(request(tc.method, tc.url, ""), tc.status, tc.header, []byte(tc.body)))
		})
	}
}

func sse(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		b.WriteString("data: " + e + "\n\n")
	}
	return b.String()
}

func TestStreamResponses(t *testing.T) {
	v := newValidator(t)
	stream := http.Header{"Content-Type": {"text/event-stream"}}
	chunk := `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":null}]}`
	tests := []struct {
		name, url, body string
		ok              bool
	}{
		{"execution events", "/agents/1/execute", sse(recordJSON("running", "He", "null"), recordJSON("running", "llo", "null"), recordJSON("completed", "", "0.02")), true},
		{"execution events with CRLF and comments", "/agents/1/execute", ": keep-alive\r\n\r\n" + strings.ReplaceAll(sse(recordJSON("completed", "", "0.02")), "\n", "\r\n"), true},
		{"execution event without status", "/agents/1/execute", sse(strings.Replace(recordJSON("running", "x", "null"), `"status":"running",`, "", 1)), false},
		{"execution event not JSON", "/agents/1/execute", sse("Hello"), false},
		{"chat chunks", "/agents/1/openai/chat/completions", sse(chunk, "[DONE]"), true},
		{"chat chunk after done", "/agents/1/openai/chat/completions", sse("[DONE]", chunk), false},
		{"chat chunk without delta", "/agents/1/openai/chat/completions", sse(strings.Replace(chunk, `"delta":{"content":"hi"},`, "", 1)), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			verdict(t, tc.ok, v.ValidateResponse(request("POST", tc.url, ""), 200, stream, []byte(tc.body)))
		})
	}
	if err := v.ValidateResponse(request("GET", "/agents", ""), 200, stream, []byte(sse("{}"))); err == nil {
		t.Errorf("a stream from an operation that answers JSON was accepted")
	}
}

// reports collects what a wrapper reports, from any goroutine.
type reports struct {
	mu   sync.Mutex
	msgs []string
}

func (r *reports) add(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}

func (r *reports) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := r.msgs
	r.msgs = nil
	return m
}

func TestHandler(t *testing.T) {
	v := newValidator(t)
	var rep reports
	mux := http.NewServeMux()
	mux.HandleFunc("GET /agents/{id}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.PathValue("id") == "2" {
			io.WriteString(w, `{"id":"two"}`)
			return
		}
		io.WriteString(w, agentJSON(1))
	})
	mux.HandleFunc("POST /agents/{id}/execute", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.PathValue("id") == "3" { // accepts anything
			io.WriteString(w, `{"template_id":"3","responses":[]}`)
			return
		}
		body, _ := io.ReadAll(r.Body)
		if !strings.Contains(string(body), `"answers"`) {
			w.WriteHeader(422)
			io.WriteString(w, `{"message":"The answers field is required."}`)
			return
		}
		io.WriteString(w, `{"template_id":"1","responses":[`+recordJSON("starting", "", "0")+`]}`)
	})
	srv := httptest.NewServer(v.Handler(mux, rep.add))
	defer srv.Close()

	call := func(method, path, body string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer k")
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}

	call("GET", "/agents/1", "")
	call("POST", "/agents/1/execute", `{"answers":{}}`)
	call("POST", "/agents/1/execute", `{"stream":"yes"}`) // refused with 422: fine
	if got := rep.take(); len(got) != 0 {
		t.Errorf("good traffic reported: %q", got)
	}
	call("GET", "/agents/2", "")
	if got := rep.take(); len(got) != 1 {
		t.Errorf("a bad answer should be reported once, got %q", got)
	}
	call("POST", "/agents/3/execute", `{"stream":"yes"}`)
	if got := rep.take(); len(got) != 1 || !strings.Contains(got[0], "outside the contract") {
		t.Errorf("an accepted bad request should be reported, got %q", got)
	}
	call("GET", "/nothing", "") // ServeMux answers 404 in text/plain
	if got := rep.take(); len(got) != 1 {
		t.Errorf("a plain-text 404 should be reported, got %q", got)
	}
}

// TestHandlerStreams checks that a wrapped stream reaches the client event by
// event: the handler waits for the client to read the first event before it
// writes the next, which would dead-lock if the wrapper held the bytes.
func TestHandlerStreams(t *testing.T) {
	v := newValidator(t)
	var rep reports
	read := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		io.WriteString(w, sse(recordJSON("running", "Hel", "null")))
		w.(http.Flusher).Flush()
		select {
		case <-read:
		case <-time.After(10 * time.Second):
			return
		}
		// A bad event in two writes, then the last one.
		io.WriteString(w, `data: {"id":"x",`)
		io.WriteString(w, "\"status\":\"running\"}\n\n")
		io.WriteString(w, sse(recordJSON("completed", "", "0.1")))
	})
	srv := httptest.NewServer(v.Handler(h, rep.add))
	defer srv.Close()

	req, _ := http.NewRequest("POST", srv.URL+"/agents/1/execute", strings.NewReader(`{"answers":{},"stream":true}`))
	req.Header.Set("Authorization", "Bearer k")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	if !sc.Scan() || !strings.Contains(sc.Text(), `"output":"Hel"`) {
		t.Fatalf("first event did not arrive on its own: %q", sc.Text())
	}
	close(read)
	var lines int
	for sc.Scan() {
		lines++
	}
	if lines != 5 {
		t.Errorf("read %d more lines, want 5", lines)
	}
	srv.Close() // waits for the handler, so the report is in
	got := rep.take()
	if len(got) != 1 || !strings.Contains(got[0], "event 2") {
		t.Errorf("want one report naming event 2, got %q", got)
	}
}

func TestTransport(t *testing.T) {
	v := newValidator(t)
	var rep reports
	var mu sync.Mutex
	var received []int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := io.Copy(io.Discard, r.Body)
		mu.Lock()
		received = append(received, int(n))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{}`)
	}))
	defer srv.Close()
	client := &http.Client{Transport: v.Transport(nil, rep.add)}

	send := func(req *http.Request) {
		t.Helper()
		req.Header.Set("Authorization", "Bearer k")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	lastReceived := func() int {
		mu.Lock()
		defer mu.Unlock()
		return received[len(received)-1]
	}

	good := `{"answers":{}}`
	req, _ := http.NewRequest("POST", srv.URL+"/agents/1/execute", strings.NewReader(good))
	req.Header.Set("Content-Type", "application/json")
	send(req)
	if got := rep.take(); len(got) != 0 {
		t.Errorf("good request reported: %q", got)
	}
	if lastReceived() != len(good) {
		t.Errorf("server got %d bytes, want %d", lastReceived(), len(good))
	}

	// A body without GetBody is read and put back in front of the rest.
	bad := `{"stream":"yes"}`
	req, _ = http.NewRequest("POST", srv.URL+"/agents/1/execute", io.NopCloser(strings.NewReader(bad)))
	req.Header.Set("Content-Type", "application/json")
	req.ContentLength = int64(len(bad))
	send(req)
	if got := rep.take(); len(got) != 1 {
		t.Errorf("bad request should be reported once, got %q", got)
	}
	if lastReceived() != len(bad) {
		t.Errorf("server got %d bytes, want %d", lastReceived(), len(bad))
	}

	req, _ = http.NewRequest("GET", srv.URL+"/files?per_page=101", nil)
	send(req)
	if got := rep.take(); len(got) != 1 {
		t.Errorf("per_page=101 should be reported once, got %q", got)
	}

	// A signed upload address is another origin's: only the account's
	// credentials sent there are reported.
	signed := srv.URL + "/bucket/uploads/1/report.pdf?X-Goog-Date=20250301T090000Z&X-Goog-Signature=ab12"
	req, _ = http.NewRequest("PUT", signed, strings.NewReader("bytes"))
	if resp, err := client.Do(req); err == nil {
		resp.Body.Close()
	}
	if got := rep.take(); len(got) != 0 {
		t.Errorf("signed PUT reported: %q", got)
	}
	req, _ = http.NewRequest("PUT", signed, strings.NewReader("bytes"))
	send(req)
	if got := rep.take(); len(got) != 1 || !strings.Contains(got[0], "signed address") {
		t.Errorf("a key sent to a signed address should be reported once, got %q", got)
	}

	// A large multipart upload streams through without being buffered.
	const size = 3 * maxBuffered
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		fw, err := mw.CreateFormFile("file", "big.bin")
		if err == nil {
			_, err = io.CopyN(fw, rand.Reader, size)
		}
		if err == nil {
			err = mw.Close()
		}
		pw.CloseWithError(err)
	}()
	req, _ = http.NewRequest("POST", srv.URL+"/files", pr)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	send(req)
	if got := rep.take(); len(got) != 0 {
		t.Errorf("upload reported: %q", got)
	}
	if lastReceived() < size {
		t.Errorf("server got %d bytes of the upload, want more than %d", lastReceived(), size)
	}
}
