package app

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/app/find"
	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/safe"
	"github.com/agentdesk/agentdesk/storage"
)

// What the command box found.
const (
	FoundAgent   = "agent"
	FoundChat    = "chat"    // a conversation, by its title
	FoundMessage = "message" // a conversation, by words in it
	FoundMemory  = "memory"
	FoundSaved   = "saved" // a saved answer, to run again
)

// Found is one thing the command box (Ctrl+K) offers.
type Found struct {
	Kind   string
	Title  string // one line, safe to show
	Detail string // where it is, or a snippet
	// Agent is the agent found (FoundAgent).
	Agent AgentItem
	// Conversation is the chat found (FoundChat, FoundMessage).
	Conversation int64
	// Memory is the memory found (FoundMemory).
	Memory MemoryEntry
	// Saved is the saved answer found (FoundSaved), of Agent.
	Saved int64
}

// Finder finds the account's agents, chats and memories by name, as the
// command box asks: Load reads what this computer keeps once, Match runs on
// it at each key, Search asks the service and the history when typing
// pauses.
type Finder struct {
	a *App

	mu    sync.Mutex // Search adds agents while Match reads
	index find.Index[Found]
	// agents are the ids indexed, so Search adds only new ones.
	agents map[client.ID]bool

	typing  *live.Debouncer
	request live.Newest
	typed   string // guarded by mu: what SearchSoon searches for
	found   func(SearchResult)
}

// SearchResult is what Search found for Query.
type SearchResult struct {
	Query    string
	Agents   []AgentItem
	Messages []Found
	Err      error
}

// NewFinder is an empty finder of the active account's things; found hears
// each answer of SearchSoon, on a goroutine of its own.
func NewFinder(a *App, pause time.Duration, found func(SearchResult)) *Finder {
	f := &Finder{a: a, agents: map[client.ID]bool{}, found: found}
	f.typing = live.NewDebouncer(a.cfg.Clock, pause, f.searchTyped)
	return f
}

// SearchSoon searches for query once typing has paused; a newer query
// drops an older one's answer.
func (f *Finder) SearchSoon(query string) {
	f.mu.Lock()
	f.typed = query
	f.mu.Unlock()
	f.typing.Trigger()
}

func (f *Finder) searchTyped() {
	f.mu.Lock()
	q := f.typed
	f.mu.Unlock()
	ctx, cancel, gen := f.request.Start(f.a.life)
	f.a.Go(func() {
		defer cancel()
		agents, messages, err := f.Search(ctx, q)
		if f.request.Current(gen) && ctx.Err() == nil {
			f.found(SearchResult{Query: q, Agents: agents, Messages: messages, Err: err})
		}
	})
}

// Close stops a search waiting or under way.
func (f *Finder) Close() {
	f.typing.Stop()
	f.request.Stop()
}

// findTitle is how long a title found is shown.
const findTitle = 120

// Load indexes the favourite, recent and last listed agents, every agent
// of the account's agent index (Agents.IndexAll), the chats, the memories
// and the saved answers kept on this computer. What could be read is indexed even
// when a part fails, whose error is returned.
func (f *Finder) Load(ctx context.Context) error {
	a := f.a
	favourites, recent := a.Agents().Pinned()
	_, acct := a.clientAndAccount()
	listed, _, _ := a.savedAgents(agentsKey(acct))
	indexed, _ := a.Agents().Indexed()
	if len(indexed) == 0 {
		// Before any index was read: one is read for the next time, and
		// the first page, asked now, stands in for it.
		a.Agents().indexSoon(-1)
		if len(listed) == 0 {
			listed = f.firstAgents(ctx)
		}
	}
	for _, group := range [][]AgentItem{favourites, recent, listed, indexed} {
		f.addAgents(group)
	}
	convs, err := a.db.ListConversations(ctx, storage.ListParams{AccountID: acct.ID, Limit: 5000})
	mems, merr := a.db.Memories(ctx, acct.ID, "")
	saved, serr := a.SavedAnswers().All(ctx)
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range convs {
		title := safe.Text(c.Title, findTitle)
		f.index.Add(Found{Kind: FoundChat, Title: title, Detail: safe.Text(c.AgentTitle, findTitle), Conversation: c.ID}, title)
	}
	for _, m := range mems {
		line, _, _ := strings.Cut(strings.TrimSpace(m.Content), "\n")
		title := safe.Text(line, findTitle)
		f.index.Add(Found{Kind: FoundMemory, Title: title, Detail: safe.Text(m.CollectionName, findTitle), Memory: m}, title, m.CollectionName)
	}
	for _, sa := range saved {
		name, agent := safe.Text(sa.Name, findTitle), safe.Text(sa.AgentTitle, findTitle)
		f.index.Add(Found{Kind: FoundSaved, Title: name, Detail: agent, Saved: sa.ID, Agent: AgentItem{ID: client.ID(sa.AgentID), Title: agent}},
			name, agent+" "+name)
	}
	return errors.Join(err, merr, serr)
}

// firstAgents are the first agents the service lists; none when it cannot
// be asked (Search tries again as typing pauses).
func (f *Finder) firstAgents(ctx context.Context) []AgentItem {
	res, err := f.a.Client().ListAgents(ctx, client.ListAgentsParams{Page: 1, PerPage: 100})
	if err != nil {
		return nil
	}
	return visibleItems(res.Data)
}

// visibleItems are the list's parts of the agents a list may show.
func visibleItems(agents []client.Agent) []AgentItem {
	var out []AgentItem
	for i := range agents {
		if agents[i].Visible() {
			out = append(out, ItemOf(agents[i]))
		}
	}
	return out
}

func (f *Finder) addAgents(items []AgentItem) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, it := range items {
		if f.agents[it.ID] {
			continue
		}
		f.agents[it.ID] = true
		title := safe.Text(it.Title, findTitle)
		f.index.Add(Found{Kind: FoundAgent, Title: title, Detail: it.Type, Agent: it}, title)
	}
}

// Match is the best limit things indexed for query, best first.
func (f *Finder) Match(query string, limit int) []find.Hit[Found] {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.index.Match(query, limit)
}

// searchMax is how many agents and messages Search asks for.
const searchMax = 20

// Search asks the service for agents whose names hold query and the
// history for messages that do; agents found are indexed for Match too.
func (f *Finder) Search(ctx context.Context, query string) (agents []AgentItem, messages []Found, err error) {
	query = strings.TrimSpace(query)
	if len([]rune(query)) < 2 {
		return nil, nil, nil
	}
	a := f.a
	hits, herr := a.db.SearchMessages(ctx, a.AccountID(), query, searchMax)
	for _, h := range hits {
		messages = append(messages, Found{Kind: FoundMessage, Title: safe.Text(h.ConversationTitle, findTitle), Detail: safe.Text(h.Snippet, findTitle), Conversation: h.ConversationID})
	}
	res, err := a.Client().ListAgents(ctx, client.ListAgentsParams{Q: query, Page: 1, PerPage: searchMax})
	if err == nil {
		agents = visibleItems(res.Data)
		f.addAgents(agents)
	}
	if err == nil {
		err = herr
	}
	return agents, messages, err
}
