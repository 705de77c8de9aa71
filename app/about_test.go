package app_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
)

func TestSavedConnectionUsesTheStoredKeyWhenLeftBlank(t *testing.T) {
	srv, _ := demoservice.NewTestService(t, demoservice.Options{APIKey: "stored-key"})
	a := apptest.Open(t)
	ctx := context.Background()
	acct, err := a.Accounts().Save(ctx, storage.Account{Name: "Office", BaseURL: srv.URL}, "stored-key")
	if err != nil {
		t.Fatal(err)
	}
	if res := a.Accounts().Test(ctx, acct, "", false); res.State != app.Connected {
		t.Fatalf("a blank key while editing should test the stored key: %+v", res)
	}
	if res := a.Accounts().Test(ctx, acct, "typed-wrong-key", false); res.State != app.KeyRejected {
		t.Fatalf("a typed key replaces the stored one in the test: %+v", res)
	}
	if res := a.Accounts().Test(ctx, storage.Account{BaseURL: srv.URL}, "", false); res.State != app.KeyRejected {
		t.Fatalf("a new account without a key should be asked for one: %+v", res)
	}
}

func TestFoldersNameEveryPlaceWithFiles(t *testing.T) {
	a := apptest.Open(t)
	p := a.Paths()
	var all []string
	for _, f := range a.Folders() {
		if f.What == "" {
			t.Errorf("folder %s has no description", f.Path)
		}
		all = append(all, f.Path)
	}
	joined := strings.Join(all, "\n")
	for _, want := range []string{p.Config, p.Data, p.Cache} {
		if !strings.Contains(joined, want) {
			t.Errorf("About should list %s", want)
		}
	}
}

// The stored key of an account does not go to another server typed in its
// place unless the user agreed, whoever calls.
func TestSavedConnectionKeepsTheStoredKeyFromAnotherServer(t *testing.T) {
	srv, _ := demoservice.NewTestService(t, demoservice.Options{APIKey: "stored-key"})
	var keys atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			keys.Add(1)
		}
		http.Error(w, "{}", http.StatusUnauthorized)
	}))
	defer other.Close()
	a := apptest.Open(t)
	ctx := context.Background()
	acct, err := a.Accounts().Save(ctx, storage.Account{Name: "Office", BaseURL: srv.URL}, "stored-key")
	if err != nil {
		t.Fatal(err)
	}
	acct.BaseURL = other.URL
	if res := a.Accounts().Test(ctx, acct, "", false); res.State == app.Connected || !strings.Contains(res.Message, "not sent") {
		t.Fatalf("testing another server without leave: %+v", res)
	}
	if n := keys.Load(); n != 0 {
		t.Fatalf("the stored key reached the other server %d times", n)
	}
	a.Accounts().Test(ctx, acct, "", true)
	if keys.Load() == 0 {
		t.Fatal("with the user's leave the key should be tried there")
	}
}
