package app_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/client"
)

// extra is a question's Extra from JSON text.
func extra(t *testing.T, s string) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// sent is what ExecuteAnswers gives for one answer, as JSON text ("" when
// nothing is sent).
func sent(t *testing.T, q client.Question, v string) string {
	t.Helper()
	out := app.ExecuteAnswers(client.Agent{Questions: []client.Question{q}}, map[string]string{q.Name: v})
	got, ok := out[q.Name]
	if !ok {
		return ""
	}
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// check is CheckAnswers' note for one answer.
func check(q client.Question, v string) string {
	return app.CheckAnswers(client.Agent{Questions: []client.Question{q}}, map[string]string{q.Name: v})[q.Name]
}

func TestEachQuestionTypeIsCheckedAndSent(t *testing.T) {
	minutes := client.Question{Type: "number", Name: "minutes", Required: true, Extra: extra(t, `{"min":5,"max":120}`)}
	cases := []struct {
		q          client.Question
		answer     string
		note, wire string // note: part of CheckAnswers' note ("" none); wire: JSON sent
	}{
		{client.Question{Type: "select", Name: "tone", Required: true, Options: []string{"a", "b"}}, "b", "", `"b"`},
		{client.Question{Type: "select", Name: "tone", Required: true, Options: []string{"a", "b"}}, "c", "Please pick one of the choices.", `"c"`},
		{client.Question{Type: "select", Name: "tone", Required: true}, "", "set up wrong", ""},
		{client.Question{Type: "number", Name: "n"}, "250", "", "250"},
		{client.Question{Type: "number", Name: "n"}, "ten", "Please enter a number, for example 250.", `"ten"`},
		{minutes, "60", "", "60"},
		{minutes, "500", "Please enter a number from 5 to 120.", "500"},
		{minutes, "4.5", "Please enter a number from 5 to 120.", "4.5"},
		{minutes, "x", "Please enter a number from 5 to 120.", `"x"`},
		{minutes, "", "Please fill this in.", ""},
		{client.Question{Type: "number", Name: "n", Extra: extra(t, `{"minimum":"1"}`)}, "0", "Please enter a number of 1 or more.", "0"},
		{client.Question{Type: "number", Name: "n", Extra: extra(t, `{"maximum":10}`)}, "11", "Please enter a number of 10 or less.", "11"},
		{client.Question{Type: "array", Name: "items", Required: true}, `["a"," b ",""]`, "", `["a","b"]`},
		{client.Question{Type: "array", Name: "items", Required: true}, `[]`, "Please add at least one line.", ""},
		{client.Question{Type: "array", Name: "items"}, "one\ntwo", "", `["one","two"]`},
		{client.Question{Type: "multiselect", Name: "ch", Description: "Print, Web,Email", Required: true}, `["Web","Email"]`, "", `["Web","Email"]`},
		{client.Question{Type: "multiselect", Name: "ch", Description: "Print, Web,Email", Required: true}, `[]`, "Please choose at least one.", ""},
		{client.Question{Type: "multiselect", Name: "ch", Options: []string{"x", "y"}}, `["z"]`, "Please pick from the choices shown.", `["z"]`},
		{client.Question{Type: "multiselect", Name: "ch", Required: true}, ``, "set up wrong", ""},
		{client.Question{Type: "date", Name: "due"}, "2026-12-01", "", `"2026-12-01"`},
		{client.Question{Type: "date", Name: "due"}, "next week", "2026-11-25", `"next week"`},
		{client.Question{Type: "boolean", Name: "yes"}, "true", "", "true"},
		{client.Question{Type: "boolean", Name: "yes", Required: true}, "false", "", "false"},
		{client.Question{Type: "text", Name: "s", Required: true}, "Hello", "", `"Hello"`},
		{client.Question{Type: "textarea", Name: "s", Required: true}, "", "Please fill this in.", ""},
		{client.Question{Type: "textarea", Name: "s"}, "a\nb", "", `"a\nb"`},
		{client.Question{Type: "object", Name: "o"}, `{"city": "Lisbon", "n": 3}`, "", `{"city":"Lisbon","n":3}`},
		{client.Question{Type: "object", Name: "o"}, `["a"]`, "curly brackets", `"[\"a\"]"`},
		{client.Question{Type: "object", Name: "o"}, `city`, "curly brackets", `"city"`},
		{client.Question{Type: "file", Name: "doc", Required: true}, "42", "", "42"},
		{client.Question{Type: "file", Name: "doc", Required: true}, "file-abc", "", `"file-abc"`},
		{client.Question{Type: "file", Name: "doc", Required: true}, "", "Please choose a file.", ""},
		{client.Question{Type: "colour", Name: "c", Required: true}, "teal", "", `"teal"`},
		{client.Question{Type: "colour", Name: "c", Required: true}, "", "Please fill this in.", ""},
	}
	for _, c := range cases {
		note := check(c.q, c.answer)
		if (c.note == "") != (note == "") || !strings.Contains(note, c.note) {
			t.Errorf("%s %q: note %q, want %q", c.q.Type, c.answer, note, c.note)
		}
		if got := sent(t, c.q, c.answer); got != c.wire {
			t.Errorf("%s %q: sent %s, want %s", c.q.Type, c.answer, got, c.wire)
		}
	}
}

func TestEveryQuestionButAChatsMessagesIsAsked(t *testing.T) {
	agent := client.Agent{Questions: []client.Question{
		{Type: "array", Name: "messages"}, {Type: "array", Name: "items"}, {Type: "wheel", Name: "w"},
	}}
	qs := app.FormQuestions(agent)
	if len(qs) != 2 || qs[0].Name != "items" {
		t.Fatalf("the form asks %v", qs)
	}
}

func TestBlockedNamesAChoiceWithNothingToChoose(t *testing.T) {
	for _, q := range []client.Question{
		{Type: "select", Name: "region", Required: true},
		{Type: "multiselect", Name: "region", Required: true, Description: " , "},
	} {
		if name, why := app.Blocked(client.Agent{Questions: []client.Question{q}}); name != "region" || why != app.NoChoicesNote() {
			t.Errorf("%s: blocked %q %q", q.Type, name, why)
		}
	}
	for _, q := range []client.Question{
		{Type: "select", Name: "region"},
		{Type: "multiselect", Name: "region", Required: true, Description: "North, South"},
	} {
		if name, _ := app.Blocked(client.Agent{Questions: []client.Question{q}}); name != "" {
			t.Errorf("%s blocks the run", q.Type)
		}
	}
}

func TestDefaultsPlaceholdersAndHelpAreShownAsText(t *testing.T) {
	cases := []struct {
		q    client.Question
		want string
	}{
		{client.Question{Type: "number", Extra: extra(t, `{"default":3}`)}, "3"},
		{client.Question{Type: "boolean", Extra: extra(t, `{"default":false}`)}, "false"},
		{client.Question{Type: "textarea", Extra: extra(t, `{"default":"Dear all,\u202e\n\u0007thanks"}`)}, "Dear all,\nthanks"},
		{client.Question{Type: "multiselect", Extra: extra(t, `{"default":["Web", 2]}`)}, `["Web","2"]`},
		{client.Question{Type: "multiselect", Extra: extra(t, `{"default":"Web, Print"}`)}, `["Web","Print"]`},
		{client.Question{Type: "array", Extra: extra(t, `{"default":["a","b"]}`)}, `["a","b"]`},
		{client.Question{Type: "object", Extra: extra(t, `{"default":{"a":1}}`)}, "{\n  \"a\": 1\n}"},
		{client.Question{Type: "object", Extra: extra(t, `{"default":[1]}`)}, ""},
		{client.Question{Type: "text", Extra: extra(t, `{"default":null}`)}, ""},
		{client.Question{Type: "text"}, ""},
	}
	for _, c := range cases {
		if got := app.Default(c.q); got != c.want {
			t.Errorf("%s default %q, want %q", c.q.Type, got, c.want)
		}
	}
	q := client.Question{Type: "text", Extra: extra(t, `{"placeholder":"Write\u202e here\nplease"}`)}
	if got := app.Placeholder(q); got != "Write here please" {
		t.Errorf("placeholder %q", got)
	}
	if got := app.Placeholder(client.Question{Extra: extra(t, `{"placeholder":5}`)}); got != "" {
		t.Errorf("a number as placeholder shows %q", got)
	}
	n := client.Question{Type: "number", Description: "Seconds.\u202e", Extra: extra(t, `{"min":5,"max":120}`)}
	if got := app.HelpText(n); got != "Seconds.\nFrom 5 to 120." {
		t.Errorf("help %q", got)
	}
	if got := app.HelpText(client.Question{Type: "multiselect", Description: "a, b"}); got != "" {
		t.Errorf("choices shown as help: %q", got)
	}
	if got := app.HelpText(client.Question{Description: strings.Repeat("x", 5000)}); len([]rune(got)) > 1001 || !strings.HasSuffix(got, "…") {
		t.Errorf("a long description gives %d characters of help", len([]rune(got)))
	}
}

// A choice the agent spells with spaces around it is a choice like any
// other: it can be picked, it is sent as spelled, and a default names it.
func TestChoicesWithSpacesAroundThemArePickedAndSentAsSpelled(t *testing.T) {
	sel := client.Question{Type: "select", Name: "tone", Required: true, Options: []string{" A ", "B"}, Extra: extra(t, `{"default":" A "}`)}
	if note := check(sel, " A "); note != "" {
		t.Errorf("the choice \" A \" is refused: %q", note)
	}
	if got := sent(t, sel, " A "); got != `" A "` {
		t.Errorf("the choice \" A \" is sent as %s", got)
	}
	if note := check(sel, "A"); note == "" {
		t.Error("\"A\" is taken for the choice \" A \"")
	}
	if got := app.Default(sel); got != " A " {
		t.Errorf("the default \" A \" is %q", got)
	}
	multi := client.Question{Type: "multiselect", Name: "ch", Required: true, Options: []string{" A ", "B"}}
	if note := check(multi, `[" A ","B"]`); note != "" {
		t.Errorf("the choices \" A \" and B are refused: %q", note)
	}
	if got := sent(t, multi, `[" A ","B"]`); got != `[" A ","B"]` {
		t.Errorf("the choices \" A \" and B are sent as %s", got)
	}
	if got := app.ParseList(multi, `[" A ",""]`); len(got) != 1 || got[0] != " A " {
		t.Errorf("the multiselect answer reads as %q", got)
	}
}

// Bounds that are no number (NaN, Inf) are no bounds: the help never says
// "From NaN to 120".
func TestBoundsThatAreNoNumberAreIgnored(t *testing.T) {
	for _, x := range []string{`"NaN"`, `"Inf"`, `"-Inf"`, `"infinity"`, `"+Infinity"`, `" nan "`} {
		q := client.Question{Type: "number", Name: "n", Extra: extra(t, `{"min":`+x+`,"max":120}`)}
		lo, hi := app.Bounds(q)
		if lo != nil || hi == nil || *hi != 120 {
			t.Errorf("min %s: bounds %v, %v", x, lo, hi)
		}
		if got := app.HelpText(q); got != "120 or less." {
			t.Errorf("min %s: help %q", x, got)
		}
		q = client.Question{Type: "number", Name: "n", Extra: extra(t, `{"min":5,"max":`+x+`}`)}
		if got := app.RangeText(q); got != "5 or more." {
			t.Errorf("max %s: range %q", x, got)
		}
		if got := check(q, "1"); got != "Please enter a number of 5 or more." {
			t.Errorf("max %s: note %q", x, got)
		}
	}
}

// The help and the note say the same range in their own words.
func TestRangeTextAndNoteAgree(t *testing.T) {
	cases := []struct{ extra, help, note string }{
		{`{"min":5,"max":120}`, "From 5 to 120.", "Please enter a number from 5 to 120."},
		{`{"min":0.5}`, "0.5 or more.", "Please enter a number of 0.5 or more."},
		{`{"maximum":"-3"}`, "-3 or less.", "Please enter a number of -3 or less."},
		{`{"min":9,"max":1}`, "", "Please enter a number, for example 250."},
	}
	for _, c := range cases {
		q := client.Question{Type: "number", Name: "n", Extra: extra(t, c.extra)}
		if got := app.RangeText(q); got != c.help {
			t.Errorf("%s: help %q, want %q", c.extra, got, c.help)
		}
		if got := check(q, "x"); got != c.note {
			t.Errorf("%s: note %q, want %q", c.extra, got, c.note)
		}
	}
}

// The notes at a date and an object are in plain words, with an example.
func TestDateAndObjectNotesGiveAnExample(t *testing.T) {
	if got := check(client.Question{Type: "date", Name: "d"}, "soon"); got != app.DateMessage("2026-11-25") {
		t.Errorf("date note %q", got)
	}
	got := check(client.Question{Type: "object", Name: "o"}, "city")
	if strings.Contains(got, "pairs") || strings.Contains(got, `"name"`) || !strings.Contains(got, `{"city": "Lisbon"}`) {
		t.Errorf("object note %q", got)
	}
}
