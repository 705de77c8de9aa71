package app_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
)

// Plain http:// sends the key unencrypted: it is refused, in plain words,
// for any server but this computer, by Test connection and Save alike.
func TestPlainHTTPOnlyToThisComputer(t *testing.T) {
	t.Setenv(storage.EnvAPIKey, "")
	a := apptest.Open(t)
	ctx := context.Background()
	for _, addr := range []string{"http://agents.example.com/api", "http://10.0.0.5:8080", "http://192.168.1.20", "http://[2001:db8::1]/api", "http://localhost.example.com", "HTTP://agents.example.com"} {
		res := a.Accounts().Test(ctx, storage.Account{BaseURL: addr}, "some-key-1234", false)
		if res.State == app.Connected || !strings.Contains(res.Message, "must start with https://") {
			t.Errorf("Test connection to %s: %v %q, want a refusal that asks for https://", addr, res.State, res.Message)
		}
		if _, err := a.Accounts().Save(ctx, storage.Account{Name: "Office", BaseURL: addr}, "some-key-1234"); err == nil || !strings.Contains(err.Error(), "must start with https://") {
			t.Errorf("Save with %s: %v, want a refusal that asks for https://", addr, err)
		}
	}
	if n := len(a.Settings().Accounts); n != 1 {
		t.Fatalf("refused addresses must not be saved: %d accounts", n)
	}
	for _, addr := range []string{"http://127.0.0.1:9", "http://localhost:9/api", "http://[::1]:9", "http://127.3.4.5:9", "https://agents.example.com/api"} {
		if _, err := a.Accounts().Save(ctx, storage.Account{Name: addr, BaseURL: addr}, "some-key-1234"); err != nil {
			t.Errorf("Save with %s: %v, want it kept", addr, err)
		}
	}
}

// A name and password in the address would be kept in the settings file
// and sent with every request: refused, and never saved.
func TestCredentialsInAddressRefused(t *testing.T) {
	t.Setenv(storage.EnvAPIKey, "")
	a := apptest.Open(t)
	ctx := context.Background()
	for _, addr := range []string{"https://jane:hunter2-pw@agents.example.com/api", "https://jane@agents.example.com", "http://jane:hunter2-pw@127.0.0.1:9"} {
		res := a.Accounts().Test(ctx, storage.Account{BaseURL: addr}, "some-key-1234", false)
		if res.State == app.Connected || !strings.Contains(res.Message, "name and password") || strings.Contains(res.Message, "hunter2") {
			t.Errorf("Test connection to %s: %v %q, want a refusal naming the name and password", addr, res.State, res.Message)
		}
		_, err := a.Accounts().Save(ctx, storage.Account{Name: "Office", BaseURL: addr}, "some-key-1234")
		if err == nil || !strings.Contains(err.Error(), "name and password") || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("Save with %s: %v, want a refusal", addr, err)
		}
	}
	raw, _ := os.ReadFile(a.Paths().SettingsFile())
	if strings.Contains(string(raw), "hunter2") || strings.Contains(string(raw), "jane") || len(a.Settings().Accounts) != 1 {
		t.Fatalf("an address with a password must never be saved: %s", raw)
	}
}

// Only another server (scheme, host or port) counts as the stored key
// moving; another path on the same server does not, nor a typed key.
func TestStoredKeyMovesOnlyToAnotherServer(t *testing.T) {
	t.Setenv(storage.EnvAPIKey, "")
	srv, _ := demoservice.NewTestService(t, demoservice.Options{APIKey: "stored-key-123"})
	a := apptest.Open(t)
	ctx := context.Background()
	acct, err := a.Accounts().Save(ctx, storage.Account{Name: "Office", BaseURL: srv.URL + "/api"}, "stored-key-123")
	if err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(srv.URL, "http://")
	port := host[strings.LastIndex(host, ":"):]
	cases := []struct {
		addr, key string
		moves     bool
	}{
		{srv.URL + "/api", "", false},
		{srv.URL, "", false},
		{srv.URL + "/v2/", "", false},
		{"HTTP://" + host + "/api", "", false},
		{"http://localhost" + port + "/api", "", true},
		{"https://" + host + "/api", "", true},
		{"http://127.0.0.1:1/api", "", true},
		{"https://agents.example.com/api", "", true},
		{"https://agents.example.com/api", "a-typed-key", false},
	}
	for _, c := range cases {
		edited := acct
		edited.BaseURL = c.addr
		moves, from, to := a.Accounts().StoredKeyMoves(edited, c.key)
		if moves != c.moves {
			t.Errorf("%s with key %q: moves=%v, want %v", c.addr, c.key, moves, c.moves)
		}
		if moves && (from != host || to == "") {
			t.Errorf("%s: from %q to %q", c.addr, from, to)
		}
	}
	if moves, _, _ := a.Accounts().StoredKeyMoves(storage.Account{BaseURL: "https://agents.example.com"}, ""); moves {
		t.Error("a new account has no stored key to move")
	}
}

// A keyring that fails puts the key in the keys file: SaveAccount records
// it, and the note the screens show says so plainly.
func TestKeyInFileIsSaidPlainly(t *testing.T) {
	t.Setenv(storage.EnvAPIKey, "")
	a := apptest.Open(t, func(c *app.Config) { c.Keyring = apptest.NewBrokenKeyring() })
	acct, err := a.Accounts().Save(context.Background(), storage.Account{Name: "Office", BaseURL: "https://agents.example.com"}, "some-key-1234")
	if err != nil {
		t.Fatal(err)
	}
	note := app.KeyInFileNote(acct)
	if acct.KeyStore != storage.KeyInFile || !strings.Contains(note, "file on this computer") || !strings.Contains(note, "only you can read") {
		t.Fatalf("key store %q, note %q", acct.KeyStore, note)
	}
	if note := app.KeyInFileNote(storage.Account{KeyStore: storage.KeyInKeyring}); note != "" {
		t.Fatalf("a key in the keyring needs no note: %q", note)
	}
}
