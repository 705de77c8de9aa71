package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
)

// lunchNote are answers agent 119 (a text agent of the built-in service) runs with.
func lunchNote() map[string]string {
	return map[string]string{"prompt": "A short note inviting the team to lunch on Friday", "tone": "formal", "length": "120"}
}

// changed is a copy of agent whose questions change may edit without
// touching agent's.
func changed(agent client.Agent, change func(a *client.Agent)) client.Agent {
	c := agent
	c.Questions = slices.Clone(agent.Questions)
	for i := range c.Questions {
		c.Questions[i].Options = slices.Clone(c.Questions[i].Options)
	}
	change(&c)
	return c
}

func save(t *testing.T, a *app.App, agent client.Agent, name string, answers map[string]string) app.SavedAnswer {
	t.Helper()
	s, err := a.SavedAnswers().Save(context.Background(), agent, name, answers, false)
	if err != nil {
		t.Fatalf("Save %q: %v", name, err)
	}
	return s
}

// A saved answer runs in one step as the Run button would: the built-in
// service runs it once, history keeps it with the saved answers, the
// credits are counted, the agent is among the recent ones and the saved
// answer comes first in the account's list.
func TestASavedAnswerRunsLikeTheRunButton(t *testing.T) {
	ctx := context.Background()
	a := apptest.Open(t)
	agent := getAgent(t, a, "119")
	monthly := save(t, a, agent, "Lunch note", lunchNote())
	save(t, a, agent, "Another", map[string]string{"prompt": "Something else", "tone": "neutral"})
	if list, err := a.SavedAnswers().List(ctx, agent.ID); err != nil || len(list) != 2 || list[0].Name != "Another" {
		t.Fatalf("the agent's saved answers: %+v, %v", list, err)
	}

	ar, err := a.SavedAnswers().Run(ctx, agent, monthly)
	if err != nil {
		t.Fatal(err)
	}
	run, err := finished(t, ar)
	if err != nil || run.Output == "" || run.Status != client.StatusCompleted {
		t.Fatalf("the run: %+v, %v", run, err)
	}
	runs, err := a.Runs().List(ctx, agent.ID)
	if err != nil || len(runs) != 1 || !maps.Equal(runs[0].Inputs, lunchNote()) {
		t.Fatalf("history: %+v, %v", runs, err)
	}
	if n := len(apptest.Demo(a).Service.Executions()); n != 1 {
		t.Fatalf("the service ran %d executions, want 1", n)
	}
	if spent, _ := a.Ledger().Today(ctx); spent <= 0 {
		t.Fatal("the run's credits were not counted")
	}
	if recent := a.Accounts().Prefs().Recent; len(recent) == 0 || recent[0].ID != "119" {
		t.Fatalf("the agent is not first among the recent ones: %+v", recent)
	}
	all, err := a.SavedAnswers().All(ctx)
	if err != nil || len(all) != 2 || all[0].ID != monthly.ID || all[0].UsedAt.IsZero() {
		t.Fatalf("the account's saved answers, the one run first: %+v, %v", all, err)
	}
}

// A saved answer keeps no file (files are chosen for each run), and a
// name is checked.
func TestASavedAnswerKeepsNoFileAndNeedsAName(t *testing.T) {
	ctx := context.Background()
	a := apptest.Open(t)
	agent := getAgent(t, a, "131") // an image agent with a file question
	s := save(t, a, agent, "  Coffee cup  ", map[string]string{"prompt": "A coffee cup", "reference": "8001", "aspect_ratio": "16:9"})
	if s.Name != "Coffee cup" || s.Answers["reference"] != "" || s.Answers["prompt"] != "A coffee cup" {
		t.Fatalf("saved %+v", s)
	}
	for _, name := range []string{"", "   ", strings.Repeat("x", app.SavedNameMax+1)} {
		if _, err := a.SavedAnswers().Save(ctx, agent, name, nil, false); err == nil || app.Describe(err) == "" {
			t.Fatalf("the name %q was taken: %v", name, err)
		}
	}
	_, err := a.SavedAnswers().Save(ctx, agent, "coffee CUP", nil, false)
	if !errors.Is(err, app.ErrSavedNameTaken) || !strings.Contains(app.Describe(err), "“coffee CUP”") {
		t.Fatalf("a name taken: %v (%s)", err, app.Describe(err))
	}
	if _, err := a.SavedAnswers().Save(ctx, agent, "coffee CUP", nil, true); err != nil {
		t.Fatalf("replaced: %v", err)
	}
	if list, _ := a.SavedAnswers().List(ctx, agent.ID); len(list) != 1 || list[0].Name != "coffee CUP" {
		t.Fatalf("after replacing: %+v", list)
	}
}

// fitTexts are the misfits' words, a line each, blocking ones marked.
func fitTexts(ms []app.Misfit) string {
	var b strings.Builder
	for _, m := range ms {
		if m.Blocks {
			b.WriteString("blocks: ")
		}
		b.WriteString(m.Text + "\n")
	}
	return b.String()
}

// When the agent changed its questions since the answers were saved, Fit
// says what no longer fits in plain words; Run is refused while that makes
// the form invalid, sending nothing; Open's answers keep what still fits.
func TestASavedAnswerSaysWhatNoLongerFits(t *testing.T) {
	ctx := context.Background()
	a := apptest.Open(t)
	agent := getAgent(t, a, "119")
	saved := save(t, a, agent, "Lunch note", lunchNote())
	if ms := a.SavedAnswers().Fit(agent, saved); len(ms) != 0 {
		t.Fatalf("an unchanged agent: %s", fitTexts(ms))
	}
	// Saved when the agent still offered a casual tone.
	before := changed(agent, func(c *client.Agent) { c.Question("tone").Options = append(c.Question("tone").Options, "casual") })
	casual := lunchNote()
	casual["tone"] = "casual"
	old := save(t, a, before, "Casual", casual)

	for _, c := range []struct {
		name   string
		agent  client.Agent
		saved  app.SavedAnswer
		want   string
		blocks bool
		open   map[string]string // what Open fills that differs from the saved answers
	}{
		{"choice removed", agent, old, "“Tone” now offers Neutral, Friendly, Formal, Persuasive; the saved answer says Casual.", true, map[string]string{"tone": ""}},
		{"question removed", changed(agent, func(c *client.Agent) {
			c.Questions = slices.DeleteFunc(c.Questions, func(q client.Question) bool { return q.Name == "length" })
		}), saved, "“Length” is no longer asked, so its saved answer, “120”, is left out.", false, map[string]string{"length": "-"}},
		{"new required question", changed(agent, func(c *client.Agent) {
			c.Questions = append(c.Questions, client.Question{Name: "due_date", Type: app.QuestionDate, Required: true})
		}), saved, "“Due date” is a new question that must be answered.", true, nil},
		{"now required", changed(agent, func(c *client.Agent) { c.Question("language").Required = true }), saved,
			"“Language” must now be answered; the saved answer leaves it empty.", true, nil},
		{"type changed", changed(agent, func(c *client.Agent) { c.Question("length").Type = app.QuestionDate }), saved,
			"“Length” now asks for a date instead of a number, so the saved answer, “120”, does not fit.", true, map[string]string{"length": ""}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ms := a.SavedAnswers().Fit(c.agent, c.saved)
			if len(ms) != 1 || ms[0].Text != c.want || ms[0].Blocks != c.blocks || app.Blocking(ms) != c.blocks {
				t.Fatalf("Fit says:\n%swant (blocks %v):\n%s", fitTexts(ms), c.blocks, c.want)
			}
			want := maps.Clone(c.saved.Answers)
			for k, v := range c.open {
				want[k] = v
				if v == "-" {
					delete(want, k)
				}
			}
			if got := a.SavedAnswers().Answers(c.agent, c.saved); !maps.Equal(got, want) {
				t.Fatalf("Open fills %v, want %v", got, want)
			}
			ar, err := a.SavedAnswers().Run(ctx, c.agent, c.saved)
			if !c.blocks {
				if err != nil {
					t.Fatalf("a saved answer that still fits was refused: %v", err)
				}
				if _, err := finished(t, ar); err != nil {
					t.Fatal(err)
				}
				return
			}
			var me *app.MisfitError
			if !errors.As(err, &me) || ar != nil || !strings.Contains(app.Describe(err), c.want) {
				t.Fatalf("Run should be refused in the misfit's words: %v", err)
			}
		})
	}
	// Only the run that fitted reached the service.
	if n := len(apptest.Demo(a).Service.Executions()); n != 1 {
		t.Fatalf("the service ran %d executions, want 1", n)
	}
}

// keyOf opens an App on the built-in service and tells the key Agent Desk
// made for it.
func openWithKey(t *testing.T) (*app.App, func() string) {
	var mu sync.Mutex
	var key string
	a := apptest.Open(t, func(c *app.Config) {
		start := c.StartDemo
		c.StartDemo = func(k string) (app.DemoServer, error) {
			mu.Lock()
			key = k
			mu.Unlock()
			return start(k)
		}
	})
	return a, func() string { mu.Lock(); defer mu.Unlock(); return key }
}

// A saved answer exported to a file is imported by a colleague's Agent
// Desk for the same agent; the file holds the agent and the answers,
// never a key, an account or an address.
func TestASavedAnswerGoesToAColleagueAsAFile(t *testing.T) {
	ctx := context.Background()
	a, key := openWithKey(t)
	agent := getAgent(t, a, "119")
	saved := save(t, a, agent, "Lunch note", lunchNote())
	data, err := a.SavedAnswers().Export(saved)
	if err != nil {
		t.Fatal(err)
	}
	for what, secret := range map[string]string{"key": key(), "address": apptest.Demo(a).URL(), "host": strings.TrimPrefix(apptest.Demo(a).URL(), "http://")} {
		if secret == "" || bytes.Contains(data, []byte(secret)) {
			t.Fatalf("the file holds the %s %q (or it is unknown):\n%s", what, secret, data)
		}
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		t.Fatal(err)
	}
	if got := slices.Sorted(maps.Keys(fields)); !slices.Equal(got, []string{"agent_desk_saved_answer", "agent_id", "agent_title", "answers", "name"}) {
		t.Fatalf("the file holds %v", got)
	}
	if name := app.ExportName(saved); name != "Lunch note.json" {
		t.Fatalf("the file is offered as %q", name)
	}
	path := filepath.Join(t.TempDir(), app.ExportName(saved))
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}

	colleague := apptest.Open(t)
	got, err := colleague.SavedAnswers().Import(ctx, path, false)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "Lunch note" || got.AgentID != "119" || got.AgentTitle != agent.Title || !maps.Equal(got.Answers, lunchNote()) {
		t.Fatalf("imported %+v", got)
	}
	if ms := colleague.SavedAnswers().Fit(getAgent(t, colleague, "119"), got); len(ms) != 0 {
		t.Fatalf("an imported answer for the same agent: %s", fitTexts(ms))
	}
	// Imported again: the name is taken, until replacing is asked for.
	if _, err := colleague.SavedAnswers().Import(ctx, path, false); !errors.Is(err, app.ErrSavedNameTaken) {
		t.Fatalf("imported twice: %v", err)
	}
	if _, err := colleague.SavedAnswers().Import(ctx, path, true); err != nil {
		t.Fatal(err)
	}
	if list, err := colleague.SavedAnswers().List(ctx, "119"); err != nil || len(list) != 1 {
		t.Fatalf("the colleague's saved answers: %+v, %v", list, err)
	}
}

// Import refuses, in one plain sentence and saving nothing, a file that
// is not a saved answer, too large, from a newer Agent Desk, or for an
// agent the account does not have.
func TestImportRefusesWhatIsNotASavedAnswer(t *testing.T) {
	ctx := context.Background()
	a := apptest.Open(t)
	dir := t.TempDir()
	for _, c := range []struct {
		name, data, want string
	}{
		{"not JSON", "Dear team, lunch is on Friday.", "This file is not a saved answer from Agent Desk, so nothing was imported."},
		{"another JSON file", `{"name":"Lunch","answers":{}}`, "This file is not a saved answer from Agent Desk, so nothing was imported."},
		{"a list", `[1, 2]`, "This file is not a saved answer from Agent Desk, so nothing was imported."},
		{"numbers as answers", `{"agent_desk_saved_answer":1,"agent_id":"119","agent_title":"","name":"x","answers":{"length":120}}`, "This file is not a saved answer from Agent Desk, so nothing was imported."},
		{"more than the shape", `{"agent_desk_saved_answer":1,"agent_id":"119","agent_title":"","name":"x","answers":{},"api_key":"k"}`, "This file is not a saved answer from Agent Desk, so nothing was imported."},
		{"a path for an id", `{"agent_desk_saved_answer":1,"agent_id":"../files","agent_title":"","name":"x","answers":{}}`, "This file is not a saved answer from Agent Desk, so nothing was imported."},
		{"no name", `{"agent_desk_saved_answer":1,"agent_id":"119","agent_title":"","name":" ","answers":{}}`, "This file is not a saved answer from Agent Desk, so nothing was imported."},
		{"two in one", `{"agent_desk_saved_answer":1,"agent_id":"119","agent_title":"","name":"x","answers":{}} {}`, "This file is not a saved answer from Agent Desk, so nothing was imported."},
		{"newer", `{"agent_desk_saved_answer":2,"agent_id":"119","name":"x","answers":{},"questions":[]}`, "This saved answer was written by a newer Agent Desk. Update Agent Desk to import it."},
		{"too large", `{"agent_desk_saved_answer":1,"agent_id":"119","agent_title":"","name":"x","answers":{"prompt":"` + strings.Repeat("a", app.SavedAnswerFileMax) + `"}}`, "This file is larger than a saved answer can be (1.0 MB), so it was not read."},
		{"agent missing", `{"agent_desk_saved_answer":1,"agent_id":"990099","agent_title":"Invoice Checker","name":"x","answers":{}}`, "This saved answer is for the agent “Invoice Checker”, which the account in use does not have, so it was not imported."},
		{"a chat agent", `{"agent_desk_saved_answer":1,"agent_id":"101","agent_title":"","name":"x","answers":{}}`, "This saved answer is for a chat agent, which is not run from a form, so it was not imported."},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name+".json")
			if err := os.WriteFile(path, []byte(c.data), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := a.SavedAnswers().Import(ctx, path, false)
			if err == nil || app.Describe(err) != c.want {
				t.Fatalf("Import says %q (%v), want %q", app.Describe(err), err, c.want)
			}
		})
	}
	if all, err := a.SavedAnswers().All(ctx); err != nil || len(all) != 0 {
		t.Fatalf("a refused file was saved: %+v, %v", all, err)
	}
}

// FuzzImportSavedAnswer: no file crashes the reader or gets past it out
// of shape: what it takes has a plain name and bounded answers, and reads
// back the same once written again.
func FuzzImportSavedAnswer(f *testing.F) {
	f.Add([]byte(`{"agent_desk_saved_answer":1,"agent_id":"119","agent_title":"Newsletter Writer","name":"Lunch","answers":{"tone":"formal"}}`))
	f.Add([]byte(`{"agent_desk_saved_answer":1,"agent_id":"119","agent_title":"\u202eevil","name":"a\nb\u0000","answers":null}`))
	f.Add([]byte(`{"agent_desk_saved_answer":2}`))
	f.Add([]byte(`{"agent_desk_saved_answer":1e400,"agent_id":"x"}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := app.ParseSavedAnswer(data)
		if err != nil {
			if app.Describe(err) == "" {
				t.Fatal("a refusal without words")
			}
			return
		}
		if got.Name == "" || strings.ContainsAny(got.Name+got.AgentTitle, "\n\r\x00\u202e") || len([]rune(got.Name)) > app.SavedNameMax+1 {
			t.Fatalf("name %q, title %q", got.Name, got.AgentTitle)
		}
		if got.AgentID == "" || strings.ContainsAny(got.AgentID, "/\\ ") || len(got.Answers) > 500 {
			t.Fatalf("agent %q, %d answers", got.AgentID, len(got.Answers))
		}
		again, err := app.ParseSavedAnswer(mustExport(t, got))
		if err != nil || again.Name != got.Name || again.AgentID != got.AgentID || !maps.Equal(again.Answers, got.Answers) {
			t.Fatalf("written again and read: %+v, %v; first %+v", again, err, got)
		}
	})
}

func mustExport(t *testing.T, f app.SavedAnswerFile) []byte {
	t.Helper()
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
