package app

import (
	"context"
	"errors"
	"maps"
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
	app   *App
	state *live.State[AgentPage]

	mu sync.Mutex
	// page is what the next snapshot publishes.
	page AgentPage
	// series numbers the lists page.Agents started (AgentPage.Series).
	series   int
	nextPage int
	request  live.Newest // the request in flight
	typed    *AgentQuery // a search waiting for typing to pause
	typing   *live.Debouncer
}

// NewBrowser makes a browser; pause is how long typing rests before SearchSoon asks.
func (svc *Agents) NewBrowser(pause time.Duration) *AgentBrowser {
	b := &AgentBrowser{app: svc.a, state: live.NewState(AgentPage{})}
	b.typing = live.NewDebouncer(svc.a.cfg.Clock, pause, b.searchTyped)
	return b
}

func (b *AgentBrowser) State() live.Observable[AgentPage] { return b.state }

// publish reads the page under the state's lock, so the newest version holds the newest page.
func (b *AgentBrowser) publish() {
	b.state.Update(func(AgentPage) AgentPage {
		b.mu.Lock()
		defer b.mu.Unlock()
		return b.page
	})
}

// Search starts a new query; loaded agents of its type stay until the answer comes.
func (b *AgentBrowser) Search(q AgentQuery) {
	b.mu.Lock()
	b.startLocked(q)
	b.mu.Unlock()
	b.publish()
}

// SearchSoon searches for q once typing has paused; Search or Clear drops it.
func (b *AgentBrowser) SearchSoon(q AgentQuery) {
	b.mu.Lock()
	b.typed = &q
	b.mu.Unlock()
	b.typing.Trigger()
}

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

func (b *AgentBrowser) startLocked(q AgentQuery) {
	b.stopLocked()
	keep := FilterAgents(b.page.Agents, q.Type)
	if q.Q != b.page.Query.Q {
		keep = nil
	}
	// The saved list stays, marked saved, while the full list is asked again.
	saved := b.page.Saved
	if !saved.IsZero() && q != (AgentQuery{}) {
		keep, saved = nil, time.Time{}
	}
	b.series++
	b.page = AgentPage{Query: q, Agents: keep, Series: b.series, Loading: true, Saved: saved}
	b.nextPage = 1
	b.loadLocked()
}

func (b *AgentBrowser) stopLocked() {
	b.request.Stop()
	b.typed = nil
}

// Reload asks again for the current query (Retry).
func (b *AgentBrowser) Reload() {
	b.mu.Lock()
	q := b.page.Query
	b.mu.Unlock()
	b.Search(q)
}

// Clear forgets the agents shown and stops requests; the query stays.
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

func (b *AgentBrowser) loadLocked() {
	page, q := b.nextPage, b.page.Query
	c, acct := b.app.clientAndAccount()
	key := "agents\n" + acct.ID + "\n" + acct.BaseURL + "\n" + acct.WorkspaceID
	ctx, cancel, gen := b.request.Start(b.app.life)
	b.app.Go(func() {
		defer cancel()
		sq := q.forService()
		res, err := c.ListAgents(ctx, client.ListAgentsParams{Q: sq.Q, Type: sq.Type, Page: page, PerPage: AgentsPerPage})
		b.mu.Lock()
		if !b.request.Current(gen) || ctx.Err() != nil {
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
			// A new query gets a new backing; old snapshots stay as they were.
			agents = make([]AgentItem, 0, len(res.Data))
			b.series++
			b.page.Series = b.series
		}
		// Appended in place, not copied per page: earlier snapshots only
		// read below their own length, which this never writes.
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
		// saved after the first page, and when whole or at the cap
		keep := full && (page == 1 || !b.page.HasMore || len(agents) >= savedAgentsMax) && (page-1)*AgentsPerPage < savedAgentsMax
		b.mu.Unlock()
		if keep {
			// before it is shown, so a next start offline can show it
			b.app.saveAgents(key, agents)
		}
		b.publish()
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
