package app_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
)

func writeFile(t testing.TB, path string, size int) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, bytes.Repeat([]byte("a"), size), 0o644); err != nil {
		t.Fatal(err)
	}
}

func planNames(p app.UploadPlan) map[string]string {
	out := map[string]string{}
	for _, f := range p.Files {
		out[f.Name] = f.Problem
	}
	return out
}

func waitUploads(t *testing.T, q *app.Uploads) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := q.Wait(ctx); err != nil {
		t.Fatalf("uploads did not settle: %+v", now(q.State()).Items)
	}
}

func TestPlanUploadWalksFoldersSkipsHiddenAndLoops(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "report.pdf"), 10)
	writeFile(t, filepath.Join(dir, "folder", "notes.txt"), 20)
	writeFile(t, filepath.Join(dir, "folder", ".secret"), 5)
	writeFile(t, filepath.Join(dir, "folder", ".git", "config"), 5)
	writeFile(t, filepath.Join(dir, "folder", "deeper", "plan.txt"), 30)
	writeFile(t, filepath.Join(dir, "empty.txt"), 0)
	// A link back to its own parent folder would walk forever.
	if err := os.Symlink(filepath.Join(dir, "folder"), filepath.Join(dir, "folder", "deeper", "back")); err != nil {
		t.Fatal(err)
	}
	// A link to itself cannot be read at all.
	if err := os.Symlink(filepath.Join(dir, "self"), filepath.Join(dir, "self")); err != nil {
		t.Fatal(err)
	}

	plan := app.PlanUpload([]string{filepath.Join(dir, "report.pdf"), filepath.Join(dir, "folder"), filepath.Join(dir, "empty.txt"), filepath.Join(dir, "self"), filepath.Join(dir, "missing.doc")})
	got := planNames(plan)
	for _, want := range []string{"report.pdf", "notes.txt", "plan.txt"} {
		if p, ok := got[want]; !ok || p != "" {
			t.Errorf("%s should be planned without a problem, got %q (present %v)", want, p, ok)
		}
	}
	for _, hidden := range []string{".secret", "config"} {
		if _, ok := got[hidden]; ok {
			t.Errorf("hidden %s must be skipped", hidden)
		}
	}
	if !strings.Contains(got["empty.txt"], "empty") {
		t.Errorf("an empty file should say so, got %q", got["empty.txt"])
	}
	if !strings.Contains(got["self"], "itself") {
		t.Errorf("a link to itself should say so, got %q", got["self"])
	}
	if !strings.Contains(got["missing.doc"], "no longer there") {
		t.Errorf("a missing file should say so, got %q", got["missing.doc"])
	}
	if plan.TotalBytes != 60 {
		t.Errorf("total should be 60 bytes, got %d", plan.TotalBytes)
	}
	if plan.Skipped < 3 {
		t.Errorf("two hidden entries and one loop should be skipped, got %d", plan.Skipped)
	}
	if plan.NeedsConfirm() {
		t.Error("a few files need no confirmation")
	}
}

func TestPlanUploadUnreadableFile(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("the administrator can read every file")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "locked.txt")
	writeFile(t, p, 10)
	if err := os.Chmod(p, 0); err != nil {
		t.Fatal(err)
	}
	got := planNames(app.PlanUpload([]string{p}))
	if !strings.Contains(got["locked.txt"], "not allowed") {
		t.Fatalf("an unreadable file should say so, got %q", got["locked.txt"])
	}
}

func TestPlanUploadAsksAboveFiftyFiles(t *testing.T) {
	dir := t.TempDir()
	for i := range 51 {
		writeFile(t, filepath.Join(dir, "many", strings.Repeat("x", i+1)+".txt"), 100)
	}
	plan := app.PlanUpload([]string{filepath.Join(dir, "many")})
	if len(plan.Files) != 51 || !plan.NeedsConfirm() || plan.TotalBytes != 5100 {
		t.Fatalf("51 files of 100 bytes should need confirmation, got %d files, %d bytes, confirm %v", len(plan.Files), plan.TotalBytes, plan.NeedsConfirm())
	}
}

func TestUploadsSendFilesAndRecordCredits(t *testing.T) {
	a := apptest.Open(t)
	dir := t.TempDir()
	for _, n := range []string{"a.txt", "b.txt", "c.txt", "d.txt", "e.txt"} {
		writeFile(t, filepath.Join(dir, n), 200_000)
	}
	writeFile(t, filepath.Join(dir, "empty.txt"), 0)
	q := a.Files().NewUploads()
	var mu sync.Mutex
	sending := map[int64]bool{}
	onUploads(q, func(u app.Upload) {
		if u.State == app.UploadSending {
			mu.Lock()
			sending[u.ID] = true
			mu.Unlock()
		}
	})
	ids, err := q.Start(context.Background(), app.PlanUpload([]string{dir}))
	if err != nil || len(ids) != 6 {
		t.Fatalf("six files should be queued, got %v %v", ids, err)
	}
	waitUploads(t, q)
	var names []string
	for _, f := range apptest.Demo(a).Service.Files() {
		names = append(names, f.Filename)
	}
	for _, want := range []string{"a.txt", "e.txt"} {
		if !strings.Contains(strings.Join(names, ","), want) {
			t.Errorf("%s should be on the service, got %v", want, names)
		}
	}
	if strings.Contains(strings.Join(names, ","), "empty.txt") {
		t.Error("the empty file must not be sent")
	}
	if got := len(now(q.State()).FileIDs()); got != 5 {
		t.Fatalf("five files should be attached, got %d", got)
	}
	for _, u := range now(q.State()).Items {
		if u.Name == "empty.txt" && (u.State != app.UploadFailed || !strings.Contains(u.Message, "empty")) {
			t.Errorf("the empty file should fail saying why, got %+v", u)
		}
	}
	mu.Lock()
	if len(sending) < 5 {
		t.Errorf("each upload should report that it is sending, got %d", len(sending))
	}
	mu.Unlock()
	if spent, _ := a.Ledger().Today(context.Background()); spent <= 0 {
		t.Log("the built-in service charged nothing for these files")
	}
}

func TestUploadOfflineQueuesNothing(t *testing.T) {
	a := apptest.Open(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.txt"), 10)
	_ = a.Demo().Close()
	q := a.Files().NewUploads()
	ids, err := q.Start(context.Background(), app.PlanUpload([]string{dir}))
	if !errors.Is(err, app.ErrOffline) || len(ids) != 0 || len(now(q.State()).Items) != 0 {
		t.Fatalf("offline, nothing should be queued and the user told, got %v %v %v", ids, err, now(q.State()).Items)
	}
}

func TestUploadServerErrorSaysSoAndRetrySends(t *testing.T) {
	a := apptest.Open(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.txt"), 1000)
	svc := apptest.Demo(a).Service
	svc.SetFaults(demoservice.Faults{Fail500: 2}) // the connection check, then the upload
	q := a.Files().NewUploads()
	ids, err := q.Start(context.Background(), app.PlanUpload([]string{dir}))
	if err != nil {
		t.Fatal(err)
	}
	waitUploads(t, q)
	u, _ := q.Item(ids[0])
	if u.State != app.UploadFailed || !strings.Contains(u.Message, "had a problem") {
		t.Fatalf("a 500 should fail in plain words, got %+v", u)
	}
	if len(now(q.State()).FileIDs()) != 0 || svc.Files()[0].Filename == "a.txt" {
		t.Fatal("a failed upload must not be attached")
	}
	q.Retry(ids[0])
	waitUploads(t, q)
	if u, _ := q.Item(ids[0]); u.State != app.UploadDone || len(now(q.State()).FileIDs()) != 1 {
		t.Fatalf("retry should send it, got %+v", u)
	}
}

func TestUploadTooLargeForServer(t *testing.T) {
	// The service refuses anything above its limit with 413.
	ts, _ := demoservice.NewTestService(t, demoservice.Options{APIKey: "k", MaxUploadBytes: 1000})
	a := apptest.Open(t, func(c *app.Config) {
		c.ClientOptions = append(c.ClientOptions, client.WithBaseURL(ts.URL), client.WithAPIKey("k"))
	})
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "big.pdf"), 2000)
	q := a.Files().NewUploads()
	ids, err := q.Start(context.Background(), app.PlanUpload([]string{dir}))
	if err != nil {
		t.Fatal(err)
	}
	waitUploads(t, q)
	if u, _ := q.Item(ids[0]); u.State != app.UploadFailed || !strings.Contains(u.Message, "too large") {
		t.Fatalf("a 413 should say the file is too large, got %+v", u)
	}
}

func TestUploadCutConnectionSaysSoAndKeepsNothing(t *testing.T) {
	a := apptest.Open(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "big.pdf"), 30<<20) // under the large-file flow
	demo := apptest.Demo(a)
	before := len(demo.Service.Files())
	q := a.Files().NewUploads()
	var once, closeOnce sync.Once
	onUploads(q, func(u app.Upload) {
		switch {
		case u.State == app.UploadSending && u.Sent == 0:
			// The service stops reading, so the sending side fills up.
			once.Do(func() { demo.Service.SetFaults(demoservice.Faults{Latency: 20 * time.Second}) })
		case u.State == app.UploadSending && u.Sent > 0:
			closeOnce.Do(func() { go demo.Close() })
		}
	})
	ids, err := q.Start(context.Background(), app.PlanUpload([]string{dir}))
	if err != nil {
		t.Fatal(err)
	}
	waitUploads(t, q)
	u, _ := q.Item(ids[0])
	if u.State != app.UploadFailed || !strings.Contains(u.Message, "connection") {
		t.Fatalf("a cut connection should fail saying so, got %+v", u)
	}
	if n := len(demo.Service.Files()); n != before {
		t.Fatalf("nothing half-sent may be kept, the service has %d files, had %d", n, before)
	}
}

func TestUploadCancelStopsIt(t *testing.T) {
	a := apptest.Open(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.txt"), 1000)
	demo := apptest.Demo(a)
	before := len(demo.Service.Files())
	q := a.Files().NewUploads()
	var once sync.Once
	onUploads(q, func(u app.Upload) {
		if u.State == app.UploadSending {
			once.Do(func() {
				demo.Service.SetFaults(demoservice.Faults{Latency: 20 * time.Second})
				go func() { time.Sleep(20 * time.Millisecond); q.Cancel(u.ID) }()
			})
		}
	})
	ids, err := q.Start(context.Background(), app.PlanUpload([]string{dir}))
	if err != nil {
		t.Fatal(err)
	}
	waitUploads(t, q)
	if u, _ := q.Item(ids[0]); u.State != app.UploadCancelled || len(now(q.State()).FileIDs()) != 0 {
		t.Fatalf("a cancelled upload should say so and attach nothing, got %+v", u)
	}
	demo.Service.SetFaults(demoservice.Faults{})
	if n := len(demo.Service.Files()); n != before {
		t.Fatalf("a cancelled upload must leave nothing on the service, got %d files, had %d", n, before)
	}
	q.Remove(ids[0])
	if len(now(q.State()).Items) != 0 {
		t.Fatal("remove should take it off the list")
	}
}

func TestUploadsLinkedToAgent(t *testing.T) {
	a := apptest.Open(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "brief.txt"), 500)
	q := a.Files().NewLinked(client.Agent{ID: "119", Title: "Writer"}).NewUploads()
	if _, err := q.Start(context.Background(), app.PlanUpload([]string{dir})); err != nil {
		t.Fatal(err)
	}
	waitUploads(t, q)
	res, err := a.Files().OfAgent(context.Background(), "119")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range res.Files {
		found = found || f.Filename == "brief.txt"
	}
	st, _ := q.State().Snapshot()
	if !found || st.Linked == nil || st.Done != 1 {
		t.Fatalf("the upload should be linked to the agent, got %+v (answer %v, done %d)", res.Files, st.Linked != nil, st.Done)
	}
}

// onUploads calls fn, on the goroutine that made the change, with each
// upload of the queue's newest snapshot that changed since the last one.
func onUploads(q *app.Uploads, fn func(app.Upload)) {
	var mu sync.Mutex
	seen := map[*app.Upload]bool{}
	q.State().Subscribe(func() {
		mu.Lock()
		var changed []app.Upload
		st, _ := q.State().Snapshot()
		for _, u := range st.Items {
			if !seen[u] {
				seen[u] = true
				changed = append(changed, *u)
			}
		}
		mu.Unlock()
		for _, u := range changed {
			fn(u)
		}
	})
}
