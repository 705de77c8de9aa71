package client

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
)

// ListAgentWebhooks returns one page of the webhooks registered for an agent
// (GET /agents/{id}/webhooks).
func (c *Client) ListAgentWebhooks(ctx context.Context, agentID ID, params PageParams, opts ...Option) (*Page[Webhook], error) {
	return listPage[Webhook](ctx, c, pathf("/agents/%s/webhooks", agentID), "", nil, params.Page, params.PerPage, opts)
}

// ListWebhooksParams pages the webhook list: Page and PerPage (variant A) or
// Limit and Offset (B); only non-zero values are sent.
type ListWebhooksParams struct {
	Page, PerPage int
	Limit, Offset int
}

// WebhooksPageMax is the most webhooks one page of ListWebhooks may ask
// for, as PerPage or Limit.
const WebhooksPageMax = 100

// Webhook list variants.
const (
	WebhooksA = "A" // pagination envelope with data
	WebhooksB = "B" // webhooks, total, limit, offset
)

// WebhookList is ListWebhooks' answer; variant A pages by number, B by
// limit (PerPage) and offset, and both go on with Next.
type WebhookList struct {
	Variant string // WebhooksA or WebhooksB
	*Page[Webhook]
}

// ListWebhooks lists webhooks (GET /webhooks).
//
// Assumption: the variant is read from the answer's shape: "webhooks" with
// limit/offset is variant B, "data" with the pagination envelope variant A.
func (c *Client) ListWebhooks(ctx context.Context, params ListWebhooksParams, opts ...Option) (*WebhookList, error) {
	q := query(map[string]any{"page": params.Page, "per_page": params.PerPage, "limit": min(params.Limit, WebhooksPageMax), "offset": params.Offset})
	req := request{method: http.MethodGet, path: "/webhooks", query: q, retry: true}
	return doRaw(ctx, c, c.callConfig(opts), req, func(raw json.RawMessage) (*WebhookList, error) {
		var shape struct {
			Webhooks *[]Webhook `json:"webhooks"`
			Total    int        `json:"total"`
			Limit    int        `json:"limit"`
			Offset   int        `json:"offset"`
		}
		if err := decodeLoose(raw, &shape); err != nil {
			return nil, err
		}
		if shape.Webhooks != nil {
			p := &Page[Webhook]{Data: *shape.Webhooks, Total: shape.Total, PerPage: shape.Limit}
			if offset := shape.Offset + len(p.Data); offset < shape.Total {
				p.next = func(ctx context.Context) (*Page[Webhook], error) {
					l, err := c.ListWebhooks(ctx, ListWebhooksParams{Limit: WebhooksPageMax, Offset: offset}, opts...)
					if err != nil {
						return nil, err
					}
					return l.Page, nil
				}
			}
			return &WebhookList{Variant: WebhooksB, Page: p}, nil
		}
		p, err := decodePage(raw, "", params.Page, params.PerPage, func(ctx context.Context, n int) (*Page[Webhook], error) {
			return listPage[Webhook](ctx, c, "/webhooks", "", nil, n, params.PerPage, opts)
		})
		if err != nil {
			return nil, err
		}
		return &WebhookList{Variant: WebhooksA, Page: p}, nil
	})
}

// WebhookParams are the fields of a new webhook.
type WebhookParams struct {
	URL    string // https only
	Method string // "POST" (default) or "GET"
	Status string // "active" (default) or "inactive"
}

// Webhook statuses and methods the service accepts.
const (
	WebhookActive   = "active"
	WebhookInactive = "inactive"
)

// check applies the service's rules before sending and returns the body.
func (p WebhookParams) check() (map[string]any, error) {
	raw := strings.TrimSpace(p.URL)
	u, err := url.Parse(raw)
	switch {
	case raw == "":
		return nil, &InputError{Field: "url", Message: "Enter the address that should receive the calls."}
	case err != nil || u.Host == "" || u.Scheme == "":
		return nil, &InputError{Field: "url", Message: "That address is not complete. It should look like https://example.com/hook."}
	case !strings.EqualFold(u.Scheme, "https"):
		return nil, &InputError{Field: "url", Message: "The service only calls secure addresses: use one starting with https:// instead."}
	}
	method := strings.ToUpper(strings.TrimSpace(p.Method))
	if method == "" {
		method = http.MethodPost
	}
	if method != http.MethodPost && method != http.MethodGet {
		return nil, &InputError{Field: "method", Message: "The service calls a webhook with POST or GET only."}
	}
	status := strings.ToLower(strings.TrimSpace(p.Status))
	if status == "" {
		status = WebhookActive
	}
	if status != WebhookActive && status != WebhookInactive {
		return nil, &InputError{Field: "status", Message: "A webhook is either active or inactive."}
	}
	return map[string]any{"url": raw, "method": method, "status": status}, nil
}

// CreateWebhook registers a webhook for an agent (POST /agents/{id}/webhooks),
// checked first; not retried.
func (c *Client) CreateWebhook(ctx context.Context, agentID ID, params WebhookParams, opts ...Option) (*Webhook, error) {
	body, err := params.check()
	if err != nil {
		return nil, err
	}
	req := request{method: http.MethodPost, path: pathf("/agents/%s/webhooks", agentID), body: body}
	return doRecord[Webhook](ctx, c, c.callConfig(opts), req, "webhook", "data")
}

// DeleteWebhook removes a webhook (DELETE /webhooks/{id}); not retried.
func (c *Client) DeleteWebhook(ctx context.Context, id ID, opts ...Option) error {
	return c.do(ctx, c.callConfig(opts), request{method: http.MethodDelete, path: pathf("/webhooks/%s", id)}, nil)
}

// CheckWebhookURL says in plain words what to fix in a webhook address, nil when fine.
func CheckWebhookURL(raw string) error {
	_, err := WebhookParams{URL: raw}.check()
	return err
}
