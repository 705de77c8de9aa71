package app

import (
	"context"
	"errors"
	"time"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/storage"
)

// savedAgentsMax is how many agents of the full list are kept to be shown
// when the service cannot be reached (the first pages: what a start shows).
const savedAgentsMax = 500

// savedAgentsKey names the saved list of an account: a list is the
// account's at one address and workspace.
func savedAgentsKey(acct storage.Account) string {
	return "agents\n" + acct.ID + "\n" + acct.BaseURL + "\n" + acct.WorkspaceID
}

// clientAndAccount are the active account and its client, read together
// (an account switched in between would mix one's list with the other's).
func (a *App) clientAndAccount() (*client.Client, storage.Account) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.client, a.account
}

// saveAgents keeps the first agents of the full list for a start without
// the service. A list that cannot be kept is not worth a word to the user:
// it is only missed offline.
func (a *App) saveAgents(key string, agents []AgentItem) {
	if len(agents) > savedAgentsMax {
		agents = agents[:savedAgentsMax]
	}
	_ = a.paths.SaveSnapshot(key, agents, time.Now())
}

// savedAgents is the list kept for the active account, and when it was
// saved.
func (a *App) savedAgents(key string) ([]AgentItem, time.Time, bool) {
	var agents []AgentItem
	saved, ok := a.paths.LoadSnapshot(key, &agents)
	if !ok || len(agents) == 0 {
		return nil, time.Time{}, false
	}
	if len(agents) > savedAgentsMax {
		agents = agents[:savedAgentsMax]
	}
	for i := range agents {
		agents[i].Title = shownTitle(agents[i].Title) // a file is read as the service's words are
	}
	return agents, saved, true
}

// showSaved reports whether a failure to load the list is one the saved
// list stands in for: the service could not be reached or did not answer
// in time, or failed itself. A rejected key or a workspace without access
// are the user's to fix, and the old list would hide that.
func showSaved(err error) bool {
	if client.IsOffline(err) || errors.Is(err, context.DeadlineExceeded) || client.IsRateLimited(err) {
		return true
	}
	return client.StatusCode(err) >= 500
}
