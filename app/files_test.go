package app_test

import (
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/internal/clock"
	"github.com/agentdesk/agentdesk/storage"
)

func uploadN(t *testing.T, a *app.App, n int) {
	t.Helper()
	for i := range n {
		_, err := a.Client().UploadFile(context.Background(), client.UploadParams{
			Reader: strings.NewReader("content"), Filename: fmt.Sprintf("file-%02d.txt", i), Size: 7,
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestFileListReachesEveryPageInEitherOrder(t *testing.T) {
	a := apptest.Open(t, apptest.WithDemo(demoservice.Options{API: demoservice.APISpec})) // 40 files: over the real service's 30
	uploadN(t, a, 40)
	total := 0
	for range a.Client().Files(context.Background(), client.ListFilesParams{}) {
		total++
	}
	ctx := context.Background()

	l := a.Files().NewList("desc")
	for l.HasMore() {
		if _, err := l.LoadMore(ctx); err != nil {
			t.Fatal(err)
		}
	}
	files := now(l.State()).Files
	if len(files) != total || total <= app.FilesPerPage {
		t.Fatalf("scrolling should reach all %d files over several pages, got %d", total, len(files))
	}
	if files[0].Filename != "file-39.txt" {
		t.Fatalf("newest first should start with the last upload, got %s", files[0].Filename)
	}
	if err := l.Reload(ctx); err != nil || len(now(l.State()).Files) != total {
		t.Fatalf("reload should keep every loaded file, got %d, %v", len(now(l.State()).Files), err)
	}

	asc := a.Files().NewList("asc")
	if _, err := asc.LoadMore(ctx); err != nil {
		t.Fatal(err)
	}
	if got := now(asc.State()).Files; got[0].CreatedAt.After(got[len(got)-1].CreatedAt.Time) {
		t.Fatal("oldest first should start with the oldest file")
	}
}

func TestFileListNoticesProcessingFiles(t *testing.T) {
	// The interface's reading processes every upload at once.
	a := apptest.Open(t, apptest.WithDemo(demoservice.Options{Pace: 20 * time.Millisecond, API: demoservice.APISpec}))
	uploadN(t, a, 1)
	l := a.Files().NewList("desc")
	if _, err := l.LoadMore(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !now(l.State()).Unsettled() || app.FileStatusText(now(l.State()).Files[0].Status) != "Processing…" {
		t.Fatalf("a fresh upload should be processing, got %q", now(l.State()).Files[0].Status)
	}
	deadline := time.Now().Add(10 * time.Second)
	for now(l.State()).Unsettled() && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		if err := l.Reload(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if now(l.State()).Unsettled() || app.FileStatusText(now(l.State()).Files[0].Status) != "Ready" {
		t.Fatalf("the file should settle as ready, got %q", now(l.State()).Files[0].Status)
	}
}

func TestLinkUnlinkAndUndo(t *testing.T) {
	a := apptest.Open(t)
	ctx := context.Background()
	f, err := a.Client().UploadFile(ctx, client.UploadParams{Reader: strings.NewReader("hello"), Filename: "price-list.txt", Size: 5})
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Files().Link(ctx, "119", []client.ID{f.ID})
	if err != nil {
		t.Fatal(err)
	}
	// The counts are the agent's files; only those that are not zero are said.
	c := res.FilesCount
	if got := app.LinkSummary(res); c == nil || !strings.HasPrefix(got, "Linked. The agent's files: ") ||
		strings.Contains(got, " 0 ") || (c.InProgress > 0) != strings.Contains(got, "still being read") || (c.Completed > 0) != strings.Contains(got, "ready") {
		t.Fatalf("a link should report its counts, got %q for %+v", got, c)
	}
	has := func() bool {
		set, err := a.Files().OfAgent(ctx, "119")
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range set.Files {
			if g.ID == f.ID {
				return true
			}
		}
		return false
	}
	if !has() {
		t.Fatal("the file should be linked")
	}
	if err := a.Files().Unlink(ctx, "119", f.ID); err != nil || has() {
		t.Fatalf("unlink should remove it: %v", err)
	}
	if _, err := a.Files().Link(ctx, "119", []client.ID{f.ID}); err != nil || !has() {
		t.Fatalf("undo should link it again: %v", err)
	}
	if err := a.Files().Unlink(ctx, "119", "999999"); err == nil || app.Describe(err) == "" {
		t.Fatal("unlinking an unknown file should fail in words")
	}
}

func TestHumanBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 bytes", 1: "1 byte", 999: "999 bytes", 1500: "1.5 KB", 25_000_000: "25 MB", 200 << 20: "210 MB"} {
		if got := app.HumanBytes(n); got != want {
			t.Errorf("HumanBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// BenchmarkUpload200MB sends a 200 MB file through the app's upload path
// (queue, progress, client) to the built-in service and, in the same run, a
// plain io.Copy of the same file as a multipart POST. It reports both
// throughputs, their ratio (target at least 0.9) and the heap growth during
// the queued upload (target under 20 MB).
func BenchmarkUpload200MB(b *testing.B) {
	const size = 200_000_000 // the largest file the service takes
	// The service under test is the built-in one, listening on loopback,
	// with a key known here so the plain copy can use it too.
	const key = "bench-key"
	ts, _ := demoservice.NewTestService(b, demoservice.Options{APIKey: key})
	a := apptest.Open(b, func(c *app.Config) {
		c.ClientOptions = append(c.ClientOptions, client.WithBaseURL(ts.URL), client.WithAPIKey(key))
	})
	path := filepath.Join(b.TempDir(), "big.pdf")
	writeFile(b, path, size)
	url := ts.URL + "/files"

	plain := func() time.Duration {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		pr, pw := io.Pipe()
		mw := multipart.NewWriter(pw)
		go func() {
			part, _ := mw.CreateFormFile("file", "big.pdf")
			_, err := io.Copy(part, f)
			if err == nil {
				err = mw.Close()
			}
			pw.CloseWithError(err)
		}()
		req, _ := http.NewRequest(http.MethodPost, url, pr)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("Authorization", "Bearer "+key)
		start := time.Now()
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			b.Fatalf("plain upload answered %d", res.StatusCode)
		}
		return time.Since(start)
	}

	var appTime, plainTime time.Duration
	var maxGrowth uint64
	plain() // warm the page cache and the connection, so both sides start even
	b.SetBytes(size)
	b.ResetTimer()
	for range b.N {
		plainTime += plain()

		q := a.Files().NewUploads()
		q.State().Subscribe(func() {})
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		done := make(chan struct{})
		peak := before.HeapAlloc
		go func() {
			var m runtime.MemStats
			for {
				select {
				case <-done:
					return
				case <-time.After(20 * time.Millisecond):
					runtime.ReadMemStats(&m)
					peak = max(peak, m.HeapAlloc)
				}
			}
		}()
		start := time.Now()
		ids, err := q.Start(context.Background(), app.PlanUpload([]string{path}))
		if err != nil {
			b.Fatal(err)
		}
		if err := q.Wait(context.Background()); err != nil {
			b.Fatal(err)
		}
		appTime += time.Since(start)
		close(done)
		if u, _ := q.Item(ids[0]); u.State != app.UploadDone {
			b.Fatalf("upload failed: %s", u.Message)
		}
		if peak > before.HeapAlloc {
			maxGrowth = max(maxGrowth, peak-before.HeapAlloc)
		}
	}
	b.StopTimer()
	mbps := func(d time.Duration) float64 { return float64(size) * float64(b.N) / d.Seconds() / 1e6 }
	b.ReportMetric(mbps(appTime), "app-MB/s")
	b.ReportMetric(mbps(plainTime), "plain-MB/s")
	b.ReportMetric(plainTime.Seconds()/appTime.Seconds(), "ratio")
	b.ReportMetric(float64(maxGrowth)/1e6, "heap-growth-MB")
}

func TestLinkTargetsListsEveryAgent(t *testing.T) {
	a := apptest.Open(t)
	agents, err := a.Files().LinkTargets(context.Background())
	if err != nil || len(agents) < 40 {
		t.Fatalf("every demo agent should be offered, got %d, %v", len(agents), err)
	}
}

// countLists counts the requests listing the workspace's files.
func countLists(n *atomic.Int64) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet && r.URL.Path == "/files" {
				n.Add(1)
			}
			next.ServeHTTP(w, r)
		})
	}
}

// waitFiles waits until the list's state satisfies cond.
func waitFiles(t *testing.T, l *app.FileList, what string, cond func(app.FilesState) bool) {
	t.Helper()
	changed := make(chan struct{}, 1)
	stop := l.State().Subscribe(func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	})
	defer stop()
	timeout := time.After(10 * time.Second)
	for {
		if st, _ := l.State().Snapshot(); cond(st) {
			return
		}
		select {
		case <-changed:
		case <-timeout:
			st, _ := l.State().Snapshot()
			t.Fatalf("gave up waiting until %s: %+v", what, st.Files)
		}
	}
}

func TestWatchedFileListFollowsProcessingThenIdles(t *testing.T) {
	var lists atomic.Int64
	clk := clock.NewFake()
	a, _ := served(t, demoservice.Options{API: demoservice.APIReal, Pace: 5 * time.Millisecond}, countLists(&lists),
		func(c *app.Config) { c.Clock = clk })
	ctx := context.Background()
	upload := func(name string) client.ID {
		f, err := a.Client().UploadFile(ctx, client.UploadParams{Reader: strings.NewReader("content"), Filename: name, Size: 7})
		if err != nil {
			t.Fatal(err)
		}
		return f.ID
	}
	var l *app.FileList
	quietCount := func() int64 { // what the count is once nothing runs
		for deadline := time.Now().Add(10 * time.Second); l.Refreshing(); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the refresh never ended")
			}
		}
		n := lists.Load()
		clk.Advance(30 * app.FilesRefreshEvery)
		if m := lists.Load(); m != n || l.Refreshing() {
			t.Fatalf("nothing processes, yet the files were listed %d more times", m-n)
		}
		return n
	}

	id := upload("hours.txt")
	l = a.Files().NewList("desc")
	stop := l.Watch()
	if err := l.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	if now(l.State()).Unsettled() {
		t.Fatal("a stored file nobody asked to process is not watched")
	}
	quietCount()

	if _, err := l.ProcessFile(ctx, id); err != nil {
		t.Fatal(err)
	}
	// The list refreshes each time the clock passes FilesRefreshEvery.
	for deadline := time.Now().Add(10 * time.Second); now(l.State()).Unsettled(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the file never showed as ready")
		}
		clk.Advance(app.FilesRefreshEvery)
	}
	if got := now(l.State()).StatusText(now(l.State()).Files[0]); got != "Ready" {
		t.Fatalf("the processed file should read Ready, got %q", got)
	}
	quietCount()

	// Once the list is no longer watched, a file that processes is not
	// followed.
	stop()
	other := upload("prices.txt")
	if err := l.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := l.ProcessFile(ctx, other); err != nil {
		t.Fatal(err)
	}
	quietCount()
	if !now(l.State()).Unsettled() {
		t.Fatal("nobody followed the file, so the list should still show it processing")
	}
}

// Snapshots of an upload queue share the uploads that did not change.
func TestUploadSnapshotsShareUnchangedUploads(t *testing.T) {
	a := apptest.Open(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "first.txt"), 10)
	writeFile(t, filepath.Join(dir, "second.txt"), 10)
	q := a.Files().NewUploads()
	if _, err := q.Start(context.Background(), app.PlanUpload([]string{filepath.Join(dir, "first.txt")})); err != nil {
		t.Fatal(err)
	}
	waitUploads(t, q)
	done, _ := q.State().Snapshot()
	if _, err := q.Start(context.Background(), app.PlanUpload([]string{filepath.Join(dir, "second.txt")})); err != nil {
		t.Fatal(err)
	}
	waitUploads(t, q)
	st, _ := q.State().Snapshot()
	if len(st.Items) != 2 || st.Items[0] != done.Items[0] || st.Done != 2 {
		t.Fatalf("the first upload did not change and should be shared, got %d items, done %d", len(st.Items), st.Done)
	}
	q.Remove(st.Items[0].ID)
	if after, _ := q.State().Snapshot(); len(after.Items) != 1 || after.Items[0] != st.Items[1] || len(st.Items) != 2 {
		t.Fatal("removing an upload publishes a new snapshot and leaves the old one as it was")
	}
}

// The refresh of a watched list and the uploads under way end when the app
// closes: no goroutine of theirs is left.
func TestFilesWorkEndsWithTheApp(t *testing.T) {
	before := runtime.NumGoroutine()
	slow := 200 * time.Millisecond // processing takes 2 s
	ctx := context.Background()
	a, err := app.Open(ctx, app.Config{Paths: storage.PathsIn(t.TempDir()), StartDemo: apptest.DemoStarter(demoservice.Options{Pace: slow}), Keyring: apptest.NewKeyring()})
	if err != nil {
		t.Fatal(err)
	}
	f, err := a.Client().UploadFile(ctx, client.UploadParams{Reader: strings.NewReader("content"), Filename: "hours.txt", Size: 7})
	if err != nil {
		t.Fatal(err)
	}
	l := a.Files().NewList("desc")
	l.Watch()
	l.Refresh()
	waitFiles(t, l, "the file is listed", func(st app.FilesState) bool { return len(st.Files) > 0 })
	if _, err := l.ProcessFile(ctx, f.ID); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "big.pdf"), 8<<20)
	q := a.Files().NewUploads()
	if _, err := q.Start(ctx, app.PlanUpload([]string{dir})); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	apptest.NothingOutlives(t, before, nil)
}

// A link or unlink made anywhere (the Files screen, an agent's tab) shows
// at once in every list of that agent's files, and in no other agent's.
func TestLinksShowInEveryListOfTheAgentsFiles(t *testing.T) {
	a := apptest.Open(t)
	ctx := context.Background()
	f, err := a.Client().UploadFile(ctx, client.UploadParams{Reader: strings.NewReader("hello"), Filename: "price-list.txt", Size: 5})
	if err != nil {
		t.Fatal(err)
	}
	tab := a.Files().NewLinked(client.Agent{ID: "119"})
	other := a.Files().NewLinked(client.Agent{ID: "120"})
	for _, l := range []*app.LinkedFiles{tab, other} {
		l.Reload()
	}
	holds := func(l *app.LinkedFiles) bool {
		st, _ := l.Snapshot()
		return slices.ContainsFunc(st.Items, func(g client.File) bool { return g.ID == f.ID })
	}
	waitList := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	waitList("the lists to load", func() bool {
		a, _ := tab.Snapshot()
		b, _ := other.Snapshot()
		return a.Loaded && b.Loaded && !a.Loading && !b.Loading
	})

	// Linked from elsewhere (the Files screen links through the app).
	if _, err := a.Files().Link(ctx, "119", []client.ID{f.ID}); err != nil {
		t.Fatal(err)
	}
	if !holds(tab) {
		t.Fatal("the agent's list should show the file linked elsewhere at once")
	}
	if holds(other) {
		t.Fatal("another agent's list shows the file")
	}
	if err := a.Files().Unlink(ctx, "119", f.ID); err != nil {
		t.Fatal(err)
	}
	if holds(tab) {
		t.Fatal("the agent's list should lose the file unlinked elsewhere at once")
	}
}
