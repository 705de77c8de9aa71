package settings

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
	"github.com/agentdesk/agentdesk/views/screen"
)

// lockingPolicy locks an account at address, the language and the pace.
func lockingPolicy(t *testing.T, address string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "policy.json")
	text := `{"accounts": [{"name": "Acme", "base_url": "` + address + `", "workspace_id": "123", "locked": true}],
	  "language": {"value": "pt-BR", "locked": true}, "requests_per_second": {"value": 2, "locked": true}}`
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// openWithPolicy opens the app as openApp does, with the organisation's policy file.
func openWithPolicy(t *testing.T, policy string) *app.App {
	t.Helper()
	t.Setenv(storage.EnvAPIKey, "")
	a, err := app.Open(context.Background(), app.Config{Paths: storage.PathsIn(t.TempDir()), StartDemo: apptest.DemoStarter(demoservice.Options{}),
		Keyring: apptest.NewKeyring(), PolicyFile: policy})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close() })
	return a
}

// What the organisation locked shows as set by it, cannot be changed on
// the screen, and is refused by the app when asked all the same.
func TestLockedSettingsShowAsSetByTheOrganisation(t *testing.T) {
	const address = "https://agents.acme.example/api"
	test.NewTempApp(t)
	ui := kit.UseQueue(t)
	a := openWithPolicy(t, lockingPolicy(t, address))
	s := New(screen.Env{App: a}).(*Screen)
	w := test.NewTempWindow(t, s.Content())
	w.Resize(fyne.NewSize(900, 800))
	s.env.Window = w
	wait := func(what string, shown func() bool) {
		t.Helper()
		ui.WaitUntil(t, shown, func() string { return what + "; the screen shows " + kittest.Labels(s.Content()) })
	}

	if !s.language.Disabled() || !s.langNote.Visible() || s.langNote.Text != "Set by your organisation." || s.language.Selected != "Português (Brasil)" {
		t.Fatalf("the language: disabled %v, note %q (shown %v), chosen %q", s.language.Disabled(), s.langNote.Text, s.langNote.Visible(), s.language.Selected)
	}
	row := rowOf(s, "Acme")
	if row == nil || !strings.Contains(kittest.Labels(row), "Set by your organisation.") {
		t.Fatalf("the organisation's account should be listed as set by it: %s", kittest.Labels(s.accounts))
	}
	if remove := kittest.FindButton(row, "Remove"); remove == nil || !remove.Disabled() {
		t.Fatal("the organisation's account cannot be removed")
	}

	test.Tap(kittest.FindButton(row, "Edit"))
	f := s.form
	if !f.BaseURL.Disabled() || !f.Workspace.Disabled() || f.Name.Disabled() || f.Key.Disabled() {
		t.Fatalf("address and workspace are locked, name and key are not: %v %v %v %v", f.BaseURL.Disabled(), f.Workspace.Disabled(), f.Name.Disabled(), f.Key.Disabled())
	}
	if form := kittest.Find[*widget.Form](f.Object); form.Items[1].HintText != "Set by your organisation." || form.Items[3].HintText != "Set by your organisation." {
		t.Fatalf("the locked fields should each say who set them: %q, %q", form.Items[1].HintText, form.Items[3].HintText)
	}
	s.Escape()

	// Asked all the same, the app refuses and the screen says why.
	choose(s, s.language, "Español")
	wait("the language refused", func() bool { return strings.Contains(s.errText.Text, "organisation has set the language") })
	if a.Settings().Language != "pt-BR" || s.language.Selected != "Português (Brasil)" {
		t.Fatalf("the language changed to %q (shows %q)", a.Settings().Language, s.language.Selected)
	}

	test.Tap(kittest.FindButton(rowOf(s, "Acme"), "Use"))
	wait("the organisation's account in use", func() bool { return a.Account().BaseURL == address })
	wait("its pace set by the organisation", func() bool {
		return s.pace.Disabled() && s.paceNote.Text == "Set by your organisation." && s.pace.Selected == labelOf(paceOptions(), 2)
	})
	choose(s, s.pace, labelOf(paceOptions(), -1))
	wait("the pace refused", func() bool { return strings.Contains(s.errText.Text, "organisation has set the pace") })
	if got := a.Account().RequestsPerSecond; got != 2 {
		t.Fatalf("the pace changed to %v", got)
	}
}

// TestLockedSettingsLayOut: the screen and the locked account's form, in
// each language and size: nothing drawn over anything, nothing cut.
func TestLockedSettingsLayOut(t *testing.T) {
	kittest.EachLanguage(t, apptest.Speak, func(t *testing.T, size fyne.Size) {
		test.NewTempApp(t)
		q := kit.UseQueue(t)
		a := openWithPolicy(t, lockingPolicy(t, "https://agents.acme.example/api"))
		s := New(screen.Env{App: a}).(*Screen)
		w := test.NewTempWindow(t, widget.NewLabel(""))
		s.env.Window = w
		w.SetContent(container.NewStack(s.Content(), kit.NewLayer(w.Canvas())))
		w.Resize(size)
		frames := kittest.NewFrames(w.Canvas())
		kittest.Look(t, frames, q, w, "the settings set by the organisation")
		s.editAccount(a.Settings().Accounts[1])
		kittest.Look(t, frames, q, w, "the organisation's account open")
	})
}
