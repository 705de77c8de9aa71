package app_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
)

func getAgent(t *testing.T, a *app.App, id client.ID) client.Agent {
	t.Helper()
	ag, err := a.Agents().Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return *ag
}

func finished(t *testing.T, ar *app.ActiveRun) (storage.Run, error) {
	t.Helper()
	select {
	case <-ar.Done():
	case <-time.After(20 * time.Second):
		t.Fatal("the run never finished")
	}
	return ar.Result()
}

func TestRunTextAgentLandsInHistory(t *testing.T) {
	a := apptest.Open(t)
	agent := getAgent(t, a, "119")
	r := a.Runs().Runner()
	ar, err := r.Start(agent, map[string]string{"prompt": "A short note inviting the team to lunch on Friday", "tone": "formal", "length": "120"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	heard := make(chan struct{}, 100)
	defer ar.State().Subscribe(func() { heard <- struct{}{} })()
	_, since := ar.State().Snapshot()
	run, err := finished(t, ar)
	if err != nil {
		t.Fatalf("run failed: %v", err)
	}
	if run.Output == "" || run.Status != client.StatusCompleted || run.Credits == nil {
		t.Fatalf("run result: %+v", run)
	}
	if p, v := ar.State().Snapshot(); !p.Done || p.Run.Output != run.Output || p.Took <= 0 || v != since && len(heard) == 0 {
		t.Fatalf("the run's state should say it ended, with its result, to those who watch it: %+v (heard %d)", p, len(heard))
	}
	runs, err := a.Runs().List(context.Background(), agent.ID)
	if err != nil || len(runs) != 1 || runs[0].Output != run.Output || runs[0].Inputs["tone"] != "formal" {
		t.Fatalf("history: %+v, %v", runs, err)
	}
	if got := a.Agents().LastAnswers(agent); got["length"] != "120" {
		t.Fatalf("answers not remembered: %v", got)
	}
	spent, _ := a.Ledger().Today(context.Background())
	if spent <= 0 {
		t.Fatal("the run's credits were not recorded")
	}
	execs := apptest.Demo(a).Service.Executions()
	if len(execs) != 1 || execs[0].Mode != demoservice.ModeWait {
		t.Fatalf("the service should see one waiting execution: %+v", execs)
	}
}

func TestRunRefusesMissingAnswersBeforeSending(t *testing.T) {
	a := apptest.Open(t)
	agent := getAgent(t, a, "120") // length is required here
	_, err := a.Runs().Runner().Start(agent, map[string]string{"length": "many"}, nil)
	fe, ok := err.(*app.FormError)
	if !ok || fe.Fields["tone"] == "" || fe.Fields["length"] == "" {
		t.Fatalf("want a form error on tone and length, got %v", err)
	}
	if n := len(apptest.Demo(a).Service.Executions()); n != 0 {
		t.Fatalf("nothing should be sent, the service saw %d executions", n)
	}
}

// When the agent changed on the service since its form was loaded, the
// service's validation message comes back for the field it names.
func TestRunValidationErrorNamesTheField(t *testing.T) {
	a := apptest.Open(t)
	agent := getAgent(t, a, "120")
	agent.Question("length").Required = false
	ar, err := a.Runs().Runner().Start(agent, map[string]string{"prompt": "A short note inviting the team to lunch on Friday", "tone": "formal"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	run, err := finished(t, ar)
	if !client.IsValidation(err) || app.FieldErrors(err)["length"] == "" {
		t.Fatalf("want a 422 naming length, got %v", err)
	}
	if run.Status != app.RunFailed || run.Error == "" {
		t.Fatalf("the failed run should be kept with its reason: %+v", run)
	}
}

func TestRunImageOutputIsDownloadedOnce(t *testing.T) {
	a := apptest.Open(t)
	agent := getAgent(t, a, "131")
	ar, err := a.Runs().Runner().Start(agent, map[string]string{"prompt": "A coffee cup on a wooden desk", "style": "photo", "aspect_ratio": "16:9"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	run, err := finished(t, ar)
	if err != nil {
		t.Fatal(err)
	}
	if !app.IsMediaOutput(run.AgentType, run.Output) {
		t.Fatalf("an image run should give a picture's address, got %q", run.Output)
	}
	p, err := a.Runs().FetchOutput(context.Background(), run.Output)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(p)
	if err != nil || !bytes.HasPrefix(data, []byte("\x89PNG")) {
		t.Fatalf("the preview is not a PNG: %v", err)
	}
	p2, err := a.Runs().FetchOutput(context.Background(), run.Output)
	if err != nil || p2 != p {
		t.Fatalf("the second fetch should come from the cache: %s vs %s (%v)", p2, p, err)
	}
	var saved bytes.Buffer
	if err := a.Runs().SaveOutput(context.Background(), run.Output, &saved); err != nil || !bytes.Equal(saved.Bytes(), data) {
		t.Fatalf("save as wrote %d bytes (%v)", saved.Len(), err)
	}
	if name := app.OutputFileName(run.AgentType, run.Output); name == "" {
		t.Fatal("no file name suggested")
	}
}

func TestRunCanBeCancelled(t *testing.T) {
	a := apptest.Open(t)
	agent := getAgent(t, a, "139")
	apptest.Demo(a).Service.SetFaults(demoservice.Faults{Latency: 5 * time.Second})
	r := a.Runs().Runner()
	ar, err := r.Start(agent, map[string]string{"prompt": "A short welcome to our new office", "duration": "30", "aspect_ratio": "16:9"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Active(agent.ID) != ar {
		t.Fatal("the run should be listed as active")
	}
	if _, err := r.Start(agent, map[string]string{"prompt": "A short welcome to our new office", "duration": "30", "aspect_ratio": "16:9"}, nil); err == nil {
		t.Fatal("a second run of the same agent should wait for the first")
	}
	ar.Cancel()
	run, _ := finished(t, ar)
	if run.Status != app.RunCancelled {
		t.Fatalf("status %q", run.Status)
	}
	runs, _ := a.Runs().List(context.Background(), agent.ID)
	if len(runs) != 1 || runs[0].Status != app.RunCancelled {
		t.Fatalf("history: %+v", runs)
	}
	if r.Active(agent.ID) != nil {
		t.Fatal("a cancelled run is no longer active")
	}
}

// Quitting while a run goes is not cancelling it, and the app does not wait
// for the service.
func TestClosingKeepsARunGoing(t *testing.T) {
	cfg := app.Config{Paths: storage.PathsIn(t.TempDir()), StartDemo: apptest.DemoStarter(demoservice.Options{}), Keyring: apptest.NewKeyring()}
	a, err := app.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	agent := getAgent(t, a, "119")
	apptest.Demo(a).Service.SetFaults(demoservice.Faults{Latency: time.Minute})
	ar, err := a.Runs().Runner().Start(agent, map[string]string{"prompt": "A short note inviting the team to lunch on Friday", "tone": "formal", "length": "120"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ar.Done():
	default:
		t.Fatal("Close returned before the run stopped")
	}
	b, err := app.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	// The service never said which run it started, so it cannot be looked
	// up: the next start says so rather than show it running for ever.
	eventually(t, "the run to say what happened", func() bool {
		runs, err := b.Runs().List(context.Background(), agent.ID)
		return err == nil && len(runs) == 1 && runs[0].Status == app.RunFailed && strings.Contains(runs[0].Error, "closed before")
	})
}

// An agent the service says is switched off is neither run nor chatted
// with: nothing reaches the service, and the reason is in plain words.
func TestASwitchedOffAgentIsNotRun(t *testing.T) {
	a := apptest.Open(t)
	ctx := context.Background()
	off := false
	for _, id := range []client.ID{"119", "101"} {
		ag, err := a.Client().GetAgent(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		ag.Active = &off
		before := len(apptest.Demo(a).Service.Executions())
		var runErr error
		if ag.Type == client.AgentChat {
			_, runErr = a.Chats().New(ctx, *ag)
		} else {
			_, runErr = a.Runs().Runner().Start(*ag, map[string]string{"tone": "friendly", "length": "80"}, nil)
		}
		if !errors.Is(runErr, app.ErrAgentInactive) {
			t.Errorf("agent %s (%s): %v, want it refused as switched off", id, ag.Type, runErr)
		}
		if n := len(apptest.Demo(a).Service.Executions()); n != before {
			t.Errorf("agent %s: %d executions sent", id, n-before)
		}
	}
}

// A name that is only the service's number gives way to the agent's title
// and the day; a name that says something is kept.
func TestRunFileNameNamesANumberAfterTheAgent(t *testing.T) {
	r := app.Run{AgentTitle: "Product Photo Studio", CreatedAt: time.Date(2026, 12, 3, 9, 0, 0, 0, time.Local)}
	for name, want := range map[string]string{
		"48202.png":              "Product Photo Studio 2026-12-03.png",
		"0f3a9c2e-77aa-4b1d.jpg": "Product Photo Studio 2026-12-03.jpg",
		"spring-catalogue.png":   "spring-catalogue.png",
		"image.png":              "image.png",
	} {
		if got := app.RunFileName(r, name); got != want {
			t.Errorf("%q is suggested as %q, want %q", name, got, want)
		}
	}
	if got := app.RunFileName(app.Run{}, "48202.png"); got != "48202.png" {
		t.Errorf("without an agent's title the name stays, got %q", got)
	}
}
