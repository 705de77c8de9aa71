package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/clock"
	"github.com/agentdesk/agentdesk/storage"
)

// FilesPerPage is how many files one page of the Files screen asks for.
const FilesPerPage = 50

// FilesRefreshEvery is how often a watched file list rechecks files still processing.
const FilesRefreshEvery = 3 * time.Second

// FilesState is the workspace's files as the Files screen shows them.
type FilesState struct {
	// Files are the pages loaded so far, shared between snapshots: never modify.
	Files []client.File
	// More says another page may follow.
	More bool
	// Loading says a page or a reload is under way.
	Loading bool
	// Loaded says the first page arrived, so an empty list is really empty.
	Loaded bool
	// Err is why the last load failed; Files keep what was shown before.
	Err error

	pages int
	loads int // loads under way
	// asked are the files this list asked to process: only their
	// "waiting" is watched. Replaced, never modified.
	asked map[client.ID]bool
}

// Unsettled reports whether a loaded file is still being processed.
func (s FilesState) Unsettled() bool {
	for _, f := range s.Files {
		if !FileSettled(f) && (f.Status != FileWaiting || s.asked[f.ID]) {
			return true
		}
	}
	return false
}

// StatusText is a file's status in words; one this list asked to process reads "Processing…".
func (s FilesState) StatusText(f client.File) string {
	if s.asked[f.ID] && f.Status == FileWaiting {
		return FileStatusText("in_progress")
	}
	return FileStatusText(f.Status)
}

// FileList is the workspace's files, page by page; while watched and a file
// is processing it reloads every FilesRefreshEvery.
type FileList struct {
	a       *App
	order   string
	state   *live.State[FilesState]
	paging  atomic.Bool // a page asked for by More is on its way
	reloads live.Newest

	mu       sync.Mutex
	watchers int
	refresh  clock.Timer  // the next refresh, while watched and a file processes
	polls    atomic.Int32 // refreshes planned or running, a stopped one finishing too (Refreshing)
}

// NewList lists the workspace's files in order "desc" or "asc"; nothing loads yet.
func (svc *Files) NewList(order string) *FileList {
	if order != "asc" {
		order = "desc"
	}
	return &FileList{a: svc.a, order: order, state: live.NewState(FilesState{More: true})}
}

func (l *FileList) State() live.Observable[FilesState] { return l.state }

// Order is "desc" (newest first) or "asc".
func (l *FileList) Order() string { return l.order }

// More loads the next page in the background, unless one is on its way or none follows.
func (l *FileList) More() {
	if s := l.state.Get(); s.Loaded && !s.More {
		return
	}
	if !l.paging.CompareAndSwap(false, true) {
		return
	}
	l.a.Go(func() {
		defer l.paging.Store(false)
		_, _ = l.LoadMore(l.a.Life())
	})
}

// Refresh loads again what was loaded, in the background.
func (l *FileList) Refresh() {
	l.a.Go(func() { _ = l.Reload(l.a.Life()) })
}

// LoadMore fetches and adds the next page, reporting whether anything was added.
func (l *FileList) LoadMore(ctx context.Context) (bool, error) {
	if s := l.state.Get(); s.Loaded && !s.More {
		return false, nil
	}
	return l.load(ctx, 0)
}

// Reload fetches again as many pages as were loaded, cancelling a reload under way.
func (l *FileList) Reload(ctx context.Context) error {
	ctx, cancel, gen := l.reloads.Start(ctx)
	defer cancel()
	_, err := l.load(ctx, gen)
	return err
}

// load fetches the next page, or for reload gen (not 0) every page loaded,
// and shows them unless it is stale (a reload ran meanwhile or nobody waits
// any more); then it watches what it shows.
func (l *FileList) load(ctx context.Context, gen uint64) (added bool, err error) {
	var first, last int
	l.state.Update(func(s FilesState) FilesState {
		first, last = s.pages+1, s.pages+1
		if gen != 0 {
			first, last = 1, max(s.pages, 1)
		}
		s.loads++
		s.Loading = true
		return s
	})
	files, pages, more, err := l.fetch(ctx, first, last)
	l.state.Update(func(s FilesState) FilesState {
		s.loads--
		s.Loading = s.loads > 0
		switch {
		case ctx.Err() != nil || gen != 0 && !l.reloads.Current(gen):
		case err != nil:
			s.Err = err
		case gen != 0:
			s.Files, s.pages, s.More, s.Loaded, s.Err = files, pages, more, true, nil
		case s.pages == first-1: // else a reload ran meanwhile
			// Other changes make new slices, so appending never touches an older snapshot.
			n := len(s.Files)
			s.Files = appendNew(s.Files, files)
			added = len(s.Files) > n
			s.pages, s.Loaded, s.More, s.Err = pages, true, more, nil
		}
		return s
	})
	l.watch()
	return added, err
}

// fetch reads pages first to last, stopping at the service's last one: their
// files, the last page read and whether another follows.
func (l *FileList) fetch(ctx context.Context, first, last int) ([]client.File, int, bool, error) {
	var files []client.File
	for page := first; ; page++ {
		p, err := l.a.Client().ListFiles(ctx, client.ListFilesParams{Page: page, PerPage: FilesPerPage, Order: l.order})
		if err != nil {
			return nil, 0, false, err
		}
		files = appendNew(files, p.Data)
		if page >= last || !p.HasNext() {
			return files, page, p.HasNext(), nil
		}
	}
}

// appendNew appends the files of page not in files yet.
func appendNew(files, page []client.File) []client.File {
	seen := make(map[client.ID]bool, len(files))
	for _, f := range files {
		seen[f.ID] = true
	}
	for _, f := range page {
		if !seen[f.ID] {
			seen[f.ID] = true
			files = append(files, f)
		}
	}
	return files
}

// Watch keeps the list fresh while a file is processing, until stop or app close.
func (l *FileList) Watch() (stop func()) {
	l.mu.Lock()
	l.watchers++
	l.mu.Unlock()
	l.watch()
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			l.watchers--
			if l.watchers == 0 && l.refresh != nil && l.refresh.Stop() {
				l.refresh = nil
				l.polls.Add(-1)
			}
		})
	}
}

// watch plans a refresh FilesRefreshEvery on while watched and a file
// processes; the refresh's end plans the next.
func (l *FileList) watch() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.watchers == 0 || l.refresh != nil || !l.state.Get().Unsettled() {
		return
	}
	l.polls.Add(1)
	l.refresh = clock.Or(l.a.cfg.Clock).AfterFunc(FilesRefreshEvery, func() {
		l.mu.Lock()
		l.refresh = nil
		watched := l.watchers > 0
		l.mu.Unlock()
		if !watched || !l.a.Go(func() {
			defer l.polls.Add(-1)
			_ = l.Reload(l.a.Life())
		}) {
			l.polls.Add(-1)
		}
	})
}

// Refreshing reports whether a refresh is planned or runs, even a stopped one finishing.
func (l *FileList) Refreshing() bool { return l.polls.Load() > 0 }

// FileWaiting is the status of a file stored but not processed (yet).
const FileWaiting = "waiting"

// FileSettled reports whether a file's status will not change any more.
func FileSettled(f client.File) bool {
	switch f.Status {
	case "completed", "failed", "error", "cancelled", "canceled", "":
		return true
	}
	return false
}

// FileStatusText is a file's status in plain words.
func FileStatusText(status string) string {
	switch status {
	case "completed":
		return lang.L("Ready")
	case "processing", "in_progress", "pending", "queued":
		return lang.L("Processing…")
	case FileWaiting:
		return lang.L("Not processed")
	case "failed", "error":
		return lang.L("Failed")
	case "":
		return lang.L("Unknown")
	}
	return sentence(status)
}

// OfAgent lists the files linked to an agent.
func (svc *Files) OfAgent(ctx context.Context, agentID client.ID) (*client.AgentFiles, error) {
	return svc.a.Client().ListAgentFiles(ctx, agentID)
}

// Link links workspace files to an agent; every list of its files shows the answer.
func (svc *Files) Link(ctx context.Context, agentID client.ID, fileIDs []client.ID) (*client.AgentFiles, error) {
	res, err := svc.a.Client().LinkFiles(ctx, agentID, fileIDs)
	if err == nil {
		svc.a.showLinked(agentID, res)
	}
	return res, err
}

// Unlink removes a file from an agent; the file stays in the workspace.
func (svc *Files) Unlink(ctx context.Context, agentID, fileID client.ID) error {
	if _, err := svc.a.Client().UnlinkFile(ctx, agentID, fileID); err != nil {
		return err
	}
	for _, l := range svc.a.linkedListsOf(agentID) {
		l.unlinked(fileID)
	}
	return nil
}

// maxLinkTargets bounds the agents offered when linking from the Files screen.
const maxLinkTargets = 500

// LinkTargets are the agents files can be linked to, for choosing one.
func (svc *Files) LinkTargets(ctx context.Context) ([]client.Agent, error) {
	return client.Collect(svc.a.Client().Agents(ctx, client.ListAgentsParams{PerPage: 100}), maxLinkTargets)
}

// LinkSummary says what a link did, in plain words. The service counts
// every file of the agent, not only those just linked: said so, and only
// the counts that are not zero.
func LinkSummary(res *client.AgentFiles) string {
	if res == nil || res.FilesCount == nil {
		return lang.L("Files linked.")
	}
	c := res.FilesCount
	var parts []string
	for _, p := range []struct {
		n     int
		words string
	}{
		{c.Completed, lang.N("{{.Count}} ready", c.Completed, map[string]any{"Count": Number(c.Completed)})},
		{c.InProgress, lang.N("{{.Count}} still being read", c.InProgress, map[string]any{"Count": Number(c.InProgress)})},
		{c.Failed, lang.N("{{.Count}} could not be read", c.Failed, map[string]any{"Count": Number(c.Failed)})},
	} {
		if p.n > 0 {
			parts = append(parts, p.words)
		}
	}
	if len(parts) == 0 {
		return lang.L("Files linked.")
	}
	return lang.L("Linked. The agent's files: {{.Counts}}.", map[string]any{"Counts": strings.Join(parts, ", ")})
}

// HumanBytes is a size in KB, MB or GB, written as the language in use writes numbers.
func HumanBytes(n int64) string {
	const unit = 1000
	if n < unit {
		return lang.N("{{.Count}} byte", int(n), map[string]any{"Count": fmt.Sprint(n)})
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	v := float64(n) / float64(div)
	units := "KMGTPE"
	if v < 10 {
		return decimal(fmt.Sprintf("%.1f", v)) + " " + string(units[exp]) + "B"
	}
	return fmt.Sprintf("%.0f %cB", v, units[exp])
}

// DeleteFile deletes a stored file; one already gone counts as deleted.
func (l *FileList) DeleteFile(ctx context.Context, id client.ID) error {
	if err := l.a.Client().DeleteFile(ctx, id); err != nil && !(client.IsNotFound(err) && !client.IsUnsupported(err)) {
		return err
	}
	l.state.Update(func(s FilesState) FilesState {
		s.Files = slices.DeleteFunc(slices.Clone(s.Files), func(f client.File) bool { return f.ID == id })
		return s
	})
	return nil
}

// ProcessFile asks the service to process a stored file, which costs credits.
func (l *FileList) ProcessFile(ctx context.Context, id client.ID) (*client.File, error) {
	f, err := l.a.Client().ProcessFile(ctx, id)
	if err != nil {
		return nil, err
	}
	l.state.Update(func(s FilesState) FilesState {
		asked := maps.Clone(s.asked)
		if asked == nil {
			asked = map[client.ID]bool{}
		}
		asked[id] = true
		s.asked = asked
		files := slices.Clone(s.Files)
		for i := range files {
			if files[i].ID == id {
				if f.ID == "" {
					f.ID = id
				}
				if f.Filename == "" {
					f.Filename = files[i].Filename
					f.Bytes = files[i].Bytes
				}
				files[i] = *f
			}
		}
		s.Files = files
		return s
	})
	l.watch()
	return f, nil
}

// ProcessFiles acts one file at a time, stopping at the first failure, and
// reports how many went through.
func (l *FileList) ProcessFiles(ctx context.Context, ids []client.ID) (int, error) {
	return l.each(ids, func(id client.ID) error { _, err := l.ProcessFile(ctx, id); return err })
}

// DeleteFiles: see ProcessFiles.
func (l *FileList) DeleteFiles(ctx context.Context, ids []client.ID) (int, error) {
	return l.each(ids, func(id client.ID) error { return l.DeleteFile(ctx, id) })
}

func (l *FileList) each(ids []client.ID, op func(client.ID) error) (int, error) {
	done := 0
	var err error
	for _, id := range ids {
		if err = op(id); err != nil {
			break
		}
		done++
	}
	l.Refresh()
	return done, err
}

// Files are the account's files at the service: listing, linking to agents, uploading (App.Files).
type Files struct{ a *App }

func (a *App) Files() *Files { return &Files{a} }

// LinkedFiles are the files linked to one agent, as its Files tab shows them.
type LinkedFiles struct {
	*live.List[client.File]
	a     *App
	agent client.Agent
}

// NewLinked lists the files linked to agent; links made anywhere show in it at once.
func (svc *Files) NewLinked(agent client.Agent) *LinkedFiles {
	a := svc.a
	l := &LinkedFiles{a: a, agent: agent}
	l.List = live.NewList(a, func(ctx context.Context) ([]client.File, error) {
		res, err := a.Files().OfAgent(ctx, agent.ID)
		if err != nil {
			return nil, err
		}
		return res.Files, nil
	})
	a.linkedListsOf("") // lets go of the lists of closed tabs
	a.linked.Lock()
	a.linked.lists = append(a.linked.lists, weak.Make(l))
	a.linked.Unlock()
	return l
}

// linkedFiles are weak references to LinkedFiles, so a closed tab's list is let go.
type linkedFiles struct {
	sync.Mutex
	lists []weak.Pointer[LinkedFiles]
}

func (a *App) linkedListsOf(agentID client.ID) []*LinkedFiles {
	a.linked.Lock()
	defer a.linked.Unlock()
	var out []*LinkedFiles
	live := a.linked.lists[:0]
	for _, p := range a.linked.lists {
		l := p.Value()
		if l == nil {
			continue
		}
		live = append(live, p)
		if l.agent.ID == agentID {
			out = append(out, l)
		}
	}
	clear(a.linked.lists[len(live):])
	a.linked.lists = live
	return out
}

// showLinked shows a link's answer in every list of the agent's files.
func (a *App) showLinked(agentID client.ID, res *client.AgentFiles) {
	for _, l := range a.linkedListsOf(agentID) {
		l.show(res)
	}
}

// NewUploads is an upload queue whose files are linked to the agent once uploaded.
func (l *LinkedFiles) NewUploads() *Uploads {
	q := l.a.Files().NewUploads()
	q.agent = l.agent
	return q
}

func (l *LinkedFiles) unlinked(id client.ID) {
	l.Change(func(files []client.File) []client.File {
		return slices.DeleteFunc(slices.Clone(files), func(f client.File) bool { return f.ID == id })
	})
	l.Reload()
}

// show publishes a link's answer, restarting a load begun before it.
func (l *LinkedFiles) show(res *client.AgentFiles) {
	st := l.Update(func(s live.ListState[client.File]) live.ListState[client.File] {
		s.Items, s.Loaded, s.Err = res.Files, true, nil
		return s
	})
	if st.Loading {
		l.Reload()
	}
}

// UploadConfirmAbove is how many files one drop may hold before the user is asked.
const UploadConfirmAbove = 50

// UploadConcurrency is how many files of one App are sent at once.
const UploadConcurrency = 3

// UploadState is where one file of the upload queue is.
type UploadState int

const (
	// UploadWaiting: queued behind other uploads.
	UploadWaiting UploadState = iota + 1
	// UploadSending: bytes are going out.
	UploadSending
	// UploadDone: the service has the file (and, for an agent's files, it is linked).
	UploadDone
	// UploadFailed: see Upload.Message; Retry sends it again.
	UploadFailed
	// UploadCancelled: the user stopped it; Retry sends it again.
	UploadCancelled
)

// PlannedFile is one file a drop or a pick will upload.
type PlannedFile struct {
	Path string
	Name string
	Size int64
	// Problem says why the file cannot be sent; it is queued as failed so the user sees it.
	Problem string
	// root is the real path of what was dropped: a retry checks the file is still inside.
	root string
}

// UploadPlan is what a drop amounts to once folders are walked.
type UploadPlan struct {
	Files      []PlannedFile
	TotalBytes int64
	// Skipped counts hidden entries left out and links looping back.
	Skipped int
}

// NeedsConfirm reports whether the user should be asked before sending.
func (p UploadPlan) NeedsConfirm() bool { return len(p.Files) > UploadConfirmAbove }

// PlanUpload walks the dropped paths, reading only metadata. A link inside a
// dropped folder is followed only while it stays inside it.
func PlanUpload(paths []string) UploadPlan {
	return planUpload(paths, "")
}

// planUpload is PlanUpload confined to within when not empty (a retry).
func planUpload(paths []string, within string) UploadPlan {
	var plan UploadPlan
	seen := map[string]bool{} // real paths of folders walked and files taken
	var visit func(path string, depth int, root string)
	visit = func(path string, depth int, root string) {
		name := filepath.Base(path)
		if depth > 0 && strings.HasPrefix(name, ".") {
			plan.Skipped++
			return
		}
		st, err := os.Stat(path)
		if err != nil {
			if _, lerr := os.Lstat(path); lerr == nil && errors.Is(err, fs.ErrNotExist) {
				plan.add(PlannedFile{Path: path, Name: name, Problem: lang.L("This is a link to something that no longer exists."), root: root})
				return
			}
			plan.add(PlannedFile{Path: path, Name: name, Problem: fileProblem(err), root: root})
			return
		}
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			// A link loop fails Stat above; anything else is unreadable.
			plan.add(PlannedFile{Path: path, Name: name, Problem: fileProblem(err), root: root})
			return
		}
		if depth == 0 && root == "" {
			root = real
		}
		if !inside(root, real) {
			plan.add(PlannedFile{Path: path, Name: name, Problem: lang.L("This is a shortcut to something outside the folder you dropped, so it is not sent."), root: root})
			return
		}
		if seen[real] {
			plan.Skipped++
			return
		}
		seen[real] = true
		if !st.IsDir() {
			pf := PlannedFile{Path: path, Name: name, Problem: sendProblem(st), root: root}
			if st.Mode().IsRegular() {
				pf.Size = st.Size()
			}
			if pf.Problem == "" {
				if f, err := os.Open(path); err != nil {
					pf.Problem = fileProblem(err)
				} else {
					_ = f.Close()
				}
			}
			plan.add(pf)
			return
		}
		entries, err := os.ReadDir(path)
		if err != nil {
			plan.add(PlannedFile{Path: path, Name: name, Problem: lang.L("Agent Desk could not open this folder: {{.Why}}", map[string]any{"Why": fileProblem(err)}), root: root})
			return
		}
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
		for _, e := range entries {
			visit(filepath.Join(path, e.Name()), depth+1, root)
		}
	}
	for _, p := range paths {
		if p == "" {
			continue
		}
		visit(filepath.Clean(p), 0, within)
	}
	return plan
}

// inside reports whether the real path real is root or lies under it.
func inside(root, real string) bool {
	if real == root {
		return true
	}
	rel, err := filepath.Rel(root, real)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func (p *UploadPlan) add(f PlannedFile) {
	p.Files = append(p.Files, f)
	p.TotalBytes += f.Size
}

// sendProblem is why the file st describes cannot be sent, or "".
func sendProblem(st fs.FileInfo) string {
	switch {
	case !st.Mode().IsRegular():
		return lang.L("This is not a regular file, so it cannot be sent.")
	case st.Size() == 0:
		return lang.L("This file is empty; there is nothing to send.")
	}
	return uploadRefusal(client.CheckUpload(st.Name(), st.Size()), st.Size())
}

// uploadRefusal says why the service refuses a file of size before it is sent ("" when it does not).
func uploadRefusal(err error, size int64) string {
	sized := map[string]any{"Size": HumanBytes(size)}
	switch {
	case errors.Is(err, client.ErrUploadType):
		return lang.L("The service does not take this type of file. It takes documents, sheets, slides, pictures, sound, video and text files.")
	case errors.Is(err, client.ErrAudioTooLarge):
		return lang.L("This sound file is {{.Size}}; the service takes sound files of up to 10 MB.", sized)
	case errors.Is(err, client.ErrUploadTooLarge):
		return lang.L("This file is {{.Size}}; the service takes files of up to 200 MB.", sized)
	}
	return ""
}

// fileProblem says in plain words why a file on disk cannot be read.
func fileProblem(err error) string {
	switch {
	case errors.Is(err, fs.ErrPermission):
		return lang.L("Agent Desk is not allowed to read this file.")
	case errors.Is(err, fs.ErrNotExist):
		return lang.L("This file is no longer there.")
	case strings.Contains(err.Error(), "too many links") || strings.Contains(err.Error(), "too many levels of symbolic links"):
		return lang.L("This link points back to itself, so it cannot be sent.")
	}
	return lang.L("Agent Desk could not read this file.")
}

// Upload is one file of an upload queue as it was at one moment.
type Upload struct {
	ID    int64
	Path  string
	Name  string
	Size  int64
	Sent  int64
	State UploadState
	// File is the service's record once uploaded.
	File *client.File
	// Message says why it failed, in plain words.
	Message string
}

// Fraction is how much of the file was sent, 0 to 1.
func (u Upload) Fraction() float64 {
	if u.State == UploadDone {
		return 1
	}
	if u.Size <= 0 {
		return 0
	}
	return float64(u.Sent) / float64(u.Size)
}

// Settled reports whether nothing more happens without the user.
func (u Upload) Settled() bool {
	return u.State == UploadDone || u.State == UploadFailed || u.State == UploadCancelled
}

// UploadsState is an upload queue as a screen shows it.
type UploadsState struct {
	// Items are the uploads in order; an unchanged one keeps its pointer so
	// a view redraws only what changed. Never modify them.
	Items []*Upload
	// Done counts uploads finished; a file list reloads when it grows.
	Done int
	// Linked is the service's answer to the newest link to the queue's agent.
	Linked *client.AgentFiles
}

// Pending reports whether any upload is waiting or sending.
func (s UploadsState) Pending() bool {
	for _, u := range s.Items {
		if !u.Settled() {
			return true
		}
	}
	return false
}

// FileIDs are the ids of the finished uploads, in order.
func (s UploadsState) FileIDs() []client.ID {
	var ids []client.ID
	for _, u := range s.Items {
		if u.State == UploadDone && u.File != nil {
			ids = append(ids, u.File.ID)
		}
	}
	return ids
}

const uploadProgressGap = 50 * time.Millisecond

// Uploads is an upload queue, sending UploadConcurrency files at a time per App.
type Uploads struct {
	a     *App
	agent client.Agent // when set, every file uploaded is linked to it
	state *live.State[UploadsState]

	mu     sync.Mutex
	next   int64
	items  []*uploadItem // in the queue's order
	done   int
	answer *client.AgentFiles
}

type uploadItem struct {
	u       Upload
	shown   *Upload // u as last published; replaced when u changes
	problem string
	// root: see PlannedFile.root.
	root     string
	cancel   context.CancelFunc
	lastEmit time.Time
	run      int // bumps on every start, so a stale run's result is ignored
}

// ErrOffline is returned by Start when the service cannot be reached: nothing was queued.
var ErrOffline = say(func() string {
	return lang.L("Agent Desk can't reach the service, so nothing was uploaded. Check your internet connection, then try again")
})

// NewUploads makes an upload queue.
func (svc *Files) NewUploads() *Uploads {
	return &Uploads{a: svc.a, state: live.NewState(UploadsState{})}
}

func (q *Uploads) State() live.Observable[UploadsState] { return q.state }

// publish builds the snapshot under the state's lock, so snapshots keep their order.
func (q *Uploads) publish() {
	q.state.Update(func(UploadsState) UploadsState {
		q.mu.Lock()
		defer q.mu.Unlock()
		items := make([]*Upload, len(q.items))
		for i, it := range q.items {
			if it.shown == nil || *it.shown != it.u {
				u := it.u
				it.shown = &u
			}
			items[i] = it.shown
		}
		return UploadsState{Items: items, Done: q.done, Linked: q.answer}
	})
}

// checkOnline refuses a drop while offline; stored counts the files, -1 for more than a page.
func (a *App) checkOnline(ctx context.Context) (stored int, err error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	p, err := a.Client().ListFiles(ctx, client.ListFilesParams{PerPage: 100}, client.WithMaxRetries(0))
	if client.IsOffline(err) || errors.Is(err, context.DeadlineExceeded) {
		return -1, ErrOffline
	}
	if client.IsAuth(err) {
		return -1, err
	}
	if err != nil || p.HasNext() {
		return -1, nil
	}
	return len(p.Data), nil
}

// roomFor is how many more files the real service will store (-1: unknown);
// others say so themselves when they refuse.
func (a *App) roomFor(stored int) int {
	c := a.Client()
	real := c.PollPath() == client.PollResponses || c.ExecuteStyle() == client.StyleRoot
	if !real || stored < 0 || stored > client.MaxStoredFiles {
		return -1
	}
	return client.MaxStoredFiles - stored
}

// Start queues the plan's files (those with a Problem as failed), or returns ErrOffline.
func (q *Uploads) Start(ctx context.Context, plan UploadPlan) ([]int64, error) {
	if len(plan.Files) == 0 {
		return nil, nil
	}
	stored, err := q.a.checkOnline(ctx)
	if err != nil {
		return nil, err
	}
	room := q.a.roomFor(stored)
	var ids []int64
	var send []*uploadItem
	q.mu.Lock()
	for _, f := range plan.Files {
		q.next++
		if f.Problem == "" && room == 0 {
			f.Problem = lang.L("The service keeps at most {{.Most}} files, and it holds {{.Stored}}. Delete some on the Files screen, then add this one again.",
				map[string]any{"Most": Number(client.MaxStoredFiles), "Stored": Number(stored)})
		} else if f.Problem == "" && room > 0 {
			room--
		}
		it := &uploadItem{u: Upload{ID: q.next, Path: f.Path, Name: f.Name, Size: f.Size, State: UploadWaiting}, problem: f.Problem, root: f.root}
		if f.Problem != "" {
			it.u.State, it.u.Message = UploadFailed, f.Problem
		} else {
			send = append(send, it)
		}
		q.items = append(q.items, it)
		ids = append(ids, it.u.ID)
	}
	q.mu.Unlock()
	q.publish()
	q.launch(send...)
	return ids, nil
}

// Cancel stops an upload; nothing half-sent is kept by the service.
func (q *Uploads) Cancel(id int64) {
	q.mu.Lock()
	changed := q.cancelLocked(q.item(id))
	q.mu.Unlock()
	if changed {
		q.publish()
	}
}

// item is upload id, nil when none; the queue is locked.
func (q *Uploads) item(id int64) *uploadItem {
	if i := slices.IndexFunc(q.items, func(it *uploadItem) bool { return it.u.ID == id }); i >= 0 {
		return q.items[i]
	}
	return nil
}

func (q *Uploads) cancelLocked(it *uploadItem) bool {
	if it == nil || it.u.Settled() {
		return false
	}
	if it.cancel != nil {
		it.cancel()
	}
	it.run++
	it.u.State, it.u.Message, it.u.Sent = UploadCancelled, lang.L("Cancelled."), 0
	return true
}

// Retry sends a failed or cancelled upload again, re-reading the file.
func (q *Uploads) Retry(id int64) {
	q.mu.Lock()
	it := q.item(id)
	if it == nil || (it.u.State != UploadFailed && it.u.State != UploadCancelled) {
		q.mu.Unlock()
		return
	}
	if it.u.File == nil {
		// Still only inside the folder it was dropped with: a file swapped
		// for a link out of it since is refused too.
		plan := planUpload([]string{it.u.Path}, it.root)
		if len(plan.Files) == 1 {
			it.problem = plan.Files[0].Problem
			it.u.Size = plan.Files[0].Size
		}
		if it.problem != "" {
			it.u.Message = it.problem
			q.mu.Unlock()
			q.publish()
			return
		}
	}
	it.u.State, it.u.Message, it.u.Sent = UploadWaiting, "", 0
	q.mu.Unlock()
	q.publish()
	q.launch(it)
}

// Remove cancels an upload and takes it out of the queue.
func (q *Uploads) Remove(id int64) { q.removeIf(func(u Upload) bool { return u.ID == id }) }

// Clear cancels and removes every upload.
func (q *Uploads) Clear() { q.removeIf(func(Upload) bool { return true }) }

// ClearSettled removes finished, failed and cancelled uploads from the list.
func (q *Uploads) ClearSettled() { q.removeIf(Upload.Settled) }

func (q *Uploads) removeIf(match func(Upload) bool) {
	q.mu.Lock()
	n := len(q.items)
	q.items = slices.DeleteFunc(q.items, func(it *uploadItem) bool {
		if match(it.u) {
			q.cancelLocked(it)
			return true
		}
		return false
	})
	changed := len(q.items) != n
	q.mu.Unlock()
	if changed {
		q.publish()
	}
}

type job struct {
	ctx    context.Context
	cancel context.CancelFunc
	it     *uploadItem
	run    int
}

// launch takes slots in order, so files go top to bottom as listed.
func (q *Uploads) launch(items ...*uploadItem) {
	if len(items) == 0 {
		return
	}
	jobs := make([]job, len(items))
	q.mu.Lock()
	for i, it := range items {
		// Uploads give way to what the user waits for (client.Pacer).
		ctx, cancel := context.WithCancel(client.Background(q.a.Life()))
		it.run++
		it.cancel = cancel
		jobs[i] = job{ctx: ctx, cancel: cancel, it: it, run: it.run}
	}
	q.mu.Unlock()
	slots := q.a.uploadSlots
	q.a.Go(func() {
		for _, j := range jobs {
			select {
			case slots <- struct{}{}:
				q.a.Go(func() { q.send(j, slots) })
			case <-j.ctx.Done():
				j.cancel()
			}
		}
	})
}

func (q *Uploads) send(j job, slots chan struct{}) {
	defer func() { <-slots }()
	defer j.cancel()
	ctx, it := j.ctx, j.it
	if !q.lock(j) {
		return
	}
	it.u.State = UploadSending
	path, name, already := it.u.Path, it.u.Name, it.u.File
	q.mu.Unlock()
	q.publish()

	file := already
	var err error
	if file == nil {
		file, err = q.a.Client().UploadFile(ctx, client.UploadParams{
			Path: path, Filename: name,
			Progress: func(sent, _ int64) { q.progress(j, sent) },
		})
		if err == nil {
			q.a.Ledger().Record(context.Background(), storage.CreditsFile, string(q.agent.ID), q.agent.Title, string(file.ID), file.Credits)
		}
	}
	var linked *client.AgentFiles
	if err == nil && q.agent.ID != "" {
		var lerr error
		linked, lerr = q.a.Client().LinkFiles(ctx, q.agent.ID, []client.ID{file.ID})
		if lerr != nil {
			err = fmt.Errorf("link: %w", lerr)
		}
	}

	if !q.lock(j) {
		return
	}
	it.cancel = nil
	if file != nil {
		it.u.File = file
	}
	switch {
	case err == nil:
		it.u.State, it.u.Sent, it.u.Message = UploadDone, it.u.Size, ""
		q.done++
	case errors.Is(err, context.Canceled):
		it.u.State, it.u.Message = UploadCancelled, lang.L("Cancelled.")
	default:
		it.u.State, it.u.Message = UploadFailed, uploadProblem(err, file != nil)
	}
	if linked != nil {
		q.answer = linked
	}
	q.mu.Unlock()
	if linked != nil {
		q.a.showLinked(q.agent.ID, linked) // the agent's file lists show it at once
	}
	q.publish()
}

// uploadProblem says why an upload failed, in plain words.
func uploadProblem(err error, uploaded bool) string {
	if uploaded {
		return lang.L("The file was uploaded but could not be linked to the agent: {{.Why}}", map[string]any{"Why": Describe(errors.Unwrap(err))})
	}
	if _, ok := errors.AsType[*fs.PathError](err); ok {
		return fileProblem(err)
	}
	if client.IsOffline(err) {
		return lang.L("The connection was lost while sending. Nothing was kept; try again.")
	}
	return Describe(err)
}

// lock locks the queue when j is its upload's newest run (a removed one's is not).
func (q *Uploads) lock(j job) bool {
	q.mu.Lock()
	if j.it.run != j.run {
		q.mu.Unlock()
		return false
	}
	return true
}

func (q *Uploads) progress(j job, sent int64) {
	if !q.lock(j) {
		return
	}
	it := j.it
	it.u.Sent = sent
	now := time.Now()
	if now.Sub(it.lastEmit) < uploadProgressGap && sent < it.u.Size {
		q.mu.Unlock()
		return
	}
	it.lastEmit = now
	q.mu.Unlock()
	q.publish()
}
