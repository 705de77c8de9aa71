package app

import (
	"context"
	"errors"
	"maps"
	"slices"
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

// AgentsPerPage is how many agents one request asks for.
const AgentsPerPage = 30

// AgentItem is what the agents list keeps of one agent; the rest is read on opening.
type AgentItem struct {
	ID          client.ID
	Title       string
	Description string
	Type        string
}

// ItemOf is the list's part of a full agent, its title made safe to show.
func ItemOf(a client.Agent) AgentItem {
	desc := a.Description
	if a.Inactive() {
		// Marked in the list too, before anyone opens it to run it.
		desc = lang.L("Switched off · {{.Description}}", map[string]any{"Description": desc})
	}
	return AgentItem{ID: a.ID, Title: shownTitle(a.Title), Description: desc, Type: a.Type}
}

// shownTitle is safe.Text(s, 0), keeping s itself when unchanged.
func shownTitle(s string) string {
	if t := safe.Text(s, 0); t != s {
		return t
	}
	return s
}

// FilterAgents returns the agents of one type ("" keeps all), in order.
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

// typeWords are the words users search an agent type with, in every language.
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

// forService turns a search that is a type's word into that type.
func (q AgentQuery) forService() AgentQuery {
	if typ, ok := typeWords[strings.ToLower(strings.TrimSpace(q.Q))]; ok && q.Type == "" {
		return AgentQuery{Type: typ}
	}
	return q
}

// AgentPage is the agents of one query loaded so far, as the screen shows them.
type AgentPage struct {
	Query AgentQuery
	// Agents are shared between snapshots: a later page is appended past
	// a snapshot's length, never below it, so pages are not copied.
	Agents []AgentItem
	// Series changes whenever Agents starts afresh; within one series a
	// later snapshot extends an earlier one (Extends).
	Series  int
	Total   int
	Loading bool // a first page or the next page is on its way
	HasMore bool
	// Err is the failure of the last request; Agents keeps what was loaded.
	Err error
	// Saved is when the shown Agents were saved, when the service could
	// not be reached; zero for fresh ones.
	Saved time.Time

	nextPage int // the page LoadMore asks for
}

// Extends tells whether p holds old's agents followed by more.
func (p AgentPage) Extends(old AgentPage) bool {
	return p.Series == old.Series && p.Query == old.Query && len(p.Agents) > len(old.Agents)
}

// SameAgents tells whether p lists just the agents old did: no redraw needed.
func (p AgentPage) SameAgents(old AgentPage) bool {
	return p.Series == old.Series && p.Query == old.Query && len(p.Agents) == len(old.Agents)
}

// AgentBrowser keeps the agents of one query, page by page; a new query
// cancels the old request and drops its answer.
type AgentBrowser struct {
	app *App
	// state is the one copy of the page; a load starts and lands under its lock.
	state   *live.State[AgentPage]
	request live.Newest // the request in flight
	typing  *live.Debouncer

	mu    sync.Mutex
	typed *AgentQuery // a search waiting for typing to pause
}

// NewBrowser makes a browser; pause is how long typing rests before SearchSoon asks.
func (svc *Agents) NewBrowser(pause time.Duration) *AgentBrowser {
	b := &AgentBrowser{app: svc.a, state: live.NewState(AgentPage{})}
	b.typing = live.NewDebouncer(svc.a.cfg.Clock, pause, b.searchTyped)
	return b
}

func (b *AgentBrowser) State() live.Observable[AgentPage] { return b.state }

// Search starts a new query; loaded agents of its type stay until the answer comes.
func (b *AgentBrowser) Search(q AgentQuery) {
	b.takeTyped()
	b.state.Update(func(p AgentPage) AgentPage { return b.start(p, q) })
}

// SearchSoon searches for q once typing has paused; Search or Clear drops it.
func (b *AgentBrowser) SearchSoon(q AgentQuery) {
	b.mu.Lock()
	b.typed = &q
	b.mu.Unlock()
	b.typing.Trigger()
}

// takeTyped drops the search waiting for typing to pause, returning it.
func (b *AgentBrowser) takeTyped() *AgentQuery {
	b.mu.Lock()
	defer b.mu.Unlock()
	q := b.typed
	b.typed = nil
	return q
}

func (b *AgentBrowser) searchTyped() {
	if q := b.takeTyped(); q != nil && b.app.life.Err() == nil {
		b.Search(*q)
	}
}

// start is p once query q is asked for.
func (b *AgentBrowser) start(p AgentPage, q AgentQuery) AgentPage {
	keep := FilterAgents(p.Agents, q.Type)
	if q.Q != p.Query.Q {
		keep = nil
	}
	// The saved list stays, marked saved, while the full list is asked again.
	saved := p.Saved
	if !saved.IsZero() && q != (AgentQuery{}) {
		keep, saved = nil, time.Time{}
	}
	p = AgentPage{Query: q, Agents: keep, Series: p.Series + 1, Loading: true, Saved: saved, nextPage: 1}
	b.load(p)
	return p
}

// Reload asks again for the current query (Retry).
func (b *AgentBrowser) Reload() {
	b.takeTyped()
	b.state.Update(func(p AgentPage) AgentPage { return b.start(p, p.Query) })
}

// Clear forgets the agents shown and stops requests; the query stays.
func (b *AgentBrowser) Clear() {
	b.takeTyped()
	b.state.Update(func(p AgentPage) AgentPage {
		b.request.Stop()
		return AgentPage{Query: p.Query, Series: p.Series + 1}
	})
}

// LoadMore asks for the next page unless one is on its way or all are in.
func (b *AgentBrowser) LoadMore() {
	if p := b.state.Get(); p.Loading || !p.HasMore {
		return // nothing is published
	}
	b.state.Update(func(p AgentPage) AgentPage {
		if !p.Loading && p.HasMore {
			p.Loading, p.Err = true, nil
			b.load(p)
		}
		return p
	})
}

// load asks for p's next page; called under the state's lock.
func (b *AgentBrowser) load(p AgentPage) {
	page, q := p.nextPage, p.Query
	c, acct := b.app.clientAndAccount()
	key := agentsKey(acct)
	ctx, cancel, gen := b.request.Start(b.app.life)
	b.app.Go(func() {
		defer cancel()
		sq := q.forService()
		res, err := c.ListAgents(ctx, client.ListAgentsParams{Q: sq.Q, Type: sq.Type, Page: page, PerPage: AgentsPerPage})
		full := q == AgentQuery{}
		var saved []AgentItem
		var savedAt time.Time
		if err != nil && page == 1 && full && showSaved(err) {
			saved, savedAt, _ = b.app.savedAgents(key)
		}
		if !b.request.Current(gen) || ctx.Err() != nil {
			return // a newer query, or the app closing: this answer is not wanted
		}
		b.state.Update(func(p AgentPage) AgentPage {
			if !b.request.Current(gen) {
				return p
			}
			p.Loading = false
			if err != nil {
				p.Err = err
				if saved != nil {
					p.Agents, p.Total, p.HasMore, p.Saved, p.Series = saved, len(saved), false, savedAt, p.Series+1
				}
				return p
			}
			agents := p.Agents
			if page == 1 {
				// A new query gets a new backing; old snapshots stay as they were.
				agents = make([]AgentItem, 0, len(res.Data))
				p.Series++
			}
			// Appended in place, not copied per page: earlier snapshots only
			// read below their own length, which this never writes.
			for i := range res.Data {
				if res.Data[i].Visible() {
					agents = append(agents, ItemOf(res.Data[i]))
				}
			}
			p.Agents, p.Total, p.Err, p.Saved, p.nextPage = agents, res.Total, nil, time.Time{}, page+1
			p.HasMore = res.HasNext() && len(res.Data) > 0
			// Saved after the first page, and when whole or at the cap; before
			// it is shown (a small unsynced write under the state's lock), so
			// whatever was shown is there for a next start offline.
			if full && (page == 1 || !p.HasMore || len(agents) >= savedAgentsMax) && (page-1)*AgentsPerPage < savedAgentsMax {
				b.app.saveAgents(key, agents)
			}
			if full && page == 1 {
				b.app.Agents().indexSoon(res.Total) // Ctrl+K's index of every agent, read again when the list changed
			}
			return p
		})
	})
}

// Get reads one agent with its questions and their options.
func (svc *Agents) Get(ctx context.Context, id client.ID) (*client.Agent, error) {
	return svc.a.Client().GetAgent(ctx, id)
}

// LastAnswers are the answers of this agent's last run; "" for a cleared question.
func (svc *Agents) LastAnswers(agent client.Agent) map[string]string {
	if out := maps.Clone(svc.a.Settings().LastAnswers[string(agent.ID)]); out != nil {
		return out
	}
	return map[string]string{}
}

// RememberAnswers keeps an agent's answers for next time, empty ones too.
func (svc *Agents) RememberAnswers(ctx context.Context, agentID client.ID, answers map[string]string) error {
	clean := maps.Clone(answers)
	if clean == nil {
		clean = map[string]string{}
	}
	return svc.a.UpdateSettings(ctx, func(s *storage.Settings) {
		if s.LastAnswers == nil {
			s.LastAnswers = map[string]map[string]string{}
		}
		s.LastAnswers[string(agentID)] = clean
	})
}

// Agents are the account's agents: browsing, opening one, and the answers last given to its questions (App.Agents).
type Agents struct{ a *App }

func (a *App) Agents() *Agents { return &Agents{a} }

// Loaded is one value a screen shows once read in the background.
type Loaded[T any] struct {
	Value T
	// Loading says a read is under way; Value still holds the last one.
	Loading bool
	// Loaded says a read has finished well at least once.
	Loaded bool
	// Err is why the last read failed (nil when it did not).
	Err error
}

// Loader reads one value in the background and publishes it as Loaded: a List of one.
type Loader[T any] struct{ list *live.List[T] }

// NewLoader is a value read by load; nothing is read before Reload.
func NewLoader[T any](a *App, load func(context.Context) (T, error)) *Loader[T] {
	return &Loader[T]{list: live.NewList(a, func(ctx context.Context) ([]T, error) {
		v, err := load(ctx)
		if err != nil {
			return nil, err
		}
		return []T{v}, nil
	})}
}

// Reload reads the value again, cancelling a read still under way.
func (l *Loader[T]) Reload() { l.list.Reload() }

// Snapshot implements Observable.
func (l *Loader[T]) Snapshot() (Loaded[T], uint64) {
	s, ver := l.list.Snapshot()
	out := Loaded[T]{Loading: s.Loading, Loaded: s.Loaded, Err: s.Err}
	if len(s.Items) > 0 {
		out.Value = s.Items[0]
	}
	return out, ver
}

// Subscribe implements Observable.
func (l *Loader[T]) Subscribe(changed func()) (cancel func()) { return l.list.Subscribe(changed) }

// openAgentLimit is how long opening an agent may take before a retry is offered.
const openAgentLimit = 30 * time.Second

// Open reads an agent in full, starting at once; Reload tries again.
func (svc *Agents) Open(id client.ID) *Loader[client.Agent] {
	l := NewLoader(svc.a, func(ctx context.Context) (client.Agent, error) {
		ctx, cancel := context.WithTimeout(ctx, openAgentLimit)
		defer cancel()
		ag, err := svc.a.Agents().Get(ctx, id)
		if err != nil {
			return client.Agent{}, err
		}
		return *ag, nil
	})
	l.Reload()
	return l
}

// agentsKey names the account's saved list of agents.
func agentsKey(acct storage.Account) string {
	return "agents\n" + acct.ID + "\n" + acct.BaseURL + "\n" + acct.WorkspaceID
}

// savedAgentsMax is how many of the first agents are kept for offline starts.
const savedAgentsMax = 500

// clientAndAccount reads the active account and client together.
func (a *App) clientAndAccount() (*client.Client, storage.Account) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.client, a.account
}

// saveAgents keeps the first agents for an offline start.
func (a *App) saveAgents(key string, agents []AgentItem) {
	if len(agents) > savedAgentsMax {
		agents = agents[:savedAgentsMax]
	}
	// A list that cannot be written costs only the offline start's list;
	// the screen shows the live one either way.
	_ = a.cfg.Paths.SaveSnapshot(key, agents, time.Now())
}

func (a *App) savedAgents(key string) ([]AgentItem, time.Time, bool) {
	var agents []AgentItem
	saved, ok := a.cfg.Paths.LoadSnapshot(key, &agents)
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

// showSaved reports a failure the saved list may stand in for (not a rejected key).
func showSaved(err error) bool {
	if client.IsOffline(err) || errors.Is(err, context.DeadlineExceeded) || client.IsRateLimited(err) {
		return true
	}
	return client.StatusCode(err) >= 500
}

// RecentMax is how many agents last used the Agents screen lists.
const RecentMax = 10

// refDescription is how much of an agent's description a favourite keeps.
const refDescription = 200

func refOf(item AgentItem) storage.AgentRef {
	desc, _, _ := strings.Cut(item.Description, "\n")
	return storage.AgentRef{ID: string(item.ID), Title: item.Title, Type: item.Type, Description: safe.Text(desc, refDescription)}
}

func itemOfRef(r storage.AgentRef) AgentItem {
	return AgentItem{ID: client.ID(r.ID), Title: shownTitle(r.Title), Type: r.Type, Description: r.Description}
}

// Pinned are the account's favourite agents in the order starred, then
// those it used last that are not among them, newest first.
func (svc *Agents) Pinned() (favourites, recent []AgentItem) {
	p := svc.a.Accounts().Prefs()
	starred := map[string]bool{}
	for _, r := range p.Favourites {
		starred[r.ID] = true
		favourites = append(favourites, itemOfRef(r))
	}
	for _, r := range p.Recent {
		if !starred[r.ID] {
			recent = append(recent, itemOfRef(r))
		}
	}
	return favourites, recent
}

// IsFavourite reports whether the agent is starred.
func (svc *Agents) IsFavourite(id client.ID) bool {
	return slices.ContainsFunc(svc.a.Accounts().Prefs().Favourites, func(r storage.AgentRef) bool { return r.ID == string(id) })
}

// SetFavourite stars (on) or unstars an agent, kept at once.
func (svc *Agents) SetFavourite(ctx context.Context, item AgentItem, on bool) error {
	return svc.a.Accounts().UpdatePrefs(ctx, func(p *AccountPrefs) {
		p.Favourites = slices.DeleteFunc(p.Favourites, func(r storage.AgentRef) bool { return r.ID == string(item.ID) })
		if on {
			p.Favourites = append(p.Favourites, refOf(item))
		}
	})
}

// Used puts the agent first among the recent ones, and refreshes what a
// favourite shows of it.
func (svc *Agents) Used(ctx context.Context, agent client.Agent) error {
	ref := refOf(ItemOf(agent))
	return svc.a.Accounts().UpdatePrefs(ctx, func(p *AccountPrefs) {
		same := func(r storage.AgentRef) bool { return r.ID == ref.ID }
		p.Recent = append([]storage.AgentRef{ref}, slices.DeleteFunc(p.Recent, same)...)
		p.Recent = p.Recent[:min(len(p.Recent), RecentMax)]
		if i := slices.IndexFunc(p.Favourites, same); i >= 0 {
			p.Favourites[i] = ref
		}
	})
}
