package client_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
)

// The operations only the real service offers, end to end against the
// built-in service in the real reading, every request and answer checked
// against the contract.

func TestRealServiceMemoriesAndCollections(t *testing.T) {
	c, _, _ := demo(t, demoservice.Options{API: demoservice.APIReal})
	ctx := context.Background()
	col, err := c.CreateCollection(ctx, "Agent Desk test")
	if err != nil || col.ID == "" || col.Label() != "Agent Desk test" {
		t.Fatalf("create: %+v %v", col, err)
	}
	m, err := c.CreateMemory(ctx, client.MemoryParams{Content: "Invoices go out on the 5th", CollectionID: col.ID})
	if err != nil {
		t.Fatal(err)
	}
	p, err := c.ListMemories(ctx, client.ListMemoriesParams{CollectionID: col.ID})
	if err != nil || len(p.Data) != 1 || p.Data[0].ID != m.ID || p.Data[0].Content != "Invoices go out on the 5th" {
		t.Fatalf("list by collection: %+v %v", p, err)
	}
	found := false
	for x, err := range c.Collections(ctx, client.ListCollectionsParams{Search: "desk test"}) {
		if err != nil {
			t.Fatal(err)
		}
		found = found || x.ID == col.ID
	}
	if !found {
		t.Fatal("search did not find the new collection")
	}
	var def *client.Collection
	for x, err := range c.Collections(ctx, client.ListCollectionsParams{}) {
		if err != nil {
			t.Fatal(err)
		}
		if x.IsDefault() {
			x := x
			def = &x
		}
	}
	if def == nil || def.Label() != "My Memories" {
		t.Fatalf("default collection: %+v", def)
	}
	if err := c.DeleteCollection(ctx, def.ID); !client.IsDefaultCollectionRefusal(err) {
		t.Fatalf("deleting the default collection: %v", err)
	}
	if err := c.DeleteMemory(ctx, m.ID); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteMemory(ctx, m.ID); !client.IsNotFound(err) || client.IsUnsupported(err) {
		t.Fatalf("a memory deleted twice: %v", err)
	}
	if err := c.DeleteCollection(ctx, col.ID); err != nil {
		t.Fatal(err)
	}
}

func TestRealServiceMemoryPagesAreAllRead(t *testing.T) {
	c, _, _ := demo(t, demoservice.Options{API: demoservice.APIReal})
	ctx := context.Background()
	before := 0
	for _, err := range c.Memories(ctx, client.ListMemoriesParams{}) {
		if err != nil {
			t.Fatal(err)
		}
		before++
	}
	for i := range 12 {
		if _, err := c.CreateMemory(ctx, client.MemoryParams{Content: strings.Repeat("x", i+1)}); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	for _, err := range c.Memories(ctx, client.ListMemoriesParams{PerPage: 5}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != before+12 {
		t.Fatalf("read %d memories over pages of 5, want %d", n, before+12)
	}
}

func TestRealServiceWebhooks(t *testing.T) {
	c, _, _ := demo(t, demoservice.Options{API: demoservice.APIReal})
	ctx := context.Background()
	w, err := c.CreateWebhook(ctx, "101", client.WebhookParams{URL: "https://example.com/hook", Status: client.WebhookInactive})
	if err != nil || w.ID == "" || w.Method != "POST" || w.Status != client.WebhookInactive {
		t.Fatalf("create: %+v %v", w, err)
	}
	wl, err := c.ListWebhooks(ctx, client.ListWebhooksParams{})
	if err != nil {
		t.Fatal(err)
	}
	if wl.Variant != client.WebhooksA || wl.Page == nil {
		t.Fatalf("the real service lists webhooks in the pagination envelope: %+v", wl)
	}
	found := false
	for x, err := range wl.Page.All(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		found = found || x.ID == w.ID
	}
	if !found {
		t.Fatal("the new webhook is not listed")
	}
	if err := c.DeleteWebhook(ctx, w.ID); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteWebhook(ctx, w.ID); !client.IsNotFound(err) {
		t.Fatalf("deleted twice: %v", err)
	}
}

func TestRealServiceFiles(t *testing.T) {
	c, _, _ := demo(t, demoservice.Options{API: demoservice.APIReal})
	ctx := context.Background()
	f, err := c.UploadFile(ctx, client.UploadParams{Reader: strings.NewReader("Opening hours."), Filename: "hours.txt", Size: 14})
	if err != nil || f.Status != "waiting" {
		t.Fatalf("upload: %+v %v", f, err)
	}
	if _, err := c.ProcessFile(ctx, f.ID); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		got, err := c.GetFile(ctx, f.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status == "completed" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("still %q", got.Status)
		}
		time.Sleep(2 * time.Millisecond)
	}
	if err := c.DeleteFile(ctx, f.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetFile(ctx, f.ID); !client.IsNotFound(err) {
		t.Fatalf("a deleted file: %v", err)
	}
}

func TestSpecServiceHasNoListsAndSaysSo(t *testing.T) {
	c, _, _ := demo(t, demoservice.Options{API: demoservice.APISpec})
	ctx := context.Background()
	_, err := c.ListMemories(ctx, client.ListMemoriesParams{})
	if !client.IsUnsupported(err) {
		t.Fatalf("list memories on a server without lists: %v", err)
	}
	if _, err := c.ListCollections(ctx, client.ListCollectionsParams{}); !client.IsUnsupported(err) {
		t.Fatalf("list collections: %v", err)
	}
}

func TestRealServiceRunsPollAndStreamInBothReadings(t *testing.T) {
	for _, api := range []string{demoservice.APIReal, demoservice.APISpec} {
		t.Run(api, func(t *testing.T) {
			c, svc, _ := demo(t, demoservice.Options{API: api, WaitCap: time.Millisecond, Pace: time.Millisecond})
			ctx := context.Background()
			a := firstAgent(t, c, client.AgentText)
			e, err := c.Run(ctx, a.ID, client.ExecuteParams{Answers: answersFor(a)})
			if err != nil || !e.Succeeded() || e.Output == "" {
				t.Fatalf("run: %+v %v", e, err)
			}
			want := map[string]client.PollPath{demoservice.APIReal: client.PollResponses, demoservice.APISpec: client.PollAgentScoped}[api]
			if c.PollPath() != want {
				t.Fatalf("poll path %q, want %q", c.PollPath(), want)
			}
			chat := firstAgent(t, c, client.AgentChat)
			s, err := c.Stream(ctx, chat.ID, client.ExecuteParams{Answers: chatAnswers(chat), Messages: hello()})
			if err != nil {
				t.Fatal(err)
			}
			for s.Next() {
			}
			if s.Err() != nil || s.Final() == nil || s.ExecutionID() == "" {
				t.Fatalf("stream: %v", s.Err())
			}
			// The first run finds the body style the server takes: a
			// refusal before anything ran, then the run. Once known, one
			// request per execution.
			wantStyle := map[string]client.ExecuteStyle{demoservice.APIReal: client.StyleRoot, demoservice.APISpec: client.StyleAnswers}[api]
			if c.ExecuteStyle() != wantStyle {
				t.Fatalf("style %q, want %q", c.ExecuteStyle(), wantStyle)
			}
			wantRequests := map[string]int{demoservice.APIReal: 2, demoservice.APISpec: 3}[api]
			if n := svc.ExecuteRequests(); n != wantRequests || len(svc.Executions()) != 2 {
				t.Fatalf("%d execute requests and %d executions for one run and one stream", n, len(svc.Executions()))
			}
		})
	}
}

func TestCutStreamRecoveredByPollingTheExecution(t *testing.T) {
	c, svc, _ := demo(t, demoservice.Options{API: demoservice.APIReal})
	svc.SetFaults(demoservice.Faults{CutStreamAfter: 2})
	ctx := context.Background()
	chat := firstAgent(t, c, client.AgentChat)
	s, err := c.Stream(ctx, chat.ID, client.ExecuteParams{Answers: chatAnswers(chat), Messages: hello()})
	if err != nil {
		t.Fatal(err)
	}
	for s.Next() {
	}
	if !errors.Is(s.Err(), client.ErrStreamIncomplete) || s.ExecutionID() == "" {
		t.Fatalf("want a cut stream naming its execution: %v %q", s.Err(), s.ExecutionID())
	}
	e, err := c.Wait(ctx, chat.ID, s.ExecutionID())
	if err != nil || !e.Succeeded() || !strings.HasPrefix(e.Output, s.Text()) || len(e.Output) <= len(s.Text()) {
		t.Fatalf("polled: %+v %v (partial %q)", e, err, s.Text())
	}
	if svc.ExecuteRequests() != 1 {
		t.Fatalf("%d execute requests", svc.ExecuteRequests())
	}
}

// The real service has no error field: a failed run's reason is its output.
// It is the failure's text, never the result, waited for or streamed.
func TestAFailedRunsReasonIsItsOutputOnTheRealService(t *testing.T) {
	c, svc, _ := demo(t, demoservice.Options{API: demoservice.APIReal, Pace: time.Millisecond})
	ctx := context.Background()
	svc.SetFaults(demoservice.Faults{FailExecutions: 1})
	e, err := c.Run(ctx, "119", client.ExecuteParams{Answers: map[string]any{"prompt": "A note", "tone": "formal", "length": "120"}})
	var ex *client.ExecutionError
	if !errors.As(err, &ex) || !strings.Contains(ex.Text, "did not answer in time") {
		t.Fatalf("want the reason as the failure's text, got %v", err)
	}
	if e == nil || e.Result() != "" || e.Reason() != ex.Text {
		t.Fatalf("the reason is not a result: %+v", e)
	}

	svc.SetFaults(demoservice.Faults{FailExecutions: 1})
	chat, err := c.GetAgent(ctx, "101")
	if err != nil {
		t.Fatal(err)
	}
	answers := fillAnswers(chat, func(o []string) string { return o[0] })
	s, err := c.Stream(ctx, "101", client.ExecuteParams{Answers: answers, Messages: []client.Message{{Role: "user", Content: "How do I book leave?"}}})
	if err != nil {
		t.Fatal(err)
	}
	for s.Next() {
	}
	if !errors.As(s.Err(), &ex) || !strings.Contains(ex.Text, "did not answer in time") || strings.Contains(s.Text(), "did not answer in time") {
		t.Fatalf("stream: text %q, error %v", s.Text(), s.Err())
	}
}

// A long run is polled less and less often, never more than 15 s apart:
// the key's quota is spared, a finished run is not left unseen for long.
func TestLongRunsArePolledEverLessOftenUpToFifteenSeconds(t *testing.T) {
	next := client.PollWaits(3 * time.Second)
	var got []time.Duration
	for range 7 {
		got = append(got, next())
	}
	want := []time.Duration{3 * time.Second, 4500 * time.Millisecond, 6750 * time.Millisecond, 10125 * time.Millisecond, 15 * time.Second, 15 * time.Second, 15 * time.Second}
	if !slices.Equal(got, want) {
		t.Fatalf("waits %v, want %v", got, want)
	}
	long := client.PollWaits(20 * time.Second)
	if first, second := long(), long(); first != 20*time.Second || second != 20*time.Second {
		t.Fatalf("an interval chosen longer than the cap is kept: %v, %v", first, second)
	}
}

// A run that outlasts the service's wait (100 s; here a moment) is
// followed by polling to its result, sent once.
func TestARunOutlastingTheWaitIsFollowedByPolling(t *testing.T) {
	c, svc, _ := demo(t, demoservice.Options{API: demoservice.APIReal, WaitCap: 5 * time.Millisecond, Faults: demoservice.Faults{RunFor: 100 * time.Millisecond}})
	var accepted client.ID
	e, err := c.Run(context.Background(), "119", client.ExecuteParams{Answers: map[string]any{"prompt": "A note", "tone": "formal", "length": "120"}},
		client.WithAccepted(func(e *client.Execution) { accepted = e.ID }))
	if err != nil || !e.Succeeded() || e.Output == "" {
		t.Fatalf("%+v %v", e, err)
	}
	if accepted != e.ID || svc.ExecuteRequests() != 1 {
		t.Fatalf("the run was accepted as %q, finished as %q; %d execute requests", accepted, e.ID, svc.ExecuteRequests())
	}
}
