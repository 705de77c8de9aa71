package app

import (
	"context"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/clock"
	"github.com/agentdesk/agentdesk/internal/safe"
	"github.com/agentdesk/agentdesk/storage"
)

// The agent index is every agent's id, title and type, read in the
// background and kept per account, so Ctrl+K forgives a typo in any
// agent's name, not only in the ones the Agents screen has listed.
const (
	// indexPage is how many agents one request of the index asks for.
	indexPage = 100
	// indexMax bounds the agents kept: a runaway list cannot fill memory or disk.
	indexMax = 10_000
	// indexFresh is how long an index is trusted while the service's count
	// of agents stays the same.
	indexFresh = time.Hour
)

// agentIndex is what is kept: the service's count when read, and the agents.
type agentIndex struct {
	Total  int            `json:"total"`
	Agents []indexedAgent `json:"agents"`
}

// indexedAgent is one agent of the index, short keys to keep the file small.
type indexedAgent struct {
	ID    client.ID `json:"i"`
	Title string    `json:"t"`
	Type  string    `json:"y,omitempty"`
}

func agentIndexKey(acct storage.Account) string { return "agent index\n" + agentsKey(acct) }

// indexReads are the index reads under way, one per account at most, and
// what each account's index held when last read or kept.
type indexReads struct {
	mu      sync.Mutex
	running map[string]*indexRead
	known   map[string]indexKnown
}

type indexRead struct {
	done chan struct{}
	err  error
}

// indexKnown is what indexSoon weighs: the service's count and when.
type indexKnown struct {
	total int
	saved time.Time
}

func (r *indexReads) remember(key string, idx agentIndex, saved time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.known == nil {
		r.known = map[string]indexKnown{}
	}
	r.known[key] = indexKnown{total: idx.Total, saved: saved}
}

// IndexAll reads every agent's id, title and type, a page of 100 at a time
// behind what the user waits for (the account's pacer lets those go first),
// and keeps them for Ctrl+K. A read under way for the account is waited
// for, not started again; a read that fails keeps the index there was.
func (svc *Agents) IndexAll(ctx context.Context) error {
	c, acct := svc.a.clientAndAccount()
	key := agentIndexKey(acct)
	r := &svc.a.indexing
	r.mu.Lock()
	if run := r.running[key]; run != nil {
		r.mu.Unlock()
		select {
		case <-run.done:
			return run.err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	run := &indexRead{done: make(chan struct{})}
	if r.running == nil {
		r.running = map[string]*indexRead{}
	}
	r.running[key] = run
	r.mu.Unlock()

	run.err = svc.readIndex(ctx, c, key)
	r.mu.Lock()
	delete(r.running, key)
	r.mu.Unlock()
	close(run.done)
	return run.err
}

func (svc *Agents) readIndex(ctx context.Context, c *client.Client, key string) error {
	first, err := c.ListAgents(client.Background(ctx), client.ListAgentsParams{Page: 1, PerPage: indexPage})
	if err != nil {
		return err
	}
	idx := agentIndex{Total: first.Total}
	seen := map[client.ID]bool{}
	for page := first; ; {
		fresh := 0
		for i := range page.Data {
			ag := &page.Data[i]
			if seen[ag.ID] {
				continue
			}
			seen[ag.ID] = true
			fresh++
			if ag.Visible() && len(idx.Agents) < indexMax {
				idx.Agents = append(idx.Agents, indexedAgent{ID: ag.ID, Title: safe.Text(ag.Title, findTitle), Type: safe.Text(ag.Type, findTitle)})
			}
		}
		// A page with nothing new ends the read: a service that repeats
		// its pages, or lists on past indexMax, is not followed.
		if fresh == 0 || len(seen) >= indexMax || !page.HasNext() {
			break
		}
		if page, err = page.Next(client.Background(ctx)); err != nil {
			return err
		}
	}
	now := clock.Or(svc.a.cfg.Clock).Now()
	if err := svc.a.cfg.Paths.SaveSnapshot(key, idx, now); err != nil {
		return err
	}
	svc.a.indexing.remember(key, idx, now)
	return nil
}

// Indexed is the active account's agent index as last kept, and when it
// was read; none before a first read.
func (svc *Agents) Indexed() ([]AgentItem, time.Time) {
	_, acct := svc.a.clientAndAccount()
	idx, saved := svc.a.loadIndex(agentIndexKey(acct))
	out := make([]AgentItem, 0, len(idx.Agents))
	for _, ag := range idx.Agents {
		out = append(out, AgentItem{ID: ag.ID, Title: shownTitle(ag.Title), Type: ag.Type})
	}
	return out, saved
}

func (a *App) loadIndex(key string) (agentIndex, time.Time) {
	var idx agentIndex
	saved, ok := a.cfg.Paths.LoadSnapshot(key, &idx)
	if !ok {
		return agentIndex{}, time.Time{}
	}
	if len(idx.Agents) > indexMax {
		idx.Agents = idx.Agents[:indexMax]
	}
	a.indexing.remember(key, idx, saved)
	return idx, saved
}

// indexSoon reads the index in the background when there is none, when it
// is older than indexFresh, or when the service now counts total agents
// where it counted others (total < 0: not known).
func (svc *Agents) indexSoon(total int) {
	a := svc.a
	_, acct := a.clientAndAccount()
	key := agentIndexKey(acct)
	a.Go(func() {
		a.indexing.mu.Lock()
		known, ok := a.indexing.known[key]
		a.indexing.mu.Unlock()
		if !ok {
			idx, saved := a.loadIndex(key)
			known = indexKnown{total: idx.Total, saved: saved}
		}
		if !known.saved.IsZero() && clock.Or(a.cfg.Clock).Now().Sub(known.saved) < indexFresh && (total < 0 || total == known.total) {
			return
		}
		// An index that could not be read or kept costs only typos
		// forgiven in names not listed: Ctrl+K still finds those through
		// the service's search, and the next list tries again.
		_ = svc.IndexAll(a.life)
	})
}
