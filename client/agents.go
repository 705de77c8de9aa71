package client

import (
	"context"
	"iter"
)

// ListAgentsParams filters and pages the agent list.
type ListAgentsParams struct {
	Q       string // searches title, description and long description
	Type    string // AgentChat, AgentImage, AgentText, AgentVideo or a resource type; "" for all
	Page    int    // 1-based; 0 means the first page
	PerPage int    // 0 means the server's default (15)
}

// filters are the query of the agent and resource lists.
func (p ListAgentsParams) filters() map[string]any { return map[string]any{"q": p.Q, "type": p.Type} }

// ListAgents returns one page of agents (GET /agents).
func (c *Client) ListAgents(ctx context.Context, params ListAgentsParams, opts ...Option) (*Page[Agent], error) {
	return listPage[Agent](ctx, c, "/agents", "", params.filters(), params.Page, params.PerPage, opts)
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

// ListResourcesParams filters and pages the resource list as the agent list's do.
type ListResourcesParams = ListAgentsParams

// ListResources returns one page of resources (GET /resources). Assumption:
// the parameters go in the query.
func (c *Client) ListResources(ctx context.Context, params ListResourcesParams, opts ...Option) (*Page[Resource], error) {
	return listPage[Resource](ctx, c, "/resources", "", params.filters(), params.Page, params.PerPage, opts)
}

// Resources iterates over every resource, stopping at the first error.
func (c *Client) Resources(ctx context.Context, params ListResourcesParams, opts ...Option) iter.Seq2[Resource, error] {
	return iterate(ctx, c.ListResources, params, opts)
}
