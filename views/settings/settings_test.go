package settings

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
	"github.com/agentdesk/agentdesk/views/screen"
)

func openApp(t *testing.T, kr storage.Keyring) *app.App {
	t.Helper()
	t.Setenv(storage.EnvAPIKey, "")
	a, err := app.Open(context.Background(), app.Config{Paths: storage.PathsIn(t.TempDir()), StartDemo: apptest.DemoStarter(demoservice.Options{}), Keyring: kr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close() })
	return a
}

// newScreen opens the Settings screen in a test window; the returned
// function draws the screen's updates (held in the test's queue) until what
// the user waits for shows.
func newScreen(t *testing.T, kr storage.Keyring) (*Screen, *app.App, func(what string, shown func() bool)) {
	t.Helper()
	test.NewTempApp(t)
	ui := kit.UseQueue(t)
	a := openApp(t, kr)
	s := New(screen.Env{App: a}).(*Screen)
	w := test.NewTempWindow(t, s.Content())
	w.Resize(fyne.NewSize(900, 800))
	s.env.Window = w
	wait := func(what string, shown func() bool) {
		t.Helper()
		ui.WaitUntil(t, shown, func() string { return what + "; the screen shows " + kittest.Labels(s.Content()) })
	}
	return s, a, wait
}

// formDone waits until the account form's check or save has answered.
func formDone(f *AccountForm, wait func(what string, shown func() bool)) func(t *testing.T) {
	answers := 0
	f.OnBusy(func(busy bool) {
		if !busy {
			answers++
		}
	})
	seen := 0
	return func(t *testing.T) {
		t.Helper()
		wait("the account form never answered", func() bool { return answers > seen })
		seen = answers
	}
}

// choose selects a radio choice as a click does. The handler is called
// after the radio has redrawn, because the test driver runs the handler's
// screen update on its own goroutine at once, where the real app queues it.
func choose(s *Screen, rg *kit.RadioGroup, label string) {
	s.syncing = true
	rg.SetSelected(label)
	s.syncing = false
	rg.OnChanged(label)
}

// rowOf is the accounts row that names the account.
func rowOf(s *Screen, name string) fyne.CanvasObject {
	for _, r := range s.accounts.Objects {
		if strings.Contains(kittest.Labels(r), name) {
			return r
		}
	}
	return nil
}

func TestSettingsAddEditSwitchRemoveAccount(t *testing.T) {
	srv, _ := demoservice.NewTestService(t, demoservice.Options{APIKey: "right-key"})
	s, a, wait := newScreen(t, apptest.NewKeyring())

	if got := kittest.Labels(s.accounts); !strings.Contains(got, "In use") || !strings.Contains(got, "Sample agents") {
		t.Fatalf("a first start should list the demo as the account in use, got %q", got)
	}

	// A wrong key is answered in plain words and nothing is saved.
	test.Tap(s.add)
	answered := formDone(s.form, wait)
	test.Type(s.form.Name, "Office")
	test.Type(s.form.BaseURL, srv.URL)
	test.Type(s.form.Key, "wrong-key")
	test.Tap(s.save)
	answered(t)
	if !strings.Contains(s.form.Result.Text, "rejected") {
		t.Fatalf("a wrong key should be called rejected, got %q", s.form.Result.Text)
	}
	if len(a.Settings().Accounts) != 1 || s.form.Name.Text != "Office" {
		t.Fatalf("a rejected key must not save the account nor clear the form")
	}

	// The right key saves the account and puts it in use.
	s.form.Key.SetText("")
	test.Type(s.form.Key, "right-key")
	test.Tap(s.save)
	answered(t)
	wait("the new account in use", func() bool {
		row := rowOf(s, "Office")
		return row != nil && strings.Contains(kittest.Labels(row), "In use") && strings.Contains(s.keyWhere.Text, "keyring")
	})
	if a.IsDemo() || a.Account().Name != "Office" {
		t.Fatalf("the saved account should be in use, got %+v", a.Account())
	}
	if row := rowOf(s, "Office"); row == nil || !strings.Contains(kittest.Labels(row), "In use") {
		t.Fatalf("the new account should be listed as in use: %q", kittest.Labels(s.accounts))
	}
	if !strings.Contains(s.keyWhere.Text, "stored in the system keyring") {
		t.Fatalf("key location: %q", s.keyWhere.Text)
	}

	// Editing with the key left blank keeps the stored key.
	test.Tap(kittest.FindButton(rowOf(s, "Office"), "Edit"))
	answered = formDone(s.form, wait)
	if s.form.Key.Text != "" || s.form.BaseURL.Text != srv.URL {
		t.Fatalf("the edit form should show the address and never the key")
	}
	s.form.Name.SetText("")
	test.Type(s.form.Name, "Head office")
	test.Tap(s.save)
	answered(t)
	wait("the account renamed", func() bool { return rowOf(s, "Head office") != nil })
	if a.Account().Name != "Head office" || !strings.Contains(s.form.Result.Text, "Connected") {
		t.Fatalf("renaming with a blank key should keep the key and connect: %q, %q", a.Account().Name, s.form.Result.Text)
	}
	if _, err := a.Client().ListAgents(context.Background(), client.ListAgentsParams{PerPage: 1}); err != nil {
		t.Fatalf("the stored key should still work after the edit: %v", err)
	}

	// Switch back to the demo, then remove the account.
	test.Tap(kittest.FindButton(rowOf(s, "Sample agents"), "Use"))
	wait("the demo in use", func() bool { return strings.Contains(s.keyWhere.Text, "no API key") })
	if !a.IsDemo() {
		t.Fatal("Use on the demo row should put the demo in use")
	}
	if !strings.Contains(s.keyWhere.Text, "no API key") {
		t.Fatalf("the demo needs no key: %q", s.keyWhere.Text)
	}
	test.Tap(kittest.FindButton(rowOf(s, "Head office"), "Remove"))
	s.confirm.Confirm()
	wait("the account removed", func() bool { return rowOf(s, "Head office") == nil })
	if len(a.Settings().Accounts) != 1 || rowOf(s, "Head office") != nil {
		t.Fatalf("the removed account should be gone: %q", kittest.Labels(s.accounts))
	}
}

func TestSettingsServerNotFoundKeepsTyping(t *testing.T) {
	s, a, wait := newScreen(t, apptest.NewKeyring())
	test.Tap(s.add)
	answered := formDone(s.form, wait)
	test.Type(s.form.BaseURL, "http://127.0.0.1:1")
	test.Type(s.form.Key, "some-key")
	test.Tap(s.form.Test)
	answered(t)
	if !strings.Contains(s.form.Result.Text, "can't reach") {
		t.Fatalf("a dead address should say it cannot be reached, got %q", s.form.Result.Text)
	}
	if s.form.Key.Text != "some-key" || len(a.Settings().Accounts) != 1 {
		t.Fatal("a failed test must keep what was typed and save nothing")
	}
}

func TestSettingsKeyKeptInFileWithoutKeyring(t *testing.T) {
	srv, _ := demoservice.NewTestService(t, demoservice.Options{APIKey: "k"})
	s, a, wait := newScreen(t, apptest.NewBrokenKeyring())
	test.Tap(s.add)
	answered := formDone(s.form, wait)
	test.Type(s.form.BaseURL, srv.URL)
	test.Type(s.form.Key, "k")
	test.Tap(s.save)
	answered(t)
	want := "kept in a file on this computer that only you can read, because the system keyring did not answer: " + a.Paths().KeysFile()
	wait("where the key is kept", func() bool { return strings.Contains(s.keyWhere.Text, want) })
	if !strings.Contains(s.keyWhere.Text, want) {
		t.Fatalf("without a keyring the screen should say %q, got %q", want, s.keyWhere.Text)
	}
}

func TestSettingsThemeAppliesAndIsSaved(t *testing.T) {
	s, a, wait := newScreen(t, apptest.NewKeyring())
	if s.theme.Selected != labelOf(themeOptions(), app.ThemeSystem) {
		t.Fatalf("a first start follows the computer's theme, got %q", s.theme.Selected)
	}
	choose(s, s.theme, labelOf(themeOptions(), app.ThemeDark))
	wait("the dark theme saved", func() bool { return a.Settings().Theme == storage.ThemeDark })
	if a.Settings().Theme != storage.ThemeDark {
		t.Fatalf("theme saved as %q", a.Settings().Theme)
	}
	choose(s, s.theme, labelOf(themeOptions(), app.ThemeLight))
	wait("the light theme saved", func() bool { return a.Settings().Theme == storage.ThemeLight })
	if a.Settings().Theme != storage.ThemeLight {
		t.Fatalf("theme saved as %q", a.Settings().Theme)
	}
}

func TestSettingsMemoryVariantOverride(t *testing.T) {
	srv, _ := demoservice.NewTestService(t, demoservice.Options{APIKey: "k"})
	s, a, wait := newScreen(t, apptest.NewKeyring())
	if !s.variant.Disabled() {
		t.Fatal("the demo's memory variant cannot be changed")
	}
	if _, err := a.Accounts().Save(context.Background(), storage.Account{Name: "Office", BaseURL: srv.URL}, "k"); err != nil {
		t.Fatal(err)
	}
	wait("the office account listed", func() bool { return rowOf(s, "Office") != nil })
	test.Tap(kittest.FindButton(rowOf(s, "Office"), "Use"))
	wait("the office account in use", func() bool { return !s.variant.Disabled() })
	if s.variant.Disabled() || s.variant.Selected != labelOf(variantOptions(), "") {
		t.Fatalf("a real account starts on automatic: disabled=%v selected=%q", s.variant.Disabled(), s.variant.Selected)
	}
	choose(s, s.variant, labelOf(variantOptions(), "B"))
	wait("variant B saved", func() bool { return a.Account().MemoryVariantOverride == "B" })
	if got := a.Account().MemoryVariantOverride; got != "B" {
		t.Fatalf("override saved as %q", got)
	}
	if got := string(a.Client().MemoryVariant()); got != "B" {
		t.Fatalf("the client should use the chosen variant, uses %q", got)
	}
	choose(s, s.variant, labelOf(variantOptions(), ""))
	wait("automatic saved", func() bool { return a.Account().MemoryVariantOverride == "" })
	if got := a.Account().MemoryVariantOverride; got != "" {
		t.Fatalf("automatic should clear the override, got %q", got)
	}
}

func TestAboutShowsVersionAndFolders(t *testing.T) {
	test.NewTempApp(t)
	a := openApp(t, apptest.NewKeyring())
	text := kittest.Labels(AboutContent(a))
	for _, want := range []string{"Version " + a.Version(), a.Paths().Config, a.Paths().Data, "Agent Execution Service"} {
		if !strings.Contains(text, want) {
			t.Errorf("About should show %q; it shows %q", want, text)
		}
	}
}

// The pace of requests is the account's: the demo's cannot be changed; a
// chosen pace is saved and the account's requests keep to it at once.
func TestSettingsPaceOfRequests(t *testing.T) {
	srv, _ := demoservice.NewTestService(t, demoservice.Options{APIKey: "k"})
	s, a, wait := newScreen(t, apptest.NewKeyring())
	if !s.pace.Disabled() {
		t.Fatal("the demo's pace cannot be changed")
	}
	if _, err := a.Accounts().Save(context.Background(), storage.Account{Name: "Office", BaseURL: srv.URL}, "k"); err != nil {
		t.Fatal(err)
	}
	wait("the office account listed", func() bool { return rowOf(s, "Office") != nil })
	test.Tap(kittest.FindButton(rowOf(s, "Office"), "Use"))
	wait("the office account in use", func() bool { return !s.pace.Disabled() })
	if s.pace.Selected != labelOf(paceOptions(), 0) {
		t.Fatalf("a new account keeps the recommended pace, shows %q", s.pace.Selected)
	}
	choose(s, s.pace, labelOf(paceOptions(), 2))
	wait("two a second saved", func() bool { return a.Account().RequestsPerSecond == 2 })
	start := time.Now()
	for i := 0; i < 7; i++ {
		if _, err := a.Client().ListFiles(context.Background(), client.ListFilesParams{}); err != nil {
			t.Fatal(err)
		}
	}
	// a burst of five, then two a second
	if took := time.Since(start); took < 900*time.Millisecond {
		t.Fatalf("seven requests took %v; at two a second after a burst of five they take at least a second", took)
	}
}

// restartNav records Agent Desk asked to start again.
type restartNav struct {
	screen.NoNav
	restarts int
}

func (n *restartNav) Restart() { n.restarts++ }

// Choosing a language keeps it for the next start and offers to start
// again in it; choosing the one already spoken asks nothing.
func TestChoosingALanguageOffersToStartAgainInIt(t *testing.T) {
	s, a, wait := newScreen(t, apptest.NewKeyring())
	nav := &restartNav{}
	s.env.Nav = nav
	if s.language.Selected != labelOf(themeOptions(), app.ThemeSystem) {
		t.Fatalf("a first start follows the computer's language, got %q", s.language.Selected)
	}
	choose(s, s.language, "Español")
	wait("the language saved and the question asked", func() bool {
		return a.Settings().Language == "es" && kittest.FindButton(s.env.Window.Canvas().Overlays().Top(), "Start again now") != nil
	})
	test.Tap(kittest.FindButton(s.env.Window.Canvas().Overlays().Top(), "Start again now"))
	if nav.restarts != 1 {
		t.Fatalf("Start again now asked for %d starts, want 1", nav.restarts)
	}
	choose(s, s.language, "English")
	wait("English saved", func() bool { return a.Settings().Language == "en" })
	wait("what follows drawn", func() bool { return true })
	if top := s.env.Window.Canvas().Overlays().Top(); top != nil {
		t.Fatalf("choosing the language already spoken asks something: %s", kittest.Labels(top))
	}
}

// TestTheSettingsScreenLaysOutAfterEachAction: the screen, the account form
// opened, a wrong key answered, at each size: nothing drawn over anything,
// nothing cut.
func TestTheSettingsScreenLaysOutAfterEachAction(t *testing.T) {
	kittest.EachLanguage(t, apptest.Speak, func(t *testing.T, size fyne.Size) {
		srv, _ := demoservice.NewTestService(t, demoservice.Options{APIKey: "right-key"})
		test.NewTempApp(t)
		q := kit.UseQueue(t)
		a := openApp(t, apptest.NewKeyring())
		s := New(screen.Env{App: a}).(*Screen)
		w := test.NewTempWindow(t, widget.NewLabel(""))
		s.env.Window = w
		w.SetContent(container.NewStack(s.Content(), kit.NewLayer(w.Canvas())))
		w.Resize(size)
		frames := kittest.NewFrames(w.Canvas())
		kittest.Look(t, frames, q, w, "the settings")
		test.Tap(s.add)
		kittest.Look(t, frames, q, w, "the account form open")
		answered := 0
		s.form.OnBusy(func(busy bool) {
			if !busy {
				answered++
			}
		})
		test.Type(s.form.Name, "Office")
		test.Type(s.form.BaseURL, srv.URL)
		test.Type(s.form.Key, "wrong-key")
		test.Tap(s.save)
		q.WaitUntil(t, func() bool { return answered > 0 }, func() string { return s.form.Result.Text })
		kittest.Look(t, frames, q, w, "a wrong key answered")
	})
}

// A service that needs the workspace number (the real one refuses a request
// without it) is answered by the workspace field: the number is needed and
// where to find it; a number typed and refused is said there too.
func TestWorkspaceNeededIsSaidByTheWorkspaceField(t *testing.T) {
	srv, _ := demoservice.NewTestService(t, demoservice.Options{API: demoservice.APIReal, APIKey: "k", RequireWorkspace: true})
	s, a, wait := newScreen(t, apptest.NewKeyring())
	test.Tap(s.add)
	answered := formDone(s.form, wait)
	test.Type(s.form.BaseURL, srv.URL)
	test.Type(s.form.Key, "k")
	test.Tap(s.form.Test)
	answered(t)
	note := s.form.WorkspaceNote
	if !note.Visible() || !strings.Contains(note.Text, "needs the number of your workspace") || !strings.Contains(note.Text, "Settings → Workspace") || s.form.Result.Visible() {
		t.Fatalf("no workspace typed: the note says %q (shown %v), the result %q (shown %v)", note.Text, note.Visible(), s.form.Result.Text, s.form.Result.Visible())
	}
	kittest.NewFrames(s.env.Window.Canvas()).Draw()
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject
	if y := at(note).Y; y <= at(s.form.Workspace).Y || y >= at(s.form.Test).Y {
		t.Fatalf("the note should be under the workspace field, above Test connection: %v, %v, %v", at(s.form.Workspace), at(note), at(s.form.Test))
	}

	test.Type(s.form.Workspace, "77")
	test.Tap(s.save)
	answered(t)
	if !note.Visible() || !strings.Contains(note.Text, "refused workspace 77") || len(a.Settings().Accounts) != 1 {
		t.Fatalf("a workspace refused: the note says %q (shown %v); %d accounts", note.Text, note.Visible(), len(a.Settings().Accounts))
	}

	s.form.Workspace.SetText("1")
	test.Tap(s.form.Test)
	answered(t)
	if note.Visible() || !strings.Contains(s.form.Result.Text, "Connected") {
		t.Fatalf("the right workspace: the note says %q (shown %v), the result %q", note.Text, note.Visible(), s.form.Result.Text)
	}
}
