package app_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
)

// refusing is a service that answers every call with status and body, as
// the real service refuses a request without its workspace header.
func refusing(t *testing.T, status int, body string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// A refusal for the workspace (a 400 or 422 naming it) says the number is
// needed and where to find it, never "no access" nor the header's name; one
// given and refused is named, so the user corrects that one.
func TestWorkspaceRefusalSaysTheNumberIsNeeded(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		status int
		body   string
	}{
		{"422 naming the workspace", http.StatusUnprocessableEntity, `{"message":"Workspace ID missing or invalid"}`},
		{"400 validation of the header", http.StatusBadRequest, `{"error":"Validation failed","messages":{"x-workspace-id":["The x-workspace-id field is required."]}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := refusing(t, tc.status, tc.body)
			a := apptest.OnURL(t, url)
			_, err := a.Client().ListAgents(ctx, client.ListAgentsParams{})
			p := app.Explain(err)
			if p.Title != "Workspace number needed" || p.Action != app.ActionOpenSettings {
				t.Fatalf("a workspace needed reads %+v", p)
			}
			for _, want := range []string{"needs the number of your workspace", "Settings → Workspace", "w="} {
				if !strings.Contains(p.Sentence, want) {
					t.Errorf("%q should say %q", p.Sentence, want)
				}
			}
			for _, never := range []string{"no access", "x-workspace-id", "Validation"} {
				if strings.Contains(p.Sentence, never) {
					t.Errorf("%q says %q", p.Sentence, never)
				}
			}
			res := a.Accounts().Test(ctx, storage.Account{BaseURL: url}, "k", false)
			if !res.AboutWorkspace() || res.Message != p.Sentence {
				t.Errorf("Test connection without a workspace: %+v", res)
			}
		})
	}

	// The built-in service, requiring the number as the real one says it will.
	b, _ := apptest.OnService(t, demoservice.Options{API: demoservice.APIReal, RequireWorkspace: true})
	_, err := b.Client().ListAgents(ctx, client.ListAgentsParams{})
	if p := app.Explain(err); p.Title != "Workspace number needed" {
		t.Fatalf("the built-in service's refusal reads %+v (%v)", p, err)
	}

	// A workspace given: the refusal names it.
	a := apptest.OnURL(t, refusing(t, http.StatusUnprocessableEntity, `{"message":"The selected workspace is invalid."}`))
	_, err = a.Client().ListAgents(ctx, client.ListAgentsParams{}, client.WithWorkspace("77"))
	if p := app.Explain(err); p.Title != "Workspace not accepted" || !strings.Contains(p.Sentence, "workspace number 77") ||
		!strings.Contains(p.Sentence, "Settings → Workspace") || p.Action != app.ActionOpenSettings {
		t.Fatalf("a workspace refused reads %+v", p)
	}
}

// An answer cut off halfway reads as a dropped connection, never "unexpected
// EOF"; a request that changes something is not simply offered again.
func TestCutAnswerReadsInPlainWords(t *testing.T) {
	ctx := context.Background()
	a, svc := apptest.OnService(t, demoservice.Options{APIKey: "k"})
	svc.SetFaults(demoservice.Faults{Every: 1, EveryFault: demoservice.EveryCutBody})

	_, err := a.Client().ListAgents(ctx, client.ListAgentsParams{})
	p := app.Explain(fmt.Errorf("listing: %w", err))
	if p.Sentence != "The connection dropped before the answer was complete. Try again in a moment." || p.Action != app.ActionTryAgain {
		t.Fatalf("a list cut off reads %+v (%v)", p, err)
	}
	_, err = a.Memories().Create(ctx, app.MemoryEdit{Content: "Call back within a day"})
	p = app.Explain(err)
	if !strings.Contains(p.Sentence, "The connection dropped before the answer was complete") ||
		!strings.Contains(p.Sentence, "Check whether it was done") || p.Action == app.ActionTryAgain {
		t.Fatalf("a save cut off reads %+v (%v)", p, err)
	}
	for _, s := range []string{p.Title, p.Sentence, app.Describe(err)} {
		if strings.Contains(strings.ToLower(s), "eof") || strings.Contains(s, "reach") {
			t.Errorf("a cut answer reads %q", s)
		}
	}
}

// An answer cut into unreadable JSON after the service acted (a save) is
// not simply offered again: it may have been done.
func TestAnUnreadableAnswerToASaveIsNotOfferedAgain(t *testing.T) {
	ctx := context.Background()
	a, svc := apptest.OnService(t, demoservice.Options{APIKey: "k"})
	svc.SetFaults(demoservice.Faults{Every: 1, EveryFault: demoservice.EveryTruncated})
	_, err := a.Memories().Create(ctx, app.MemoryEdit{Content: "Call back within a day"})
	if p := app.Explain(err); p.Action == app.ActionTryAgain || !strings.Contains(p.Sentence, "Check whether it was done") {
		t.Fatalf("a save answered unreadably reads %+v (%v)", p, err)
	}
	_, err = a.Client().ListAgents(ctx, client.ListAgentsParams{})
	if p := app.Explain(err); p.Action != app.ActionTryAgain {
		t.Fatalf("a list answered unreadably reads %+v (%v)", p, err)
	}
}
