package storage

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestDefaultPathsFollowXDG(t *testing.T) {
	p := testPaths(t)
	want := Paths{
		Config: filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "agentdesk"),
		Data:   filepath.Join(os.Getenv("XDG_DATA_HOME"), "agentdesk"),
		Cache:  filepath.Join(os.Getenv("XDG_CACHE_HOME"), "agentdesk"),
		State:  filepath.Join(os.Getenv("XDG_STATE_HOME"), "agentdesk"),
	}
	if p != want {
		t.Fatalf("DefaultPaths = %+v, want %+v", p, want)
	}
	if err := p.Ensure(); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{p.Config, p.Data, p.Cache, p.State} {
		info, err := os.Stat(d)
		if err != nil || !info.IsDir() || info.Mode().Perm() != 0o700 {
			t.Errorf("%s: %v %v", d, info, err)
		}
	}
}

func TestSettingsRoundTrip(t *testing.T) {
	ctx := context.Background()
	p := testPaths(t)
	s := NewSettingsStore(p)
	got, notice, err := s.Load(ctx)
	if err != nil || !notice.IsZero() {
		t.Fatalf("first Load: %v %+v", err, notice)
	}
	if !reflect.DeepEqual(got, DefaultSettings()) {
		t.Fatalf("first Load = %+v, want defaults", got)
	}

	st := DefaultSettings()
	st.Theme = ThemeDark
	st.WindowWidth, st.WindowHeight = 1300, 800
	st.LastScreen = "chat"
	st.LastAnswers["7"] = map[string]string{"temperature": "0.5", "model": "m1"}
	st.PutAccount(Account{ID: "work", Name: "Work", BaseURL: "https://api.example.com", WorkspaceID: "12",
		MemoryVariant: "B", MemoryVariantOverride: "A", KeyStore: KeyInKeyring})
	st.ActiveAccount = "work"
	st.Onboarded = true
	if err := s.Save(ctx, st); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(p.SettingsFile())
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("settings file mode: %v %v", info.Mode(), err)
	}
	raw, _ := os.ReadFile(p.SettingsFile())
	if strings.Contains(string(raw), `"demo"`+",") || strings.Count(string(raw), `"id"`) != 1 {
		t.Errorf("the demo account must not be written:\n%s", raw)
	}

	back, notice, err := NewSettingsStore(p).Load(ctx)
	if err != nil || !notice.IsZero() {
		t.Fatalf("Load: %v %+v", err, notice)
	}
	if !reflect.DeepEqual(back, st) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", back, st)
	}
	if back.Accounts[0].ID != DemoAccountID {
		t.Errorf("the demo must come first: %+v", back.Accounts)
	}
	if a := back.Active(); a.ID != "work" || a.EffectiveMemoryVariant() != "A" {
		t.Errorf("Active = %+v", a)
	}
	back.RemoveAccount("work")
	back.RemoveAccount(DemoAccountID)
	if back.ActiveAccount != DemoAccountID || len(back.Accounts) != 1 {
		t.Errorf("after removing: %+v", back)
	}
}

func TestCorruptSettingsMovedAsideOnce(t *testing.T) {
	ctx := context.Background()
	p := testPaths(t)
	p.Ensure()
	garbage := []byte("{\"theme\": \"dark\", \x00 oops")
	os.WriteFile(p.SettingsFile(), garbage, 0o600)
	s := NewSettingsStore(p)
	s.now = func() time.Time { return time.Date(2026, 3, 4, 5, 6, 7, 0, time.Local) }

	got, notice, err := s.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, DefaultSettings()) {
		t.Errorf("got %+v, want defaults", got)
	}
	broken := p.SettingsFile() + ".broken-20260304-050607.000"
	if notice.Path != broken || notice.Kind != SettingsMovedAside {
		t.Errorf("notice %+v does not name %s", notice, broken)
	}
	if kept, _ := os.ReadFile(broken); string(kept) != string(garbage) {
		t.Errorf("broken file not kept as it was: %q", kept)
	}
	if _, err := os.Stat(p.SettingsFile()); !os.IsNotExist(err) {
		t.Errorf("settings.json should be gone: %v", err)
	}
	// Said once: the next start is quiet.
	if _, notice, err := s.Load(ctx); !notice.IsZero() || err != nil {
		t.Errorf("second Load: %+v %v", notice, err)
	}
}

func TestUnreadableSettingsMovedAside(t *testing.T) {
	ctx := context.Background()
	p := testPaths(t)
	// A folder where the file should be cannot be read as settings (this
	// stops root too, unlike a chmod).
	os.MkdirAll(p.SettingsFile(), 0o700)
	got, notice, err := NewSettingsStore(p).Load(ctx)
	if err != nil || notice.IsZero() || got.Theme != ThemeSystem {
		t.Fatalf("Load: %+v %+v %v", got, notice, err)
	}
	matches, _ := filepath.Glob(p.SettingsFile() + ".broken-*")
	if len(matches) != 1 {
		t.Errorf("moved aside: %v", matches)
	}
}

func TestSettingsReadOnlyConfigDir(t *testing.T) {
	ctx := context.Background()
	dir := makeReadOnly(t, func(string) {})
	p := PathsIn(t.TempDir())
	p.Config = filepath.Join(dir, "agentdesk")
	err := NewSettingsStore(p).Save(ctx, DefaultSettings())
	if err == nil {
		t.Fatal("Save into a read-only folder succeeded")
	}
	msg := err.Error()
	if !strings.Contains(msg, p.SettingsFile()) || !(strings.Contains(msg, "read-only") || strings.Contains(msg, "permission")) {
		t.Errorf("error not plain or does not name the file: %q", msg)
	}
	// Loading still gives working defaults.
	if st, _, err := NewSettingsStore(p).Load(ctx); err != nil || st.ActiveAccount != DemoAccountID {
		t.Errorf("Load: %+v %v", st, err)
	}
}

func TestSettingsNormalisesHandEdits(t *testing.T) {
	ctx := context.Background()
	p := testPaths(t)
	p.Ensure()
	os.WriteFile(p.SettingsFile(), []byte(`{"theme":"purple","window_width":-3,"accounts":[{"id":"demo","name":"x"},{"id":"a","name":"A"}],"active_account":"gone"}`), 0o600)
	st, notice, err := NewSettingsStore(p).Load(ctx)
	if err != nil || !notice.IsZero() {
		t.Fatal(err, notice)
	}
	if st.Theme != ThemeSystem || st.WindowWidth <= 0 || st.ActiveAccount != DemoAccountID ||
		len(st.Accounts) != 2 || !reflect.DeepEqual(st.Accounts[0], DemoAccount()) || st.Accounts[1].ID != "a" {
		t.Errorf("normalised = %+v", st)
	}
}
