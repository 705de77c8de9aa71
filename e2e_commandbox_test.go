package main

import (
	"context"
	"testing"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
)

// TestE2ECommandBoxRunsASavedAnswer: with the keyboard alone, Ctrl+K, part
// of an agent's name with a typo, Enter: the agent is open; Ctrl+K again,
// the same with the saved answer's name, Enter: the saved answer runs, and
// its result is in the history and on screen.
func TestE2ECommandBoxRunsASavedAnswer(t *testing.T) {
	srv, _ := demoservice.NewTestService(t, demoservice.Options{APIKey: "e2e-key"})
	t.Setenv(storage.EnvAPIKey, "e2e-key")
	const acct = "e2e"
	ctx := context.Background()
	agent, err := client.New(client.WithBaseURL(srv.URL), client.WithAPIKey("e2e-key")).GetAgent(ctx, "119")
	if err != nil {
		t.Fatal(err)
	}
	answers := map[string]string{"prompt": "A note on the summer party"}
	var questions []storage.SavedQuestion
	for _, q := range app.FormQuestions(*agent) {
		questions = append(questions, storage.SavedQuestion{Name: q.Name, Type: q.Type})
		if q.Required && len(q.Options) > 0 {
			answers[q.Name] = q.Options[0]
		}
	}
	e := startE2EWith(t, func(s *storage.Settings) {
		s.PutAccount(storage.Account{ID: acct, Name: "Test service", BaseURL: srv.URL, KeyStore: storage.KeyInEnv})
		s.ActiveAccount = acct
		s.WindowWidth, s.WindowHeight = 1024, 768
	}, func(paths storage.Paths) {
		db, err := storage.Open(ctx, paths)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.AddSavedAnswer(ctx, storage.SavedAnswer{AccountID: acct, AgentID: "119", AgentTitle: agent.Title,
			Name: "Summer party", Answers: answers, Questions: questions}, false); err != nil {
			t.Fatal(err)
		}
	})
	db := e.History()
	e.WaitAgentsListed()

	e.OpenCommandBox()
	e.Type("newsleter")
	e.WaitStill("what the command box found")
	e.Screenshot("commandbox-1-agent")
	e.Key("Return")
	e.WaitRunTab()
	e.Screenshot("commandbox-2-agent-open")

	e.OpenCommandBox()
	e.Type("newsleter sumer party")
	e.WaitStill("what the command box found")
	e.Screenshot("commandbox-3-saved-answer")
	e.Key("Return")
	run := e.WaitRun("the saved answer's run in the history", acct, "119")
	e.WaitStill("the run's output drawn")
	e.Screenshot("commandbox-4-result")
	if run.Inputs["prompt"] != "A note on the summer party" {
		t.Fatalf("the run did not carry the saved answers: %+v", run.Inputs)
	}
	saved, err := db.SavedAnswers(ctx, acct, "119")
	if err != nil || len(saved) != 1 || saved[0].UsedAt.IsZero() {
		t.Fatalf("the saved answer is not marked used: %+v %v", saved, err)
	}
}
