package agents

import (
	"net/http"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
)

// A switched-off agent is marked, its Run button is off, the reason stands
// where Run is, and Enter in the form sends nothing.
func TestASwitchedOffAgentIsMarkedAndCannotRun(t *testing.T) {
	f := newFixtureThrough(t, func(next http.RoundTripper) http.RoundTripper {
		return apptest.Rewriting{Next: next, Prefix: "/agents", Old: `"active":1`, New: `"active":0`}
	})
	if desc := f.s.shown.Agents[0].Description; !strings.HasPrefix(desc, "Switched off") {
		t.Errorf("the list row reads %q, want it marked switched off", desc)
	}
	d := f.open(t, "119")
	if !d.agent.Inactive() {
		t.Fatal("the service's active: 0 did not reach the agent")
	}
	shown := kittest.AllText(d.content)
	if !strings.Contains(shown, "switched off") {
		t.Fatalf("the detail does not say the agent is switched off:\n%s", shown)
	}
	if !d.runBtn.Disabled() {
		t.Fatal("Run can be pressed for a switched-off agent")
	}
	d.run()
	f.q.Drain()
	if n := len(apptest.Demo(f.a).Service.Executions()); n != 0 {
		t.Fatalf("%d runs sent for a switched-off agent", n)
	}
}

// A required choice with nothing to choose from is named, at the question
// and where Run is, and Run is off: no answer could make the form valid.
func TestARequiredChoiceWithoutChoicesSaysTheAgentIsSetUpWrong(t *testing.T) {
	f := newFixture(t, 0)
	d := f.open(t, "119")
	d.agent.Questions = append(d.agent.Questions, client.Question{Type: client.QuestionSelect, Name: "region", Required: true})
	d.build()
	f.q.Drain()
	if !d.runBtn.Disabled() {
		t.Fatal("Run can be pressed although no answer can satisfy the form")
	}
	if msg := d.form.byName["region"].err.Text; !strings.Contains(msg, "set up wrong") {
		t.Fatalf("the question says %q", msg)
	}
	if !strings.Contains(d.formErr.Text, "Region") {
		t.Fatalf("the line by Run says %q, want it to name the question", d.formErr.Text)
	}
}
