package client

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
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
		s := &Stream{src: src}
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
	if err := decodeExecution([]byte(data), &slow, true); err != nil {
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
