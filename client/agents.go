package client

import (
	"context"
	"iter"
	"net/url"
)

// ListAgentsParams filters and pages the agent list.
type ListAgentsParams struct {
	// Q searches title, description and long description.
	Q string
	// Type is AgentChat, AgentImage, AgentText or AgentVideo ("" for all).
	Type    string
	Page    int // 1-based; 0 means the first page
	PerPage int // 0 means the server's default (15)
}

// searchQuery is the query of the agent and resource lists.
func searchQuery(search, typ string) url.Values {
	q := url.Values{}
	if search != "" {
		q.Set("q", search)
	}
	if typ != "" {
		q.Set("type", typ)
	}
	return q
}

// ListAgents returns one page of agents (GET /agents).
func (c *Client) ListAgents(ctx context.Context, params ListAgentsParams, opts ...Option) (*Page[Agent], error) {
	return listPage[Agent](ctx, c, "/agents", "", searchQuery(params.Q, params.Type), params.Page, params.PerPage, opts)
}

// Agents iterates over every agent from params.Page on, stopping at the first error.
func (c *Client) Agents(ctx context.Context, params ListAgentsParams, opts ...Option) iter.Seq2[Agent, error] {
	return iterate(ctx, c.ListAgents, params, opts)
}

// GetAgent reads one agent with its questions (GET /agents/{id}).
func (c *Client) GetAgent(ctx context.Context, id ID, opts ...Option) (*Agent, error) {
	// Assumption: the agent may also arrive wrapped as {"data": {...}}.
	return doRecord[Agent](ctx, c, c.callConfig(opts), request{method: "GET", path: pathf("/agents/%s", id), retry: true}, "data", "agent")
}
