package storage

import (
	"context"
	"os"
	"testing"
)

// The history and the files SQLite keeps beside it are readable by the
// user only, also when an earlier version left them readable by everyone.
func TestHistoryFilesAreTheUsersOnly(t *testing.T) {
	p := testPaths(t)
	if err := os.MkdirAll(p.Data, 0o700); err != nil {
		t.Fatal(err)
	}
	// As an earlier version left it.
	if err := os.WriteFile(p.HistoryFile(), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	db := openTestDB(t, p)
	c := newConversation(t, db, "a", "Budget")
	if err := db.SaveDraft(context.Background(), c.ID, "so the WAL is written"); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{p.HistoryFile(), p.HistoryFile() + "-wal", p.HistoryFile() + "-shm"} {
		st, err := os.Stat(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if mode := st.Mode().Perm(); mode != 0o600 {
			t.Errorf("%s is %o, want 600", f, mode)
		}
	}
}
