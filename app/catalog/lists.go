package catalog

import (
	"context"
	"maps"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
)

// Hooks are webhooks as a screen lists them. Changes show at once, then the
// list reloads to show what the service has.
type Hooks struct {
	*live.List[client.Webhook]
	cat *Catalog
	// titles are agents' titles by id, read as rows ask for them
	// (WantTitle); nil for one agent's webhooks.
	titles *live.State[map[string]string]

	mu      sync.Mutex
	reads   live.Newest        // the reading of titles under way; Clear makes it stale
	asked   map[client.ID]bool // agents asked for since Clear: read, to read or missed
	queue   []client.ID        // agents to read, one at a time
	missed  []client.ID        // agents not read, asked again after the next load
	reading bool               // readTitles runs
}

// NewWebhooks lists the workspace's webhooks, a hundred a page, and reads
// their agents' titles as rows ask; nothing loads before Reload.
func (svc *Catalog) NewWebhooks() *Hooks {
	h := &Hooks{cat: svc, titles: live.NewState[map[string]string](nil), asked: map[client.ID]bool{}}
	h.List = live.NewList(svc.run, func(ctx context.Context) ([]client.Webhook, error) {
		h.mu.Lock()
		for _, id := range h.missed {
			delete(h.asked, id)
		}
		h.missed = nil
		h.mu.Unlock()
		l, err := svc.Webhooks(ctx)
		return l.Webhooks, err
	})
	return h
}

// NewAgentWebhooks lists one agent's webhooks; nothing loads before Reload.
func (svc *Catalog) NewAgentWebhooks(agentID client.ID) *Hooks {
	h := &Hooks{cat: svc}
	h.List = live.NewList(svc.run, func(ctx context.Context) ([]client.Webhook, error) {
		return svc.AgentWebhooks(ctx, agentID)
	})
	return h
}

// Titles are the titles of the agents asked for by WantTitle, by agent id:
// an agent that could not be read is missing. Nil for one agent's webhooks.
func (h *Hooks) Titles() live.Observable[map[string]string] {
	if h.titles == nil {
		return nil
	}
	return h.titles
}

// WantTitle asks for the title of an agent a row in view names, read once
// and kept until Clear (one not read is asked again after the next load).
// Titles are read one at a time, so a rate-limited service is not flooded.
func (h *Hooks) WantTitle(id client.ID) {
	if h.titles == nil || id.IsZero() {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.asked[id] {
		return
	}
	h.asked[id] = true
	h.queue = append(h.queue, id)
	if h.reading {
		return
	}
	ctx, cancel, gen := h.reads.Start(client.Background(h.cat.run.Life()))
	c := h.cat.client() // one account's agents, even if the user switches meanwhile
	if h.reading = h.cat.run.Go(func() { defer cancel(); h.readTitles(ctx, gen, c) }); !h.reading {
		cancel()
	}
}

// readTitles reads the agents queued until none is left or Clear.
func (h *Hooks) readTitles(ctx context.Context, gen uint64, c *client.Client) {
	for {
		h.mu.Lock()
		if !h.reads.Current(gen) {
			h.mu.Unlock()
			return
		}
		if len(h.queue) == 0 {
			h.reading = false
			h.mu.Unlock()
			return
		}
		id := h.queue[0]
		h.queue = h.queue[1:]
		h.mu.Unlock()
		ag, err := c.GetAgent(ctx, id)
		if err != nil {
			h.mu.Lock()
			if h.reads.Current(gen) {
				h.missed = append(h.missed, id)
			}
			h.mu.Unlock()
			continue
		}
		// Only this reading's title lands, and none after Clear.
		h.reads.Publish(gen, func() {
			h.titles.Update(func(old map[string]string) map[string]string {
				out := maps.Clone(old)
				if out == nil {
					out = map[string]string{}
				}
				out[id.String()] = ag.Title
				return out
			})
		})
	}
}

// Clear forgets the webhooks and titles.
func (h *Hooks) Clear() {
	h.List.Clear()
	if h.titles == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.reads.Stop()
	h.asked, h.queue, h.missed, h.reading = map[client.ID]bool{}, nil, nil, false
	h.titles.Set(nil)
}

// SetActive turns a webhook on or off, then reloads whatever happened, so a
// switch never shows what the service does not have. The service cannot
// change a webhook: it is registered anew (SetWebhookActive), so its id
// changes and its counts start again.
func (h *Hooks) SetActive(ctx context.Context, w client.Webhook, active bool) error {
	nw, err := h.cat.SetWebhookActive(ctx, w, active)
	if nw != nil {
		h.Change(func(hooks []client.Webhook) []client.Webhook {
			out := append(make([]client.Webhook, 0, len(hooks)), hooks...)
			for i := range out {
				if out[i].ID == w.ID {
					out[i] = *nw
				}
			}
			return out
		})
	}
	h.Reload()
	return err
}

// Delete removes a webhook from the list at once, then reloads.
func (h *Hooks) Delete(ctx context.Context, id client.ID) error {
	err := h.cat.DeleteWebhook(ctx, id)
	if err == nil {
		h.Drop(func(x client.Webhook) bool { return x.ID == id })
	}
	h.Reload()
	return err
}

// Add registers a webhook for an agent, called with method (POST or GET),
// and reloads, also after a failure.
func (h *Hooks) Add(ctx context.Context, agentID client.ID, url, method string, active bool) error {
	_, err := h.cat.AddWebhook(ctx, agentID, url, method, active)
	h.Reload()
	return err
}

// ResourcesPause is how long typing rests before a resource search is sent.
const ResourcesPause = 300 * time.Millisecond

// ResourceSearch is a List of resources loading the search last asked for.
type ResourceSearch struct {
	*live.List[client.Resource]
	typing *live.Debouncer        // FindSoon's wait for typing to rest
	query  *live.State[[2]string] // the search last asked for: words and type
}

// NewResourceSearch finds resources with Find or FindSoon.
func (svc *Catalog) NewResourceSearch() *ResourceSearch {
	r := &ResourceSearch{query: live.NewState([2]string{})}
	r.List = live.NewList(svc.run, func(ctx context.Context) ([]client.Resource, error) {
		q, typ := r.Query()
		return svc.Resources(ctx, q, typ)
	})
	r.typing = live.NewDebouncer(svc.clock, ResourcesPause, r.Reload)
	return r
}

// Find searches now for resources matching q (all if empty) of type typ ("" any).
func (r *ResourceSearch) Find(q, typ string) {
	r.query.Set([2]string{q, typ})
	r.typing.Cancel()
	r.Reload()
}

// FindSoon is Find once typing rests; only the last call is sent.
func (r *ResourceSearch) FindSoon(q, typ string) {
	r.query.Set([2]string{q, typ})
	r.typing.Trigger()
}

// Query is the search last asked for.
func (r *ResourceSearch) Query() (q, typ string) {
	v := r.query.Get()
	return v[0], v[1]
}
