// Package catalog is an account's resources and webhooks.
package catalog

import (
	"cmp"
	"context"
	"errors"
	"strings"

	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/clock"
)

// maxListed bounds one search's resources or webhooks, so a runaway list cannot fill memory.
const maxListed = 5000

// ResourceTypes are the types offered in the filter: the service does not
// list them, and the filter takes any other word.
var ResourceTypes = []string{"document", "email", "presentation", "prompt", "spreadsheet"}

// Resources finds resources matching q (all if empty) of type typ ("" any),
// following every page.
func (svc *Catalog) Resources(ctx context.Context, q, typ string) ([]client.Resource, error) {
	params := client.ListResourcesParams{Q: strings.TrimSpace(q), Type: strings.TrimSpace(typ)}
	return client.Collect(svc.client().Resources(ctx, params), maxListed)
}

// WebhookList is the workspace's webhooks in the variant the service answered.
type WebhookList struct {
	Variant  string
	Webhooks []client.Webhook
}

// HasSecrets reports whether the list carries signing secrets (variant B).
func (l WebhookList) HasSecrets() bool { return l.Variant == client.WebhooksB }

// Webhooks lists every webhook of the workspace, in whichever variant the service answers.
func (svc *Catalog) Webhooks(ctx context.Context) (WebhookList, error) {
	// Both pagings are asked for, a page as large as the service allows: the
	// answer says which paging it uses.
	l, err := svc.client().ListWebhooks(ctx, client.ListWebhooksParams{PerPage: client.WebhooksPageMax, Limit: client.WebhooksPageMax})
	if err != nil {
		return WebhookList{}, err
	}
	hooks, err := client.Collect(l.All(ctx), maxListed)
	return WebhookList{Variant: l.Variant, Webhooks: hooks}, err
}

// AgentWebhooks lists every webhook registered for one agent.
func (svc *Catalog) AgentWebhooks(ctx context.Context, agentID client.ID) ([]client.Webhook, error) {
	page, err := svc.client().ListAgentWebhooks(ctx, agentID, client.PageParams{PerPage: 50})
	if err != nil {
		return nil, err
	}
	return client.Collect(page.All(ctx), maxListed)
}

// AddWebhook registers a webhook for an agent, called with method (POST or
// GET); the address must be https,
// checked before anything is sent.
func (svc *Catalog) AddWebhook(ctx context.Context, agentID client.ID, url, method string, active bool) (*client.Webhook, error) {
	return svc.client().CreateWebhook(ctx, agentID, webhookParams(url, method, active))
}

func webhookParams(url, method string, active bool) client.WebhookParams {
	p := client.WebhookParams{URL: url, Method: method, Status: client.WebhookInactive}
	if active {
		p.Status = client.WebhookActive
	}
	return p
}

// SetWebhookActive turns a webhook on or off. The service cannot change one,
// so it is registered anew and the old one deleted: the id changes.
func (svc *Catalog) SetWebhookActive(ctx context.Context, w client.Webhook, active bool) (*client.Webhook, error) {
	if w.TemplateID == "" {
		return nil, ErrNoAgent
	}
	c := svc.client()
	nw, err := c.CreateWebhook(ctx, w.TemplateID, webhookParams(w.URL, cmp.Or(w.Method, "POST"), active))
	if err != nil {
		return nil, err
	}
	if err := c.DeleteWebhook(ctx, w.ID); err != nil && !client.IsNotFound(err) {
		return nw, &OldEntryLeftError{TurnedOn: active, Err: err}
	}
	return nw, nil
}

// DeleteWebhook removes a webhook; one already gone counts as removed.
func (svc *Catalog) DeleteWebhook(ctx context.Context, id client.ID) error {
	if err := svc.client().DeleteWebhook(ctx, id); err != nil && !(client.IsNotFound(err) && !client.IsUnsupported(err)) {
		return err
	}
	return nil
}

// Catalog is the account's resources and webhooks.
type Catalog struct {
	client func() *client.Client // the account in use's
	run    live.Runner
	clock  clock.Clock // what a search waits on for typing to rest
}

// New is the catalog of the account client gives; its lists load on run.
func New(client func() *client.Client, run live.Runner, c clock.Clock) *Catalog {
	return &Catalog{client: client, run: run, clock: clock.Or(c)}
}

// ErrNoAgent is a webhook that does not say which agent it belongs to: it
// cannot be switched on or off (that registers it again for its agent).
var ErrNoAgent = errors.New("the webhook names no agent")

// OldEntryLeftError is a webhook switched on or off as a new entry whose
// old entry could not be removed: both are on the service now.
type OldEntryLeftError struct {
	TurnedOn bool
	Err      error
}

func (e *OldEntryLeftError) Error() string {
	return "the webhook's old entry could not be removed: " + e.Err.Error()
}

func (e *OldEntryLeftError) Unwrap() error { return e.Err }
