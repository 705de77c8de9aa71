package storage

import (
	"os"
	"testing"
	"time"
)

func TestSnapshotKeepsAListForLater(t *testing.T) {
	p := PathsIn(t.TempDir())
	type item struct{ ID, Title string }
	saved := time.Date(2026, 11, 26, 9, 30, 0, 0, time.UTC)
	want := []item{{"101", "Meeting Minutes Writer"}, {"102", "Résumé ✓"}}
	if err := p.SaveSnapshot("agents\nacct", want, saved); err != nil {
		t.Fatal(err)
	}
	var got []item
	at, ok := p.LoadSnapshot("agents\nacct", &got)
	if !ok || !at.Equal(saved) || len(got) != 2 || got[1] != want[1] {
		t.Fatalf("read back %v saved %v (ok %v), want %v saved %v", got, at, ok, want, saved)
	}
	if _, ok := p.LoadSnapshot("agents\nother", &got); ok {
		t.Fatal("another key has nothing kept")
	}
	path := p.snapshotFile("agents\nacct")
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the file should be the user's only: %v %v", info.Mode(), err)
	}

	// a damaged or oversized file is as if nothing was kept
	for _, body := range [][]byte{[]byte(`{"saved":"2026-11-26T09:30:00Z","data":[{"ID":`), make([]byte, maxSnapshotBytes+1)} {
		if err := os.WriteFile(path, body, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, ok := p.LoadSnapshot("agents\nacct", &got); ok {
			t.Fatalf("a file of %d damaged bytes should not be read", len(body))
		}
	}
}
