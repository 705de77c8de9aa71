package app

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
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
	loads int    // loads under way
	gen   uint64 // reloads started: only the newest is published
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

// StatusText is a file's status in plain words; a file this list asked to
// process reads "Processing…" while the service says waiting.
func (s FilesState) StatusText(f client.File) string {
	if s.asked[f.ID] && f.Status == FileWaiting {
		return FileStatusText("in_progress")
	}
	return FileStatusText(f.Status)
}

// FileList is the workspace's files, page by page. While watched and a file
// is processing it reloads every FilesRefreshEvery; otherwise nothing runs.
// Safe for concurrent use.
type FileList struct {
	a       *App
	order   string
	perPage int
	state   *live.State[FilesState]

	mu       sync.Mutex
	paging   bool               // a page asked for by More is on its way
	reload   context.CancelFunc // ends the reload under way
	watchers int
	poll     *poller      // the refresh under way while files process
	polls    atomic.Int32 // refreshes still running, a stopped one too (Refreshing)
}

// poller is one run of the refresh while files process.
type poller struct{ stop context.CancelFunc }

// NewList lists the workspace's files in order "desc" or "asc"; nothing loads
// before LoadMore, More or Reload.
func (svc *Files) NewList(order string) *FileList {
	if order != "asc" {
		order = "desc"
	}
	return &FileList{a: svc.a, order: order, perPage: FilesPerPage, state: live.NewState(FilesState{More: true})}
}

// State is the list as it is now, and news of each change.
func (l *FileList) State() live.Observable[FilesState] { return l.state }

// Order is "desc" (newest first) or "asc".
func (l *FileList) Order() string { return l.order }

// Files is what was loaded so far (shared: never modify it).
func (l *FileList) Files() []client.File { return l.state.Get().Files }

// HasMore reports whether another page may follow.
func (l *FileList) HasMore() bool { return l.state.Get().More }

// Unsettled reports whether a loaded file is still being processed.
func (l *FileList) Unsettled() bool { return l.state.Get().Unsettled() }

// StatusText is FilesState.StatusText on the current state.
func (l *FileList) StatusText(f client.File) string { return l.state.Get().StatusText(f) }

// More loads the next page in the background, unless one is on its way or none follows.
func (l *FileList) More() {
	if s := l.state.Get(); s.Loaded && !s.More {
		return
	}
	l.mu.Lock()
	if l.paging {
		l.mu.Unlock()
		return
	}
	l.paging = true
	l.mu.Unlock()
	l.a.Go(func() {
		_, _ = l.LoadMore(l.a.Life())
		l.mu.Lock()
		l.paging = false
		l.mu.Unlock()
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
	page := 0
	l.state.Update(func(s FilesState) FilesState {
		page = s.pages + 1
		s.loads++
		s.Loading = true
		return s
	})
	p, err := l.a.Client().ListFiles(ctx, client.ListFilesParams{Page: page, PerPage: l.perPage, Order: l.order})
	added := false
	l.state.Update(func(s FilesState) FilesState {
		s.loads--
		s.Loading = s.loads > 0
		if err != nil {
			if ctx.Err() == nil {
				s.Err = err
			}
			return s
		}
		if s.pages != page-1 {
			return s // a reload ran meanwhile
		}
		seen := make(map[client.ID]bool, len(s.Files))
		for _, f := range s.Files {
			seen[f.ID] = true
		}
		// Other changes make new slices, so appending never touches an older snapshot.
		files := s.Files
		for _, f := range p.Data {
			if !seen[f.ID] {
				seen[f.ID] = true
				files = append(files, f)
				added = true
			}
		}
		s.Files, s.pages, s.Loaded, s.More, s.Err = files, page, true, p.HasNext(), nil
		return s
	})
	l.watch()
	return added, err
}

// Reload fetches again as many pages as were loaded; a reload under way is
// cancelled, so the newest is shown.
func (l *FileList) Reload(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	l.mu.Lock()
	if l.reload != nil {
		l.reload()
	}
	l.reload = cancel
	l.mu.Unlock()

	var gen uint64
	pages := 1
	l.state.Update(func(s FilesState) FilesState {
		s.gen++
		gen, pages = s.gen, max(s.pages, 1)
		s.loads++
		s.Loading = true
		return s
	})
	var files []client.File
	more := false
	seen := map[client.ID]bool{}
	var err error
	for page := 1; page <= pages; page++ {
		var p *client.Page[client.File]
		p, err = l.a.Client().ListFiles(ctx, client.ListFilesParams{Page: page, PerPage: l.perPage, Order: l.order})
		if err != nil {
			break
		}
		for _, f := range p.Data {
			if !seen[f.ID] {
				seen[f.ID] = true
				files = append(files, f)
			}
		}
		more = p.HasNext()
		if !more {
			pages = page
			break
		}
	}
	l.state.Update(func(s FilesState) FilesState {
		s.loads--
		s.Loading = s.loads > 0
		if s.gen != gen || ctx.Err() != nil {
			return s // a newer reload shows, or nobody waits any more
		}
		if err != nil {
			s.Err = err
			return s
		}
		s.Files, s.pages, s.More, s.Loaded, s.Err = files, pages, more, true, nil
		return s
	})
	l.watch()
	return err
}

// Watch keeps the list fresh while shown and a file is processing, until
// stop or app close; a file starting to process later restarts it.
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
			if l.watchers == 0 && l.poll != nil {
				l.poll.stop()
				l.poll = nil
			}
		})
	}
}

func (l *FileList) watch() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.watchers == 0 || l.poll != nil || !l.state.Get().Unsettled() {
		return
	}
	ctx, cancel := context.WithCancel(l.a.Life())
	p := &poller{stop: cancel}
	l.poll = p
	every := cmp.Or(l.a.cfg.FilesRefreshEvery, FilesRefreshEvery)
	l.a.Go(func() {
		l.polls.Add(1)
		defer l.polls.Add(-1)
		defer cancel()
		t := time.NewTimer(every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if !l.pollOn(p) {
				return
			}
			_ = l.Reload(ctx)
			if !l.pollOn(p) {
				return
			}
			t.Reset(every)
		}
	})
}

// Refreshing reports whether a refresh still runs, even a stopped one finishing.
func (l *FileList) Refreshing() bool { return l.polls.Load() > 0 }

// pollOn reports whether refresh p should go on; when not, it is forgotten
// so the next processing file starts a new one.
func (l *FileList) pollOn(p *poller) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.poll != p {
		return false
	}
	if !l.state.Get().Unsettled() {
		l.poll = nil
		return false
	}
	return true
}

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

// Link links workspace files to an agent; FilesCount in the answer says how
// many are ready. Every list of the agent's files shows the answer.
func (svc *Files) Link(ctx context.Context, agentID client.ID, fileIDs []client.ID) (*client.AgentFiles, error) {
	res, err := svc.a.Client().LinkFiles(ctx, agentID, fileIDs)
	if err == nil {
		for _, l := range svc.a.linkedListsOf(agentID) {
			l.show(res)
		}
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

// LinkSummary says what a link did, in plain words.
func LinkSummary(res *client.AgentFiles) string {
	if res == nil || res.FilesCount == nil {
		return lang.L("Files linked.")
	}
	c := res.FilesCount
	return lang.L("Linked. {{.Ready}} ready, {{.Failed}} failed, {{.Processing}} still processing.",
		map[string]any{"Ready": Number(c.Completed), "Failed": Number(c.Failed), "Processing": Number(c.InProgress)})
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

// DeleteFile deletes a stored file from the service, every agent and the
// loaded list; a file already gone counts as deleted.
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

// ProcessFile asks the service to process a stored file, which costs credits
// (say so first); a watched list follows its status.
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

// ProcessFiles and DeleteFiles act one file at a time, keeping the account's
// pace; the first failure stops the rest. Both report how many went through.
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

// Files is the account's files.
func (a *App) Files() *Files { return &Files{a} }

// LinkedFiles are the files linked to one agent, as its Files tab shows them.
type LinkedFiles struct {
	*live.List[client.File]
	a     *App
	agent client.Agent
}

// NewLinked lists the files linked to agent; nothing loads before Reload.
// Links and unlinks made anywhere in the app show in it at once.
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

// linkedListsOf are the live lists of an agent's files in a.
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

// NewUploads is an upload queue whose files are linked to the agent once uploaded.
func (l *LinkedFiles) NewUploads() *Uploads {
	q := l.a.Files().NewUploads(UploadOptions{LinkTo: l.agent.ID, AgentTitle: l.agent.Title})
	q.linked = func(res *client.AgentFiles) {
		for _, each := range l.a.linkedListsOf(l.agent.ID) {
			each.show(res)
		}
	}
	return q
}

// Link links workspace files to the agent; FilesCount says how many are ready.
func (l *LinkedFiles) Link(ctx context.Context, ids []client.ID) (*client.AgentFiles, error) {
	return l.a.Files().Link(ctx, l.agent.ID, ids)
}

// Unlink removes a file from the agent (not the workspace), then reloads.
func (l *LinkedFiles) Unlink(ctx context.Context, id client.ID) error {
	return l.a.Files().Unlink(ctx, l.agent.ID, id)
}

// unlinked takes a file off the list at once and loads it again.
func (l *LinkedFiles) unlinked(id client.ID) {
	l.Change(func(files []client.File) []client.File {
		return slices.DeleteFunc(slices.Clone(files), func(f client.File) bool { return f.ID == id })
	})
	l.Reload()
}

// show publishes a link's answer; a load under way began before the link, so
// it is restarted.
func (l *LinkedFiles) show(res *client.AgentFiles) {
	st := l.Update(func(s live.ListState[client.File]) live.ListState[client.File] {
		s.Items, s.Loaded, s.Err = res.Files, true, nil
		return s
	})
	if st.Loading {
		l.Reload()
	}
}
