package settings

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
)

// countingService is a built-in service that counts the requests bearing
// key, as a server at a newly typed address would receive them.
func countingService(t *testing.T, key string) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	svc := demoservice.New(demoservice.Options{APIKey: key})
	var got atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.Header.Get("Authorization"), key) {
			got.Add(1)
		}
		svc.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { _ = svc.Close(); srv.Close() })
	return srv, &got
}

// Editing an account's address with the key left blank must not send the
// stored key to the new address until the user says so.
func TestEditedAddressAsksBeforeSendingStoredKey(t *testing.T) {
	const key = "stored-key-123"
	old, _ := demoservice.NewTestService(t, demoservice.Options{APIKey: key})
	other, sent := countingService(t, key)
	s, a, wait := newScreen(t, apptest.NewKeyring())
	acct, err := a.Accounts().Save(context.Background(), app.Account{Name: "Office", BaseURL: old.URL}, key)
	if err != nil {
		t.Fatal(err)
	}
	wait("the office account listed", func() bool { return rowOf(s, "Office") != nil })

	test.Tap(kittest.FindButton(rowOf(s, "Office"), "Edit"))
	answered := formDone(s.form, wait)
	s.form.BaseURL.SetText(other.URL)
	newHost := strings.TrimPrefix(other.URL, "http://")

	// Test connection asks first; Cancel sends nothing.
	test.Tap(s.form.Test)
	if s.form.keyAsk == nil {
		t.Fatalf("Test connection with a new address and a blank key should ask first; the form shows %q", s.form.Result.Text)
	}
	if shown := kittest.AllText(s.env.Window.Canvas().Overlays().Top()); !strings.Contains(shown, "Send your saved key to "+newHost) {
		t.Errorf("the question should name the new address: %q", shown)
	}
	s.form.keyAsk.Hide() // Cancel
	wait("what follows drawn", func() bool { return true })
	if n := sent.Load(); n != 0 {
		t.Fatalf("the stored key went to the new address %d times before the user agreed", n)
	}
	if !strings.Contains(s.form.Result.Text, "not sent") {
		t.Errorf("Cancel should say the key was not sent, got %q", s.form.Result.Text)
	}

	// Save asks too, and saves nothing while the question is open.
	test.Tap(s.save)
	if s.form.keyAsk == nil {
		t.Fatal("Save with a new address and a blank key should ask first")
	}
	if n := sent.Load(); n != 0 {
		t.Fatalf("the stored key went to the new address %d times before the user agreed", n)
	}
	if got, _ := a.Settings().Account(acct.ID); got.BaseURL != old.URL {
		t.Fatalf("nothing may be saved before the answer, the address is now %q", got.BaseURL)
	}

	// "Send the key" goes ahead: the key is sent, the account saved.
	s.form.keyAsk.Confirm()
	answered(t)
	wait("the account saved with its new address", func() bool {
		got, _ := a.Settings().Account(acct.ID)
		return got.BaseURL == other.URL
	})
	if sent.Load() == 0 || !strings.Contains(s.form.Result.Text, "Connected") {
		t.Fatalf("after Send the key the new address should get it and connect: %d calls, %q", sent.Load(), s.form.Result.Text)
	}

	// Another path on the same server is the same place: no question.
	test.Tap(kittest.FindButton(rowOf(s, "Office"), "Edit"))
	answered = formDone(s.form, wait)
	s.form.BaseURL.SetText(other.URL + "/")
	test.Tap(s.form.Test)
	if s.form.keyAsk != nil {
		t.Fatal("the same server under another path should not ask")
	}
	answered(t)
	if !strings.Contains(s.form.Result.Text, "Connected") {
		t.Fatalf("same server, other path: %q", s.form.Result.Text)
	}

	// A key typed again is the user's own choice: no question either.
	before := sent.Load()
	s.form.BaseURL.SetText(old.URL)
	test.Type(s.form.Key, key)
	test.Tap(s.form.Test)
	if s.form.keyAsk != nil {
		t.Fatal("a typed key should be tested without asking")
	}
	answered(t)
	if sent.Load() != before {
		t.Fatal("testing the old address must not send anything to the other one")
	}
}

// Addresses that would send the key in clear, or carry a password, are
// refused by the form with a plain sentence, and nothing is saved.
func TestAccountFormRefusesUnsafeAddresses(t *testing.T) {
	s, a, wait := newScreen(t, apptest.NewKeyring())
	test.Tap(s.add)
	answered := formDone(s.form, wait)
	test.Type(s.form.Key, "some-key-1234")
	for addr, words := range map[string]string{
		"http://agents.example.com/api":               "must start with https://",
		"https://jane:pw-9876@agents.example.com/api": "name and password",
	} {
		s.form.BaseURL.SetText(addr)
		test.Tap(s.form.Test)
		answered(t)
		if !strings.Contains(s.form.Result.Text, words) {
			t.Errorf("Test connection with %s: %q, want %q", addr, s.form.Result.Text, words)
		}
		test.Tap(s.save)
		answered(t)
		if !strings.Contains(s.form.Result.Text, words) || strings.Contains(s.form.Result.Text, "pw-9876") {
			t.Errorf("Save with %s: %q, want %q", addr, s.form.Result.Text, words)
		}
	}
	if n := len(a.Settings().Accounts); n != 1 {
		t.Fatalf("refused addresses must not be saved: %d accounts", n)
	}
}

// Without a keyring the key lands in a file: the form's answer and the
// account's line say so plainly.
func TestSaveSaysKeyKeptInFile(t *testing.T) {
	srv, _ := demoservice.NewTestService(t, demoservice.Options{APIKey: "k"})
	s, a, wait := newScreen(t, apptest.NewBrokenKeyring())
	test.Tap(s.add)
	answered := formDone(s.form, wait)
	test.Type(s.form.Name, "Office")
	test.Type(s.form.BaseURL, srv.URL)
	test.Type(s.form.Key, "k")
	test.Tap(s.save)
	answered(t)
	if got := s.form.Result.Text; !strings.Contains(got, "Connected") || !strings.Contains(got, "kept in a file on this computer that only you can read") {
		t.Fatalf("the form's answer should say where the key went, got %q", got)
	}
	wait("the account's line saying where the key is", func() bool {
		row := rowOf(s, "Office")
		return row != nil && strings.Contains(kittest.Labels(row), "kept in a file on this computer")
	})
	if !strings.Contains(s.keyWhere.Text, "only you can read") || !strings.Contains(s.keyWhere.Text, a.Paths().KeysFile()) {
		t.Fatalf("the API key section should say the key is in a file only the user can read: %q", s.keyWhere.Text)
	}
}
