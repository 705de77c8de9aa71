package files

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
)

type fakeNav struct{ kit.Nav }

// uiq runs the screens' UI updates on the test goroutine.
var uiq *kit.Queue

func testEnv(t *testing.T) kit.Env {
	t.Helper()
	test.NewTempApp(t)
	uiq = kit.UseQueue(t)
	// The interface's reading: every upload is processed at once, and
	// there is no limit of 30 stored files.
	a := apptest.Open(t, func(c *app.Config) { c.DemoAPI = demoservice.APISpec })
	w := test.NewTempWindow(t, container.NewStack())
	w.Resize(fyne.NewSize(1000, 700))
	return kit.Env{App: a, Window: w, Nav: fakeNav{}}
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

// eventually runs UI updates until cond holds.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	uiq.WaitUntil(t, cond, func() string { return what })
}

// messages records what the user was told instead of showing dialogs.
type messages struct {
	mu   sync.Mutex
	list []string
}

func (m *messages) add(title, msg string) {
	m.mu.Lock()
	m.list = append(m.list, title+": "+msg)
	m.mu.Unlock()
}

func (m *messages) all() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return strings.Join(m.list, "\n")
}

func TestAttachmentsDropFileFolderAndMixed(t *testing.T) {
	env := testEnv(t)
	at := newAttachments(env)
	dir := t.TempDir()
	one := write(t, filepath.Join(dir, "invoice.pdf"), 3000)
	write(t, filepath.Join(dir, "folder", "a.txt"), 10)
	write(t, filepath.Join(dir, "folder", ".hidden"), 10)
	write(t, filepath.Join(dir, "folder", "sub", "b.txt"), 10)

	at.Dropped([]string{one})
	eventually(t, "one chip uploaded", func() bool { return at.Chips() == 1 && len(at.FileIDs()) == 1 })
	if !at.Object().Visible() {
		t.Fatal("the chips row should show")
	}
	at.Dropped([]string{filepath.Join(dir, "folder"), one})
	eventually(t, "folder and file uploaded", func() bool { return at.Chips() == 4 && !at.Pending() && len(at.FileIDs()) == 4 })
	for _, u := range at.Uploads().Items() {
		if u.Name == ".hidden" {
			t.Fatal("hidden files must be left out")
		}
	}
	at.Clear()
	if at.Chips() != 0 || len(at.FileIDs()) != 0 || at.Object().Visible() {
		t.Fatal("clear should remove every chip")
	}
}

func TestAttachmentsShowWhyAFileFailedAndRetry(t *testing.T) {
	env := testEnv(t)
	at := newAttachments(env)
	dir := t.TempDir()
	empty := write(t, filepath.Join(dir, "empty.txt"), 0)
	loop := filepath.Join(dir, "loop")
	if err := os.Symlink(loop, loop); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "gone.txt")
	at.Dropped([]string{empty, loop, missing})
	eventually(t, "three error chips", func() bool { return at.Chips() == 3 && !at.Pending() })
	var texts []string
	for _, u := range at.Uploads().Items() {
		texts = append(texts, at.Message(u.ID))
	}
	got := strings.Join(texts, " | ")
	for _, want := range []string{"empty", "itself", "no longer there"} {
		if !strings.Contains(got, want) {
			t.Errorf("the chips should say %q, got %q", want, got)
		}
	}
	if len(at.FileIDs()) != 0 {
		t.Fatal("nothing failed may be attached")
	}
	// The user fixes the empty file and taps Retry on its chip.
	write(t, empty, 12)
	id := at.Uploads().Items()[0].ID
	test.Tap(at.chips[id].retry)
	eventually(t, "retry uploads the fixed file", func() bool { return len(at.FileIDs()) == 1 })
	// The × removes a chip.
	test.Tap(at.chips[id].close)
	if at.Chips() != 2 || len(at.FileIDs()) != 0 {
		t.Fatalf("× should remove the chip, %d left", at.Chips())
	}
}

func TestAttachmentsOfflineTellsTheUserAndQueuesNothing(t *testing.T) {
	env := testEnv(t)
	at := newAttachments(env)
	var m messages
	done := 0
	at.send.notify = m.add
	at.send.done = func() { done++ }
	_ = env.App.Demo().Close()
	at.Dropped([]string{write(t, filepath.Join(t.TempDir(), "a.txt"), 10)})
	eventually(t, "the drop is handled", func() bool { return done == 1 })
	if !strings.Contains(m.all(), "offline") || at.Chips() != 0 {
		t.Fatalf("offline should be said and nothing queued, got %q and %d chips", m.all(), at.Chips())
	}
}

func TestManyFilesAskFirst(t *testing.T) {
	env := testEnv(t)
	at := newAttachments(env)
	dir := t.TempDir()
	for i := range 55 {
		write(t, filepath.Join(dir, "many", "f"+strings.Repeat("x", i)+".txt"), 100)
	}
	var asked app.UploadPlan
	answer := false
	done := 0
	at.send.done = func() { done++ }
	at.send.confirm = func(p app.UploadPlan, ok func()) {
		asked = p
		if answer {
			ok()
		}
	}
	at.Dropped([]string{filepath.Join(dir, "many")})
	eventually(t, "asked", func() bool { return done == 1 })
	if len(asked.Files) != 55 || asked.TotalBytes != 5500 || at.Chips() != 0 {
		t.Fatalf("the user should be asked with count and size and nothing sent on No, got %d files %d bytes, %d chips", len(asked.Files), asked.TotalBytes, at.Chips())
	}
	answer = true
	at.Dropped([]string{filepath.Join(dir, "many")})
	eventually(t, "55 uploads", func() bool { return len(at.FileIDs()) == 55 })
}

func TestFilesScreenListsUploadsAndSelects(t *testing.T) {
	env := testEnv(t)
	s := newScreen(env)
	env.Window.SetContent(s.Content())
	s.Shown()
	eventually(t, "files listed", func() bool { return len(s.shown) > 0 })
	before := len(s.shown)

	s.Dropped([]string{write(t, filepath.Join(t.TempDir(), "minutes.docx"), 2048)})
	eventually(t, "the upload shows at the top", func() bool { return len(s.shown) == before+1 && s.shown[0].Filename == "minutes.docx" })
	row := s.newRow()
	s.updateRow(0, row)
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
	eventually(t, "oldest first", func() bool {
		return len(s.shown) > 0 && s.files.Order() == "asc" && s.shown[0].Filename != "minutes.docx"
	})
}

func TestFilesScreenShowsErrorWithRetry(t *testing.T) {
	env := testEnv(t)
	s := newScreen(env)
	_ = env.App.Demo().Close()
	s.Shown()
	eventually(t, "error state", func() bool { return strings.Contains(labels(s.body), "can't reach") })
	if !strings.Contains(labels(s.body), "Retry") {
		t.Fatal("the error should offer Retry")
	}
}

func TestFilesScreenRefreshesUntilFilesSettle(t *testing.T) {
	RefreshEvery = 20 * time.Millisecond
	t.Cleanup(func() { RefreshEvery = 3 * time.Second })
	test.NewTempApp(t)
	uiq = kit.UseQueue(t)
	a := apptest.Open(t, func(c *app.Config) { d := 30 * time.Millisecond; c.DemoPace = &d; c.DemoAPI = demoservice.APISpec })
	w := test.NewTempWindow(t, container.NewStack())
	env := kit.Env{App: a, Window: w, Nav: fakeNav{}}
	s := newScreen(env)
	w.SetContent(s.Content())
	s.Dropped([]string{write(t, filepath.Join(t.TempDir(), "scan.pdf"), 100)})
	eventually(t, "the new file is processing", func() bool {
		return len(s.shown) > 0 && s.shown[0].Filename == "scan.pdf" && s.shown[0].Status != "completed"
	})
	eventually(t, "it settles without the user doing anything", func() bool {
		return s.shown[0].Filename == "scan.pdf" && s.shown[0].Status == "completed"
	})
}

func TestAgentTabLinkUnlinkUndoAndDrop(t *testing.T) {
	env := testEnv(t)
	agent := client.Agent{ID: "119", Title: "Writer"}
	tab := newAgentTab(env, agent)
	env.Window.SetContent(tab)
	eventually(t, "loaded", func() bool { return tab.loaded })
	before := len(tab.Linked())

	tab.Dropped([]string{write(t, filepath.Join(t.TempDir(), "style-guide.txt"), 500)})
	eventually(t, "dropped file linked", func() bool { return len(tab.Linked()) == before+1 })
	if !strings.Contains(tab.result.Text, "ready") {
		t.Fatalf("the link result's counts should show, got %q", tab.result.Text)
	}
	var f client.File
	for _, g := range tab.Linked() {
		if g.Filename == "style-guide.txt" {
			f = g
		}
	}
	tab.Unlink(f)
	eventually(t, "unlinked with undo", func() bool { return len(tab.Linked()) == before && tab.undo.Visible() })
	test.Tap(tab.undoB)
	eventually(t, "undo links again", func() bool { return len(tab.Linked()) == before+1 })

	// Link files… picks from the workspace.
	p := newPicker(env, tab.Linked())
	eventually(t, "picker lists files", func() bool { return len(p.shown) > 0 })
	var pick client.File
	for _, g := range p.shown {
		if !p.already[g.ID] {
			pick = g
			break
		}
	}
	p.selected[pick.ID] = true
	tab.Link(p.Selected())
	eventually(t, "picked file linked", func() bool { return len(tab.Linked()) == before+2 })
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
		case *fyne.Container:
			for _, c := range v.Objects {
				walk(c)
			}
		case *widget.Check, *widget.ProgressBar, *widget.Icon:
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
	env := testEnv(t)
	s := newScreen(env)
	var m messages
	s.send.notify = m.add
	s.Shown()
	eventually(t, "files listed", func() bool { return len(s.shown) > 2 })
	s.list.Select(0)
	s.list.Select(1)
	ids := s.Selected()
	s.link(client.Agent{ID: "131", Title: "Image maker"}, ids)
	eventually(t, "linked", func() bool { return strings.Contains(m.all(), "Files linked to Image maker") })
	if !strings.Contains(m.all(), "ready") || len(s.Selected()) != 0 {
		t.Fatalf("the counts should show and the selection clear, got %q", m.all())
	}
	res, err := env.App.AgentFiles(context.Background(), "131")
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
	env := testEnv(t)
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
	eventually(t, "the first page", func() bool { return len(s.shown) == app.FilesPerPage })
	for range 10 {
		s.list.ScrollToBottom()
		uiq.Drain()
	}
	eventually(t, "every page after scrolling", func() bool {
		s.list.ScrollToBottom()
		return len(s.shown) == total
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
	RefreshEvery = 10 * time.Millisecond
	t.Cleanup(func() { RefreshEvery = 3 * time.Second })
	test.NewTempApp(t)
	uiq = kit.UseQueue(t)
	a := apptest.Open(t, func(c *app.Config) { d := 2 * time.Millisecond; c.DemoPace = &d }) // the real reading
	w := test.NewTempWindow(t, container.NewStack())
	w.Resize(fyne.NewSize(1000, 700))
	env := kit.Env{App: a, Window: w, Nav: fakeNav{}}
	s := newScreen(env)
	w.SetContent(s.Content())
	s.Shown()
	eventually(t, "files listed", func() bool { return len(s.shown) > 0 })
	s.Dropped([]string{write(t, filepath.Join(t.TempDir(), "hours.txt"), 300)})
	eventually(t, "the upload at the top", func() bool { return len(s.shown) > 0 && s.shown[0].Filename == "hours.txt" })
	id := s.shown[0].ID
	status := func() string {
		row := s.newRow()
		for i, f := range s.shown {
			if f.ID == id {
				s.updateRow(i, row)
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
	eventually(t, "processed", func() bool { return strings.Contains(status(), "Ready") })

	s.toggle(id)
	test.Tap(s.delBtn)
	top = w.Canvas().Overlays().Top()
	if top == nil || !strings.Contains(kittest.AllText(top), "cannot be undone") {
		t.Fatal("Delete should ask first")
	}
	test.Tap(kittest.FindButton(top, "Delete"))
	eventually(t, "deleted", func() bool { return status() == "gone" })
	if _, err := a.Client().GetFile(context.Background(), id); !client.IsNotFound(err) {
		t.Fatalf("the file is still on the service: %v", err)
	}
}
