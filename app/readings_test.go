package app_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/app/catalog"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
)

// served opens an App whose client talks to a built-in service with opts
// over real HTTP, through wrap when given (to take an endpoint away), and
// returns the service to switch faults and count executions.
func served(t *testing.T, opts demoservice.Options, wrap func(http.Handler) http.Handler, change ...func(*app.Config)) (*app.App, *demoservice.Service) {
	t.Helper()
	if opts.APIKey == "" {
		opts.APIKey = "k"
	}
	svc := demoservice.New(opts)
	var h http.Handler = svc
	if wrap != nil {
		h = wrap(svc)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() { _ = svc.Close(); srv.Close() })
	a := apptest.Open(t, append([]func(*app.Config){func(c *app.Config) {
		c.ClientOptions = append(c.ClientOptions, client.WithBaseURL(srv.URL), client.WithAPIKey(opts.APIKey),
			client.WithPollInterval(2*time.Millisecond), client.WithRetryBackoff(time.Millisecond, 5*time.Millisecond))
	}}, change...)...)
	return a, svc
}

// noPolling answers 404 on both polling paths, as a server that offers
// none would.
func noPolling(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.Contains(r.URL.Path, "responses") {
			http.NotFound(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func bothReadings(t *testing.T, f func(t *testing.T, api string)) {
	for _, api := range []string{demoservice.APIReal, demoservice.APISpec} {
		t.Run(api, func(t *testing.T) { f(t, api) })
	}
}

func TestChatCutStreamIsRecoveredByPolling(t *testing.T) {
	bothReadings(t, func(t *testing.T, api string) {
		a, svc := served(t, demoservice.Options{API: api}, nil)
		s := newChat(t, a)
		svc.SetFaults(demoservice.Faults{CutStreamAfter: 3})
		sendAndWait(t, s, "Summarise the holiday rota")
		reply := storedReply(t, a, s.ID())
		ex := svc.Executions()
		// (The interface's reading refuses the first body, before anything
		// runs, while Agent Desk learns which style it takes.)
		if len(ex) != 1 || svc.ExecuteRequests() > 2 {
			t.Fatalf("the agent ran %d times (%d requests); a cut stream is recovered by polling", len(ex), svc.ExecuteRequests())
		}
		if reply.Status != storage.StatusRecovered || reply.Content != ex[0].Output || reply.Error != "" {
			t.Fatalf("want the whole reply, marked recovered; got %q (%s) %q", reply.Content, reply.Status, reply.Error)
		}
		if note := app.StatusNote(reply); !strings.Contains(note, "connection dropped") {
			t.Fatalf("the reply should say it was recovered, says %q", note)
		}
		if st, _ := s.State().Snapshot(); st.Err != nil {
			t.Fatalf("a recovered reply is no failure: %v", st.Err)
		}
	})
}

func TestChatCutStreamWithoutPollingKeepsTextAndSaysRetryCosts(t *testing.T) {
	a, svc := served(t, demoservice.Options{API: demoservice.APIReal}, noPolling)
	s := newChat(t, a)
	svc.SetFaults(demoservice.Faults{CutStreamAfter: 3})
	sendAndWait(t, s, "Summarise the holiday rota")
	reply := storedReply(t, a, s.ID())
	if reply.Status != storage.StatusFailed || reply.Content == "" || !strings.Contains(reply.Error, "costs credits") {
		t.Fatalf("a cut reply that cannot be recovered keeps its text and says Retry costs; got %q (%s) %q", reply.Content, reply.Status, reply.Error)
	}
	if svc.ExecuteRequests() != 1 {
		t.Fatalf("%d execute requests before the user asked again", svc.ExecuteRequests())
	}
	svc.SetFaults(demoservice.Faults{})
	if err := s.Retry(context.Background()); err != nil {
		t.Fatal(err)
	}
	s.Wait()
	msgs, _ := a.DB().Messages(context.Background(), s.ID())
	ex := svc.Executions()
	if len(msgs) != 2 || msgs[1].Status != storage.StatusComplete || msgs[1].Content != ex[len(ex)-1].Output {
		t.Fatalf("retry should replace the failed reply with a complete one, got %+v", msgs)
	}
}

// An event cut right after a backslash once ended the program in the
// stream's decoder. The reply keeps what arrived before it: recovered in
// full by looking the run up where the service allows, else with a plain
// error; the next message works.
func TestChatEventItCannotReadKeepsWhatArrived(t *testing.T) {
	cutEscape := demoservice.Faults{MalformedEventAt: 3, MalformedEvent: `{"x":"\`}
	t.Run("looked up", func(t *testing.T) {
		a, svc := served(t, demoservice.Options{API: demoservice.APIReal}, nil)
		s := newChat(t, a)
		svc.SetFaults(cutEscape)
		sendAndWait(t, s, "Summarise the holiday rota")
		reply, ex := storedReply(t, a, s.ID()), svc.Executions()
		if len(ex) != 1 || reply.Status != storage.StatusRecovered || reply.Content != ex[0].Output {
			t.Fatalf("want the whole reply looked up, the agent run once; got %d runs, %q (%s) %q", len(ex), reply.Content, reply.Status, reply.Error)
		}
	})
	t.Run("no lookup", func(t *testing.T) {
		a, svc := served(t, demoservice.Options{API: demoservice.APIReal}, noPolling)
		s := newChat(t, a)
		svc.SetFaults(cutEscape)
		sendAndWait(t, s, "Summarise the holiday rota")
		reply, ex := storedReply(t, a, s.ID()), svc.Executions()
		if reply.Status != storage.StatusFailed || reply.Content == "" || !strings.HasPrefix(ex[0].Output, reply.Content) {
			t.Fatalf("want what arrived kept; got %q (%s) of %q", reply.Content, reply.Status, ex[0].Output)
		}
		if !strings.Contains(reply.Error, "could not read part of the reply") || strings.Contains(reply.Error, "agentdesk") {
			t.Fatalf("want a plain sentence, got %q", reply.Error)
		}
		svc.SetFaults(demoservice.Faults{})
		sendAndWait(t, s, "And the week after?")
		if next := storedReply(t, a, s.ID()); next.Status != storage.StatusComplete || next.Content == "" {
			t.Fatalf("the next message should work, got %q (%s) %q", next.Content, next.Status, next.Error)
		}
	})
}

// TestNoExecutionIsSentTwice drives a run and a chat through every failure
// the interface allows and counts what reached the service.
func TestNoExecutionIsSentTwice(t *testing.T) {
	cases := []struct {
		name   string
		faults demoservice.Faults
		wrap   func(http.Handler) http.Handler
	}{
		{"server error", demoservice.Faults{Fail500: 1}, nil},
		{"HTML error page", demoservice.Faults{HTML500: 1}, nil},
		{"cut stream", demoservice.Faults{CutStreamAfter: 2}, nil},
		{"polling not offered", demoservice.Faults{}, noPolling},
		{"slow answer", demoservice.Faults{SlowFirstByte: 300 * time.Millisecond}, nil},
		// A 429 proves nothing ran: the request goes again after the wait.
		{"rate limited", demoservice.Faults{RateLimit: 1, RetryAfter: time.Second}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, svc := served(t, demoservice.Options{API: demoservice.APIReal, WaitCap: time.Millisecond}, tc.wrap)
			agent := getAgent(t, a, "119")
			svc.SetFaults(tc.faults)
			ar, err := a.Runs().Runner().Start(agent, map[string]string{"prompt": "A short note inviting the team to lunch on Friday", "tone": "formal", "length": "120"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tc.name == "slow answer" {
				time.Sleep(50 * time.Millisecond)
				ar.Cancel()
			}
			<-ar.Done()
			s := newChat(t, a)
			svc.SetFaults(tc.faults)
			_ = s.Send(context.Background(), "Plan the offsite", nil)
			if tc.name == "slow answer" {
				time.Sleep(50 * time.Millisecond)
				s.Stop()
			}
			s.Wait()
			limit := 2
			if tc.faults.RateLimit > 0 {
				limit = 4 // each refused once, then sent after the wait
			}
			if n, runs := svc.ExecuteRequests(), len(svc.Executions()); n > limit || runs > 2 {
				t.Fatalf("%d execute requests and %d executions for one run and one chat message", n, runs)
			}
		})
	}
}

func TestRunStillRunningIsCheckedAgainNotRunAgain(t *testing.T) {
	pace := 40 * time.Millisecond
	a, svc := served(t, demoservice.Options{API: demoservice.APIReal, Pace: pace, WaitCap: time.Millisecond}, nil, func(c *app.Config) {
		c.ClientOptions = append(c.ClientOptions, client.WithPollLimit(5*time.Millisecond))
	})
	agent := getAgent(t, a, "119")
	r := a.Runs().Runner()
	ar, err := r.Start(agent, map[string]string{"prompt": "A short note inviting the team to lunch on Friday", "tone": "formal", "length": "120"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	<-ar.Done()
	run, err := ar.Result()
	if !errors.Is(err, client.ErrStillRunning) || run.Status != app.RunStillRunning || !app.CanCheckAgain(run) {
		t.Fatalf("want a run still running on the service, got %+v %v", run, err)
	}
	if !strings.Contains(run.Error, "Check again") {
		t.Fatalf("the run should say what to do: %q", run.Error)
	}
	// Later, Check again finds the result without a second execution.
	deadline := time.Now().Add(10 * time.Second)
	for {
		ex := svc.Executions()
		if ex[0].Status == demoservice.StatusSucceeded || ex[0].Status == demoservice.StatusCompleted || time.Now().After(deadline) {
			break
		}
		time.Sleep(pace)
	}
	ar, err = r.CheckAgain(agent, run)
	if err != nil {
		t.Fatal(err)
	}
	<-ar.Done()
	run, err = ar.Result()
	if err != nil || run.Output == "" || app.CanCheckAgain(run) {
		t.Fatalf("check again: %+v %v", run, err)
	}
	if svc.ExecuteRequests() != 1 {
		t.Fatalf("%d execute requests", svc.ExecuteRequests())
	}
	runs, _ := a.Runs().List(context.Background(), agent.ID)
	if len(runs) != 1 || runs[0].Output != run.Output {
		t.Fatalf("history should hold the one run, finished: %+v", runs)
	}
}

func TestRealServiceErrorsReadPlainly(t *testing.T) {
	a, svc := served(t, demoservice.Options{API: demoservice.APIReal}, nil)
	ctx := context.Background()
	c := a.Client()
	_, err := c.ListAgents(ctx, client.ListAgentsParams{}, client.WithAPIKey("wrong"))
	if got := app.Describe(err); !strings.Contains(got, "rejected the API key") {
		t.Fatalf("403 invalid authentication: %q", got)
	}
	_, err = c.ListAgents(ctx, client.ListAgentsParams{}, client.WithWorkspace("77"))
	if got := app.Describe(err); !strings.Contains(got, "no access to this workspace") {
		t.Fatalf("403 workspace: %q", got)
	}
	svc.SetFaults(demoservice.Faults{RateLimit: 1, RetryAfter: 2 * time.Second})
	_, err = c.ListAgents(ctx, client.ListAgentsParams{}, client.WithRateLimitRetries(0))
	if got := app.Describe(err); !strings.Contains(got, "slow down") || !strings.Contains(got, "2 seconds") {
		t.Fatalf("429: %q", got)
	}
	_, err = c.Run(ctx, "119", client.ExecuteParams{Answers: map[string]any{}})
	if f := app.FieldErrors(err); f["tone"] == "" && f["length"] == "" {
		t.Fatalf("a validation error should name its fields: %v (%v)", f, err)
	}
}

func TestTestConnectionChecksTheWorkspace(t *testing.T) {
	svc := demoservice.New(demoservice.Options{API: demoservice.APIReal, APIKey: "k"})
	srv := httptest.NewServer(svc)
	t.Cleanup(func() { _ = svc.Close(); srv.Close() })
	a := apptest.Open(t)
	ctx := context.Background()
	for _, tc := range []struct {
		workspace string
		want      app.ConnectionState
	}{
		{"", app.Connected},
		{"1", app.Connected},
		{"77", app.WorkspaceRejected},
		{"acme", app.WorkspaceRejected},
	} {
		res := a.Accounts().Test(ctx, storage.Account{BaseURL: srv.URL, WorkspaceID: tc.workspace}, "k", false)
		if res.State != tc.want || res.Message == "" {
			t.Errorf("workspace %q: %+v", tc.workspace, res)
		}
	}
	if res := a.Accounts().Test(ctx, storage.Account{BaseURL: srv.URL, WorkspaceID: "1"}, "wrong", false); res.State != app.KeyRejected {
		t.Errorf("wrong key: %+v", res)
	}
}

func TestMemoriesAndCollectionsFollowTheService(t *testing.T) {
	a, svc := served(t, demoservice.Options{API: demoservice.APIReal}, nil)
	_ = svc
	ctx := context.Background()
	listed, err := a.Memories().Sync(ctx)
	if err != nil || !listed {
		t.Fatalf("sync: %v %v", listed, err)
	}
	col, err := a.Memories().CreateCollection(ctx, "Customer care")
	if err != nil || col.ID == "" || col.Name != "Customer care" {
		t.Fatalf("create collection: %+v %v", col, err)
	}
	m, err := a.Memories().Create(ctx, app.MemoryEdit{Content: "Refunds within 14 days", CollectionID: col.ID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Memories().Sync(ctx); err != nil {
		t.Fatal(err)
	}
	mems, _ := a.Memories().List(ctx, "Refunds")
	if len(mems) != 1 || mems[0].CollectionName != "Customer care" {
		t.Fatalf("the memory should be listed under its collection: %+v", mems)
	}
	cols, _ := a.Memories().Collections(ctx)
	var def string
	for _, c := range cols {
		if a.Memories().IsDefaultCollection(c.ID) {
			def = c.ID
			if c.Name != "My Memories" {
				t.Fatalf("the default collection shows its display name, got %q", c.Name)
			}
		}
	}
	if def == "" {
		t.Fatalf("no default collection among %+v", cols)
	}
	if err := a.Memories().DeleteCollection(ctx, def); !errors.Is(err, client.ErrDefaultCollection) {
		t.Fatalf("deleting the default collection: %v", err)
	}
	if err := a.Memories().Delete(ctx, m.ID); err != nil {
		t.Fatal(err)
	}
	if mems, _ := a.Memories().List(ctx, "Refunds"); len(mems) != 0 {
		t.Fatalf("a deleted memory stays listed: %+v", mems)
	}
	// A collection goes with its memories, on the service and here.
	if _, err := a.Memories().Create(ctx, app.MemoryEdit{Content: "Call back within a day", CollectionID: col.ID}); err != nil {
		t.Fatal(err)
	}
	if err := a.Memories().DeleteCollection(ctx, col.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Memories().Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if mems, _ := a.Memories().List(ctx, "Call back"); len(mems) != 0 {
		t.Fatalf("memories of a deleted collection stay listed: %+v", mems)
	}
}

func TestMemoriesWithoutListsKeepTheLocalIndex(t *testing.T) {
	a, _ := served(t, demoservice.Options{API: demoservice.APISpec}, nil)
	ctx := context.Background()
	m, err := a.Memories().Create(ctx, app.MemoryEdit{Content: "Invoices go out on the 5th"})
	if err != nil {
		t.Fatal(err)
	}
	listed, err := a.Memories().Sync(ctx)
	if err != nil || listed {
		t.Fatalf("a server without lists: listed %v, %v", listed, err)
	}
	if mems, _ := a.Memories().List(ctx, ""); len(mems) != 1 || mems[0].ID != m.ID {
		t.Fatalf("the local index should stay: %+v", mems)
	}
}

func TestWebhooksAddedSwitchedAndDeleted(t *testing.T) {
	a, _ := served(t, demoservice.Options{API: demoservice.APIReal}, nil)
	ctx := context.Background()
	var in *client.InputError
	if _, err := a.Catalog().AddWebhook(ctx, "101", "http://example.com/hook", "POST", true); !errors.As(err, &in) {
		t.Fatalf("an http address must be refused before sending: %v", err)
	}
	w, err := a.Catalog().AddWebhook(ctx, "101", "https://example.com/hook", "POST", true)
	if err != nil || w.ID == "" || w.Status != client.WebhookActive {
		t.Fatalf("add: %+v %v", w, err)
	}
	off, err := a.Catalog().SetWebhookActive(ctx, *w, false)
	if err != nil || off.Status != client.WebhookInactive {
		t.Fatalf("switch off: %+v %v", off, err)
	}
	listed := func() map[client.ID]client.Webhook {
		hooks, err := a.Catalog().AgentWebhooks(ctx, "101")
		if err != nil {
			t.Fatal(err)
		}
		out := map[client.ID]client.Webhook{}
		for _, h := range hooks {
			out[h.ID] = h
		}
		return out
	}
	hooks := listed()
	if _, old := hooks[w.ID]; old || hooks[off.ID].Status != client.WebhookInactive {
		t.Fatalf("the agent should have the webhook once, off: %+v", hooks)
	}
	if err := a.Catalog().DeleteWebhook(ctx, off.ID); err != nil {
		t.Fatal(err)
	}
	if _, still := listed()[off.ID]; still {
		t.Fatal("a deleted webhook is still listed")
	}
}

func TestFilesProcessedAndDeleted(t *testing.T) {
	a, _ := served(t, demoservice.Options{API: demoservice.APIReal}, nil)
	ctx := context.Background()
	f, err := a.Client().UploadFile(ctx, client.UploadParams{Reader: strings.NewReader("Opening hours: 9 to 5."), Filename: "hours.txt", Size: 22})
	if err != nil {
		t.Fatal(err)
	}
	l := a.Files().NewList("desc")
	if err := l.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	if now(l.State()).Unsettled() {
		t.Fatal("a stored file that nobody asked to process is not watched")
	}
	if _, err := l.ProcessFile(ctx, f.ID); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for now(l.State()).Unsettled() && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
		if err := l.Reload(ctx); err != nil {
			t.Fatal(err)
		}
	}
	var got client.File
	for _, x := range now(l.State()).Files {
		if x.ID == f.ID {
			got = x
		}
	}
	if got.Status != "completed" || now(l.State()).StatusText(got) != "Ready" {
		t.Fatalf("processed file: %+v", got)
	}
	if err := l.DeleteFile(ctx, f.ID); err != nil {
		t.Fatal(err)
	}
	if err := l.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	for _, x := range now(l.State()).Files {
		if x.ID == f.ID {
			t.Fatal("a deleted file is still listed")
		}
	}
}

func TestChatSendTwiceSendsOnce(t *testing.T) {
	a, svc := served(t, demoservice.Options{API: demoservice.APIReal, Pace: 5 * time.Millisecond}, nil)
	s := newChat(t, a)
	errs := make(chan error, 2)
	for range 2 {
		go func() { errs <- s.Send(context.Background(), "Plan the offsite", nil) }()
	}
	e1, e2 := <-errs, <-errs
	s.Wait()
	if svc.ExecuteRequests() != 1 {
		t.Fatalf("two sends at once made %d execute requests (errors %v, %v)", svc.ExecuteRequests(), e1, e2)
	}
	if (e1 == nil) == (e2 == nil) || !errors.Is(errors.Join(e1, e2), app.ErrReplyRunning) {
		t.Fatalf("one send goes, the other says a reply is on its way: %v, %v", e1, e2)
	}
}

func TestUploadsBeyondTheStoredLimitAreRefusedFirst(t *testing.T) {
	a, svc := served(t, demoservice.Options{API: demoservice.APIReal}, nil)
	ctx := context.Background()
	// A run shows the server follows the real service, whose limit applies.
	agent := getAgent(t, a, "119")
	if _, err := a.Client().Run(ctx, agent.ID, client.ExecuteParams{Answers: map[string]any{"prompt": "A short note inviting the team to lunch on Friday", "tone": "formal", "length": 120}}); err != nil {
		t.Fatal(err)
	}
	stored := 0
	for _, err := range a.Client().Files(ctx, client.ListFilesParams{PerPage: 100}) {
		if err != nil {
			t.Fatal(err)
		}
		stored++
	}
	dir := t.TempDir()
	for i := range client.MaxStoredFiles - stored + 2 {
		writeFile(t, filepath.Join(dir, fmt.Sprintf("note-%02d.txt", i)), 10)
	}
	q := a.Files().NewUploads()
	ids, err := q.Start(ctx, app.PlanUpload([]string{dir}))
	if err != nil {
		t.Fatal(err)
	}
	waitUploads(t, q)
	refused := 0
	for _, id := range ids {
		u, _ := q.Item(id)
		if u.State == app.UploadFailed {
			refused++
			if !strings.Contains(u.Message, "at most 30 files") {
				t.Fatalf("a refused file should say why: %q", u.Message)
			}
		}
	}
	if refused != 2 {
		t.Fatalf("%d files refused, want the 2 over the limit", refused)
	}
	_ = svc
	// The service's own word for it reads plainly too.
	_, err = a.Client().UploadFile(ctx, client.UploadParams{Reader: strings.NewReader("x"), Filename: "x.txt", Size: 1})
	if got := app.Describe(err); !strings.Contains(got, "30 files") {
		t.Fatalf("the service's refusal: %q", got)
	}
}

func TestDescribeNeverShowsThePackagePrefix(t *testing.T) {
	for _, err := range []error{
		errors.New("agentdesk: no base URL configured (use WithBaseURL)"),
		fmt.Errorf("agentdesk: opening the file to upload: %w", errors.New("permission denied")),
		&client.ExecutionError{Execution: client.Execution{Status: "failed"}},
	} {
		got := app.Describe(err)
		if strings.Contains(strings.ToLower(got), "agentdesk:") || got == "" {
			t.Errorf("%v reads %q", err, got)
		}
	}
}

// TestDescribeEveryKind words every kind of failure a person may meet:
// each says what happened in plain words, without codes or jargon.
func TestDescribeEveryKind(t *testing.T) {
	api := func(status int, body string) error {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			fmt.Fprint(w, body)
		}))
		defer srv.Close()
		_, err := client.New(client.WithBaseURL(srv.URL), client.WithMaxRetries(0), client.WithRateLimitRetries(0)).ListFiles(context.Background(), client.ListFilesParams{})
		return err
	}
	cases := []struct {
		name   string
		err    error
		want   string
		action app.Action
	}{
		{"key rejected (403)", api(403, `{"error":"Invalid authentication"}`), "rejected the API key", app.ActionOpenSettings},
		{"key rejected (401)", api(401, `{"message":"Unauthenticated."}`), "rejected the API key", app.ActionOpenSettings},
		{"no access", api(403, `{"error":"You do not have access to this workspace."}`), "no access to this workspace", app.ActionOpenSettings},
		{"default collection", api(403, `{"message":"Default collection cannot be deleted"}`), "default collection cannot be deleted", app.ActionNone},
		{"validation", api(400, `{"error":"Validation failed","messages":{"url":["The url must use https."]}}`), "The url must use https.", app.ActionNone},
		{"too large", api(413, `{"error":"File too large. The limit is 200 MB."}`), "too large", app.ActionNone},
		{"conversation too long", &client.APIError{StatusCode: 413, Method: "POST", Path: "/agents/7/chat", Message: "The request body is too large."}, "start a new chat", app.ActionNone},
		{"rate limited", api(429, `{"error":"Rate limit exceeded","retry_after":5}`), "5 seconds", app.ActionTryAgain},
		{"server error", api(500, `{"error":"Internal server error"}`), "had a problem", app.ActionTryAgain},
		{"server error as a web page", api(502, `<html><body><h1>502 Bad Gateway</h1></body></html>`), "had a problem", app.ActionTryAgain},
		{"not found", api(404, `{"message":"Not Found"}`), "could not find", app.ActionNone},
		{"still running", fmt.Errorf("waiting: %w", client.ErrStillRunning), "Check again", app.ActionCheckLater},
		{"cut stream", client.ErrStreamIncomplete, "costs credits", app.ActionNone},
		{"polling not offered", client.ErrPollingUnsupported, "kept", app.ActionNone},
		{"too many files", &client.InputError{Field: "file_ids", Message: "The service takes at most 5 files at a time."}, "at most 5 files", app.ActionNone},
		{"run failed", &client.ExecutionError{Text: "the model is overloaded"}, "could not finish", app.ActionTryAgain},
		{"run failed, echoing the key", func() error {
			const key = "sk-live-0123456789abcdef"
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				fmt.Fprint(w, `{"id":"r1","status":"failed","error":"bad key `+key+` for tools"}`)
			}))
			defer srv.Close()
			_, err := client.New(client.WithBaseURL(srv.URL), client.WithAPIKey(key)).Wait(context.Background(), "1", "r1")
			return err
		}(), "key [redacted] for tools", app.ActionTryAgain},
		{"offline", api0(t), "can't reach", app.ActionTryAgain},
		{"picture from a file", &app.PictureError{Reason: app.PictureNotWeb}, "not on the web", app.ActionNone},
		{"picture file too large", &app.PictureError{Reason: app.PictureTooLarge}, "larger than 10 MB", app.ActionNone},
		{"picture too big", &app.PictureError{Reason: app.PictureTooBig, Width: 100000, Height: 100000}, "too large to show", app.ActionNone},
		{"not a picture", &app.PictureError{Reason: app.PictureUnreadable}, "not a picture", app.ActionNone},
		{"picture missing", &app.PictureError{Reason: app.PictureUnavailable, Status: 404}, "did not give it", app.ActionTryAgain},
		{"download too large", &app.OutputTooLargeError{Limit: app.MaxImageOutputBytes, What: "picture"}, "downloads (50 MB)", app.ActionNone},
		{"agent switched off", app.ErrAgentInactive, "switched off on the service", app.ActionNone},
		{"reply too long", app.ErrReplyTooLarge, "is kept", app.ActionNone},
		{"webhook switched, old entry left", &catalog.OldEntryLeftError{TurnedOn: true, Err: api0(t)}, "turned on as a new entry, but the old entry could not be removed: Agent Desk can't reach", app.ActionNone},
		{"webhook of no agent", catalog.ErrNoAgent, "does not say which agent", app.ActionNone},
		{"cancelled", context.Canceled, "Cancelled", app.ActionNone},
		{"anything else", errors.New("agentdesk: the disk is full"), "The disk is full.", app.ActionTryAgain},
	}
	titles := map[string]bool{}
	for _, tc := range cases {
		p := app.Explain(tc.err)
		if got := app.Describe(tc.err); got != p.Sentence {
			t.Errorf("%s: Describe %q differs from Explain's sentence %q", tc.name, got, p.Sentence)
		}
		if !strings.Contains(p.Sentence, tc.want) {
			t.Errorf("%s: %q lacks %q", tc.name, p.Sentence, tc.want)
		}
		if p.Action != tc.action {
			t.Errorf("%s: offers %q, want %q", tc.name, p.Action.Label(), tc.action.Label())
		}
		if p.Title == "" || len([]rune(p.Title)) > 30 || strings.HasSuffix(p.Title, ".") {
			t.Errorf("%s: title %q should be a few words, without a stop", tc.name, p.Title)
		}
		titles[p.Title] = true
		for _, jargon := range []string{"agentdesk:", "HTTP", " 40", " 41", " 42", " 50", "{", "<"} {
			if strings.Contains(p.Title+" "+p.Sentence, jargon) {
				t.Errorf("%s: %q / %q shows %q", tc.name, p.Title, p.Sentence, jargon)
			}
		}
	}
	if len(titles) < 12 {
		t.Errorf("%d different titles for %d kinds of failure: they should tell the kinds apart", len(titles), len(cases))
	}
	if p := app.Explain(api(429, `{"error":"Rate limit exceeded","retry_after":5}`)); p.Wait != 5*time.Second {
		t.Errorf("a 429 asking for 5 s should carry the wait, got %v", p.Wait)
	}
}

// api0 is the error of a request to an address where nothing listens.
func api0(t *testing.T) error {
	t.Helper()
	srv := httptest.NewServer(http.NotFoundHandler())
	addr := srv.URL
	srv.Close()
	_, err := client.New(client.WithBaseURL(addr), client.WithMaxRetries(0)).ListFiles(context.Background(), client.ListFilesParams{})
	return err
}

// A run the service goes on with after its 100 s wait is kept by its id at
// once; when Agent Desk closes while it goes on, the next start follows it
// by polling and keeps its result, never running it a second time.
func TestARunGoingOnWhenAgentDeskClosesIsFollowedAtTheNextStart(t *testing.T) {
	hold := make(chan struct{})
	svc := demoservice.New(demoservice.Options{API: demoservice.APIReal, APIKey: "k", Pace: time.Millisecond, WaitCap: time.Millisecond, Faults: demoservice.Faults{Hold: hold}})
	srv := httptest.NewServer(svc)
	t.Cleanup(func() { _ = svc.Close(); srv.Close() })
	paths := storage.PathsIn(t.TempDir())
	open := func() *app.App {
		return apptest.Open(t, func(c *app.Config) {
			c.Paths = paths
			c.ClientOptions = append(c.ClientOptions, client.WithBaseURL(srv.URL), client.WithAPIKey("k"), client.WithPollInterval(2*time.Millisecond))
		})
	}
	a := open()
	agent := getAgent(t, a, "119")
	_, err := a.Runs().Runner().Start(agent, map[string]string{"prompt": "A short note inviting the team to lunch on Friday", "tone": "formal", "length": "120"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "the run's id to be kept", func() bool {
		runs, _ := a.Runs().List(context.Background(), agent.ID)
		return len(runs) == 1 && runs[0].ResponseID != ""
	})
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}

	b := open()
	close(hold)
	eventually(t, "the run to be followed to its end", func() bool {
		runs, _ := b.Runs().List(context.Background(), agent.ID)
		return len(runs) == 1 && runs[0].Status == client.StatusCompleted
	})
	runs, _ := b.Runs().List(context.Background(), agent.ID)
	if ex := svc.Executions(); runs[0].Output == "" || runs[0].Output != ex[0].Output || svc.ExecuteRequests() != 1 {
		t.Fatalf("the resumed run keeps the result of the one execution: %+v; %d execute requests", runs[0], svc.ExecuteRequests())
	}
}

// A failed run on the real service shows its reason as the reason, and
// keeps no result.
func TestAFailedRunShowsItsReasonNotAResult(t *testing.T) {
	a, _ := served(t, demoservice.Options{API: demoservice.APIReal, Faults: demoservice.Faults{FailExecutions: 1}}, nil)
	agent := getAgent(t, a, "119")
	ar, err := a.Runs().Runner().Start(agent, map[string]string{"prompt": "A short note inviting the team to lunch on Friday", "tone": "formal", "length": "120"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	<-ar.Done()
	run, _ := ar.Result()
	if run.Status != "failed" || run.Output != "" || !strings.Contains(run.Error, "the model did not answer in time") || strings.Contains(run.Error, `says "failed"`) {
		t.Fatalf("a failed run: status %q, output %q, error %q", run.Status, run.Output, run.Error)
	}
}
