package storage

import (
	"context"
	"errors"
	"maps"
	"slices"
	"testing"
	"time"
)

// names are the saved answers' names in the order listed.
func names(list []SavedAnswer) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = s.Name
	}
	return out
}

// A saved answer is kept with its answers and the agent's questions, listed
// per agent and account, the one run last first; a name is the agent's
// once whatever its case, replaced only when asked; renamed, deleted.
func TestSavedAnswersAreKeptPerAgentAndAccount(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 5, 1, 9, 0, 0, 0, time.Local)
	db := openTestDB(t, testPaths(t), WithClock(func() time.Time { return now }))
	add := func(account, agent, name string, answers map[string]string) SavedAnswer {
		t.Helper()
		s, err := db.AddSavedAnswer(ctx, SavedAnswer{AccountID: account, AgentID: agent, AgentTitle: "Agent " + agent, Name: name, Answers: answers,
			Questions: []SavedQuestion{{Name: "prompt", Type: "textarea"}, {Name: "tone", Type: "select"}}}, false)
		if err != nil {
			t.Fatalf("AddSavedAnswer %q: %v", name, err)
		}
		now = now.Add(time.Minute)
		return s
	}
	monthly := add("a", "119", "Monthly report", map[string]string{"prompt": "The month's figures", "tone": "formal"})
	add("a", "119", "Thank-you note", map[string]string{"prompt": "Thanks", "tone": "friendly"})
	add("a", "120", "Monthly report", nil) // another agent may use the name
	add("b", "119", "Monthly report", nil) // and another account

	got, err := db.SavedAnswers(ctx, "a", "119")
	if err != nil || !slices.Equal(names(got), []string{"Thank-you note", "Monthly report"}) {
		t.Fatalf("agent 119's saved answers: %v, %v", names(got), err)
	}
	back := got[1]
	if back.ID != monthly.ID || back.AgentTitle != "Agent 119" || !maps.Equal(back.Answers, monthly.Answers) ||
		!slices.Equal(back.Questions, monthly.Questions) || !back.CreatedAt.Equal(monthly.CreatedAt) || !back.UsedAt.IsZero() {
		t.Fatalf("read back %+v, saved %+v", back, monthly)
	}
	if all, err := db.SavedAnswers(ctx, "a", ""); err != nil || len(all) != 3 {
		t.Fatalf("the account's saved answers: %v, %v", names(all), err)
	}

	// Run: it comes first.
	if err := db.TouchSavedAnswer(ctx, "a", monthly.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.SavedAnswers(ctx, "a", "119"); len(got) != 2 || got[0].ID != monthly.ID || !got[0].UsedAt.Equal(now) {
		t.Fatalf("after a run of it, the list reads %+v", got)
	}

	// The same name, whatever its case: refused, or replaced when asked.
	_, err = db.AddSavedAnswer(ctx, SavedAnswer{AccountID: "a", AgentID: "119", Name: "MONTHLY REPORT", Answers: map[string]string{"tone": "neutral"}}, false)
	if !errors.Is(err, ErrNameTaken) {
		t.Fatalf("a name taken: %v", err)
	}
	re, err := db.AddSavedAnswer(ctx, SavedAnswer{AccountID: "a", AgentID: "119", Name: "Monthly Report", Answers: map[string]string{"tone": "neutral"}}, true)
	if err != nil || re.ID != monthly.ID {
		t.Fatalf("replaced: %+v, %v", re, err)
	}
	if s, err := db.GetSavedAnswer(ctx, "a", monthly.ID); err != nil || s.Name != "Monthly Report" || s.Answers["tone"] != "neutral" ||
		s.Answers["prompt"] != "" || len(s.Questions) != 0 || !s.UsedAt.Equal(now) {
		t.Fatalf("the replaced saved answer reads %+v, %v", s, err)
	}

	// Renamed; not onto a name taken.
	thanks := got[0]
	if err := db.RenameSavedAnswer(ctx, "a", thanks.ID, "monthly report"); !errors.Is(err, ErrNameTaken) {
		t.Fatalf("renamed onto a name taken: %v", err)
	}
	if err := db.RenameSavedAnswer(ctx, "a", thanks.ID, "Thanks"); err != nil {
		t.Fatal(err)
	}
	// Another account's is out of reach.
	if _, err := db.GetSavedAnswer(ctx, "b", thanks.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("read from another account: %v", err)
	}
	if err := db.DeleteSavedAnswer(ctx, "b", thanks.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deleted from another account: %v", err)
	}
	if err := db.DeleteSavedAnswer(ctx, "a", thanks.ID); err != nil {
		t.Fatal(err)
	}
	if got, err := db.SavedAnswers(ctx, "a", "119"); err != nil || !slices.Equal(names(got), []string{"Monthly Report"}) {
		t.Fatalf("after the delete: %v, %v", names(got), err)
	}
	for _, err := range []error{
		db.TouchSavedAnswer(ctx, "a", thanks.ID),
		db.RenameSavedAnswer(ctx, "a", thanks.ID, "Again"),
		db.DeleteSavedAnswer(ctx, "a", thanks.ID),
	} {
		if !errors.Is(err, ErrNotFound) {
			t.Fatalf("a deleted saved answer changed: %v", err)
		}
	}
}

// A read-only history refuses to save, in its words.
func TestSavedAnswersInAReadOnlyHistory(t *testing.T) {
	ctx := context.Background()
	p := testPaths(t)
	openTestDB(t, p).Close()
	ro := openTestDB(t, p, WithReadOnly())
	if _, err := ro.AddSavedAnswer(ctx, SavedAnswer{AccountID: "a", AgentID: "1", Name: "x"}, false); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("saved in a read-only history: %v", err)
	}
	if got, err := ro.SavedAnswers(ctx, "a", ""); err != nil || len(got) != 0 {
		t.Fatalf("read from a read-only history: %v, %v", got, err)
	}
}
