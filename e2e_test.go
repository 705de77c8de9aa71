package main

import (
	"context"
	"testing"

	"github.com/agentdesk/agentdesk/app"
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
	e.WaitAgentsListed()

	e.Search("newsletter")
	e.Screenshot("search")
	e.Click(firstAgentX, firstAgentY)
	e.WaitRunTab()
	e.Click(lengthFieldX, lengthY)
	e.Type("15")
	e.Screenshot("form")
	db := e.History()
	// Enter in a field runs nothing (a run costs credits); Ctrl+Enter runs.
	// The length is finished after Enter: a run Enter had started would
	// carry 15, or be a second run beside the one Ctrl+Enter starts.
	e.Key("Return")
	e.Type("0")
	e.Key("ctrl+Return")

	var runs []storage.Run
	e.WaitFor("the runs in the history ended", func() bool {
		var err error
		runs, err = db.Runs(context.Background(), storage.DemoAccountID, "119", 5)
		if err != nil || len(runs) == 0 {
			return false
		}
		for _, r := range runs {
			if r.Status != client.StatusCompleted && r.Status != app.RunFailed && r.Status != app.RunCancelled {
				return false
			}
		}
		return true
	})
	if len(runs) != 1 || runs[0].Inputs["length"] == "15" {
		t.Fatalf("Enter in a field should run nothing; the history holds %d runs, the latest with length %q", len(runs), runs[0].Inputs["length"])
	}
	run := runs[0]
	e.WaitStill("the run's output drawn")
	e.Screenshot("text-run")
	if run.Status != client.StatusCompleted || run.Output == "" || run.Inputs["tone"] != "friendly" || run.Inputs["length"] != "150" || run.Credits == nil {
		t.Fatalf("the stored run is incomplete: %+v", run)
	}
	if run.AgentTitle != "Newsletter Writer" || run.AgentType != client.AgentText {
		t.Fatalf("the stored run names the wrong agent: %+v", run)
	}
}
