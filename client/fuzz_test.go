package client

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"
)

var streamSeeds = []string{
	"data: {\"id\":1200,\"status\":\"running\",\"output\":\"Hel\",\"error\":null,\"credits\":null,\"root_id\":1200,\"created_at\":\"2024-05-01T10:00:00.000000Z\",\"updated_at\":\"2024-05-01T10:00:00.000000Z\",\"template_id\":3}\n\n" +
		"data: {\"id\":1200,\"status\":\"completed\",\"output\":\"\",\"error\":null,\"credits\":0.75,\"root_id\":1200,\"created_at\":\"2024-05-01T10:00:00.000000Z\",\"updated_at\":\"2024-05-01T10:00:01.000000Z\",\"template_id\":3}\n\ndata: [DONE]\n\n",
	": ping\n\ndata: {\"id\":\"7\",\"status\":\"running\",\"output\":\"a\\u00e9\\n\",\"credits\":\"0.5\",\"extra\":[1,{\"x\":\"}\"}]}\n\n",
	"data: {\"id\":7,\"status\":\"running\",\"output\":\"x\",\"error\":{\"message\":\"boom\"}}\n\n",
	"data: {\"id\":7,\"status\":\n\n",
	"event: message\nid: 3\nretry: 10\ndata: {\"ID\":5,\"status\":\"running\"}\r\n\r\n",
	"data: {\"id\":1e3,\"status\":5,\"output\":null,\"credits\":-0.0}\n\n",
	"data: {\"00\":0,\"000000\":\"\",\"error\":\"0\",\"error\":null}",
	"data: {\"x\":\"\\\n\n", // cut right after a backslash
}

// FuzzStreamDecode feeds arbitrary bytes through the stream reader and the
// fast record decoder: nothing may panic, the fast decoder must agree with
// the general one, and Text must always be the concatenation of fragments.
func FuzzStreamDecode(f *testing.F) {
	for _, s := range streamSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		ctx, cancel := context.WithCancel(context.Background())
		src := &eventSource{method: "POST", path: "/agents/1/execute", ctx: ctx, cancel: cancel, maxEventSize: 4096}
		src.attach(io.NopCloser(strings.NewReader(body)))
		s := &Stream{streamState: streamState[Execution]{src: src}}
		var text strings.Builder
		for s.Next() {
			text.WriteString(s.Fragment())
		}
		if s.Text() != text.String() {
			t.Fatalf("Text %q, fragments %q", s.Text(), text.String())
		}
		s.Close()

		for _, line := range strings.Split(body, "\n") {
			data, ok := strings.CutPrefix(line, "data: ")
			if !ok {
				data = line
			}
			compareDecoders(t, data)
		}
	})
}

func compareDecoders(t *testing.T, data string) {
	var fast, slow Execution
	if !fastExecution(data, &fast, &timeCache{}) {
		return
	}
	if err := decodeLoose([]byte(data), &slow); err != nil {
		t.Fatalf("fast decoder accepted what encoding/json refuses: %q: %v", data, err)
	}
	if !utf8.ValidString(data) {
		return // encoding/json replaces invalid UTF-8; the fast path keeps it
	}
	if fast.ID != slow.ID || fast.Status != slow.Status || fast.Output != slow.Output || fast.Input != slow.Input ||
		fast.Credits != slow.Credits || fast.RootID != slow.RootID || fast.TemplateID != slow.TemplateID ||
		!fast.CreatedAt.Equal(slow.CreatedAt.Time) || !fast.UpdatedAt.Equal(slow.UpdatedAt.Time) || fast.HasError() != slow.HasError() {
		t.Fatalf("decoders disagree on %q:\nfast %+v\nslow %+v", data, fast, slow)
	}
	if len(fast.Extra) != len(slow.Extra) {
		t.Fatalf("extra fields differ on %q: %v vs %v", data, fast.Extra, slow.Extra)
	}
	for k, v := range fast.Extra {
		var a, b bytes.Buffer
		json.Compact(&a, v)
		json.Compact(&b, slow.Extra[k])
		if a.String() != b.String() {
			t.Fatalf("extra %q differs on %q", k, data)
		}
	}
}

var recordSeeds = []string{
	`{"id":5,"title":"Writer","description":null,"long_description":"x","workspace_id":1,"visibility":"public","slug":"w","active":1,"type":"chat","questions":[{"type":"select","name":"temperature","description":"t","required":true,"options":["0","0.5"]},{"type":"number","name":"root_id","required":false}],"created_at":"2024-05-01T10:00:00.000000Z","updated_at":"2024-05-01T10:00:00.000000Z","created_by":2}`,
	`{"id":9,"status":"completed","input":"hi","output":"hello","error":null,"credits":1.5,"root_id":9,"created_at":"2024-05-01T10:00:00.000000Z","updated_at":"2024-05-01T10:00:00.000000Z","template_id":5}`,
	`{"id":3,"object":"file","bytes":1024,"created_at":"2024-05-01T10:00:00+00:00","filename":"a.pdf","credits":"0.01","status":"completed"}`,
	`{"id":1,"user_id":2,"memory":"note","credits":0.1,"collection_id":3,"collection":{"id":3,"user_id":2,"name":"Work"}}`,
	`{"id":"1","content":"note","metadata":{"source":"x","tags":["a"]},"created_at":"2024-05-01T10:00:00+00:00","updated_at":null}`,
	`{"id":4,"template_id":5,"user_id":2,"url":"https://h/x","method":"POST","success_count":"3","failure_count":0,"status":"active","created_at":"2024-05-01T10:00:00.000000Z","updated_at":"2024-05-01T10:00:00.000000Z","deleted_at":null}`,
	`{"id":4,"url":"https://h/x","events":["agent.completed","agent.failed"],"secret":"<SIGNING_SECRET>"}`,
	`null`, `{}`, `[]`, `{"id":{}}`,
}

// FuzzRecordDecode decodes arbitrary JSON into every record type: nothing
// may panic, and what decodes must survive a round trip through MarshalJSON.
func FuzzRecordDecode(f *testing.F) {
	for _, s := range recordSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		roundTrip[Agent](t, data)
		roundTrip[Execution](t, data)
		roundTrip[File](t, data)
		roundTrip[Memory](t, data)
		roundTrip[Webhook](t, data)
		roundTrip[AgentFiles](t, data)
		roundTrip[Resource](t, data)
	})
}

func roundTrip[T any](t *testing.T, data []byte) {
	var v T
	if json.Unmarshal(data, &v) != nil {
		return
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%T: marshal after decoding %q: %v", v, data, err)
	}
	var back T
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatalf("%T: %q re-encoded as %q does not decode: %v", v, data, out, err)
	}
}

// FuzzErrorBody reads arbitrary error answers: nothing may panic, the
// message is one line of bounded length and never the markup of an HTML
// page, a 429's wait is never negative, and a key echoed back never shows.
func FuzzErrorBody(f *testing.F) {
	for _, s := range []string{
		`{"message":"The memory field is required.","errors":{"memory":["The memory field is required."]}}`,
		`{"error":"Validation failed","messages":{"url":["The url must use https."]}}`,
		`{"error":"Invalid authentication"}`,
		`{"error":{"message":"Invalid API key","type":"authentication_error","code":"invalid_api_key"}}`,
		`{"error":"Rate limit exceeded","retry_after":60}`,
		`{"error":"Rate limit exceeded","retry_after":"-3"}`,
		`{"message":"Default collection cannot be deleted"}`,
		`<!doctype html><html><body>500</body></html>`,
		``, `null`, `[1,2]`, `{"errors":[{"field":"x","message":"y"}]}`, `{"message":{"nested":["a"]}}`,
		"{\"message\":\"line one\\nline two \\u202e sk-secret-key\"}",
	} {
		f.Add(403, s)
		f.Add(429, s)
	}
	f.Fuzz(func(t *testing.T, status int, body string) {
		if status < 400 || status > 599 {
			status = 400 + (status%200+200)%200
		}
		res := &http.Response{StatusCode: status, Header: http.Header{"Retry-After": {"5"}}, Body: io.NopCloser(strings.NewReader(body))}
		e := readAPIError(res, "GET", "/files")
		e.redact("sk-secret-key")
		msg := e.Error()
		if strings.Contains(msg, "sk-secret-key") {
			t.Fatalf("the key shows: %s", msg)
		}
		if strings.ContainsAny(e.Message, "\n\r") || utf8.RuneCountInString(e.Message) > 501 {
			t.Fatalf("message not one short line: %q", e.Message)
		}
		if t2 := strings.TrimSpace(body); strings.HasPrefix(t2, "<") && strings.Contains(e.Message, "<") {
			t.Fatalf("HTML in the message: %q", e.Message)
		}
		if d, ok := e.Wait(); ok && d < 0 {
			t.Fatalf("negative wait %v", d)
		}
		_ = IsAuth(e)
		_ = IsForbidden(e)
		_ = IsUnsupported(e)
	})
}

// FuzzNamedListDecode feeds arbitrary answers to the list decoder of the
// real service's named arrays: nothing may panic.
func FuzzNamedListDecode(f *testing.F) {
	for _, s := range []string{
		`{"message":"Memories fetched successfully!","memories":[{"id":1,"memory":"x","collection_id":2}],"meta":{"current_page":1,"last_page":3,"total":21}}`,
		`{"message":"success","collections":[{"id":"1","name":"default","display_name":"My Memories"}],"meta":{"current_page":"1","last_page":null}}`,
		`{"data":[],"memories":null}`, `{"memories":{}}`, `[]`, `{"meta":[]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		if p, err := decodePage[Memory]([]byte(body), "memories", 0, 0, nil); err == nil && (p == nil || p.Data == nil) {
			t.Fatal("a decoded page without items")
		}
		if p, err := decodePage[Collection]([]byte(body), "collections", 0, 0, nil); err == nil {
			for _, c := range p.Data {
				_ = c.Label()
			}
		}
	})
}
