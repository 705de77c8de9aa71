package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"time"
)

func TestIDJSON(t *testing.T) {
	for in, want := range map[string]ID{`12`: "12", `"12"`: "12", `"res_ab"`: "res_ab", `null`: "", `9007199254740993`: "9007199254740993"} {
		var id ID
		if err := json.Unmarshal([]byte(in), &id); err != nil || id != want {
			t.Errorf("%s: %q %v", in, id, err)
		}
	}
	for id, want := range map[ID]string{"12": `12`, "res_ab": `"res_ab"`, "": `null`, "007": `"007"`} {
		if b, _ := json.Marshal(id); string(b) != want {
			t.Errorf("%q: %s, want %s", id, b, want)
		}
	}
	var id ID
	if err := json.Unmarshal([]byte(`{}`), &id); err == nil {
		t.Error("object accepted as id")
	}
}

func TestCreditsJSON(t *testing.T) {
	for in, want := range map[string]Credits{`1.25`: {1.25, true}, `"0.5"`: {0.5, true}, `null`: {}, `""`: {}, `0`: {0, true}} {
		var c Credits
		if err := json.Unmarshal([]byte(in), &c); err != nil || c != want {
			t.Errorf("%s: %+v %v", in, c, err)
		}
	}
	var c Credits
	if err := json.Unmarshal([]byte(`"lots"`), &c); err == nil {
		t.Error("non-numeric credits accepted")
	}
	if b, _ := json.Marshal(Credits{}); string(b) != "null" {
		t.Errorf("%s", b)
	}
}

func TestTimeJSON(t *testing.T) {
	want := time.Date(2024, 5, 1, 10, 0, 0, 123456000, time.UTC)
	for _, in := range []string{`"2024-05-01T10:00:00.123456Z"`, `"2024-05-01T10:00:00.123456+00:00"`, `"2024-05-01 10:00:00.123456"`} {
		var tm Time
		if err := json.Unmarshal([]byte(in), &tm); err != nil || !tm.Equal(want) {
			t.Errorf("%s: %v %v", in, tm, err)
		}
	}
	for _, in := range []string{`null`, `""`, `"garbage"`} {
		var tm Time
		if err := json.Unmarshal([]byte(in), &tm); err != nil || !tm.IsZero() {
			t.Errorf("%s: %v %v", in, tm, err)
		}
	}
	b, _ := json.Marshal(Time{want})
	if string(b) != `"2024-05-01T10:00:00.123456Z"` {
		t.Errorf("%s", b)
	}
}

func TestRecordsKeepUnknownFields(t *testing.T) {
	in := `{"id":5,"title":"T","description":null,"active":1,"type":"chat","questions":[{"type":"select","name":"temperature","required":true,"options":[0,"0.5"]}],"created_at":"2024-05-01T10:00:00.000000Z","brand_new":{"x":1}}`
	var a Agent
	if err := json.Unmarshal([]byte(in), &a); err != nil {
		t.Fatal(err)
	}
	if a.ID != "5" || a.Active == nil || !bool(*a.Active) || a.Inactive() || a.Description != "" || a.Questions[0].Options[0] != "0" || string(a.Extra["brand_new"]) != `{"x":1}` {
		t.Fatalf("%+v", a)
	}
	out, _ := json.Marshal(a)
	var back Agent
	if err := json.Unmarshal(out, &back); err != nil || string(back.Extra["brand_new"]) != `{"x":1}` || back.Title != "T" {
		t.Fatalf("round trip: %s %v", out, err)
	}
	for raw, inactive := range map[string]bool{`{"active":0}`: true, `{"active":"0"}`: true, `{"active":1}`: false, `{}`: false, `{"active":null}`: false} {
		var ag Agent
		if err := json.Unmarshal([]byte(raw), &ag); err != nil || ag.Inactive() != inactive {
			t.Errorf("%s: inactive %v (%v), want %v", raw, ag.Inactive(), err, inactive)
		}
	}
	var m Memory
	if err := json.Unmarshal([]byte(`{"id":1,"memory":"hi","credits":"0.1","collection":{"id":2,"name":"c"}}`), &m); err != nil || m.Content != "hi" || m.Variant != MemoryA || m.Collection.Name != "c" {
		t.Fatalf("%+v %v", m, err)
	}
	if err := json.Unmarshal([]byte(`{"id":1,"content":"yo","metadata":{"tags":["a"]}}`), &m); err != nil || m.Content != "yo" || m.Variant != MemoryB {
		t.Fatalf("%+v %v", m, err)
	}
}

func TestExecutionStates(t *testing.T) {
	cases := []struct {
		json             string
		terminal, failed bool
		text             string
	}{
		{`{"status":"running","error":null}`, false, false, ""},
		{`{"status":"starting"}`, false, false, ""},
		{`{"status":"completed","error":null}`, true, false, ""},
		{`{"status":"failed"}`, true, true, ""},
		{`{"status":"running","error":"boom"}`, true, true, "boom"},
		{`{"status":"running","error":{"message":"quota"}}`, true, true, "quota"},
		{`{"status":"running","error":{"code":7}}`, true, true, `{"code":7}`},
	}
	for _, tc := range cases {
		var e Execution
		if err := json.Unmarshal([]byte(tc.json), &e); err != nil {
			t.Fatal(err)
		}
		if e.Terminal() != tc.terminal || e.Failed() != tc.failed || e.ErrorText() != tc.text {
			t.Errorf("%s: terminal %v failed %v text %q", tc.json, e.Terminal(), e.Failed(), e.ErrorText())
		}
	}
}

func TestCheckChatMessages(t *testing.T) {
	m := func(roles ...string) []Message {
		out := make([]Message, len(roles))
		for i, r := range roles {
			out[i] = Message{Role: r, Content: "x"}
		}
		return out
	}
	ok := [][]Message{m("user"), m("developer", "user"), m("user", "assistant", "user")}
	bad := [][]Message{nil, m("developer"), m("assistant"), m("user", "user"), m("system", "user"), m("user", "assistant"), m("user", "developer", "user"), m("user", "assistant", "assistant")}
	for _, msgs := range ok {
		if err := CheckChatMessages(msgs); err != nil {
			t.Errorf("%v: %v", msgs, err)
		}
	}
	for _, msgs := range bad {
		if err := CheckChatMessages(msgs); !errors.Is(err, ErrChatRules) {
			t.Errorf("%v accepted", msgs)
		}
	}
	if ErrChatRules.Error() != "Chat messages must be a pair of user/assistant" {
		t.Error("sentence changed")
	}
}

func TestRetryAfterAndBackoff(t *testing.T) {
	now := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Duration{"3": 3 * time.Second, "0.5": 500 * time.Millisecond, now.Add(10 * time.Second).Format(http.TimeFormat): 10 * time.Second, now.Add(5 * time.Second).Format(time.RFC1123): 5 * time.Second} {
		if got, ok := parseRetryAfter(in, now); !ok || got != want {
			t.Errorf("%q: %v %v", in, got, ok)
		}
	}
	for _, in := range []string{"", "soon", "-1"} {
		if _, ok := parseRetryAfter(in, now); ok {
			t.Errorf("%q accepted", in)
		}
	}
	cfg := New().cfg
	for n, hi := range []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second, 8 * time.Second} {
		d := cfg.backoff(n)
		if d > hi || d < hi*4/5 {
			t.Errorf("attempt %d: %v not within jittered %v", n, d, hi)
		}
	}
}

func TestPageHasNext(t *testing.T) {
	f := func(context.Context, int) (*Page[int], error) { return nil, nil }
	cases := []struct {
		p               Page[int]
		perPage         int
		paginated, want bool
	}{
		{Page[int]{Data: []int{1}, NextPageURL: "x"}, 0, false, true},
		{Page[int]{Data: []int{1}, CurrentPage: 2, LastPage: 2}, 0, true, false},
		{Page[int]{Data: []int{1}, CurrentPage: 1}, 0, true, false},
		{Page[int]{Data: make([]int, 15)}, 0, false, true},
		{Page[int]{Data: make([]int, 3)}, 5, false, false},
		{Page[int]{}, 0, false, false},
	}
	for i, tc := range cases {
		tc.p.follow(0, tc.perPage, tc.paginated, f)
		if got := tc.p.HasNext(); got != tc.want {
			t.Errorf("case %d: %v", i, got)
		}
	}
}
