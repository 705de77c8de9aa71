package storage

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zalando/go-keyring"
)

// fakeKeyring stands in for the system keyring; it can fail or hang.
type fakeKeyring struct {
	mu    sync.Mutex
	items map[string]string
	err   error
	hang  chan struct{} // when set, every call waits for it to close
}

func (k *fakeKeyring) wait() error {
	if k.hang != nil {
		<-k.hang
	}
	return k.err
}

func (k *fakeKeyring) Set(s, u, p string) error {
	if err := k.wait(); err != nil {
		return err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.items == nil {
		k.items = map[string]string{}
	}
	k.items[s+"/"+u] = p
	return nil
}

func (k *fakeKeyring) Get(s, u string) (string, error) {
	if err := k.wait(); err != nil {
		return "", err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if v, ok := k.items[s+"/"+u]; ok {
		return v, nil
	}
	return "", keyring.ErrNotFound
}

func (k *fakeKeyring) Delete(s, u string) error {
	if err := k.wait(); err != nil {
		return err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.items, s+"/"+u)
	return nil
}

const secretKey = "sk-live-0123456789abcdef"

func TestKeyInSystemKeyring(t *testing.T) {
	keyring.MockInit() // go-keyring's in-memory provider: never the real keyring
	ctx := context.Background()
	p := testPaths(t)
	s := NewSecrets(p, SystemKeyring{})
	loc, err := s.Set(ctx, "work", secretKey)
	if err != nil || loc.Kind != KeyInKeyring || loc.Describe() != "stored in the system keyring" {
		t.Fatalf("Set: %+v %v", loc, err)
	}
	key, loc, err := s.Get(ctx, "work")
	if err != nil || key != secretKey || loc.Kind != KeyInKeyring {
		t.Fatalf("Get: %q %+v %v", key, loc, err)
	}
	if _, err := os.Stat(p.KeysFile()); !os.IsNotExist(err) {
		t.Errorf("no keys file expected when the keyring works: %v", err)
	}
	if err := s.Delete(ctx, "work"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Get(ctx, "work"); !errors.Is(err, ErrNoKey) {
		t.Errorf("after Delete: %v", err)
	}
}

func TestKeyFallsBackToPrivateFile(t *testing.T) {
	ctx := context.Background()
	p := testPaths(t)
	s := NewSecrets(p, &fakeKeyring{err: errors.New("org.freedesktop.DBus.Error.ServiceUnknown")})
	loc, err := s.Set(ctx, "work", secretKey)
	if err != nil || loc.Kind != KeyInFile || loc.File != p.KeysFile() {
		t.Fatalf("Set: %+v %v", loc, err)
	}
	if want := "kept in a file on this computer that only you can read, because the system keyring did not answer: " + p.KeysFile(); loc.Describe() != want {
		t.Errorf("Describe = %q, want %q", loc.Describe(), want)
	}
	info, err := os.Stat(p.KeysFile())
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("keys file mode: %v %v", info, err)
	}
	s.Set(ctx, "other", "sk-other")
	key, loc, err := s.Get(ctx, "work")
	if err != nil || key != secretKey || loc.Kind != KeyInFile {
		t.Fatalf("Get: %q %+v %v", key, loc, err)
	}
	s.Delete(ctx, "work")
	if _, _, err := s.Get(ctx, "work"); !errors.Is(err, ErrNoKey) {
		t.Errorf("after Delete: %v", err)
	}
	s.Delete(ctx, "other")
	if _, err := os.Stat(p.KeysFile()); !os.IsNotExist(err) {
		t.Errorf("an empty keys file should be removed: %v", err)
	}
}

func TestKeyringThatHangsTimesOut(t *testing.T) {
	ctx := context.Background()
	p := testPaths(t)
	hang := make(chan struct{})
	defer close(hang)
	s := withKeyringTimeout(NewSecrets(p, &fakeKeyring{hang: hang}), 50*time.Millisecond)
	start := time.Now()
	loc, err := s.Set(ctx, "work", secretKey)
	if err != nil || loc.Kind != KeyInFile {
		t.Fatalf("Set: %+v %v", loc, err)
	}
	if _, _, err := s.Get(ctx, "work"); err != nil {
		t.Fatal(err)
	}
	// The second call does not wait again for a keyring that already hung.
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
	// A cancelled context ends the wait at once.
	s2 := withKeyringTimeout(NewSecrets(p, &fakeKeyring{hang: hang}), time.Hour)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := s2.Get(cctx, "work"); !errors.Is(err, context.Canceled) {
		t.Errorf("Get with cancelled context: %v", err)
	}
}

// The key in the environment is the key of the one account that says so:
// it never goes to another account's address, nor to the demo.
func TestKeyFromEnvironmentOnlyForItsAccount(t *testing.T) {
	ctx := context.Background()
	p := testPaths(t)
	ring := &fakeKeyring{}
	s := NewSecrets(p, ring)
	s.Set(ctx, "work", secretKey)
	t.Setenv(EnvAPIKey, "sk-from-env")
	key, loc, err := s.KeyOf(ctx, Account{ID: "ci", BaseURL: "https://ci.example", KeyStore: KeyInEnv})
	if err != nil || key != "sk-from-env" || loc.Kind != KeyInEnv || loc.Describe() != "taken from AGENTDESK_API_KEY" {
		t.Fatalf("KeyOf the account kept in the environment: %q %+v %v", key, loc, err)
	}
	if key, _, err := s.KeyOf(ctx, Account{ID: "work", BaseURL: "https://other.example", KeyStore: KeyInKeyring}); err != nil || key != secretKey {
		t.Errorf("another account gets its own key, not the environment's: %q %v", key, err)
	}
	if _, _, err := s.KeyOf(ctx, Account{ID: DemoAccountID, KeyStore: KeyInEnv}); !errors.Is(err, ErrNoKey) {
		t.Errorf("the demo takes no key from the environment: %v", err)
	}
}

func TestKeyNeverInSettingsOrErrors(t *testing.T) {
	ctx := context.Background()
	p := testPaths(t)
	s := NewSecrets(p, nil)
	loc, err := s.Set(ctx, "work", secretKey)
	if err != nil {
		t.Fatal(err)
	}
	st := DefaultSettings()
	st.PutAccount(Account{ID: "work", Name: "Work", BaseURL: "https://x", KeyStore: loc.Kind})
	if err := NewSettingsStore(p).Save(ctx, st); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(p.SettingsFile())
	if strings.Contains(string(raw), secretKey) {
		t.Fatal("the key was written to settings.json")
	}
	// A damaged keys file gives an error that does not quote it.
	os.WriteFile(p.KeysFile(), []byte(`{"work": "`+secretKey), 0o600)
	_, _, err = s.Get(ctx, "work")
	if err == nil || strings.Contains(err.Error(), secretKey) || !strings.Contains(err.Error(), p.KeysFile()) {
		t.Errorf("error: %v", err)
	}
}
