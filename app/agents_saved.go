package app

import (
	"context"
	"errors"
	"time"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/storage"
)

// savedAgentsMax is how many of the first agents are kept for offline starts.
const savedAgentsMax = 500

// savedAgentsKey names an account's saved list, by address and workspace.
func savedAgentsKey(acct storage.Account) string {
	return "agents\n" + acct.ID + "\n" + acct.BaseURL + "\n" + acct.WorkspaceID
}

// clientAndAccount reads the active account and client together, so a switch
// cannot mix two accounts' lists.
func (a *App) clientAndAccount() (*client.Client, storage.Account) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.client, a.account
}

// saveAgents keeps the first agents for an offline start; a failure is only
// missed offline, so not reported.
func (a *App) saveAgents(key string, agents []AgentItem) {
	if len(agents) > savedAgentsMax {
		agents = agents[:savedAgentsMax]
	}
	_ = a.paths.SaveSnapshot(key, agents, time.Now())
}

// savedAgents is the active account's saved list and when it was saved.
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

// showSaved reports a failure the saved list may stand in for: unreachable,
// slow or failing service. A rejected key or workspace is the user's to fix,
// and the old list would hide that.
func showSaved(err error) bool {
	if client.IsOffline(err) || errors.Is(err, context.DeadlineExceeded) || client.IsRateLimited(err) {
		return true
	}
	return client.StatusCode(err) >= 500
}
