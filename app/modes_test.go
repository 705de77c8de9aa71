package app_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
)

// wantMode fails the test unless path has the permissions want.
func wantMode(t *testing.T, path string, want fs.FileMode) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Mode().Perm(); got != want {
		t.Errorf("%s is %o, want %o", filepath.Base(path), got, want)
	}
}

// A batch's results, the folder its pictures go in and the pictures are
// the user's only, as the history is.
func TestABatchsFilesAreTheUsersOnly(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows keeps no such modes")
	}
	ctx := context.Background()
	a, _ := apptest.OnService(t, demoservice.Options{APIKey: "k"})
	pictures := agentOfType(t, a, client.AgentImage)
	dir := t.TempDir()
	results := filepath.Join(dir, "pictures.csv")
	b, err := a.Batches().NewFromLines(ctx, pictures, []string{"A red bicycle"}, "prompt", results, app.BatchPlan{Fixed: firstChoices(pictures)})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Batches().Run(ctx, b.ID, pictures); err != nil {
		t.Fatal(err)
	}
	rows, err := a.DB().BatchRows(ctx, b.ID, 0, 5)
	if err != nil || len(rows) != 1 || len(rows[0].Files) != 1 {
		t.Fatalf("rows %+v, %v", rows, err)
	}
	wantMode(t, results, 0o600)
	wantMode(t, filepath.Dir(rows[0].Files[0]), 0o700)
	wantMode(t, rows[0].Files[0], 0o600)
}

// Save as… writes an output in a file the user's only, also when the Save
// dialog made it readable by everyone.
func TestASavedOutputIsTheUsersOnly(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows keeps no such modes")
	}
	a := apptest.Open(t)
	ar, err := a.Runs().Runner().Start(getAgent(t, a, "131"), map[string]string{"prompt": "A coffee cup", "style": "photo", "aspect_ratio": "16:9"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	run, err := finished(t, ar)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "cup.png")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644) // as Fyne's Save dialog makes it
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Chmod(0o644); err != nil {
		t.Fatal(err)
	}
	saved := a.Runs().SaveOutputTo(run.Output, f)
	deadline := time.Now().Add(10 * time.Second)
	for {
		v, _ := saved.Snapshot()
		if !v.Loading && (v.Loaded || v.Err != nil) {
			if v.Err != nil || !v.Value {
				t.Fatalf("saved %v, %v", v.Value, v.Err)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the output was not saved")
		}
		time.Sleep(10 * time.Millisecond)
	}
	wantMode(t, path, 0o600)
}
