package contract

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/client/demoservice"
)

// Seeded records of the built-in service that the conformance test relies on.
const (
	chatAgent   = "101"
	textAgent   = "119"
	imageAgent  = "131"
	videoAgent  = "139"
	seededFile  = "8002"
	seededMem   = "501"
	seededColl  = "1"
	missingID   = "999999"
	serviceKey  = "k"
	chatAnswers = `"temperature":"0.5","model":"gpt-4o-2024-08-06","tools":"no-tools"`
)

// conformance drives one built-in service through the validating Handler.
type conformance struct {
	t   *testing.T
	srv *httptest.Server
	svc *demoservice.Service
}

func startService(t *testing.T, opts demoservice.Options) *conformance {
	t.Helper()
	v := newValidator(t)
	opts.APIKey = serviceKey
	if opts.API == "" {
		opts.API = demoservice.APISpec // the real reading is asked for by name
	}
	svc := demoservice.New(opts)
	srv := httptest.NewServer(v.Handler(svc, t.Errorf))
	t.Cleanup(func() {
		srv.Close() // waits for handlers, so every report lands inside the test
		svc.Close()
	})
	return &conformance{t: t, srv: srv, svc: svc}
}

// do sends a request with the key and returns status and body. A "" key leaves
// the Authorization header out.
func (c *conformance) do(method, path, contentType string, body []byte, key string, header ...string) (int, []byte) {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, c.srv.URL+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.srv.Client().Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatalf("%s %s: reading: %v", method, path, err)
	}
	return resp.StatusCode, got
}

// expect calls an endpoint and checks the status class: the Handler checks the
// body against the contract.
func (c *conformance) expect(want int, method, path, body string, header ...string) []byte {
	c.t.Helper()
	ct := ""
	var b []byte
	if body != "" {
		ct, b = "application/json", []byte(body)
	}
	status, got := c.do(method, path, ct, b, serviceKey, header...)
	if status != want {
		c.t.Errorf("%s %s: status %d, want %d: %s", method, path, status, want, got)
	}
	return got
}

// expectCreated calls a create endpoint, which may answer 200 or 201.
func (c *conformance) expectCreated(method, path, body string, header ...string) {
	c.t.Helper()
	status, got := c.do(method, path, "application/json", []byte(body), serviceKey, header...)
	if status != 200 && status != 201 {
		c.t.Errorf("%s %s: status %d, want 200 or 201: %s", method, path, status, got)
	}
}

func TestServiceConformance(t *testing.T) {
	for _, variant := range []string{"A", "B"} {
		t.Run("variant "+variant, func(t *testing.T) {
			c := startService(t, demoservice.Options{MemoryVariant: variant, WebhookVariant: variant})
			c.common()
			if variant == "A" {
				c.memoriesA()
				c.webhooksA()
			} else {
				c.memoriesB()
				c.webhooksB()
			}
		})
	}
}

// TestServiceConformanceReal drives the built-in service in the real reading
// through every operation, its refusals included.
func TestServiceConformanceReal(t *testing.T) {
	c := startService(t, demoservice.Options{API: demoservice.APIReal})
	c.real()
}

func TestServiceFaults(t *testing.T) {
	c := startService(t, demoservice.Options{})
	c.svc.SetFaults(demoservice.Faults{RateLimit: 1, RetryAfter: time.Second})
	c.expect(429, "GET", "/agents", "")
	c.svc.SetFaults(demoservice.Faults{Fail500: 1})
	c.expect(500, "POST", "/memories", `{"memory":"m"}`)
	c.svc.SetFaults(demoservice.Faults{Fail500: 1})
	c.expect(500, "GET", "/nothing", "")
	c.svc.SetFaults(demoservice.Faults{HTML500: 1, Empty500: 1})
	c.expect(500, "GET", "/agents", "")
	c.expect(500, "GET", "/agents", "")
	c.svc.SetFaults(demoservice.Faults{RateLimit: 1, RetryAfterIn: demoservice.RetryInBody})
	c.expect(429, "GET", "/agents", "")

	real := startService(t, demoservice.Options{API: demoservice.APIReal, RatePerSecond: 0.01, Burst: 1})
	real.svc.SetFaults(demoservice.Faults{Fail500: 1})
	real.expect(500, "GET", "/agents", "")
	real.svc.SetFaults(demoservice.Faults{Fail500: 1})
	real.expect(500, "POST", "/agents/"+chatAgent+"/openai/chat/completions", `{"messages":[{"role":"user","content":"Hi"}]}`)
	real.svc.SetFaults(demoservice.Faults{})
	real.expect(200, "GET", "/agents/"+chatAgent, "") // faults answer before pacing: the burst of 1 is left
	real.expect(429, "GET", "/agents", "")
	real.expect(429, "GET", "/nothing", "")
}

// common covers every endpoint that does not depend on a variant.
func (c *conformance) common() {
	t := c.t
	// Authentication and routing.
	if status, _ := c.do("GET", "/agents", "", nil, ""); status != 401 {
		t.Errorf("no key: status %d, want 401", status)
	}
	if status, _ := c.do("GET", "/agents", "", nil, "wrong"); status != 401 {
		t.Errorf("wrong key: status %d, want 401", status)
	}
	c.expect(404, "GET", "/nothing", "")
	c.expect(405, "DELETE", "/agents", "")
	c.expect(403, "GET", "/agents", "", "x-workspace-id", "999")

	// Agents.
	c.expect(200, "GET", "/agents?q=meeting&type=chat&page=1&per_page=5", "", "x-workspace-id", "1")
	c.expect(200, "GET", "/agents?page=999", "") // an empty page
	c.expect(422, "GET", "/agents?type=robot", "")
	c.expect(200, "GET", "/agents/"+chatAgent, "")
	c.expect(404, "GET", "/agents/"+missingID, "")

	// Execution: polling, blocking, chat rules, streaming.
	body := c.expect(200, "POST", "/agents/"+chatAgent+"/execute",
		`{"answers":{`+chatAnswers+`},`+chatAnswers+`,"messages":[{"role":"user","content":"Hello"}]}`)
	started := startedID(t, body)
	c.expect(200, "GET", "/agents/"+chatAgent+"/responses/"+itoa(started), "")
	c.expect(404, "GET", "/agents/"+chatAgent+"/responses/"+missingID, "")
	c.expect(200, "POST", "/agents/"+chatAgent+"/execute",
		`{"answers":{`+chatAnswers+`},`+chatAnswers+`,"wait_execution":true,"file_ids":[`+seededFile+`],"messages":[{"role":"developer","content":"Be brief."},{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello"},{"role":"user","content":"Bye"}]}`)
	chatErr := c.expect(422, "POST", "/agents/"+chatAgent+"/execute",
		`{"answers":{`+chatAnswers+`},`+chatAnswers+`,"messages":[{"role":"user","content":"a"},{"role":"user","content":"b"}]}`)
	if !strings.Contains(string(chatErr), "Chat messages must be a pair of user/assistant") {
		t.Errorf("chat rule error %s lacks the documented text", chatErr)
	}
	c.expect(422, "POST", "/agents/"+chatAgent+"/execute", `{"messages":[]}`)
	c.expect(404, "POST", "/agents/"+missingID+"/execute", `{"answers":{}}`)
	c.stream("/agents/"+chatAgent+"/execute",
		`{"answers":{`+chatAnswers+`},`+chatAnswers+`,"stream":true,"messages":[{"role":"user","content":"Tell me a story"}]}`, "")

	// Other agent types, and the media they generate.
	c.expect(200, "POST", "/agents/"+textAgent+"/execute", `{"answers":{"prompt":"A note inviting the team to lunch.","tone":"friendly","length":120},"prompt":"A note inviting the team to lunch.","tone":"friendly","length":120,"wait_execution":true}`)
	for _, run := range []struct{ agent, answers string }{
		{imageAgent, `"prompt":"A coffee cup on a wooden desk.","style":"photo","aspect_ratio":"16:9"`},
		{videoAgent, `"prompt":"A welcome to our new office.","duration":10,"aspect_ratio":"16:9"`},
	} {
		out := c.expect(200, "POST", "/agents/"+run.agent+"/execute", `{"answers":{`+run.answers+`},`+run.answers+`,"wait_execution":true}`)
		media := regexp.MustCompile(`/generated/(images|videos)/[^"\s)\\]+`).FindString(string(out))
		if media == "" {
			t.Errorf("agent %s: no generated media in %s", run.agent, out)
			continue
		}
		if status, _ := c.do("GET", media, "", nil, ""); status != 200 {
			t.Errorf("GET %s: status %d", media, status)
		}
	}
	c.expect(404, "GET", "/generated/images/"+missingID+".png", "")

	// Chat completions.
	c.expect(200, "POST", "/agents/"+chatAgent+"/openai/chat/completions",
		`{"model":"gpt-4o-2024-08-06","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"}],"temperature":0.5,"tools":"no-tools"}`)
	c.stream("/agents/"+chatAgent+"/openai/chat/completions",
		`{"model":"gpt-4o-2024-08-06","messages":[{"role":"user","content":"Hi"}],"stream":true}`, "[DONE]")
	c.expect(422, "POST", "/agents/"+chatAgent+"/openai/chat/completions", `{"model":"m"}`)

	// Files of an agent.
	c.expect(200, "POST", "/agents/"+chatAgent+"/files", `{"file_ids":[`+seededFile+`]}`)
	c.expect(422, "POST", "/agents/"+chatAgent+"/files", `{}`)
	c.expect(200, "GET", "/agents/"+chatAgent+"/files", "")
	c.expect(404, "GET", "/agents/"+missingID+"/files", "")
	c.expect(200, "DELETE", "/agents/"+chatAgent+"/files/"+seededFile, "")
	c.expect(404, "DELETE", "/agents/"+chatAgent+"/files/"+missingID, "")
	c.expect(404, "POST", "/v2/files/sign", `{"filename":"report.pdf","size":10}`) // the real reading's own

	// Files.
	c.expect(200, "GET", "/files?page=1&per_page=5&order=asc", "")
	c.expect(422, "GET", "/files?per_page=101", "")
	ct, upload := multipartFile(t, "file", "notes.txt", []byte("Minutes of the Monday meeting."))
	if status, got := c.do("POST", "/files", ct, upload, serviceKey); status != 200 && status != 201 {
		t.Errorf("upload: status %d: %s", status, got)
	}
	ct, upload = multipartFile(t, "document", "notes.txt", []byte("x"))
	if status, got := c.do("POST", "/files", ct, upload, serviceKey); status != 422 {
		t.Errorf("upload without the file field: status %d, want 422: %s", status, got)
	}

	// Collections and resources.
	c.expect(200, "PUT", "/memory-collections/"+seededColl, `{"name":"General notes"}`)
	c.expect(404, "PUT", "/memory-collections/"+missingID, `{"name":"x"}`)
	c.expect(422, "PUT", "/memory-collections/"+seededColl, `{}`)
	c.expect(200, "GET", "/resources?q=report&type=document&page=1&per_page=5", "")
	c.expect(200, "GET", "/resources?page=99", "")
	c.expect(422, "GET", "/resources?page=abc", "")

	// Webhooks of an agent.
	c.expect(200, "GET", "/agents/"+chatAgent+"/webhooks?page=1&per_page=15", "")
	c.expect(404, "GET", "/agents/"+missingID+"/webhooks", "")
}

// real covers the real reading: its shapes, its own operations and its
// refusals.
func (c *conformance) real() {
	t := c.t
	if status, _ := c.do("GET", "/agents", "", nil, "wrong"); status != 403 {
		t.Errorf("wrong key: status %d, want 403", status)
	}
	if status, _ := c.do("POST", "/agents/"+chatAgent+"/openai/chat/completions", "application/json", []byte(`{"messages":[]}`), ""); status != 401 {
		t.Errorf("chat completions without key: status %d, want 401", status)
	}
	c.expect(400, "GET", "/agents", "", "x-workspace-id", "main")
	c.expect(403, "GET", "/agents", "", "x-workspace-id", "2")
	c.expect(404, "GET", "/nothing", "")
	c.expect(405, "DELETE", "/agents", "")
	c.expect(200, "GET", "/agents?q=meeting&type=chat&page=1&per_page=5", "")
	c.expect(400, "GET", "/agents?type=robot", "")

	// Execution: inputs at the root, both wait spellings, polling, streaming.
	root := chatAnswers + `,"messages":[{"role":"user","content":"Hello"}]`
	body := c.expect(200, "POST", "/agents/"+chatAgent+"/execute", `{`+root+`}`)
	started := startedID(t, body)
	polled := c.expect(200, "GET", "/agent-responses/"+itoa(started), "")
	if !strings.Contains(string(polled), `"status":"succeeded"`) {
		t.Errorf("polled %s, want succeeded", polled)
	}
	c.expect(404, "GET", "/agent-responses/"+missingID, "")
	c.expect(404, "GET", "/agents/"+chatAgent+"/responses/"+itoa(started), "")
	c.expect(200, "POST", "/agents/"+chatAgent+"/execute", `{`+root+`,"waitExecution":true}`)
	c.expect(200, "POST", "/agents/"+chatAgent+"/execute?wait_execution=true", `{`+root+`,"file_ids":[`+seededFile+`]}`)
	c.expect(200, "POST", "/agents/"+chatAgent+"/execute", `{"answers":{`+chatAnswers+`},"messages":[{"role":"user","content":"Hello"}],"wait_execution":true}`)
	c.expect(400, "POST", "/agents/"+chatAgent+"/execute", `{`+root+`,"file_ids":[8001,8002,8003,8004,8005,8006]}`)
	c.expect(200, "POST", "/agents/"+textAgent+"/execute?waitExecution=true", `{"prompt":"A note inviting the team to lunch.","tone":"friendly","length":120}`)
	c.stream("/agents/"+chatAgent+"/execute", `{`+root+`,"stream":true}`, "")
	c.svc.SetFaults(demoservice.Faults{FailExecutions: 1})
	failed := c.expect(200, "POST", "/agents/"+chatAgent+"/execute", `{`+root+`,"waitExecution":true}`)
	if !strings.Contains(string(failed), `"status":"failed"`) {
		t.Errorf("failed run answered %s", failed)
	}

	// Chat completions: any model, errors in their own shape.
	c.expect(200, "POST", "/agents/"+chatAgent+"/openai/chat/completions", `{"model":"gpt-4o","temperature":"1","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"}]}`)
	c.stream("/agents/"+chatAgent+"/openai/chat/completions", `{"model":"tess-5","messages":[{"role":"user","content":"Hi"}],"stream":true}`, "[DONE]")
	c.expect(400, "POST", "/agents/"+chatAgent+"/openai/chat/completions", `{"messages":[]}`)
	c.expect(404, "POST", "/agents/"+missingID+"/openai/chat/completions", `{"messages":[{"role":"user","content":"Hi"}]}`)

	// Files.
	ct, upload := multipartFileWith(t, "notes.txt", []byte("Minutes of the Monday meeting."), map[string]string{"process": "true"})
	if status, got := c.do("POST", "/files", ct, upload, serviceKey); status != 200 {
		t.Errorf("upload: status %d: %s", status, got)
	}
	ct, upload = multipartFile(t, "file", "notes.txt", []byte("waiting"))
	status, got := c.do("POST", "/files", ct, upload, serviceKey)
	var file struct {
		ID int64 `json:"id"`
	}
	if status != 200 || json.Unmarshal(got, &file) != nil {
		t.Fatalf("upload: status %d: %s", status, got)
	}
	id := itoa(file.ID)
	c.expect(200, "GET", "/files/"+id, "")
	c.expect(200, "POST", "/files/"+id+"/process", "")
	c.expect(200, "DELETE", "/files/"+id, "")
	c.expect(404, "GET", "/files/"+id, "")
	c.expect(200, "GET", "/files?per_page=100", "")
	c.expect(200, "DELETE", "/agents/"+chatAgent+"/files/8001", "")
	c.expect(400, "POST", "/agents/"+chatAgent+"/files", `{}`)
	c.largeFile()

	// Memories and collections.
	c.expectCreated("POST", "/memories", `{"memory":"Northwind pays within 30 days."}`)
	c.expect(400, "POST", "/memories", `{}`)
	c.expect(200, "GET", "/memories?per_page=50&collection_id=1", "")
	c.expect(400, "GET", "/memories?per_page=51", "")
	c.expect(200, "PATCH", "/memories/"+seededMem, `{"memory":"Updated.","collection_id":3}`)
	c.expect(200, "DELETE", "/memories/"+seededMem, "")
	c.expect(404, "DELETE", "/memories/"+seededMem, "")
	c.expect(200, "GET", "/memory-collections?search=li", "")
	c.expect(201, "POST", "/memory-collections", `{"name":"Suppliers"}`)
	c.expect(400, "POST", "/memory-collections", `{}`)
	c.expect(200, "PUT", "/memory-collections/2", `{"name":"Key clients"}`)
	c.expect(200, "DELETE", "/memory-collections/2", "")
	c.expect(404, "DELETE", "/memory-collections/2", "")
	c.expect(403, "DELETE", "/memory-collections/"+seededColl, "")

	// Webhooks.
	c.expect(201, "POST", "/agents/"+chatAgent+"/webhooks", `{"url":"https://hooks.example.com/a","method":"POST"}`)
	c.expect(400, "POST", "/agents/"+chatAgent+"/webhooks", `{"url":"http://hooks.example.com/a","method":"POST"}`)
	c.expect(200, "GET", "/agents/"+chatAgent+"/webhooks", "")
	c.expect(200, "GET", "/webhooks?per_page=5", "")
	c.expect(200, "DELETE", "/webhooks/301", "")
	c.expect(404, "DELETE", "/webhooks/301", "")

	c.expect(200, "GET", "/resources?q=report", "")
}

// largeFile drives the large-file flow: sign, the PUT to the signed address
// (another origin, outside the contract), register, and their refusals.
func (c *conformance) largeFile() {
	t := c.t
	content := []byte("A report too large for one request, in the real service's eyes.")
	var signed struct {
		URL     string            `json:"upload_url"`
		Object  string            `json:"object_path"`
		Headers map[string]string `json:"required_headers"`
	}
	got := c.expect(200, "POST", "/v2/files/sign", `{"filename":"report.pdf","content_type":"application/pdf","size":`+itoa(int64(len(content)))+`}`)
	if err := json.Unmarshal(got, &signed); err != nil {
		t.Fatal(err)
	}
	register := `{"object_path":"` + signed.Object + `","filename":"report.pdf","content_type":"application/pdf","process":false}`
	c.expect(400, "POST", "/v2/files/register", register)
	req, _ := http.NewRequest(http.MethodPut, signed.URL, bytes.NewReader(content))
	for k, v := range signed.Headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("PUT: %d", res.StatusCode)
	}
	c.expect(200, "POST", "/v2/files/register", register)
	c.expect(409, "POST", "/v2/files/register", register)
	c.expect(400, "POST", "/v2/files/register", `{}`)
	c.expect(400, "POST", "/v2/files/sign", `{"filename":"setup.exe","size":10}`)
	c.expect(413, "POST", "/v2/files/sign", `{"filename":"film.mp4","size":200000001}`)
	c.expect(413, "POST", "/v2/files/sign", `{"filename":"talk.mp3","size":10000001}`)
}

func (c *conformance) memoriesA() {
	c.expectCreated("POST", "/memories", `{"memory":"Northwind pays within 30 days.","collection_id":2}`)
	c.expect(422, "POST", "/memories", `{"memory":"`+strings.Repeat("x", 32001)+`"}`)
	c.expect(422, "POST", "/memories", `{"content":"variant B field"}`)
	c.expect(200, "PATCH", "/memories/"+seededMem, `{"memory":"Updated.","collection_id":3}`)
	c.expect(404, "PATCH", "/memories/"+missingID, `{"memory":"x"}`)
	c.expect(405, "PUT", "/memories/"+seededMem, `{"content":"x"}`)
}

func (c *conformance) memoriesB() {
	c.expectCreated("POST", "/memories", `{"content":"Northwind pays within 30 days.","metadata":{"source":"agentdesk","tags":["clients"]}}`, "x-workspace-id", "1")
	c.expect(422, "POST", "/memories", `{"memory":"variant A field"}`)
	c.expect(200, "PUT", "/memories/"+seededMem, `{"content":"Updated.","metadata":{"tags":["x"]}}`)
	c.expect(404, "PUT", "/memories/"+missingID, `{"content":"x"}`)
	c.expect(405, "PATCH", "/memories/"+seededMem, `{"memory":"x"}`)
}

func (c *conformance) webhooksA() {
	c.expect(200, "GET", "/webhooks?page=1&per_page=15", "")
	c.expect(422, "GET", "/webhooks?page=abc", "")
}

func (c *conformance) webhooksB() {
	c.expect(200, "GET", "/webhooks?limit=10&offset=0", "", "x-workspace-id", "1")
	c.expect(422, "GET", "/webhooks?limit=101", "")
}

// stream runs a streamed call and checks how the stream ends: the last execution
// record is completed, or the last data is done when the stream has a sentinel.
// The events themselves are checked by the Handler.
func (c *conformance) stream(path, body, done string) {
	t := c.t
	t.Helper()
	req, _ := http.NewRequest("POST", c.srv.URL+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+serviceKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || !isEventStream(resp.Header) {
		t.Errorf("POST %s: status %d, content type %q", path, resp.StatusCode, resp.Header.Get("Content-Type"))
		return
	}
	var data []string
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data:"); ok {
			data = append(data, strings.TrimSpace(d))
		}
	}
	if len(data) < 2 {
		t.Errorf("POST %s: %d events, want a few", path, len(data))
		return
	}
	last := data[len(data)-1]
	if done != "" {
		if last != done {
			t.Errorf("POST %s: stream ends with %q, want %q", path, last, done)
		}
		return
	}
	var rec struct {
		Status  string   `json:"status"`
		Output  string   `json:"output"`
		Credits *float64 `json:"credits"`
	}
	if err := json.Unmarshal([]byte(last), &rec); err != nil || rec.Status != "completed" || rec.Output != "" || rec.Credits == nil {
		t.Errorf("POST %s: last event %s, want completed with empty output and credits", path, last)
	}
}

func multipartFile(t *testing.T, field, name string, content []byte) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, err := mw.CreateFormFile(field, name)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(content)
	mw.Close()
	return mw.FormDataContentType(), buf.Bytes()
}

// multipartFileWith is multipartFile with form fields written first.
func multipartFileWith(t *testing.T, name string, content []byte, fields map[string]string) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	fw, err := mw.CreateFormFile("file", name)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(content)
	mw.Close()
	return mw.FormDataContentType(), buf.Bytes()
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// startedID is the id of the run an execute answer started.
func startedID(t *testing.T, body []byte) int64 {
	t.Helper()
	var started struct {
		Responses []struct {
			ID int64 `json:"id"`
		} `json:"responses"`
	}
	if err := json.Unmarshal(body, &started); err != nil || len(started.Responses) == 0 {
		t.Fatalf("execute answer %s: %v", body, err)
	}
	return started.Responses[0].ID
}
