package app

import (
	"context"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/safe"
	"github.com/agentdesk/agentdesk/storage"
)

// AgentTypes are the type filter's choices in order; "" means every type.
var AgentTypes = []string{"", client.AgentChat, client.AgentImage, client.AgentText, client.AgentVideo}

// AgentsPerPage is how many agents one request asks for: enough to fill a
// tall list, small enough to answer fast.
const AgentsPerPage = 30

// AgentItem is what the agents list keeps of one agent: what a row shows
// and what opening the agent needs. The rest (long description, questions,
// fields this app does not know) is read when the agent is opened
// (GetAgent): 10,000 items hold about 1.7 MB of heap, 10,000 full records
// (questions, options, unknown fields) about 12.5 MB.
type AgentItem struct {
	ID          client.ID
	Title       string
	Description string
	Type        string
}

// ItemOf is the list's part of a full agent. The title is only shown, as
// one line of the list, so it is kept the way it may be shown (safe.Text):
// a title from the service cannot break the row with a line break or turn
// its words around to pass for another.
func ItemOf(a client.Agent) AgentItem {
	desc := a.Description
	if a.Inactive() {
		// Marked in the list too, before anyone opens it to run it.
		desc = lang.L("Switched off · {{.Description}}", map[string]any{"Description": desc})
	}
	return AgentItem{ID: a.ID, Title: shownTitle(a.Title), Description: desc, Type: a.Type}
}

// shownTitle is safe.Text(s, 0), keeping s itself when nothing changes so
// that a list of 10,000 agents holds no second copy of their titles.
func shownTitle(s string) string {
	if t := safe.Text(s, 0); t != s {
		return t
	}
	return s
}

// FilterAgents returns the agents of one type ("" keeps all), in order. The
// browser uses it to narrow what is already loaded at once, while the
// service answers the new query.
func FilterAgents(agents []AgentItem, typ string) []AgentItem {
	if typ == "" {
		return agents
	}
	out := make([]AgentItem, 0, len(agents)/4+1)
	for i := range agents {
		if agents[i].Type == typ {
			out = append(out, agents[i])
		}
	}
	return out
}

// AgentQuery is what the browser asks the service for.
type AgentQuery struct {
	Q    string
	Type string
}

// typeWords are the words staff search for an agent type with, in every
// language Agent Desk speaks.
var typeWords = map[string]string{
	"chat": client.AgentChat, "chats": client.AgentChat, "chatbot": client.AgentChat,
	"image": client.AgentImage, "images": client.AgentImage, "picture": client.AgentImage,
	"pictures": client.AgentImage, "photo": client.AgentImage, "photos": client.AgentImage,
	"text": client.AgentText, "texts": client.AgentText, "writing": client.AgentText,
	"video": client.AgentVideo, "videos": client.AgentVideo, "film": client.AgentVideo,
	// Portuguese and Spanish
	"conversa": client.AgentChat, "conversas": client.AgentChat,
	"imagem": client.AgentImage, "imagens": client.AgentImage, "imagen": client.AgentImage,
	"imágenes": client.AgentImage, "foto": client.AgentImage, "fotos": client.AgentImage,
	"texto": client.AgentText, "textos": client.AgentText,
	"vídeo": client.AgentVideo, "vídeos": client.AgentVideo,
}

// forService is the query as the service is asked it: the service
// searches titles and descriptions only, so a search that is a type's word
// ("image", "videos") lists the agents of that type instead (when no type
// is chosen already).
func (q AgentQuery) forService() AgentQuery {
	if typ, ok := typeWords[strings.ToLower(strings.TrimSpace(q.Q))]; ok && q.Type == "" {
		return AgentQuery{Type: typ}
	}
	return q
}

// AgentPage is the agents list as the screen shows it: the agents of one
// query loaded so far, and whether more are on their way.
type AgentPage struct {
	Query AgentQuery
	// Agents are the loaded agents in order, shared between snapshots: a
	// later page is appended after a snapshot's length, never written
	// below it, so 10,000 agents are not copied for every page.
	Agents []AgentItem
	// Series changes whenever Agents starts afresh (a new query, its
	// first page, the saved list, Clear); within one series a later
	// snapshot holds an earlier one's agents and maybe more (Extends).
	Series  int
	Total   int
	Loading bool // a first page or the next page is on its way
	HasMore bool
	// Err is the failure of the last request; Agents keeps what was loaded.
	Err error
	// Saved is when the Agents shown were saved, when the service could
	// not be reached at the start and they are the list kept from an
	// earlier time; zero when they come from the service now.
	Saved time.Time
}

// Extends tells whether p holds old's agents followed by more: a next
// page of the same list, the rows shown before unchanged.
func (p AgentPage) Extends(old AgentPage) bool {
	return p.Series == old.Series && p.Query == old.Query && len(p.Agents) > len(old.Agents)
}

// SameAgents tells whether p lists just the agents old did (a page on its
// way, a failure to load more): a list showing old needs no redrawing.
func (p AgentPage) SameAgents(old AgentPage) bool {
	return p.Series == old.Series && p.Query == old.Query && len(p.Agents) == len(old.Agents)
}

// AgentBrowser keeps the agents of one query, page by page, and publishes
// them as AgentPage. A new query cancels the request it replaces, and an
// answer to an older query is dropped, so a slow old answer never
// overwrites a newer one. Its requests are the app's work: Close cancels
// and waits for them.
type AgentBrowser struct {
	app   *App
	state *live.State[AgentPage]

	mu sync.Mutex
	// page is what the next snapshot publishes.
	page AgentPage
	// series numbers the lists page.Agents started (AgentPage.Series).
	series   int
	gen      int
	nextPage int
	cancel   context.CancelFunc // the request in flight
	typed    *AgentQuery        // a search waiting for typing to pause
	typing   *live.Debouncer
}

// NewBrowser makes a browser; nothing is asked before Search. pause is
// how long typing must rest before SearchSoon asks the service.
func (svc *Agents) NewBrowser(pause time.Duration) *AgentBrowser {
	a := svc.a
	b := &AgentBrowser{app: a, state: live.NewState(AgentPage{})}
	b.typing = live.NewDebouncer(pause, b.searchTyped)
	return b
}

// State is the list as it stands, and its changes.
func (b *AgentBrowser) State() live.Observable[AgentPage] { return b.state }

// publish makes the browser's page the new snapshot. The page is read under
// the state's lock, so the newest version always holds the newest page.
func (b *AgentBrowser) publish() {
	b.state.Update(func(AgentPage) AgentPage {
		b.mu.Lock()
		defer b.mu.Unlock()
		return b.page
	})
}

// Search starts a new query, cancelling the one in flight and a search
// still waiting. Agents already loaded that match the new type stay
// visible until the answer comes.
func (b *AgentBrowser) Search(q AgentQuery) {
	b.mu.Lock()
	b.startLocked(q)
	b.mu.Unlock()
	b.publish()
}

// SearchSoon searches for q once typing has paused (the pause the browser
// was made with): the search box asks the service once per pause, not once
// per key. Search, or Clear, meanwhile drops it.
func (b *AgentBrowser) SearchSoon(q AgentQuery) {
	b.mu.Lock()
	b.typed = &q
	b.mu.Unlock()
	b.typing.Trigger()
}

// searchTyped starts the search typing asked for, unless it was dropped or
// the app is closing.
func (b *AgentBrowser) searchTyped() {
	b.mu.Lock()
	q := b.typed
	b.typed = nil
	if q == nil || b.app.life.Err() != nil {
		b.mu.Unlock()
		return
	}
	b.startLocked(*q)
	b.mu.Unlock()
	b.publish()
}

// startLocked replaces the query and asks for its first page.
func (b *AgentBrowser) startLocked(q AgentQuery) {
	b.stopLocked()
	keep := FilterAgents(b.page.Agents, q.Type)
	if q.Q != b.page.Query.Q {
		keep = nil
	}
	// The saved list stays, said to be the saved one, while the full list
	// is asked for again; it is no answer to a search or a filter.
	saved := b.page.Saved
	if !saved.IsZero() && q != (AgentQuery{}) {
		keep, saved = nil, time.Time{}
	}
	b.series++
	b.page = AgentPage{Query: q, Agents: keep, Series: b.series, Loading: true, Saved: saved}
	b.nextPage = 1
	b.loadLocked()
}

// stopLocked cancels the request in flight and drops a search still waiting;
// an answer still on its way is then dropped.
func (b *AgentBrowser) stopLocked() {
	if b.cancel != nil {
		b.cancel()
	}
	b.typed = nil
	b.gen++
}

// Reload asks again for the current query (Retry).
func (b *AgentBrowser) Reload() {
	b.mu.Lock()
	q := b.page.Query
	b.mu.Unlock()
	b.Search(q)
}

// Clear forgets the agents shown (another account became active) and stops
// the requests under way; the query stays.
func (b *AgentBrowser) Clear() {
	b.mu.Lock()
	b.stopLocked()
	b.series++
	b.page = AgentPage{Query: b.page.Query, Series: b.series}
	b.mu.Unlock()
	b.publish()
}

// LoadMore asks for the next page unless one is on its way or all are in.
func (b *AgentBrowser) LoadMore() {
	b.mu.Lock()
	if b.page.Loading || !b.page.HasMore {
		b.mu.Unlock()
		return
	}
	b.page.Loading = true
	b.page.Err = nil
	b.loadLocked()
	b.mu.Unlock()
	b.publish()
}

// loadLocked asks for the next page of the current query in the background.
func (b *AgentBrowser) loadLocked() {
	gen, page, q := b.gen, b.nextPage, b.page.Query
	c, acct := b.app.clientAndAccount()
	key := savedAgentsKey(acct)
	ctx, cancel := context.WithCancel(b.app.life)
	b.cancel = cancel
	b.app.Go(func() {
		defer cancel()
		sq := q.forService()
		res, err := c.ListAgents(ctx, client.ListAgentsParams{Q: sq.Q, Type: sq.Type, Page: page, PerPage: AgentsPerPage})
		b.mu.Lock()
		if gen != b.gen || ctx.Err() != nil {
			// A newer query, or the app closing: this answer is not wanted.
			b.mu.Unlock()
			return
		}
		b.page.Loading = false
		full := q == AgentQuery{}
		if err != nil {
			b.page.Err = err
			if page == 1 && full && showSaved(err) {
				if agents, saved, ok := b.app.savedAgents(key); ok {
					b.series++
					b.page.Agents, b.page.Total, b.page.HasMore, b.page.Saved = agents, len(agents), false, saved
					b.page.Series = b.series
				}
			}
			b.mu.Unlock()
			b.publish()
			return
		}
		agents := b.page.Agents
		if page == 1 {
			// A new query starts a new backing: snapshots of the old one
			// stay as they were.
			agents = make([]AgentItem, 0, len(res.Data))
			b.series++
			b.page.Series = b.series
		}
		// Appended in place (amortised growth), not copied whole for every
		// page (333 copies of up to 10,000 records, the garbage of which set
		// the heap's size): earlier snapshots only read below their own
		// length, which this never writes.
		for i := range res.Data {
			if res.Data[i].Visible() {
				agents = append(agents, ItemOf(res.Data[i]))
			}
		}
		b.page.Agents = agents
		b.page.Total = res.Total
		b.page.HasMore = res.HasNext() && len(res.Data) > 0
		b.page.Err = nil
		b.page.Saved = time.Time{}
		b.nextPage = page + 1
		// kept once the start's first page is in, and again when the list
		// is whole or as long as is kept: not at every page in between
		keep := full && (page == 1 || !b.page.HasMore || len(agents) >= savedAgentsMax) && (page-1)*AgentsPerPage < savedAgentsMax
		b.mu.Unlock()
		if keep {
			// before it is shown: a list on screen is one a next start
			// without the service can show
			b.app.saveAgents(key, agents)
		}
		b.publish()
	})
}

// Get reads one agent with its questions and their options.
func (svc *Agents) Get(ctx context.Context, id client.ID) (*client.Agent, error) {
	a := svc.a
	return a.Client().GetAgent(ctx, id)
}

// LastAnswers are the answers given the last time this agent ran, so its
// form opens as the user left it; "" for a question the user cleared.
func (svc *Agents) LastAnswers(agent client.Agent) map[string]string {
	a := svc.a
	out := map[string]string{}
	for k, v := range a.Settings().LastAnswers[string(agent.ID)] {
		out[k] = v
	}
	return out
}

// RememberAnswers keeps an agent's answers for next time, the empty ones
// too: an empty answer is a question the user cleared, and the agent's
// default must not fill it again (the form shows a default only for a
// question with no answer kept).
func (svc *Agents) RememberAnswers(ctx context.Context, agentID client.ID, answers map[string]string) error {
	a := svc.a
	clean := make(map[string]string, len(answers))
	for k, v := range answers {
		clean[k] = v
	}
	return a.UpdateSettings(ctx, func(s *storage.Settings) {
		if s.LastAnswers == nil {
			s.LastAnswers = map[string]map[string]string{}
		}
		s.LastAnswers[string(agentID)] = clean
	})
}

// Agents are the account's agents: browsing, opening one, and the answers last given to its questions (App.Agents).
type Agents struct{ a *App }

// Agents is the account's agents.
func (a *App) Agents() *Agents { return &Agents{a} }
