package files

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/internal/clock"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
	"github.com/agentdesk/agentdesk/views/screen"
)

type fakeNav struct{ screen.Nav }

// testEnv is an app on the built-in service, and the queue that runs the
// screens' UI updates on the test goroutine.
func testEnv(t *testing.T) (screen.Env, *kit.Queue) {
	t.Helper()
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	// The interface's reading: every upload is processed at once, and
	// there is no limit of 30 stored files.
	a := apptest.Open(t, apptest.WithDemo(demoservice.Options{API: demoservice.APISpec}))
	w := test.NewTempWindow(t, container.NewStack())
	w.Resize(fyne.NewSize(1000, 700))
	return screen.Env{App: a, Window: w, Nav: fakeNav{}}, q
}

func write(t *testing.T, path string, size int) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Repeat("x", size)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// now is what o shows at this moment.
func now[T any](o live.Observable[T]) T {
	v, _ := o.Snapshot()
	return v
}

// eventually runs UI updates until cond holds.
func eventually(t *testing.T, q *kit.Queue, what string, cond func() bool) {
	t.Helper()
	q.WaitUntil(t, cond, func() string { return what })
}

// dialogs is the text of every dialog shown on w.
func dialogs(w fyne.Window) string {
	var b strings.Builder
	for _, o := range w.Canvas().Overlays().List() {
		b.WriteString(kittest.AllText(o))
	}
	return b.String()
}

// answer taps the button of the dialog on top of w.
func answer(t *testing.T, w fyne.Window, button string) {
	t.Helper()
	top := w.Canvas().Overlays().Top()
	b := kittest.FindButton(top, button)
	if b == nil {
		t.Fatalf("no %q in the dialog: %s", button, dialogs(w))
	}
	test.Tap(b)
}

// chipText is a chip's status line.
func chipText(at *Attachments, id int64) string {
	if c, ok := at.chips[id]; ok {
		return c.status.Text
	}
	return ""
}

func TestAttachmentsDropFileFolderAndMixed(t *testing.T) {
	env, q := testEnv(t)
	at := newAttachments(env)
	dir := t.TempDir()
	one := write(t, filepath.Join(dir, "invoice.pdf"), 3000)
	write(t, filepath.Join(dir, "folder", "a.txt"), 10)
	write(t, filepath.Join(dir, "folder", ".hidden"), 10)
	write(t, filepath.Join(dir, "folder", "sub", "b.txt"), 10)

	at.Dropped([]string{one})
	eventually(t, q, "one chip uploaded", func() bool { return len(at.chips) == 1 && len(at.FileIDs()) == 1 })
	if !at.Object().Visible() {
		t.Fatal("the chips row should show")
	}
	for _, c := range at.chips {
		if c.name.Text != "invoice.pdf" || c.status.Text != "3.0 KB" {
			t.Fatalf("a chip names its file and its size, got %q and %q", c.name.Text, c.status.Text)
		}
	}
	at.Dropped([]string{filepath.Join(dir, "folder"), one})
	eventually(t, q, "folder and file uploaded", func() bool { return len(at.chips) == 4 && !at.Pending() && len(at.FileIDs()) == 4 })
	for _, u := range now(at.queue.State()).Items {
		if u.Name == ".hidden" {
			t.Fatal("hidden files must be left out")
		}
	}
	at.Clear()
	if len(at.chips) != 0 || len(at.FileIDs()) != 0 || at.Object().Visible() {
		t.Fatal("clear should remove every chip")
	}
}

func TestAttachmentsShowWhyAFileFailedAndRetry(t *testing.T) {
	env, q := testEnv(t)
	at := newAttachments(env)
	dir := t.TempDir()
	empty := write(t, filepath.Join(dir, "empty.txt"), 0)
	loop := filepath.Join(dir, "loop")
	if err := os.Symlink(loop, loop); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "gone.txt")
	at.Dropped([]string{empty, loop, missing})
	eventually(t, q, "three error chips", func() bool { return len(at.chips) == 3 && !at.Pending() })
	for _, u := range now(at.queue.State()).Items {
		if got := chipText(at, u.ID); got != "Not added" {
			t.Errorf("a failed chip says it was not added, got %q", got)
		}
	}
	// The reasons are read in full under the chips, not cut by a chip's width.
	got := at.why.Text
	for _, want := range []string{"empty.txt was not added", "itself", "gone.txt was not added", "no longer there"} {
		if !strings.Contains(got, want) || !at.why.Visible() {
			t.Errorf("under the chips it should say %q, got %q", want, got)
		}
	}
	if len(at.FileIDs()) != 0 {
		t.Fatal("nothing failed may be attached")
	}
	// The user fixes the empty file and taps Retry on its chip.
	write(t, empty, 12)
	id := now(at.queue.State()).Items[0].ID
	test.Tap(at.chips[id].retry)
	eventually(t, q, "retry uploads the fixed file", func() bool { return len(at.FileIDs()) == 1 })
	// The × removes a chip.
	if strings.Contains(at.why.Text, "empty.txt") {
		t.Errorf("a file added on Retry is no longer said to have failed: %q", at.why.Text)
	}
	test.Tap(at.chips[id].close)
	if len(at.chips) != 2 || len(at.FileIDs()) != 0 {
		t.Fatalf("× should remove the chip, %d left", len(at.chips))
	}
	for _, u := range now(at.queue.State()).Items {
		test.Tap(at.chips[u.ID].close)
	}
	if at.why.Visible() || at.Object().Visible() {
		t.Fatal("with the failed files taken off, nothing more is said")
	}
}

func TestAttachmentsOfflineTellsTheUserAndQueuesNothing(t *testing.T) {
	env, q := testEnv(t)
	at := newAttachments(env)
	_ = env.App.Demo().Close()
	at.Dropped([]string{write(t, filepath.Join(t.TempDir(), "a.txt"), 10)})
	eventually(t, q, "the user is told", func() bool { return strings.Contains(dialogs(env.Window), "offline") })
	if len(at.chips) != 0 || at.Object().Visible() {
		t.Fatalf("nothing should be queued, got %d chips", len(at.chips))
	}
}

func TestManyFilesAskFirst(t *testing.T) {
	env, q := testEnv(t)
	at := newAttachments(env)
	dir := t.TempDir()
	for i := range 55 {
		write(t, filepath.Join(dir, "many", "f"+strings.Repeat("x", i)+".txt"), 100)
	}
	at.Dropped([]string{filepath.Join(dir, "many")})
	eventually(t, q, "asked", func() bool { return strings.Contains(dialogs(env.Window), "Upload many files?") })
	if text := dialogs(env.Window); !strings.Contains(text, "55 files (5.5 KB in all)") {
		t.Fatalf("the user should be asked with count and size, got %q", text)
	}
	answer(t, env.Window, "No")
	q.Drain()
	if len(at.chips) != 0 || at.Pending() {
		t.Fatalf("nothing may be sent on No, got %d chips", len(at.chips))
	}
	at.Dropped([]string{filepath.Join(dir, "many")})
	eventually(t, q, "asked again", func() bool { return env.Window.Canvas().Overlays().Top() != nil })
	answer(t, env.Window, "Upload")
	eventually(t, q, "55 uploads", func() bool { return len(at.FileIDs()) == 55 })
}

func TestFilesScreenListsUploadsAndSelects(t *testing.T) {
	env, q := testEnv(t)
	s := newScreen(env)
	env.Window.SetContent(s.Content())
	s.Shown()
	eventually(t, q, "files listed", func() bool { return len(s.list.Items) > 0 })
	before := len(s.list.Items)

	s.Dropped([]string{write(t, filepath.Join(t.TempDir(), "minutes.docx"), 2048)})
	eventually(t, q, "the upload shows at the top", func() bool { return len(s.list.Items) == before+1 && s.list.Items[0].Filename == "minutes.docx" })
	row := s.newRow()
	s.updateRow(0, s.list.Items[0], row)
	text := labels(row)
	for _, want := range []string{"minutes.docx", "2.0 KB", "Ready"} {
		if !strings.Contains(text, want) {
			t.Errorf("the row should show %q, got %q", want, text)
		}
	}
	if s.uploads.box.Hidden {
		t.Error("the upload should show in the uploads list")
	}
	s.list.Select(0)
	s.list.Select(1)
	if len(s.Selected()) != 2 || s.linkBtn.Disabled() || !strings.Contains(s.selLabel.Text, "2 selected") {
		t.Fatalf("two files should be selected, got %v (%q)", s.Selected(), s.selLabel.Text)
	}

	s.order.SetSelectedIndex(1)
	eventually(t, q, "oldest first", func() bool {
		return len(s.list.Items) > 0 && s.files.Order() == "asc" && s.list.Items[0].Filename != "minutes.docx"
	})
}

func TestFilesScreenShowsErrorWithRetry(t *testing.T) {
	env, q := testEnv(t)
	s := newScreen(env)
	_ = env.App.Demo().Close()
	s.Shown()
	eventually(t, q, "error state", func() bool { return strings.Contains(labels(s.list.Stack), "can't reach") })
	if !strings.Contains(labels(s.list.Stack), "Try again") {
		t.Fatalf("the error should offer to try again, got %q", labels(s.list.Stack))
	}
}

func TestFilesScreenRefreshesUntilFilesSettle(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	clk := clock.NewFake()
	a := apptest.Open(t, apptest.WithDemo(demoservice.Options{Pace: 30 * time.Millisecond, API: demoservice.APISpec}), withClock(clk))
	w := test.NewTempWindow(t, container.NewStack())
	env := screen.Env{App: a, Window: w, Nav: fakeNav{}}
	s := newScreen(env)
	w.SetContent(s.Content())
	s.Dropped([]string{write(t, filepath.Join(t.TempDir(), "scan.pdf"), 100)})
	eventually(t, q, "the new file is processing", func() bool {
		return len(s.list.Items) > 0 && s.list.Items[0].Filename == "scan.pdf" && s.list.Items[0].Status != "completed"
	})
	eventually(t, q, "it settles without the user doing anything", ticking(clk, func() bool {
		return s.list.Items[0].Filename == "scan.pdf" && s.list.Items[0].Status == "completed"
	}))
}

func TestAgentTabLinkUnlinkUndoAndDrop(t *testing.T) {
	env, q := testEnv(t)
	agent := client.Agent{ID: "119", Title: "Writer"}
	tab := newAgentTab(env, agent)
	env.Window.SetContent(tab)
	eventually(t, q, "loaded", func() bool { return tab.loaded })
	before := len(tab.linked.Items)

	tab.Dropped([]string{write(t, filepath.Join(t.TempDir(), "style-guide.txt"), 500)})
	eventually(t, q, "dropped file linked, with the link result's counts", func() bool {
		return len(tab.linked.Items) == before+1 && strings.Contains(tab.result.Text, "ready")
	})
	var f client.File
	for _, g := range tab.linked.Items {
		if g.Filename == "style-guide.txt" {
			f = g
		}
	}
	tab.Unlink(f)
	eventually(t, q, "unlinked with undo", func() bool { return len(tab.linked.Items) == before && tab.undo.Visible() })
	test.Tap(tab.undoB)
	eventually(t, q, "undo links again", func() bool { return len(tab.linked.Items) == before+1 })

	// Link files… picks from the workspace.
	p := newPicker(env, tab.linked.Items)
	eventually(t, q, "picker lists files", func() bool { return len(p.shown.Items) > 0 })
	var pick client.File
	for _, g := range p.shown.Items {
		if !p.already[g.ID] {
			pick = g
			break
		}
	}
	p.selected[pick.ID] = true
	tab.Link(p.selected.of(p.shown.Items))
	eventually(t, q, "picked file linked", func() bool { return len(tab.linked.Items) == before+2 })
}

// labels joins every label and button text under o.
func labels(o fyne.CanvasObject) string {
	var out []string
	var walk func(fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch v := o.(type) {
		case *widget.Label:
			out = append(out, v.Text)
		case *widget.Button:
			out = append(out, v.Text)
		case *kit.Button:
			out = append(out, v.Text)
		case *fyne.Container:
			for _, c := range v.Objects {
				walk(c)
			}
		case *widget.Check, *kit.Check, *widget.ProgressBar, *widget.Icon:
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(v).Objects() {
				walk(c)
			}
		}
	}
	walk(o)
	return strings.Join(out, " ")
}

func TestFilesScreenLinksSelectedFilesToAnAgent(t *testing.T) {
	env, q := testEnv(t)
	s := newScreen(env)
	s.Shown()
	eventually(t, q, "files listed", func() bool { return len(s.list.Items) > 2 })
	s.list.Select(0)
	s.list.Select(1)
	ids := s.Selected()
	s.link(client.Agent{ID: "131", Title: "Image maker"}, ids)
	eventually(t, q, "linked", func() bool { return strings.Contains(dialogs(env.Window), "Files linked to Image maker") })
	if !strings.Contains(dialogs(env.Window), "ready") || len(s.Selected()) != 0 {
		t.Fatalf("the counts should show and the selection clear, got %q", dialogs(env.Window))
	}
	res, err := env.App.Files().OfAgent(context.Background(), "131")
	if err != nil {
		t.Fatal(err)
	}
	linked := map[client.ID]bool{}
	for _, f := range res.Files {
		linked[f.ID] = true
	}
	if !linked[ids[0]] || !linked[ids[1]] {
		t.Fatalf("both files should be linked to the agent, got %+v", res.Files)
	}
}

func TestFilesScreenLoadsMorePagesWhileScrolling(t *testing.T) {
	env, q := testEnv(t)
	for i := range 60 {
		_, err := env.App.Client().UploadFile(context.Background(), client.UploadParams{
			Reader: strings.NewReader("x"), Filename: "page-file-" + strings.Repeat("a", i%5) + ".txt", Size: 1,
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	total := 0
	for range env.App.Client().Files(context.Background(), client.ListFilesParams{}) {
		total++
	}
	s := newScreen(env)
	env.Window.SetContent(s.Content())
	s.Shown()
	eventually(t, q, "the first page", func() bool { return len(s.list.Items) == app.FilesPerPage })
	for range 10 {
		s.list.ScrollToBottom()
		q.Drain()
	}
	eventually(t, q, "every page after scrolling", func() bool {
		s.list.ScrollToBottom()
		return len(s.list.Items) == total
	})
}

// Each row shows what kind of file it is, by its name.
func TestFileIconFollowsTheKindOfFile(t *testing.T) {
	cases := map[string]fyne.Resource{
		"Team Photo Summer Party.JPG": theme.MediaPhotoIcon(),
		"Welcome clip.mp4":            theme.MediaVideoIcon(),
		"Interview.m4a":               theme.MediaMusicIcon(),
		"Service Level Agreement.pdf": theme.DocumentIcon(),
		"Budget Planning 2025.xlsx":   theme.GridIcon(),
		"setup.exe":                   theme.FileIcon(),
		"README":                      theme.FileIcon(),
	}
	for name, want := range cases {
		if got := fileIcon(name); got.Name() != want.Name() {
			t.Errorf("%s shows %s, want %s", name, got.Name(), want.Name())
		}
	}
}

func TestFilesAreProcessedAndDeletedAfterConfirming(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	clk := clock.NewFake()
	a := apptest.Open(t, apptest.WithDemo(demoservice.Options{Pace: 2 * time.Millisecond}), withClock(clk)) // the real reading
	w := test.NewTempWindow(t, container.NewStack())
	w.Resize(fyne.NewSize(1000, 700))
	env := screen.Env{App: a, Window: w, Nav: fakeNav{}}
	s := newScreen(env)
	w.SetContent(s.Content())
	s.Shown()
	eventually(t, q, "files listed", func() bool { return len(s.list.Items) > 0 })
	s.Dropped([]string{write(t, filepath.Join(t.TempDir(), "hours.txt"), 300)})
	eventually(t, q, "the upload at the top", func() bool { return len(s.list.Items) > 0 && s.list.Items[0].Filename == "hours.txt" })
	id := s.list.Items[0].ID
	status := func() string {
		row := s.newRow()
		for i, f := range s.list.Items {
			if f.ID == id {
				s.updateRow(i, f, row)
				return labels(row)
			}
		}
		return "gone"
	}
	if !strings.Contains(status(), "Not processed") {
		t.Fatalf("a stored file is not processed until asked: %q", status())
	}

	s.toggle(id)
	test.Tap(s.procBtn)
	top := w.Canvas().Overlays().Top()
	if top == nil || !strings.Contains(kittest.AllText(top), "costs credits") {
		t.Fatal("Process should say it costs credits before it goes")
	}
	test.Tap(kittest.FindButton(top, "Process"))
	eventually(t, q, "processed", ticking(clk, func() bool { return strings.Contains(status(), "Ready") }))

	s.toggle(id)
	test.Tap(s.delBtn)
	top = w.Canvas().Overlays().Top()
	if top == nil || !strings.Contains(kittest.AllText(top), "cannot be undone") || !strings.Contains(kittest.AllText(top), "Delete “hours.txt”?") {
		t.Fatalf("Delete should ask first, naming the file: %q", kittest.AllText(top))
	}
	if del := kittest.FindButton(top, "Delete"); del.Importance != widget.DangerImportance {
		t.Fatal("the button that deletes should look dangerous")
	}
	if proc := kittest.FindButton(top, "Cancel"); proc.Importance == widget.DangerImportance {
		t.Fatal("Cancel should not look dangerous")
	}
	test.Tap(kittest.FindButton(top, "Delete"))
	eventually(t, q, "deleted", func() bool { return status() == "gone" })
	if _, err := a.Client().GetFile(context.Background(), id); !client.IsNotFound(err) {
		t.Fatalf("the file is still on the service: %v", err)
	}
}

// withClock has the app's refreshes wait on clk.
func withClock(clk *clock.Fake) func(*app.Config) {
	return func(c *app.Config) { c.Clock = clk }
}

// ticking is cond checked after clk moved on by one refresh period: a wait
// for what the list's refreshes bring.
func ticking(clk *clock.Fake, cond func() bool) func() bool {
	return func() bool { clk.Advance(app.FilesRefreshEvery); return cond() }
}

// listCounter counts the requests listing the workspace's files as the
// app sends them (one cancelled on its way too); while hold is set, the
// app reads every file as still in progress.
type listCounter struct {
	atomic.Int64
	hold atomic.Bool
}

func (n *listCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodGet && r.URL.Path == "/files" {
		n.Add(1)
	}
	if n.hold.Load() {
		return apptest.Rewriting{Prefix: "/files", Old: `"status":"completed"`, New: `"status":"in_progress"`}.RoundTrip(r)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// countedService is the built-in service in the real reading, and an App
// using it that refreshes watched file lists every every and counts its
// requests listing the workspace's files.
func countedService(t *testing.T, clk *clock.Fake, pace time.Duration) (*app.App, *listCounter) {
	t.Helper()
	lists := &listCounter{}
	svc := demoservice.New(demoservice.Options{APIKey: "k", API: demoservice.APIReal, Pace: pace})
	srv := httptest.NewServer(svc)
	t.Cleanup(func() { _ = svc.Close(); srv.Close() })
	a := apptest.Open(t, withClock(clk), func(c *app.Config) {
		c.ClientOptions = append(c.ClientOptions, client.WithBaseURL(srv.URL), client.WithAPIKey("k"))
		c.HTTPClient = &http.Client{Transport: lists}
	})
	return a, lists
}

// idle reports whether nothing of the screen's list asks the service: no
// load is under way and no refresh runs, not even one stopped.
func idle(s *Screen) bool {
	st, _ := s.files.State().Snapshot()
	return !st.Loading && !s.files.Refreshing()
}

// quiet moves clk on by n refresh periods and runs the UI updates: a
// refresh that should not happen would.
func quiet(q *kit.Queue, clk *clock.Fake, n int) {
	clk.Advance(time.Duration(n) * app.FilesRefreshEvery)
	q.Drain()
}

// rowStatus is the status column of the file's row, "gone" when it is not
// listed.
func rowStatus(s *Screen, id client.ID) string {
	row := s.newRow()
	for i, f := range s.list.Items {
		if f.ID == id {
			s.updateRow(i, f, row)
			cols := row.(*fyne.Container).Objects[2].(*fyne.Container)
			return cols.Objects[2].(*fyne.Container).Objects[0].(*widget.Label).Text
		}
	}
	return "gone"
}

// A file the user asks to process shows as ready by itself, and once no
// file is processing the screen stops asking the service.
func TestFilesScreenShowsProcessedFileWithoutRefreshThenIdles(t *testing.T) {
	s, w, q, lists, f, clk := screenWithStoredFile(t, 10*time.Millisecond, "hours.txt", "Opening hours")
	eventually(t, q, "nothing asked of the service", func() bool { return idle(s) })
	if before, after := lists.Load(), func() int64 { quiet(q, clk, 10); return lists.Load() }(); after != before {
		t.Fatalf("nothing processes, yet the list was asked for %d more times", after-before)
	}

	s.toggle(f.ID)
	test.Tap(s.procBtn)
	answer(t, w, "Process")
	eventually(t, q, "ready without pressing Refresh", ticking(clk, func() bool { return rowStatus(s, f.ID) == "Ready" }))
	eventually(t, q, "the refresh ends", ticking(clk, func() bool { return idle(s) }))
	before := lists.Load()
	quiet(q, clk, 10)
	if after := lists.Load(); after != before {
		t.Fatalf("every file is ready, yet the list was asked for %d more times", after-before)
	}
}

// A screen the user left stops refreshing even while a file still
// processes, and follows it again when the user comes back.
func TestFilesScreenStopsRefreshingWhenLeft(t *testing.T) {
	s, w, q, lists, f, clk := screenWithStoredFile(t, 10*time.Millisecond, "prices.txt", "Price list")
	lists.hold.Store(true) // the file processes until the user comes back
	s.toggle(f.ID)
	test.Tap(s.procBtn)
	answer(t, w, "Process")
	start := lists.Load()
	eventually(t, q, "refreshing while it processes", ticking(clk, func() bool { return lists.Load() > start+1 }))

	w.SetContent(widget.NewLabel("another screen"))
	// The screen sees it was left at the next refresh, which may be on its
	// way still (a busy machine takes a while).
	eventually(t, q, "the refresh ends", ticking(clk, func() bool { return s.unwatch == nil && idle(s) }))
	before := lists.Load()
	quiet(q, clk, 10)
	if after := lists.Load(); after != before {
		t.Fatalf("the screen is not shown, yet the list was asked for %d more times", after-before)
	}
	if got, _ := s.env.App.Client().GetFile(context.Background(), f.ID); got == nil || got.Status == "completed" {
		t.Fatal("the file should still be processing for this test to mean anything")
	}

	w.SetContent(s.Content())
	lists.hold.Store(false)
	s.Shown()
	eventually(t, q, "ready after coming back", ticking(clk, func() bool { return rowStatus(s, f.ID) == "Ready" }))
}

// After another account becomes active the list shows its files, none of
// the one before.
func TestFilesScreenReloadsForAnotherAccount(t *testing.T) {
	env, q := testEnv(t)
	ctx := context.Background()
	if _, err := env.App.Client().UploadFile(ctx, client.UploadParams{Reader: strings.NewReader("x"), Filename: "demo-only.txt", Size: 1}); err != nil {
		t.Fatal(err)
	}
	s := newScreen(env)
	env.Window.SetContent(s.Content())
	s.Shown()
	eventually(t, q, "the demo's files", func() bool { return len(s.list.Items) > 0 && s.list.Items[0].Filename == "demo-only.txt" })

	srv, _ := demoservice.NewTestService(t, demoservice.Options{APIKey: "k", API: demoservice.APISpec})
	acct, err := env.App.Accounts().Save(ctx, app.Account{Name: "Office", BaseURL: srv.URL}, "k")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := env.App.Client().UploadFile(ctx, client.UploadParams{Reader: strings.NewReader("x"), Filename: "demo-only-2.txt", Size: 1}); err != nil {
		t.Fatal(err)
	}
	if err := env.App.Activate(ctx, acct.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := env.App.Client().UploadFile(ctx, client.UploadParams{Reader: strings.NewReader("x"), Filename: "office.txt", Size: 1}); err != nil {
		t.Fatal(err)
	}
	eventually(t, q, "the office's files", func() bool { return len(s.list.Items) > 0 && s.list.Items[0].Filename == "office.txt" })
	for _, f := range s.list.Items {
		if strings.HasPrefix(f.Filename, "demo-only") {
			t.Fatalf("a file of the account before is still listed: %s", f.Filename)
		}
	}
}

// screenWithStoredFile shows the Files screen of countedService's app,
// refreshing files in process every every, over a service that takes ten
// paces to process a file, once it lists a stored file name (content body)
// as not processed.
func screenWithStoredFile(t *testing.T, pace time.Duration, name, body string) (*Screen, fyne.Window, *kit.Queue, *listCounter, *client.File, *clock.Fake) {
	t.Helper()
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	clk := clock.NewFake()
	a, lists := countedService(t, clk, pace)
	f, err := a.Client().UploadFile(context.Background(), client.UploadParams{Reader: strings.NewReader(body), Filename: name, Size: int64(len(body))})
	if err != nil {
		t.Fatal(err)
	}
	w := test.NewTempWindow(t, container.NewStack())
	w.Resize(fyne.NewSize(1000, 700))
	s := newScreen(screen.Env{App: a, Window: w, Nav: fakeNav{}})
	w.SetContent(s.Content())
	s.Shown()
	eventually(t, q, "the stored file is listed", func() bool { return rowStatus(s, f.ID) == "Not processed" })
	return s, w, q, lists, f, clk
}

// Files that could not be read are read by themselves when the service
// can be reached again.
func TestFilesLoadByThemselvesWhenTheServiceIsBack(t *testing.T) {
	env, q := testEnv(t)
	env.App.SetReachable(true)
	s := newScreen(env)
	apptest.Demo(env.App).Service.SetFaults(demoservice.Faults{Fail500: 1000})
	s.Shown()
	eventually(t, q, "error state", func() bool { return strings.Contains(labels(s.list.Stack), "Try again") })
	apptest.Demo(env.App).Service.SetFaults(demoservice.Faults{})
	env.App.SetReachable(false)
	env.App.SetReachable(true)
	eventually(t, q, "the files without a retry", func() bool { return !strings.Contains(labels(s.list.Stack), "Try again") && s.st.Loaded })
}
