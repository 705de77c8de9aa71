package app

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"

	"github.com/agentdesk/agentdesk/client"
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

// ItemOf is the list's part of a full agent.
func ItemOf(a client.Agent) AgentItem {
	return AgentItem{ID: a.ID, Title: a.Title, Description: a.Description, Type: a.Type}
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

// AgentList is a snapshot of the browser's state.
type AgentList struct {
	Query AgentQuery
	// Agents are the loaded agents in order. A snapshot's slice is never
	// written below its length: later pages are appended after it.
	Agents  []AgentItem
	Total   int
	Loading bool // a first page or the next page is on its way
	HasMore bool
	// Err is the failure of the last request; Agents keeps what was loaded.
	Err error
}

// AgentBrowser keeps the agents of one query, page by page. A new query
// cancels the request it replaces, and an answer to an older query is
// dropped, so a slow old answer never overwrites a newer one.
type AgentBrowser struct {
	app      *App
	perPage  int
	onChange func()

	mu       sync.Mutex
	state    AgentList
	gen      int
	nextPage int
	cancel   context.CancelFunc
}

// NewAgentBrowser makes a browser; onChange is called (on the request's
// goroutine) whenever the snapshot changes.
func (a *App) NewAgentBrowser(onChange func()) *AgentBrowser {
	return &AgentBrowser{app: a, perPage: AgentsPerPage, onChange: onChange}
}

// SetPerPage changes the page size for the next query (tests, benchmarks).
func (b *AgentBrowser) SetPerPage(n int) {
	b.mu.Lock()
	b.perPage = n
	b.mu.Unlock()
}

// State is the current snapshot.
func (b *AgentBrowser) State() AgentList {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.state
}

// Search starts a new query, cancelling the one in flight. Agents already
// loaded that match the new type stay visible until the answer comes.
func (b *AgentBrowser) Search(q AgentQuery) {
	b.mu.Lock()
	if b.cancel != nil {
		b.cancel()
	}
	b.gen++
	keep := FilterAgents(b.state.Agents, q.Type)
	if q.Q != b.state.Query.Q {
		keep = nil
	}
	b.state = AgentList{Query: q, Agents: keep, Loading: true}
	b.nextPage = 1
	b.mu.Unlock()
	b.changed()
	b.load()
}

// Reload asks again for the current query (Retry, account switch).
func (b *AgentBrowser) Reload() { b.Search(b.State().Query) }

// LoadMore asks for the next page unless one is on its way or all are in.
func (b *AgentBrowser) LoadMore() {
	b.mu.Lock()
	if b.state.Loading || !b.state.HasMore {
		b.mu.Unlock()
		return
	}
	b.state.Loading = true
	b.state.Err = nil
	b.mu.Unlock()
	b.changed()
	b.load()
}

// Cancel stops the request in flight.
func (b *AgentBrowser) Cancel() {
	b.mu.Lock()
	if b.cancel != nil {
		b.cancel()
	}
	b.mu.Unlock()
}

func (b *AgentBrowser) load() {
	b.mu.Lock()
	gen, page, q, per := b.gen, b.nextPage, b.state.Query, b.perPage
	ctx, cancel := context.WithCancel(context.Background())
	b.cancel = cancel
	b.mu.Unlock()
	go func() {
		defer cancel()
		res, err := b.app.Client().ListAgents(ctx, client.ListAgentsParams{Q: q.Q, Type: q.Type, Page: page, PerPage: per})
		b.mu.Lock()
		if gen != b.gen {
			b.mu.Unlock()
			return
		}
		b.state.Loading = false
		if err != nil {
			if errors.Is(err, context.Canceled) {
				b.mu.Unlock()
				return
			}
			b.state.Err = err
			b.mu.Unlock()
			b.changed()
			return
		}
		if page == 1 {
			// A new query starts a new slice: snapshots of the old one
			// stay as they were.
			b.state.Agents = make([]AgentItem, 0, len(res.Data))
		}
		// Appended in place (amortised growth), not copied whole for
		// every page (333 copies of up to 10,000 records, the garbage of
		// which set the heap's size): earlier snapshots only read below
		// their own length, which this never writes.
		for i := range res.Data {
			if res.Data[i].Visible() {
				b.state.Agents = append(b.state.Agents, ItemOf(res.Data[i]))
			}
		}
		b.state.Total = res.Total
		b.state.HasMore = res.HasNext() && len(res.Data) > 0
		b.state.Err = nil
		b.nextPage = page + 1
		b.mu.Unlock()
		b.changed()
	}()
}

func (b *AgentBrowser) changed() {
	if b.onChange != nil {
		b.onChange()
	}
}

// GetAgent reads one agent with its questions and their options.
func (a *App) GetAgent(ctx context.Context, id client.ID) (*client.Agent, error) {
	return a.Client().GetAgent(ctx, id)
}

// FormQuestions are the questions the run form shows: a chat agent's
// messages are the chat screen's business.
func FormQuestions(agent client.Agent) []client.Question {
	out := make([]client.Question, 0, len(agent.Questions))
	for _, q := range agent.Questions {
		if q.Type == client.QuestionArray && q.Name == "messages" {
			continue
		}
		out = append(out, q)
	}
	return out
}

// Answerable reports whether the form can take an answer to q; other types
// are shown read-only.
func Answerable(q client.Question) bool {
	return q.Type == client.QuestionSelect || q.Type == client.QuestionNumber
}

// LastAnswers are the answers given the last time this agent ran, so its
// form opens as the user left it.
func (a *App) LastAnswers(agent client.Agent) map[string]string {
	out := map[string]string{}
	for k, v := range a.Settings().LastAnswers[string(agent.ID)] {
		out[k] = v
	}
	return out
}

// RememberAnswers keeps an agent's answers for next time.
func (a *App) RememberAnswers(ctx context.Context, agentID client.ID, answers map[string]string) error {
	clean := make(map[string]string, len(answers))
	for k, v := range answers {
		if v != "" {
			clean[k] = v
		}
	}
	return a.UpdateSettings(ctx, func(s *storage.Settings) {
		if s.LastAnswers == nil {
			s.LastAnswers = map[string]map[string]string{}
		}
		s.LastAnswers[string(agentID)] = clean
	})
}

// CheckAnswers returns, per question name, what is wrong with the answers
// before anything is sent: a required question left empty, a number that
// is not one, a choice that is not among the options.
func CheckAnswers(agent client.Agent, answers map[string]string) map[string]string {
	errs := map[string]string{}
	for _, q := range FormQuestions(agent) {
		if !Answerable(q) {
			continue
		}
		v := strings.TrimSpace(answers[q.Name])
		if v == "" {
			if q.Required {
				errs[q.Name] = "Please fill this in."
			}
			continue
		}
		switch q.Type {
		case client.QuestionNumber:
			if !IsNumber(v) {
				errs[q.Name] = "Please enter a number, for example 250."
			}
		case client.QuestionSelect:
			if len(q.Options) > 0 && !containsString(q.Options, v) {
				errs[q.Name] = "Please pick one of the choices."
			}
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// IsNumber reports whether s is a plain decimal number.
func IsNumber(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil && json.Valid([]byte(s))
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// ExecuteAnswers turns the form's text answers into the execution's
// answers: choices as the option strings, numbers as JSON numbers. A
// number the form did not check is sent as typed, so the service's own
// message comes back beside the field.
func ExecuteAnswers(agent client.Agent, answers map[string]string) map[string]any {
	out := map[string]any{}
	for _, q := range FormQuestions(agent) {
		if !Answerable(q) {
			continue
		}
		v := strings.TrimSpace(answers[q.Name])
		if v == "" {
			continue
		}
		if q.Type == client.QuestionNumber && IsNumber(v) {
			out[q.Name] = json.Number(v)
			continue
		}
		out[q.Name] = v
	}
	return out
}
