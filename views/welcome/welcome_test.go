package welcome

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
)

func openApp(t *testing.T) *app.App {
	t.Helper()
	t.Setenv(storage.EnvAPIKey, "")
	a, err := app.Open(context.Background(), app.Config{Paths: storage.PathsIn(t.TempDir()), StartDemo: apptest.DemoStarter(demoservice.Options{}), Keyring: apptest.NewKeyring()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close() })
	return a
}

// newWelcome shows the welcome screen; the channel receives once the user's
// choice is done and the main window may open.
func newWelcome(t *testing.T) (*Welcome, *app.App, chan struct{}) {
	t.Helper()
	test.NewTempApp(t)
	a := openApp(t)
	done := make(chan struct{}, 1)
	w := New(a, func() { done <- struct{}{} })
	win := test.NewTempWindow(t, w.Content())
	win.Resize(fyne.NewSize(1000, 760))
	return w, a, done
}

func waitDone(t *testing.T, done chan struct{}) {
	t.Helper()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the welcome screen never finished")
	}
}

// answered waits for the connect form's answer.
func answered(w *Welcome) func(t *testing.T) {
	ch := make(chan struct{}, 8)
	w.Form.OnBusy(func(busy bool) {
		if !busy {
			ch <- struct{}{}
		}
	})
	return func(t *testing.T) {
		t.Helper()
		select {
		case <-ch:
		case <-time.After(30 * time.Second):
			t.Fatal("the connect form never answered")
		}
	}
}

func TestWelcomeTryDemo(t *testing.T) {
	w, a, done := newWelcome(t)
	if a.Settings().Onboarded {
		t.Fatal("a first start is not set up yet")
	}
	test.Tap(w.Demo)
	waitDone(t, done)
	if !a.Settings().Onboarded || !a.IsDemo() {
		t.Fatalf("Try the demo should open the demo and not ask again: onboarded=%v demo=%v", a.Settings().Onboarded, a.IsDemo())
	}
}

func TestWelcomeConnectWrongKeyThenRightKey(t *testing.T) {
	srv, _ := demoservice.NewTestService(t, demoservice.Options{APIKey: "right-key"})
	w, a, done := newWelcome(t)
	wait := answered(w)
	test.Tap(w.Connect)
	if w.choices.Visible() || !w.connect.Visible() {
		t.Fatal("Connect your account should show the account form")
	}
	test.Type(w.Form.BaseURL, srv.URL)
	test.Type(w.Form.Key, "wrong-key")
	test.Tap(w.Form.Test)
	wait(t)
	if !strings.Contains(w.Form.Result.Text, "rejected") {
		t.Fatalf("a wrong key should be called rejected, got %q", w.Form.Result.Text)
	}
	test.Tap(w.Finish)
	wait(t)
	select {
	case <-done:
		t.Fatal("a rejected key must not finish the welcome")
	default:
	}
	if a.Settings().Onboarded || w.Form.BaseURL.Text != srv.URL || w.Form.Key.Text != "wrong-key" {
		t.Fatal("a rejected key must keep what was typed and not mark Agent Desk as set up")
	}

	w.Form.Key.SetText("")
	test.Type(w.Form.Key, "right-key")
	test.Tap(w.Finish)
	waitDone(t, done)
	if !a.Settings().Onboarded || a.IsDemo() || a.Account().BaseURL != srv.URL {
		t.Fatalf("the connected account should be in use: %+v", a.Account())
	}
	if !strings.Contains(w.Form.Result.Text, "Connected") {
		t.Fatalf("result: %q", w.Form.Result.Text)
	}
}

func TestWelcomeConnectDeadAddress(t *testing.T) {
	w, a, _ := newWelcome(t)
	wait := answered(w)
	test.Tap(w.Connect)
	test.Type(w.Form.BaseURL, "http://127.0.0.1:1")
	test.Type(w.Form.Key, "any-key")
	test.Tap(w.Form.Test)
	wait(t)
	if !strings.Contains(w.Form.Result.Text, "can't reach") {
		t.Fatalf("a dead address should say it cannot be reached, got %q", w.Form.Result.Text)
	}
	w.Form.BaseURL.SetText("not an address")
	test.Tap(w.Form.Test)
	wait(t)
	if !strings.Contains(w.Form.Result.Text, "must start with https://") {
		t.Fatalf("a malformed address should say how it should look, got %q", w.Form.Result.Text)
	}
	test.Tap(w.Back)
	if !w.choices.Visible() || a.Settings().Onboarded {
		t.Fatal("Back returns to the two choices without setting anything up")
	}
}

// An account the organisation set up shows in the form with its address
// and workspace, so staff paste only their key.
func TestWelcomeOffersTheOrganisationsAccount(t *testing.T) {
	srv, _ := demoservice.NewTestService(t, demoservice.Options{APIKey: "right-key"})
	policy := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(policy, []byte(`{"accounts": [{"name": "Acme", "base_url": "`+srv.URL+`", "locked": true}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	test.NewTempApp(t)
	t.Setenv(storage.EnvAPIKey, "")
	a, err := app.Open(context.Background(), app.Config{Paths: storage.PathsIn(t.TempDir()), StartDemo: apptest.DemoStarter(demoservice.Options{}), Keyring: apptest.NewKeyring(), PolicyFile: policy})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close() })
	done := make(chan struct{}, 1)
	w := New(a, func() { done <- struct{}{} })
	test.NewTempWindow(t, w.Content()).Resize(fyne.NewSize(1000, 760))
	test.Tap(w.Connect)
	if w.Form.Name.Text != "Acme" || w.Form.BaseURL.Text != srv.URL || !w.Form.BaseURL.Disabled() {
		t.Fatalf("the organisation's account: %q %q (locked %v)", w.Form.Name.Text, w.Form.BaseURL.Text, w.Form.BaseURL.Disabled())
	}
	test.Type(w.Form.Key, "right-key")
	test.Tap(w.Finish)
	waitDone(t, done)
	if accts := a.Settings().Accounts; len(accts) != 2 || a.Account().Name != "Acme" || a.IsDemo() {
		t.Fatalf("the key should go to the organisation's account, not a new one: %+v", accts)
	}
}
