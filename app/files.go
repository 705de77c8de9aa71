package app

import (
	"context"
	"fmt"
	"sync"

	"github.com/agentdesk/agentdesk/client"
)

// FilesPerPage is how many files one page of the Files screen asks for.
const FilesPerPage = 50

// FileList is the workspace's files as the Files screen pages through them:
// LoadMore adds the next page, Reload fetches again what was loaded (to see
// processing files settle). It is safe for use from several goroutines.
type FileList struct {
	a       *App
	order   string
	perPage int

	mu     sync.Mutex
	files  []client.File
	pages  int
	more   bool
	loaded bool
	// processing are files this list asked the service to process: a
	// "waiting" status is watched for them, not for files merely stored.
	processing map[client.ID]bool
}

// NewFileList lists the workspace's files, newest first ("desc") or oldest
// first ("asc").
func (a *App) NewFileList(order string) *FileList {
	if order != "asc" {
		order = "desc"
	}
	return &FileList{a: a, order: order, perPage: FilesPerPage, more: true}
}

// Order is "desc" (newest first) or "asc".
func (l *FileList) Order() string { return l.order }

// Files is a copy of what was loaded so far.
func (l *FileList) Files() []client.File {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]client.File(nil), l.files...)
}

// HasMore reports whether another page may follow.
func (l *FileList) HasMore() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.more
}

// Loaded reports whether the first page has arrived.
func (l *FileList) Loaded() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.loaded
}

// LoadMore fetches the next page and adds it; it reports whether anything
// was added.
func (l *FileList) LoadMore(ctx context.Context) (bool, error) {
	l.mu.Lock()
	if l.loaded && !l.more {
		l.mu.Unlock()
		return false, nil
	}
	page := l.pages + 1
	l.mu.Unlock()
	p, err := l.a.Client().ListFiles(ctx, client.ListFilesParams{Page: page, PerPage: l.perPage, Order: l.order})
	if err != nil {
		return false, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pages != page-1 {
		return false, nil // a Reload ran meanwhile
	}
	seen := make(map[client.ID]bool, len(l.files))
	for _, f := range l.files {
		seen[f.ID] = true
	}
	added := false
	for _, f := range p.Data {
		if !seen[f.ID] {
			l.files = append(l.files, f)
			added = true
		}
	}
	l.pages, l.loaded, l.more = page, true, p.HasNext()
	return added, nil
}

// Reload fetches again as many pages as were loaded (at least one), so new
// uploads appear and processing files show their new state.
func (l *FileList) Reload(ctx context.Context) error {
	l.mu.Lock()
	pages := max(l.pages, 1)
	l.mu.Unlock()
	var files []client.File
	more := false
	seen := map[client.ID]bool{}
	for page := 1; page <= pages; page++ {
		p, err := l.a.Client().ListFiles(ctx, client.ListFilesParams{Page: page, PerPage: l.perPage, Order: l.order})
		if err != nil {
			return err
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
	l.mu.Lock()
	l.files, l.pages, l.more, l.loaded = files, pages, more, true
	l.mu.Unlock()
	return nil
}

// Unsettled reports whether a loaded file is still being processed by the
// service (its status is not "completed" and not a failure).
func (l *FileList) Unsettled() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, f := range l.files {
		if !FileSettled(f) && (f.Status != FileWaiting || l.processing[f.ID]) {
			return true
		}
	}
	return false
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
		return "Ready"
	case "processing", "in_progress", "pending", "queued":
		return "Processing…"
	case FileWaiting:
		return "Not processed"
	case "failed", "error":
		return "Failed"
	case "":
		return "Unknown"
	}
	return sentence(status)
}

// AgentFiles lists the files linked to an agent.
func (a *App) AgentFiles(ctx context.Context, agentID client.ID) (*client.AgentFiles, error) {
	return a.Client().ListAgentFiles(ctx, agentID)
}

// LinkFiles links workspace files to an agent; the answer's FilesCount says
// how many are completed, failed and in progress.
func (a *App) LinkFiles(ctx context.Context, agentID client.ID, fileIDs []client.ID) (*client.AgentFiles, error) {
	return a.Client().LinkFiles(ctx, agentID, fileIDs)
}

// UnlinkFile removes a file from an agent (the file stays in the workspace,
// so LinkFiles undoes it).
func (a *App) UnlinkFile(ctx context.Context, agentID, fileID client.ID) error {
	_, err := a.Client().UnlinkFile(ctx, agentID, fileID)
	return err
}

// maxLinkTargets bounds how many agents are offered when linking files
// from the Files screen.
const maxLinkTargets = 500

// LinkTargets are the agents files can be linked to, for choosing one.
func (a *App) LinkTargets(ctx context.Context) ([]client.Agent, error) {
	var out []client.Agent
	for ag, err := range a.Client().Agents(ctx, client.ListAgentsParams{PerPage: 100}) {
		if err != nil {
			return out, err
		}
		out = append(out, ag)
		if len(out) >= maxLinkTargets {
			break
		}
	}
	return out, nil
}

// LinkSummary says what a link did, in plain words.
func LinkSummary(res *client.AgentFiles) string {
	if res == nil || res.FilesCount == nil {
		return "Files linked."
	}
	c := res.FilesCount
	return fmt.Sprintf("Linked. %d ready, %d failed, %d still processing.", c.Completed, c.Failed, c.InProgress)
}

// HumanBytes is a size in the units people use (KB, MB, GB).
func HumanBytes(n int64) string {
	const unit = 1000
	if n < unit {
		if n == 1 {
			return "1 byte"
		}
		return fmt.Sprintf("%d bytes", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	v := float64(n) / float64(div)
	units := "KMGTPE"
	if v < 10 {
		return fmt.Sprintf("%.1f %cB", v, units[exp])
	}
	return fmt.Sprintf("%.0f %cB", v, units[exp])
}

// DeleteFile deletes a stored file from the service (and so from every
// agent it was linked to) and from the loaded list. A file already gone
// counts as deleted.
func (l *FileList) DeleteFile(ctx context.Context, id client.ID) error {
	if err := l.a.Client().DeleteFile(ctx, id); err != nil && !(client.IsNotFound(err) && !client.IsUnsupported(err)) {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, f := range l.files {
		if f.ID == id {
			l.files = append(l.files[:i:i], l.files[i+1:]...)
			break
		}
	}
	return nil
}

// ProcessFile asks the service to process a stored file, which costs
// credits (say so before calling). The file's new record replaces the
// loaded one; Reload follows its status to completed.
func (l *FileList) ProcessFile(ctx context.Context, id client.ID) (*client.File, error) {
	f, err := l.a.Client().ProcessFile(ctx, id)
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.processing == nil {
		l.processing = map[client.ID]bool{}
	}
	l.processing[id] = true
	for i := range l.files {
		if l.files[i].ID == id {
			if f.ID == "" {
				f.ID = id
			}
			if f.Filename == "" {
				f.Filename = l.files[i].Filename
				f.Bytes = l.files[i].Bytes
			}
			l.files[i] = *f
		}
	}
	return f, nil
}

// CanStoreMore reports whether the account is below the service's limit of
// stored files, as far as the loaded list shows (unknown counts as yes).
func (l *FileList) CanStoreMore() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.files) < client.MaxStoredFiles
}

// StatusText is a loaded file's status in plain words: a file this list
// asked to process reads "Processing…" while the service still says
// waiting.
func (l *FileList) StatusText(f client.File) string {
	l.mu.Lock()
	asked := l.processing[f.ID]
	l.mu.Unlock()
	if asked && f.Status == FileWaiting {
		return FileStatusText("in_progress")
	}
	return FileStatusText(f.Status)
}
