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
	// titles are the agents' titles by id, read after each load of the
	// workspace's list (which gives only their ids); nil for one agent's.
	titles *live.State[map[string]string]

	readTitles live.Newest // the reading of titles under way
	mu         sync.Mutex  // a load's titles start, or Clear, at once
}

// NewWebhooks lists the workspace's webhooks and their agents' titles; nothing loads before Reload.
func (svc *Catalog) NewWebhooks() *Hooks {
	h := &Hooks{cat: svc, titles: live.NewState[map[string]string](nil)}
	h.List = live.NewList(svc.run, func(ctx context.Context) ([]client.Webhook, error) {
		l, err := svc.Webhooks(ctx)
		if err == nil && len(l.Webhooks) > 0 {
			h.startTitles(ctx, l.Webhooks)
		}
		return l.Webhooks, err
	})
	return h
}

// startTitles reads the hooks' agents' titles in the background; load is the
// listing's context, cancelled by a newer load.
func (h *Hooks) startTitles(load context.Context, hooks []client.Webhook) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if load.Err() != nil {
		return
	}
	ctx, cancel, gen := h.readTitles.Start(client.Background(h.cat.run.Life()))
	h.cat.run.Go(func() {
		defer cancel()
		got := h.cat.WebhookAgentTitles(ctx, hooks)
		// Only the newest reading lands, and none after Clear.
		h.readTitles.Publish(gen, func() {
			if ctx.Err() == nil {
				h.titles.Update(func(old map[string]string) map[string]string {
					out := make(map[string]string, len(old)+len(got))
					maps.Copy(out, old)
					maps.Copy(out, got)
					return out
				})
			}
		})
	})
}

// NewAgentWebhooks lists one agent's webhooks; nothing loads before Reload.
func (svc *Catalog) NewAgentWebhooks(agentID client.ID) *Hooks {
	h := &Hooks{cat: svc}
	h.List = live.NewList(svc.run, func(ctx context.Context) ([]client.Webhook, error) {
		return svc.AgentWebhooks(ctx, agentID)
	})
	return h
}

// Titles are the titles of the agents the workspace's webhooks belong to,
// by agent id: an agent that could not be read is missing. Nil for one
// agent's webhooks.
func (h *Hooks) Titles() live.Observable[map[string]string] {
	if h.titles == nil {
		return nil
	}
	return h.titles
}

// Clear forgets the webhooks and titles.
func (h *Hooks) Clear() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.List.Clear()
	h.readTitles.Stop()
	if h.titles != nil {
		h.titles.Set(nil)
	}
}

// SetActive turns a webhook on or off, then reloads whatever happened, so a
// switch never shows what the service does not have.
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

// Add registers a webhook for an agent and reloads, also after a failure.
func (h *Hooks) Add(ctx context.Context, agentID client.ID, url string, active bool) error {
	_, err := h.cat.AddWebhook(ctx, agentID, url, active)
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
