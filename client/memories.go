package client

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"strings"
	"unicode/utf8"
)

// MemoryParams is a memory to create or update: A uses Content and
// CollectionID, B Content and Metadata.
type MemoryParams struct {
	// Content is the text; on a variant B update "" leaves it unchanged.
	Content      string
	CollectionID ID
	Metadata     map[string]any
}

func (p MemoryParams) bodyA() map[string]any {
	b := map[string]any{"memory": p.Content}
	if p.CollectionID != "" {
		b["collection_id"] = p.CollectionID
	}
	return b
}

func (p MemoryParams) bodyB(create bool) map[string]any {
	b := map[string]any{}
	if create || p.Content != "" {
		b["content"] = p.Content
	}
	if p.Metadata != nil {
		b["metadata"] = p.Metadata
	}
	return b
}

// MemoryVariant returns the variant forced or detected (MemoryAuto before the first memory call).
func (c *Client) MemoryVariant() MemoryVariant {
	return learned(c, &c.memoryVariant, c.cfg.memoryVariant, c.cfg.memoryVariant)
}

// namesVariantB reports a validation error naming "content". Assumption:
// that is how a variant B server refuses a variant A body.
func namesVariantB(err error) bool {
	e := refusal(err)
	return e != nil && (e.Fields["content"] != nil || strings.Contains(e.words(), "content"))
}

// CreateMemory stores a memory (POST /memories), detecting the variant on
// first use: A first, then B when refused for "content". Never retried otherwise.
func (c *Client) CreateMemory(ctx context.Context, params MemoryParams, opts ...Option) (*Memory, error) {
	return c.memoryInVariant(ctx, c.callConfig(opts),
		request{method: http.MethodPost, path: "/memories", body: params.bodyA()},
		request{method: http.MethodPost, path: "/memories", body: params.bodyB(true)}, namesVariantB)
}

// UpdateMemory changes a memory: A with PATCH, B with PUT /memories/{id};
// a 405 or an error naming "content" on PATCH switches to B.
func (c *Client) UpdateMemory(ctx context.Context, id ID, params MemoryParams, opts ...Option) (*Memory, error) {
	path := pathf("/memories/%s", id)
	return c.memoryInVariant(ctx, c.callConfig(opts),
		request{method: http.MethodPatch, path: path, body: params.bodyA(), retry: true},
		request{method: http.MethodPut, path: path, body: params.bodyB(false), retry: true},
		func(err error) bool { return StatusCode(err) == http.StatusMethodNotAllowed || namesVariantB(err) })
}

// memoryInVariant sends a (variant A) or b (B) as the variant says; while
// unknown, a first and b when isB(err). The variant that worked is kept.
func (c *Client) memoryInVariant(ctx context.Context, cfg *config, a, b request, isB func(error) bool) (*Memory, error) {
	send := func(v MemoryVariant) (*Memory, error) {
		req := a
		if v == MemoryB {
			req = b
		}
		m, err := doRecord[Memory](ctx, c, cfg, req, "memory", "data")
		if err == nil && m.Variant == MemoryAuto {
			m.Variant = v
		}
		return m, err
	}
	if v := learned(c, &c.memoryVariant, cfg.memoryVariant, c.cfg.memoryVariant); v != MemoryAuto {
		return send(v)
	}
	return inReading(c, &c.memoryVariant, MemoryA, MemoryB, isB, send)
}

// UpdateCollection renames a memory collection (PUT /memory-collections/{id}).
func (c *Client) UpdateCollection(ctx context.Context, id ID, name string, opts ...Option) (*Collection, error) {
	return c.collectionCall(ctx, request{method: http.MethodPut, path: pathf("/memory-collections/%s", id), retry: true}, name, opts)
}

// ListMemoriesParams pages the memory list (GET /memories).
type ListMemoriesParams struct {
	Page    int // 1-based; 0 means the first page
	PerPage int // 1 to 50; 0 means the server's default (10)
	// CollectionID keeps the memories of one collection.
	CollectionID ID
}

// MaxMemoriesPerPage and MaxCollectionsPerPage are the real service's page sizes.
const (
	MaxMemoriesPerPage    = 50
	MaxCollectionsPerPage = 50
)

// ListMemories returns one page of memories (GET /memories); a server
// without the list is IsUnsupported.
func (c *Client) ListMemories(ctx context.Context, params ListMemoriesParams, opts ...Option) (*Page[Memory], error) {
	filters := map[string]any{"collection_id": string(params.CollectionID)}
	return listPage[Memory](ctx, c, "/memories", "memories", filters, params.Page, min(params.PerPage, MaxMemoriesPerPage), opts)
}

// Memories iterates over every memory, stopping at the first error.
func (c *Client) Memories(ctx context.Context, params ListMemoriesParams, opts ...Option) iter.Seq2[Memory, error] {
	return iterate(ctx, c.ListMemories, params, opts)
}

// DeleteMemory deletes a memory (DELETE /memories/{id}); not retried.
func (c *Client) DeleteMemory(ctx context.Context, id ID, opts ...Option) error {
	return c.do(ctx, c.callConfig(opts), request{method: http.MethodDelete, path: pathf("/memories/%s", id)}, nil)
}

// ListCollectionsParams pages the collection list (GET /memory-collections).
type ListCollectionsParams struct {
	Page    int // 1-based; 0 means the first page
	PerPage int // 1 to 50; 0 means the server's default (10)
	// Search keeps the collections whose name contains it.
	Search string
}

// ListCollections returns one page of memory collections.
func (c *Client) ListCollections(ctx context.Context, params ListCollectionsParams, opts ...Option) (*Page[Collection], error) {
	filters := map[string]any{"search": strings.TrimSpace(params.Search)}
	return listPage[Collection](ctx, c, "/memory-collections", "collections", filters, params.Page, min(params.PerPage, MaxCollectionsPerPage), opts)
}

// Collections iterates over every collection, stopping at the first error.
func (c *Client) Collections(ctx context.Context, params ListCollectionsParams, opts ...Option) iter.Seq2[Collection, error] {
	return iterate(ctx, c.ListCollections, params, opts)
}

// MaxCollectionName is the longest collection name accepted.
const MaxCollectionName = 255

func checkCollectionName(name string) (string, error) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return "", &InputError{Field: "name", Message: "Give the collection a name."}
	case utf8.RuneCountInString(name) > MaxCollectionName:
		return "", &InputError{Field: "name", Message: fmt.Sprintf("A collection name can be at most %d characters long.", MaxCollectionName)}
	}
	return name, nil
}

// CreateCollection creates a memory collection (POST /memory-collections).
func (c *Client) CreateCollection(ctx context.Context, name string, opts ...Option) (*Collection, error) {
	return c.collectionCall(ctx, request{method: http.MethodPost, path: "/memory-collections"}, name, opts)
}

// DeleteCollection deletes a collection and its memories; the default one
// is refused (IsDefaultCollectionRefusal).
func (c *Client) DeleteCollection(ctx context.Context, id ID, opts ...Option) error {
	return c.do(ctx, c.callConfig(opts), request{method: http.MethodDelete, path: pathf("/memory-collections/%s", id)}, nil)
}

// ErrDefaultCollection is the refusal to delete the default collection.
var ErrDefaultCollection = &InputError{Field: "collection", Message: "The default collection cannot be deleted. Delete its memories one by one instead."}

// IsDefaultCollectionRefusal reports the 403 for deleting the default collection.
func IsDefaultCollectionRefusal(err error) bool {
	e, ok := errors.AsType[*APIError](err)
	return ok && e.StatusCode == http.StatusForbidden &&
		strings.Contains(strings.ToLower(e.Message), "default collection")
}

// collectionCall sends req with the collection's name, checked first.
func (c *Client) collectionCall(ctx context.Context, req request, name string, opts []Option) (*Collection, error) {
	name, err := checkCollectionName(name)
	if err != nil {
		return nil, err
	}
	req.body = map[string]any{"name": name}
	return doRecord[Collection](ctx, c, c.callConfig(opts), req, "collection", "data")
}

// IsUnsupported reports a server without the operation: 405, 501, or a 404
// that names no record (spec servers lack many lists and deletes).
func IsUnsupported(err error) bool {
	e, ok := errors.AsType[*APIError](err)
	return ok && (e.StatusCode == http.StatusMethodNotAllowed || e.StatusCode == http.StatusNotImplemented ||
		e.StatusCode == http.StatusNotFound && routeMissing(e))
}

// routeMissing tells a 404 for a route from one for a record, which says what.
func routeMissing(e *APIError) bool {
	m := strings.ToLower(e.Message)
	for _, w := range []string{"memory not found", "collection not found", "file not found", "webhook not found", "agent not found", "execution not found", "response not found", "no query results"} {
		if strings.Contains(m, w) {
			return false
		}
	}
	return true
}
