package demoservice

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image/png"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/client"
)

// oddEnv is an odd-seeded service and a client of it, in one reading.
type oddEnv struct {
	base string
	svc  *Service
	c    *client.Client
}

func startOdd(t *testing.T, api string) oddEnv {
	t.Helper()
	srv, svc := NewTestService(t, Options{API: api, APIKey: testKey, Seed: SeedOdd})
	c := client.New(client.WithBaseURL(srv.URL), client.WithAPIKey(testKey), client.WithMaxRetries(0))
	return oddEnv{base: srv.URL, svc: svc, c: c}
}

// raw reads GET path as a JSON object, numbers kept as written.
func (o oddEnv) raw(t *testing.T, path string) map[string]json.RawMessage {
	t.Helper()
	req, _ := http.NewRequest("GET", o.base+path, nil)
	req.Header.Set("Authorization", "Bearer "+testKey)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	var out map[string]json.RawMessage
	if err := json.Unmarshal(body, &out); err != nil || res.StatusCode != 200 {
		t.Fatalf("GET %s: %d %s", path, res.StatusCode, body)
	}
	return out
}

func oddID(i int, n int) int64 {
	if i == n-1 {
		return OddBigID
	}
	return OddFirstID + int64(i)
}

// answerFor is a valid answer to q, as a form would send it.
func answerFor(q client.Question, fileID string) any {
	switch q.Type {
	case "select":
		return q.Options[0]
	case "number":
		return 5
	case "array":
		return []string{"First point", "Second point"}
	case QuestionText, QuestionTextarea:
		return "A short note about the summer party"
	case QuestionDate:
		return "2025-07-12"
	case QuestionBoolean:
		return true
	case QuestionMultiselect:
		return []string{"Web", "Email"}
	case QuestionFile:
		return fileID
	case QuestionObject:
		return map[string]any{"colour": "blue"}
	}
	return "#0055AA"
}

func TestOddSeedReadBackThroughClient(t *testing.T) {
	for _, api := range []string{APIReal, APISpec} {
		t.Run(api, func(t *testing.T) {
			o := startOdd(t, api)
			ctx := context.Background()
			var listed []client.Agent
			for a, err := range o.c.Agents(ctx, client.ListAgentsParams{PerPage: 100}) {
				if err != nil {
					t.Fatal(err)
				}
				listed = append(listed, a)
			}
			cat := oddCatalogue()
			if len(listed) < len(cat)+40 {
				t.Fatalf("listed %d agents", len(listed))
			}
			// The usual agents first, then the odd ones, the big id last.
			if listed[0].ID != "101" || listed[len(listed)-1].ID != client.ID(strconv.FormatInt(OddBigID, 10)) {
				t.Fatalf("first %s, last %s", listed[0].ID, listed[len(listed)-1].ID)
			}
			odd := listed[len(listed)-len(cat):]
			for i, want := range cat {
				id := client.ID(strconv.FormatInt(oddID(i, len(cat)), 10))
				got := odd[i]
				if got.ID != id || got.Title != want.Title || !utf8.ValidString(got.Title) {
					t.Fatalf("odd agent %d: listed %s %q, want %s %q", i, got.ID, got.Title, id, want.Title)
				}
				one, err := o.c.GetAgent(ctx, id)
				if err != nil {
					t.Fatalf("get %s: %v", id, err)
				}
				if one.Title != want.Title || one.Type != want.Type || one.Description != deref(want.Description) || one.LongDescription != deref(want.LongDescription) {
					t.Fatalf("agent %s read back as %+v", id, one)
				}
				if len(one.Questions) != len(want.Questions) {
					t.Fatalf("agent %s: %d questions, want %d", id, len(one.Questions), len(want.Questions))
				}
				for j, q := range want.Questions {
					g := one.Questions[j]
					if g.Type != q.Type || g.Name != q.Name || g.Description != q.Description || g.Required != q.Required || len(g.Options) != len(q.Options) {
						t.Fatalf("agent %s question %d: %+v, want %+v", id, j, g, q)
					}
				}
				// Byte for byte as served, and as the seed holds it.
				raw := o.raw(t, "/agents/"+id.String())
				var title string
				_ = json.Unmarshal(raw["title"], &title)
				if title != want.Title {
					t.Fatalf("agent %s title bytes %q", id, raw["title"])
				}
				if want.Description == nil && string(raw["description"]) != "null" {
					t.Fatalf("agent %s description %s, want null", id, raw["description"])
				}
				switch {
				case want.Questions == nil && string(raw["questions"]) != "null":
					t.Fatalf("agent %s questions %s, want null", id, raw["questions"])
				case want.Questions != nil && len(want.Questions) == 0 && string(raw["questions"]) != "[]":
					t.Fatalf("agent %s questions %s, want []", id, raw["questions"])
				}
				if (want.Active == 0) != one.Inactive() {
					t.Fatalf("agent %s inactive %v", id, one.Inactive())
				}
				if (want.Visibility == "private") == one.Visible() {
					t.Fatalf("agent %s visibility %q", id, one.Visibility)
				}
			}

			// The oddities named one by one.
			byTitle := map[string]client.Agent{}
			for _, a := range odd {
				byTitle[a.Title] = a
			}
			if utf8.RuneCountInString(cat[0].Title) != 300 || byTitle[cat[0].Title].ID == "" {
				t.Fatalf("the 300-character title is missing")
			}
			for _, sub := range []string{"会議", "مساعد", "עוזר", "📝", "<script>", "e\u0301"} {
				found := false
				for title := range byTitle {
					found = found || strings.Contains(title, sub)
				}
				if !found {
					t.Fatalf("no title holds %q", sub)
				}
			}
			md := o.raw(t, "/agents/"+strconv.FormatInt(OddFirstID+24, 10))
			var long string
			_ = json.Unmarshal(md["long_description"], &long)
			if len(long) < 3000 || !strings.Contains(long, "\n## ") || !strings.Contains(long, "\n- ") || !strings.Contains(long, "\n1. ") {
				t.Fatalf("long Markdown description: %d characters", len(long))
			}

			types := map[string]client.Question{}
			for _, a := range odd {
				if strings.HasPrefix(a.Title, "Question Type: ") {
					types[a.Questions[0].Type] = a.Questions[0]
				}
			}
			for _, typ := range []string{"select", "number", "array", "text", "textarea", "date", "boolean", "multiselect", "file", "object", "color"} {
				if _, ok := types[typ]; !ok {
					t.Fatalf("no agent with a %s question", typ)
				}
			}
			if n := types["number"]; string(n.Extra["min"]) != "1" || string(n.Extra["max"]) != "10" || string(n.Extra["default"]) != "3" {
				t.Fatalf("number question keys %v", n.Extra)
			}
			if s := types["select"]; string(s.Extra["default"]) != `"Sales"` {
				t.Fatalf("select question keys %v", s.Extra)
			}
			if tx := types["text"]; !strings.Contains(string(tx.Extra["placeholder"]), "Office closed") {
				t.Fatalf("text question keys %v", tx.Extra)
			}
			if m := types["multiselect"]; m.Description != "Print, Web, Social media, Email" || m.Options != nil {
				t.Fatalf("multiselect %+v", m)
			}
			zero := o.raw(t, "/agents/"+strconv.FormatInt(OddFirstID+21, 10))
			if !bytes.Contains(zero["questions"], []byte(`"options":[]`)) {
				t.Fatalf("the select with no options: %s", zero["questions"])
			}
		})
	}
}

// TestOddSeedRuns runs every odd agent through the client as a form
// would: each runs, except the inactive one and the select with no
// options, which the service refuses.
func TestOddSeedRuns(t *testing.T) {
	for _, api := range []string{APIReal, APISpec} {
		t.Run(api, func(t *testing.T) {
			o := startOdd(t, api)
			ctx := context.Background()
			cat := oddCatalogue()
			for i := range cat {
				id := client.ID(strconv.FormatInt(oddID(i, len(cat)), 10))
				a, err := o.c.GetAgent(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				p := client.ExecuteParams{Answers: map[string]any{}}
				for _, q := range a.Questions {
					if q.Name == "messages" || q.Name == "root_id" || (q.Type == "select" && len(q.Options) == 0) {
						continue
					}
					p.Answers[q.Name] = answerFor(q, "8001")
				}
				if a.Type == TypeChat {
					p.Messages = []client.Message{{Role: "user", Content: "Plan the team offsite"}}
				}
				ex, err := o.c.Run(ctx, id, p)
				var apiErr *client.APIError
				switch {
				case cat[i].Active == 0:
					if !errors.As(err, &apiErr) || (apiErr.StatusCode != 400 && apiErr.StatusCode != 422) || !strings.Contains(apiErr.Error(), inactiveMessage) {
						t.Fatalf("inactive agent %s: %v", id, err)
					}
				case strings.HasPrefix(a.Title, "Misconfigured"):
					if !errors.As(err, &apiErr) || len(apiErr.Fields["template"]) == 0 {
						t.Fatalf("select without options %s: %v", id, err)
					}
				case err != nil:
					t.Fatalf("run %s %q: %v", id, a.Title, err)
				case ex.Output == "" || (ex.Status != client.StatusCompleted && ex.Status != client.StatusSucceeded):
					t.Fatalf("run %s: %+v", id, ex)
				}
			}
		})
	}
}

func TestPromptRequiredAndReflected(t *testing.T) {
	for _, api := range []string{APIReal, APISpec} {
		t.Run(api, func(t *testing.T) {
			o := startOdd(t, api)
			ctx := context.Background()
			for _, id := range []client.ID{"119", "131", "139"} {
				a, err := o.c.GetAgent(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				q := a.Question("prompt")
				if q == nil || q.Type != "textarea" || !q.Required || !strings.HasPrefix(q.Description, "Describe") {
					t.Fatalf("agent %s prompt question %+v", id, q)
				}
				if a.Type != TypeText {
					if f := a.Question("reference"); f == nil || f.Type != "file" || f.Required {
						t.Fatalf("agent %s reference question %+v", id, f)
					}
				}
				// Without the prompt the run is refused, naming it.
				_, err = o.c.Run(ctx, id, client.ExecuteParams{Answers: map[string]any{"tone": "friendly", "style": "photo", "aspect_ratio": "16:9", "duration": 30}})
				var apiErr *client.APIError
				if !errors.As(err, &apiErr) || len(apiErr.Fields["prompt"]) == 0 || apiErr.Fields["prompt"][0] != "The prompt field is required." {
					t.Fatalf("agent %s without prompt: %v", id, err)
				}
			}

			// A text agent writes about what it was asked for.
			prompt := "Invite the team to the summer barbecue on Friday at the river terrace"
			ex, err := o.c.Run(ctx, "119", client.ExecuteParams{Answers: map[string]any{"prompt": prompt, "tone": "friendly"}})
			if err != nil {
				t.Fatal(err)
			}
			low := strings.ToLower(ex.Output)
			if !strings.Contains(low, "summer barbecue") || !strings.Contains(ex.Output, prompt) || len(ex.Output) > maxReplyChars {
				t.Fatalf("text reply does not reflect the request:\n%s", ex.Output)
			}
			recs := o.svc.Executions()
			if got := recs[len(recs)-1].Input; got != prompt {
				t.Fatalf("input %q, want the prompt", got)
			}

			// A picture carries the request: two prompts, two pictures.
			pic := func(p string) []byte {
				ex, err := o.c.Run(ctx, "131", client.ExecuteParams{Answers: map[string]any{"prompt": p, "style": "photo", "aspect_ratio": "1:1"}})
				if err != nil {
					t.Fatal(err)
				}
				res, err := http.Get(ex.Output)
				if err != nil {
					t.Fatal(err)
				}
				defer res.Body.Close()
				data, _ := io.ReadAll(res.Body)
				if _, err := png.Decode(bytes.NewReader(data)); err != nil {
					t.Fatalf("picture: %v", err)
				}
				return data
			}
			if bytes.Equal(pic("A red bicycle in the rain"), pic("A blue teapot on a shelf")) {
				t.Fatal("two requests gave the same picture")
			}

			// The clip's length keeps to 5..120 seconds.
			_, err = o.c.Run(ctx, "139", client.ExecuteParams{Answers: map[string]any{"prompt": "A welcome", "duration": 500, "aspect_ratio": "16:9"}})
			var apiErr *client.APIError
			if !errors.As(err, &apiErr) || len(apiErr.Fields["duration"]) == 0 || !strings.Contains(apiErr.Fields["duration"][0], "between 5 and 120") {
				t.Fatalf("duration 500: %v", err)
			}
			if _, err := o.c.Run(ctx, "139", client.ExecuteParams{Answers: map[string]any{"prompt": "A welcome", "duration": 120, "aspect_ratio": "16:9"}}); err != nil {
				t.Fatalf("duration 120: %v", err)
			}
		})
	}
}

func TestQuestionTypeValidation(t *testing.T) {
	e := startUnchecked(t, Options{Seed: SeedOdd})
	agentOf := map[string]int64{}
	for i, o := range oddCatalogue() {
		if strings.HasPrefix(o.Title, "Question Type: ") {
			agentOf[o.Questions[0].Type] = OddFirstID + int64(i)
		}
	}
	cases := []struct {
		typ string
		bad any
	}{
		{"number", 11}, {"number", 0}, {"number", "many"},
		{"date", "12/07/2025"}, {"date", 20250712},
		{"boolean", "maybe"},
		{"multiselect", []any{"Radio"}}, {"multiselect", "Web, Fax"},
		{"object", "colour=blue"},
		{"text", 12}, {"textarea", []any{"x"}},
		{"array", "one"},
		{"select", "Legal"},
	}
	for _, c := range cases {
		id := agentOf[c.typ]
		a := e.svc.agents[id]
		name := a.Questions[0].Name
		e.expectError("POST", "/agents/"+strconv.FormatInt(id, 10)+"/execute", map[string]any{"answers": map[string]any{name: c.bad}}, 422, "", name)
	}
	for _, c := range []struct {
		typ  string
		good any
	}{
		{"number", "10"}, {"date", "2025-07-12T09:00:00Z"}, {"boolean", false}, {"boolean", "0"},
		{"multiselect", "Web, Social media"}, {"file", []any{8001}}, {"color", "#fff"},
	} {
		id := agentOf[c.typ]
		a := e.svc.agents[id]
		e.call("POST", "/agents/"+strconv.FormatInt(id, 10)+"/execute", map[string]any{"answers": map[string]any{a.Questions[0].Name: c.good}}, 200)
	}
	// Required means present: an empty answer is refused.
	id := agentOf["multiselect"]
	e.expectError("POST", "/agents/"+strconv.FormatInt(id, 10)+"/execute", map[string]any{"answers": map[string]any{"channels": []any{}}}, 422, "The channels field is required.", "channels")
}

func TestOddSeedIsSwitchable(t *testing.T) {
	if DefaultSeed() != SeedStandard {
		t.Fatalf("default seed %q", DefaultSeed())
	}
	if err := SetDefaultSeed("strange"); err == nil {
		t.Fatal("an unknown seed was accepted")
	}
	std, odd := New(Options{}), New(Options{Seed: SeedOdd})
	defer std.Close()
	defer odd.Close()
	if len(odd.agents) != len(std.agents)+len(oddCatalogue()) {
		t.Fatalf("odd seed holds %d agents, standard %d", len(odd.agents), len(std.agents))
	}
	oddList := agentsInOrder(odd)
	for i, a := range agentsInOrder(std) {
		if oddList[i].ID != a.ID || oddList[i].Title != a.Title {
			t.Fatalf("the usual agents do not come first: %d %q", oddList[i].ID, oddList[i].Title)
		}
	}
	if _, ok := std.agents[OddFirstID]; ok {
		t.Fatal("the standard seed holds odd agents")
	}
	// Extra agents come before the odd ones, ids still in order.
	many := New(Options{Seed: SeedOdd, ExtraAgents: 20})
	defer many.Close()
	manyList := agentsInOrder(many)
	for i, a := range manyList {
		if extra := i < len(manyList)-len(oddCatalogue()); extra != (a.ID < OddFirstID) {
			t.Fatalf("ids out of order at %d: %d", i, a.ID)
		}
	}
}
