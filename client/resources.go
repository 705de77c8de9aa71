package client

import (
	"context"
	"iter"
)

// ListResourcesParams filters and pages the resource list.
type ListResourcesParams struct {
	// Q searches title, description and long description.
	Q string
	// Type filters by resource type.
	Type    string
	Page    int // 1-based; 0 means the first page
	PerPage int // 0 means the server's default (15)
}

// ListResources returns one page of resources (GET /resources). Assumption:
// the parameters go in the query.
func (c *Client) ListResources(ctx context.Context, params ListResourcesParams, opts ...Option) (*Page[Resource], error) {
	return listPage[Resource](ctx, c, "/resources", "", searchQuery(params.Q, params.Type), params.Page, params.PerPage, opts)
}

// Resources iterates over every resource, stopping at the first error.
func (c *Client) Resources(ctx context.Context, params ListResourcesParams, opts ...Option) iter.Seq2[Resource, error] {
	return iterate(ctx, c.ListResources, params, opts)
}
