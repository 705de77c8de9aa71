package app_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/storage"
)

// writePolicy puts an organisation's policy file in a test folder.
func writePolicy(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func withPolicy(paths storage.Paths, file string) func(*app.Config) {
	return func(c *app.Config) { c.Paths, c.PolicyFile = paths, file }
}

// orgAccount is the account whose address the organisation set.
func orgAccount(t *testing.T, a *app.App, baseURL string) storage.Account {
	t.Helper()
	for _, acct := range a.Settings().Accounts {
		if acct.BaseURL == baseURL {
			return acct
		}
	}
	t.Fatalf("no account at %s in %+v", baseURL, a.Settings().Accounts)
	return storage.Account{}
}

// A policy file that locks an account's address and the language: both
// are there at start, and the app refuses every way of changing them.
func TestPolicyLocksServiceAddressAndLanguage(t *testing.T) {
	file := writePolicy(t, `{
	  "accounts": [{"name": "Acme", "base_url": "https://api.tess.im/", "workspace_id": "123", "locked": true}],
	  "language": {"value": "pt-BR", "locked": true},
	  "requests_per_second": {"value": 2, "locked": true},
	  "proxy": {"mode": "manual", "url": "http://proxy.acme.local:3128"},
	  "certificates": ["/etc/agentdesk/acme-ca.pem"]
	}`)
	paths := storage.PathsIn(t.TempDir())
	a := apptest.Open(t, withPolicy(paths, file))
	ctx := context.Background()

	acct := orgAccount(t, a, "https://api.tess.im")
	if acct.Name != "Acme" || acct.WorkspaceID != "123" || acct.RequestsPerSecond != 2 || !a.Locks().Account(acct.ID) {
		t.Fatalf("the organisation's account reads %+v (locked %v)", acct, a.Locks().Account(acct.ID))
	}
	if a.Settings().Language != "pt-BR" || !a.Locks().Language || !a.Locks().Pace {
		t.Fatalf("language %q, locks %+v", a.Settings().Language, a.Locks())
	}
	if p := a.Policy(); p.Proxy == nil || p.Proxy.URL != "http://proxy.acme.local:3128" || !slices.Equal(p.Certificates, []string{"/etc/agentdesk/acme-ca.pem"}) {
		t.Fatalf("the proxy and certificates are kept for the network settings, got %+v", p)
	}

	refused := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, app.ErrSetByOrganisation) || !strings.Contains(err.Error(), "organisation") {
			t.Fatalf("%s: want refused as set by the organisation, got %v", what, err)
		}
	}
	refused("the language", a.UpdateSettings(ctx, func(s *storage.Settings) { s.Language = "es" }))
	moved := acct
	moved.BaseURL = "https://elsewhere.example.com"
	_, err := a.Accounts().Save(ctx, moved, "a-key")
	refused("the address", err)
	moved = acct
	moved.WorkspaceID = "9"
	_, err = a.Accounts().Save(ctx, moved, "")
	refused("the workspace", err)
	refused("removing the account", a.Accounts().Remove(ctx, acct.ID))
	refused("changing it behind Save", a.UpdateSettings(ctx, func(s *storage.Settings) { s.RemoveAccount(acct.ID) }))
	if err := a.Activate(ctx, acct.ID); err != nil {
		t.Fatal(err)
	}
	refused("the pace", a.Accounts().SetRequestsPerSecond(ctx, 5))

	// What is not locked still changes: the theme, the account's name and key.
	if err := a.UpdateSettings(ctx, func(s *storage.Settings) { s.Theme = storage.ThemeDark }); err != nil {
		t.Fatal(err)
	}
	renamed := acct
	renamed.Name = "Acme (mine)"
	if _, err := a.Accounts().Save(ctx, renamed, "my-key"); err != nil {
		t.Fatal(err)
	}
	// An account the user adds keeps to the organisation's pace.
	other, err := a.Accounts().Save(ctx, storage.Account{Name: "Other", BaseURL: "https://other.example.com"}, "k")
	if err != nil || other.ID == "" {
		t.Fatal(err)
	}
	if got := orgAccount(t, a, "https://other.example.com").RequestsPerSecond; got != 2 {
		t.Fatalf("an added account is paced at %v, want the organisation's 2", got)
	}
	s := a.Settings()
	if got := orgAccount(t, a, "https://api.tess.im"); s.Language != "pt-BR" || got.Name != "Acme (mine)" || got.WorkspaceID != "123" || s.Theme != storage.ThemeDark {
		t.Fatalf("after the refusals: language %q, theme %q, account %+v", s.Language, s.Theme, got)
	}

	// The next start finds the same account, not a second one.
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	b := apptest.Open(t, withPolicy(paths, file))
	n := 0
	for _, acct := range b.Settings().Accounts {
		if acct.BaseURL == "https://api.tess.im" {
			n++
		}
	}
	if n != 1 || orgAccount(t, b, "https://api.tess.im").Name != "Acme (mine)" {
		t.Fatalf("the next start lists %d accounts at the organisation's address: %+v", n, b.Settings().Accounts)
	}
}

// Presets that are not locked fill only what the user left as it was.
func TestPolicyPresetsYieldToTheUser(t *testing.T) {
	file := writePolicy(t, `{"accounts": [{"base_url": "https://api.tess.im", "workspace_id": 5}], "language": {"value": "es"}, "requests_per_second": {"value": 0.5}}`)
	paths := storage.PathsIn(t.TempDir())
	a := apptest.Open(t, withPolicy(paths, file))
	ctx := context.Background()
	acct := orgAccount(t, a, "https://api.tess.im")
	if a.Settings().Language != "es" || acct.Name != "api.tess.im" || acct.WorkspaceID != "5" || acct.RequestsPerSecond != 0.5 || a.Locks().Account(acct.ID) || a.Locks().Language {
		t.Fatalf("presets: language %q, account %+v, locks %+v", a.Settings().Language, acct, a.Locks())
	}
	if err := a.UpdateSettings(ctx, func(s *storage.Settings) { s.Language = "en" }); err != nil {
		t.Fatal(err)
	}
	if err := a.Accounts().Remove(ctx, acct.ID); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	b := apptest.Open(t, withPolicy(paths, file))
	if b.Settings().Language != "en" {
		t.Fatalf("the user's language gave way to the preset: %q", b.Settings().Language)
	}
}

// A broken policy file does not stop Agent Desk: it opens, and says in
// plain words that the organisation's settings could not be read, and where.
func TestBrokenPolicyOpensWithANotice(t *testing.T) {
	for name, text := range map[string]string{
		"not JSON":      `{"language": {"value": "pt-BR", "locked": true`,
		"unknown value": `{"language": {"value": "klingon", "locked": true}}`,
	} {
		t.Run(name, func(t *testing.T) {
			file := writePolicy(t, text)
			a := apptest.Open(t, withPolicy(storage.PathsIn(t.TempDir()), file))
			notices := strings.Join(a.Notices(), "\n")
			if !strings.Contains(notices, "settings your organisation gave Agent Desk could not be read") || !strings.Contains(notices, file) {
				t.Fatalf("the notices should say the organisation's settings could not be read, and where: %q", notices)
			}
			if a.Locks().Language || a.Settings().Language != "" {
				t.Fatalf("nothing of a broken file applies: %+v, %q", a.Locks(), a.Settings().Language)
			}
			if err := a.UpdateSettings(context.Background(), func(s *storage.Settings) { s.Language = "es" }); err != nil {
				t.Fatal(err)
			}
		})
	}
}
