package storage

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// A keyring that hangs sends the key to the keys file; where it went must be
// said plainly (a file on this computer only the user can read), never left
// as a silent fallback, and the file must really be the user's only.
func TestKeyInFileAfterKeyringTimeoutIsSaidPlainly(t *testing.T) {
	ctx := context.Background()
	p := testPaths(t)
	hang := make(chan struct{})
	defer close(hang)
	s := withKeyringTimeout(NewSecrets(p, &fakeKeyring{hang: hang}), 20*time.Millisecond)
	loc, err := s.Set(ctx, "work", secretKey)
	if err != nil || loc.Kind != KeyInFile {
		t.Fatalf("Set: %+v %v", loc, err)
	}
	got := loc.Describe()
	for _, want := range []string{"a file on this computer", "only you can read", "keyring did not answer", p.KeysFile()} {
		if !strings.Contains(got, want) {
			t.Errorf("Describe = %q, should say %q", got, want)
		}
	}
	if strings.Contains(got, secretKey) {
		t.Fatalf("Describe shows the key: %q", got)
	}
	info, err := os.Stat(p.KeysFile())
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the keys file must be readable by its owner only: %v %v", info, err)
	}
	// Reading it back says the same, for the settings screen.
	if _, loc, err := s.Get(ctx, "work"); err != nil || loc.Describe() != got {
		t.Fatalf("Get: %+v %v", loc, err)
	}
}
