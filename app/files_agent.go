package app

import (
	"context"
	"slices"
	"sync"
	"weak"

	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
)

// LinkedFiles are the files linked to one agent, as its Files tab shows
// them: a List loaded from the service, which links, unlinks and uploads
// linked to the agent change at once.
type LinkedFiles struct {
	*live.List[client.File]
	a     *App
	agent client.Agent
}

// NewLinked lists the files linked to agent; nothing is loaded before
// Reload. Every link and unlink of the agent's files, wherever it is made
// in the app (its Files tab, the Files screen), shows in it at once.
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

// linkedFiles are the LinkedFiles lists made, weak: a list whose tab is
// gone is let go.
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

// NewUploads is an upload queue whose files are linked to the agent once
// uploaded; each link's answer shows at once in every list of the agent's
// files.
func (l *LinkedFiles) NewUploads() *Uploads {
	q := l.a.Files().NewUploads(UploadOptions{LinkTo: l.agent.ID, AgentTitle: l.agent.Title})
	q.linked = func(res *client.AgentFiles) {
		for _, each := range l.a.linkedListsOf(l.agent.ID) {
			each.show(res)
		}
	}
	return q
}

// Link links workspace files to the agent; the answer's FilesCount says
// how many are completed, failed and in progress.
func (l *LinkedFiles) Link(ctx context.Context, ids []client.ID) (*client.AgentFiles, error) {
	return l.a.Files().Link(ctx, l.agent.ID, ids)
}

// Unlink removes a file from the agent (the file stays in the workspace,
// so Link undoes it); the list loses it at once and loads again.
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

// show publishes the agent's file set from a link's answer. A load still
// under way began before the link, so it is started again.
func (l *LinkedFiles) show(res *client.AgentFiles) {
	st := l.Update(func(s live.ListState[client.File]) live.ListState[client.File] {
		s.Items, s.Loaded, s.Err = res.Files, true, nil
		return s
	})
	if st.Loading {
		l.Reload()
	}
}
