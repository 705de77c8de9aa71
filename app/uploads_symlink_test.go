package app_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
)

// symlink makes a link, or skips the test where links cannot be made.
func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
}

// outsideTree is a dropped folder holding links out of it (to a file and to
// a folder, as ~/.ssh or /etc would be) and links that stay inside it.
func outsideTree(t *testing.T) (dropped, outside string) {
	t.Helper()
	root := t.TempDir()
	dropped = filepath.Join(root, "project")
	outside = filepath.Join(root, "private")
	writeFile(t, filepath.Join(dropped, "report.txt"), 10)
	writeFile(t, filepath.Join(dropped, "inner", "notes.txt"), 20)
	writeFile(t, filepath.Join(outside, "id_rsa.txt"), 30)
	writeFile(t, filepath.Join(outside, "passwd.txt"), 40)
	symlink(t, filepath.Join(outside, "id_rsa.txt"), filepath.Join(dropped, "key.txt"))
	symlink(t, outside, filepath.Join(dropped, "etc"))
	symlink(t, "../../private/passwd.txt", filepath.Join(dropped, "inner", "relative"))
	symlink(t, filepath.Join(dropped, "inner", "notes.txt"), filepath.Join(dropped, "notes-link.txt"))
	symlink(t, "inner", filepath.Join(dropped, "inner-link"))
	return dropped, outside
}

// A folder drop sends what is inside the folder only: a link that leads
// out of it is listed with a plain problem and never read, while links
// within it and a link dropped on its own keep working.
func TestFolderDropSkipsLinksOutOfTheFolder(t *testing.T) {
	dropped, outside := outsideTree(t)
	plan := app.PlanUpload([]string{dropped})
	got := planNames(plan)
	for _, name := range []string{"key.txt", "etc", "relative"} {
		if p, ok := got[name]; !strings.Contains(p, "outside the folder you dropped") {
			t.Errorf("%s leads out of the dropped folder and should say so, got %q (present %v)", name, p, ok)
		}
	}
	for _, f := range plan.Files {
		if real, err := filepath.EvalSymlinks(f.Path); err == nil && strings.HasPrefix(real, outside) && f.Problem == "" {
			t.Errorf("%s (%s) is outside the dropped folder and must not be sent", f.Path, real)
		}
		if f.Name == "id_rsa.txt" || f.Name == "passwd.txt" {
			t.Errorf("a file of the outside folder was planned: %+v", f)
		}
	}
	if p, ok := got["report.txt"]; !ok || p != "" {
		t.Errorf("report.txt should be planned, got %q (present %v)", p, ok)
	}
	// notes.txt is reached three ways (itself, a link to it, a link to its
	// folder): taken once, without a problem.
	n := 0
	for _, f := range plan.Files {
		if filepath.Base(f.Path) == "notes.txt" || f.Name == "notes-link.txt" {
			n++
			if f.Problem != "" {
				t.Errorf("a link within the folder works: %+v", f)
			}
		}
	}
	if n != 1 {
		t.Errorf("notes.txt should be planned once, got %d times", n)
	}
	if plan.TotalBytes != 30 {
		t.Errorf("only report.txt and notes.txt count: %d bytes", plan.TotalBytes)
	}

	// A link dropped on its own is followed: the user chose it (id_rsa,
	// the file key leads to, is taken once, as key).
	direct := app.PlanUpload([]string{filepath.Join(dropped, "key.txt"), filepath.Join(dropped, "etc")})
	names := planNames(direct)
	for _, want := range []string{"key.txt", "passwd.txt"} {
		if p, ok := names[want]; !ok || p != "" {
			t.Errorf("%s dropped directly (or inside a folder dropped directly) should be planned, got %q (present %v)", want, p, ok)
		}
	}
}

// Retrying the refused link does not send it either.
func TestRetryOfALinkOutOfTheFolderStillRefuses(t *testing.T) {
	a := apptest.Open(t)
	dropped, _ := outsideTree(t)
	q := a.Files().NewUploads()
	if _, err := q.Start(context.Background(), app.PlanUpload([]string{dropped})); err != nil {
		t.Fatal(err)
	}
	waitUploads(t, q)
	var key app.Upload
	for _, u := range now(q.State()).Items {
		if u.Name == "key.txt" {
			key = *u
		}
	}
	if key.State != app.UploadFailed || !strings.Contains(key.Message, "outside the folder") {
		t.Fatalf("the link out of the folder should be listed as not sent: %+v", key)
	}
	q.Retry(key.ID)
	waitUploads(t, q)
	if u, _ := q.Item(key.ID); u.State != app.UploadFailed || !strings.Contains(u.Message, "outside the folder") {
		t.Fatalf("trying again must not send it: %+v", u)
	}
	for _, f := range apptest.Demo(a).Service.Files() {
		if f.Filename == "key.txt" || f.Filename == "id_rsa.txt" || f.Filename == "passwd.txt" || f.Filename == "relative" {
			t.Errorf("%s reached the service", f.Filename)
		}
	}
}
