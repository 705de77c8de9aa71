package client

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
)

// ListAgentWebhooks returns one page of the webhooks registered for an agent
// (GET /agents/{id}/webhooks).
func (c *Client) ListAgentWebhooks(ctx context.Context, agentID ID, params PageParams, opts ...Option) (*Page[Webhook], error) {
	return listPage[Webhook](ctx, c, pathf("/agents/%s/webhooks", agentID), nil, params.Page, params.PerPage, opts)
}

// ListWebhooksParams pages the webhook list. Variant A deployments read Page
// and PerPage; variant B deployments read Limit (at most 100) and Offset. Set
// either pair (or none for the defaults); only non-zero values are sent.
type ListWebhooksParams struct {
	Page, PerPage int
	Limit, Offset int
}

// Webhook list variants.
const (
	WebhooksA = "A" // pagination envelope with data
	WebhooksB = "B" // webhooks, total, limit, offset
)

// WebhookList is the answer of ListWebhooks in either variant. Webhooks holds
// the items in both; Page is set for variant A, Limit and Offset for B.
type WebhookList struct {
	// Variant is WebhooksA or WebhooksB, detected from the answer's shape.
	Variant  string
	Webhooks []Webhook
	Total    int
	Page     *Page[Webhook]
	Limit    int
	Offset   int
}

// HasNext reports whether more webhooks follow this list.
func (l *WebhookList) HasNext() bool {
	if l.Page != nil {
		return l.Page.HasNext()
	}
	return len(l.Webhooks) > 0 && l.Offset+len(l.Webhooks) < l.Total
}

// ListWebhooks lists webhooks (GET /webhooks).
//
// Assumption: the variant is read from the answer's shape: "webhooks" with
// limit/offset is variant B, "data" with the pagination envelope variant A.
func (c *Client) ListWebhooks(ctx context.Context, params ListWebhooksParams, opts ...Option) (*WebhookList, error) {
	cfg := c.callConfig(opts)
	q := url.Values{}
	set := func(k string, v int) {
		if v > 0 {
			q.Set(k, strconv.Itoa(v))
		}
	}
	set("page", params.Page)
	set("per_page", params.PerPage)
	set("limit", min(params.Limit, 100))
	set("offset", params.Offset)
	var raw json.RawMessage
	req := request{method: http.MethodGet, path: "/webhooks", query: q, retry: true}
	if err := c.do(ctx, cfg, req, &raw); err != nil {
		return nil, err
	}
	var shape struct {
		Webhooks *[]Webhook `json:"webhooks"`
		Total    flexInt    `json:"total"`
		Limit    flexInt    `json:"limit"`
		Offset   flexInt    `json:"offset"`
	}
	if err := json.Unmarshal(raw, &shape); err != nil {
		return nil, &DecodeError{Method: req.method, Path: req.path, Err: err, Body: truncate(raw, 512)}
	}
	if shape.Webhooks != nil {
		return &WebhookList{Variant: WebhooksB, Webhooks: *shape.Webhooks, Total: int(shape.Total), Limit: int(shape.Limit), Offset: int(shape.Offset)}, nil
	}
	var env pageEnvelope[Webhook]
	if err := json.Unmarshal(raw, &env); err != nil {
		return nil, &DecodeError{Method: req.method, Path: req.path, Err: err, Body: truncate(raw, 512)}
	}
	p := env.page()
	p.page, p.perPage = params.Page, params.PerPage
	p.fetch = func(ctx context.Context, n int) (*Page[Webhook], error) {
		return listPage[Webhook](ctx, c, "/webhooks", nil, n, params.PerPage, opts)
	}
	return &WebhookList{Variant: WebhooksA, Webhooks: p.Data, Total: p.Total, Page: p}, nil
}
