package main

import (
	"context"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/storage"
)

// Window-relative positions in the agents screen (1180×760 window).
const (
	firstAgentX, firstAgentY = 290, 165
	lengthFieldX, lengthY    = 880, 558
)

// TestE2ETextAgentRun searches for a text agent, answers its form, runs it
// with Ctrl+Enter (Enter alone runs nothing), and checks that the run and
// its output landed in the history.
func TestE2ETextAgentRun(t *testing.T) {
	e := startE2E(t, func(s *storage.Settings) {
		// The request and the tone were given last time; the form opens with them.
		s.LastAnswers = map[string]map[string]string{"119": {"prompt": "A short note for the team", "tone": "friendly"}}
	})

	e.Key("ctrl+k")
	e.Type("newsletter")
	time.Sleep(1500 * time.Millisecond) // the search waits for typing to pause
	e.Screenshot("search")
	e.Click(firstAgentX, firstAgentY)
	time.Sleep(1500 * time.Millisecond)
	e.Click(lengthFieldX, lengthY)
	e.Type("150")
	e.Screenshot("form")
	db := e.History()
	// Enter in a field runs nothing (a run costs credits); Ctrl+Enter runs.
	e.Key("Return")
	time.Sleep(1500 * time.Millisecond)
	if runs, err := db.Runs(context.Background(), storage.DemoAccountID, "119", 5); err != nil || len(runs) != 0 {
		t.Fatalf("Enter in a field should run nothing; the history holds %d runs (%v)", len(runs), err)
	}
	e.Key("ctrl+Return")

	var run storage.Run
	e.WaitFor("the run in the history", func() bool {
		runs, err := db.Runs(context.Background(), storage.DemoAccountID, "119", 5)
		if err != nil || len(runs) == 0 {
			return false
		}
		run = runs[0]
		return run.Status == client.StatusCompleted
	})
	time.Sleep(500 * time.Millisecond)
	e.Screenshot("text-run")
	if run.Output == "" || run.Inputs["tone"] != "friendly" || run.Inputs["length"] != "150" || run.Credits == nil {
		t.Fatalf("the stored run is incomplete: %+v", run)
	}
	if run.AgentTitle != "Newsletter Writer" || run.AgentType != client.AgentText {
		t.Fatalf("the stored run names the wrong agent: %+v", run)
	}
}
