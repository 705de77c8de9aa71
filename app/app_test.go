package app_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
)

func TestOpenWithoutAccountRunsTheDemo(t *testing.T) {
	a := apptest.Open(t)
	if !a.IsDemo() || a.Demo() == nil {
		t.Fatalf("a first start should run the built-in demo, got account %+v", a.Account())
	}
	page, err := a.Client().ListAgents(context.Background(), client.ListAgentsParams{})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total < 40 {
		t.Fatalf("the demo should offer at least 40 agents, got %d", page.Total)
	}
	if !strings.HasPrefix(a.Demo().URL(), "http://127.0.0.1:") {
		t.Fatalf("the demo must listen on loopback only, got %s", a.Demo().URL())
	}
}

func deadAddress(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

func TestTestConnectionSaysWhatHappened(t *testing.T) {
	a := apptest.Open(t)
	srv, _ := demoservice.NewTestService(t, demoservice.Options{APIKey: "right-key"})
	ctx := context.Background()
	cases := []struct {
		name, url, key string
		want           app.ConnectionState
		words          string
	}{
		{"connected", srv.URL, "right-key", app.Connected, "Connected"},
		{"wrong key", srv.URL, "wrong-key", app.KeyRejected, "rejected"},
		{"nothing listening", deadAddress(t), "right-key", app.Offline, "can't reach"},
		{"not an address", "agents example", "right-key", app.ServerNotFound, "https://"},
		{"no key", srv.URL, " ", app.KeyRejected, "API key"},
		{"certificate not trusted", tlsServer(t), "right-key", app.TLSProblem, "certificate"},
		{"a web page, not the service", htmlServer(t), "right-key", app.ServerNotFound, "not as an Agent Execution Service"},
		{"a hiccup first", hiccupServer(t), "right-key", app.Connected, "Connected"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := a.Accounts().Test(ctx, storage.Account{BaseURL: c.url}, c.key, false)
			if got.State != c.want || !strings.Contains(got.Message, c.words) {
				t.Fatalf("got %v %q, want %v containing %q", got.State, got.Message, c.want, c.words)
			}
			if strings.Contains(got.Message, c.key) && strings.TrimSpace(c.key) != "" {
				t.Fatalf("the message shows the key: %q", got.Message)
			}
		})
	}
}

func TestAccountsAreSavedSwitchedAndRemovedWithoutWritingTheKey(t *testing.T) {
	t.Setenv(storage.EnvAPIKey, "")
	a := apptest.Open(t)
	// Two workspaces: the interface's reading of the built-in service has them.
	srv, svc := demoservice.NewTestService(t, demoservice.Options{APIKey: "secret-key-123", API: demoservice.APISpec})
	ctx := context.Background()
	acct, err := a.Accounts().Save(ctx, storage.Account{Name: "Office", BaseURL: srv.URL + "/", WorkspaceID: "2"}, "secret-key-123")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Activate(ctx, acct.ID); err != nil {
		t.Fatal(err)
	}
	if a.IsDemo() || a.Demo() != nil {
		t.Fatal("switching to a real account should stop the demo")
	}
	if got := a.KeyLocation().Kind; got != storage.KeyInKeyring {
		t.Fatalf("key stored in %q, want the keyring", got)
	}
	page, err := a.Client().ListAgents(ctx, client.ListAgentsParams{})
	if err != nil {
		t.Fatal(err)
	}
	// Workspace 2 of the built-in service has its own, smaller set of agents.
	if page.Total == 0 || page.Total >= 40 {
		t.Fatalf("the account's workspace was not sent: %d agents", page.Total)
	}
	_ = svc
	settings, err := os.ReadFile(a.Paths().SettingsFile())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(settings), "secret-key-123") {
		t.Fatal("the API key was written to settings.json")
	}
	if !strings.Contains(string(settings), "Office") {
		t.Fatal("the account was not saved")
	}
	if err := a.Accounts().Remove(ctx, acct.ID); err != nil {
		t.Fatal(err)
	}
	if !a.IsDemo() {
		t.Fatal("removing the active account should fall back to the demo")
	}
	if _, ok := a.Settings().Account(acct.ID); ok {
		t.Fatal("the removed account is still listed")
	}
}

func TestCreditsTodayAddsUpRecordedCharges(t *testing.T) {
	a := apptest.Open(t)
	ctx := context.Background()
	_, before := a.Session().Snapshot()
	a.Ledger().Record(ctx, storage.CreditsExecution, "119", "Writer", "r1", client.Credits{Value: 0.25, Valid: true})
	a.Ledger().Record(ctx, storage.CreditsFile, "", "", "f1", client.Credits{Value: 0.5, Valid: true})
	a.Ledger().Record(ctx, storage.CreditsFile, "", "", "f2", client.Credits{}) // unknown: not a charge
	got, err := a.Ledger().Today(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got != 0.75 {
		t.Fatalf("credits today = %v, want 0.75", got)
	}
	if s, after := a.Session().Snapshot(); s.Charges != 2 || after != before+2 {
		t.Fatalf("session after three records: %d charges in %d new versions, want 2 in 2", s.Charges, after-before)
	}
}

func TestDescribeSpeaksPlainly(t *testing.T) {
	a := apptest.Open(t)
	ctx := context.Background()
	c := a.Client()

	_, err := c.ListAgents(ctx, client.ListAgentsParams{}, client.WithAPIKey("nope"))
	if got := app.Describe(err); !strings.Contains(got, "rejected the API key") {
		t.Fatalf("401: %q", got)
	}
	_, err = c.GetAgent(ctx, "999999")
	if got := app.Describe(err); strings.Contains(got, "404") || got == "" {
		t.Fatalf("404: %q", got)
	}
	_, err = c.ListAgents(ctx, client.ListAgentsParams{}, client.WithBaseURL(deadAddress(t)), client.WithMaxRetries(0))
	if got := app.Describe(err); !strings.Contains(got, "can't reach") {
		t.Fatalf("offline: %q", got)
	}
	_, err = c.Run(ctx, "119", client.ExecuteParams{Answers: map[string]any{}})
	if got := app.Describe(err); got == "" || strings.Contains(got, "422") {
		t.Fatalf("422: %q", got)
	}
	if f := app.FieldErrors(err); len(f) == 0 {
		t.Fatalf("a 422 should name its fields, got none for %v", err)
	}
}

// TestAServersLongMessageIsShownShort: a service's message of any length,
// with line breaks, or starting with a letter of more than one byte, is
// shown as one sentence of at most 300 characters, its first letter
// capitalised whole.
func TestAServersLongMessageIsShownShort(t *testing.T) {
	long := &client.APIError{StatusCode: 400, Message: strings.Repeat("the field is wrong\n", 2000)}
	got := app.Describe(long)
	if n := len([]rune(got)); n > 400 || strings.Contains(got, "\n") {
		t.Fatalf("a 38,000-character message is shown as %d characters: %.80q…", n, got)
	}
	if got := app.Describe(&client.APIError{StatusCode: 400, Message: "échec de la validation"}); !strings.Contains(got, "Échec de la validation.") {
		t.Fatalf("the first letter should be capitalised whole: %q", got)
	}
}

// tlsServer is a service behind a certificate nobody trusts.
func tlsServer(t *testing.T) string {
	srv := httptest.NewTLSServer(demoservice.New(demoservice.Options{APIKey: "right-key"}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// htmlServer answers everything with a web page.
func htmlServer(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><body><h1>Welcome to our intranet</h1></body></html>")
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// hiccupServer is the service answering its first request with a 503.
func hiccupServer(t *testing.T) string {
	srv, svc := demoservice.NewTestService(t, demoservice.Options{APIKey: "right-key"})
	svc.SetFaults(demoservice.Faults{Fail500: 1})
	return srv.URL
}

// A service's answer that quotes another server's TLS failure is a
// service problem, not a certificate Agent Desk could not check.
func TestTestConnectionDoesNotReadATLSWordInAnAnswerAsItsOwn(t *testing.T) {
	a := apptest.Open(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadGateway)
		fmt.Fprint(w, `{"error":"upstream: remote error: tls: handshake failure"}`)
	}))
	t.Cleanup(srv.Close)
	if got := a.Accounts().Test(context.Background(), storage.Account{BaseURL: srv.URL}, "k", false); got.State != app.ServerError {
		t.Fatalf("got %v %q, want a service problem", got.State, got.Message)
	}
}
