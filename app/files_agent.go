package app

import (
	"context"
	"slices"

	"github.com/agentdesk/agentdesk/client"
)

// LinkedFiles are the files linked to one agent, as its Files tab shows
// them: a List loaded from the service, which links, unlinks and uploads
// linked to the agent change at once.
type LinkedFiles struct {
	*List[client.File]
	a     *App
	agent client.Agent
}

// NewLinkedFiles lists the files linked to agent; nothing is loaded before
// Reload.
func (a *App) NewLinkedFiles(agent client.Agent) *LinkedFiles {
	l := &LinkedFiles{a: a, agent: agent}
	l.List = NewList(a, func(ctx context.Context) ([]client.File, error) {
		res, err := a.AgentFiles(ctx, agent.ID)
		if err != nil {
			return nil, err
		}
		return res.Files, nil
	})
	return l
}

// NewUploads is an upload queue whose files are linked to the agent once
// uploaded; each link's answer shows in the list at once.
func (l *LinkedFiles) NewUploads() *Uploads {
	q := l.a.NewUploads(UploadOptions{LinkTo: l.agent.ID, AgentTitle: l.agent.Title})
	q.linked = l.show
	return q
}

// Link links workspace files to the agent; the answer's FilesCount says
// how many are completed, failed and in progress.
func (l *LinkedFiles) Link(ctx context.Context, ids []client.ID) (*client.AgentFiles, error) {
	res, err := l.a.LinkFiles(ctx, l.agent.ID, ids)
	if err == nil {
		l.show(res)
	}
	return res, err
}

// Unlink removes a file from the agent (the file stays in the workspace,
// so Link undoes it); the list loses it at once and loads again.
func (l *LinkedFiles) Unlink(ctx context.Context, id client.ID) error {
	if err := l.a.UnlinkFile(ctx, l.agent.ID, id); err != nil {
		return err
	}
	l.Change(func(files []client.File) []client.File {
		return slices.DeleteFunc(slices.Clone(files), func(f client.File) bool { return f.ID == id })
	})
	l.Reload()
	return nil
}

// show publishes the agent's file set from a link's answer. A load still
// under way began before the link, so it is started again.
func (l *LinkedFiles) show(res *client.AgentFiles) {
	st := l.Update(func(s ListState[client.File]) ListState[client.File] {
		s.Items, s.Loaded, s.Err = res.Files, true, nil
		return s
	})
	if st.Loading {
		l.Reload()
	}
}
