package app

import (
	"context"
	"slices"
	"sync"
	"weak"

	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
)

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
