package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
)

// MemoryParams is the content of a memory to create or update. Variant A
// uses Content and CollectionID; variant B uses Content and Metadata. Fields
// of the other variant are ignored.
type MemoryParams struct {
	// Content is the memory text (variant A: at most 32000 characters).
	// On a variant B update, "" leaves the content unchanged.
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

// MemoryVariant returns the memory interface variant in use: the one forced
// by WithMemoryVariant, else the one detected so far (MemoryAuto before the
// first memory call). Store it per account and pass it back with
// WithMemoryVariant to skip detection next time.
func (c *Client) MemoryVariant() MemoryVariant {
	if c.cfg.memoryVariant != MemoryAuto {
		return c.cfg.memoryVariant
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.memoryVariant
}

func (c *Client) variantFor(cfg *config) MemoryVariant {
	if cfg.memoryVariant != MemoryAuto {
		return cfg.memoryVariant
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.memoryVariant
}

func (c *Client) learnVariant(cfg *config, v MemoryVariant) {
	if cfg.memoryVariant != MemoryAuto {
		return
	}
	c.mu.Lock()
	c.memoryVariant = v
	c.mu.Unlock()
}

// namesVariantB reports a validation error about variant B's field: the
// answer of a variant B server to a variant A body.
//
// Assumption: the service does not say which variant a deployment serves. A
// variant A body sent to a variant B server is refused with a validation
// error that names "content"; that is the signal to switch.
func namesVariantB(err error) bool {
	var e *APIError
	if !errors.As(err, &e) || (e.StatusCode != http.StatusUnprocessableEntity && e.StatusCode != http.StatusBadRequest) {
		return false
	}
	if _, ok := e.Fields["content"]; ok {
		return true
	}
	return strings.Contains(strings.ToLower(e.Message+" "+e.Detail), "content")
}

// CreateMemory stores a memory (POST /memories) in the account's variant,
// detecting it on first use: variant A is tried; a validation error naming
// "content" means variant B, and the memory is sent again as B (nothing was
// created by the refused request). Creation is never retried otherwise.
func (c *Client) CreateMemory(ctx context.Context, params MemoryParams, opts ...Option) (*Memory, error) {
	cfg := c.callConfig(opts)
	v := c.variantFor(cfg)
	if v == MemoryB {
		return c.memoryCall(ctx, cfg, request{method: http.MethodPost, path: "/memories", body: params.bodyB(true)}, MemoryB)
	}
	m, err := c.memoryCall(ctx, cfg, request{method: http.MethodPost, path: "/memories", body: params.bodyA()}, MemoryA)
	if err == nil {
		c.learnVariant(cfg, MemoryA)
		return m, nil
	}
	if v == MemoryAuto && namesVariantB(err) {
		m, err = c.memoryCall(ctx, cfg, request{method: http.MethodPost, path: "/memories", body: params.bodyB(true)}, MemoryB)
		if err == nil {
			c.learnVariant(cfg, MemoryB)
		}
	}
	return m, err
}

// UpdateMemory changes a memory: variant A with PATCH /memories/{id} (the
// answer includes the collection), variant B with PUT /memories/{id}. With
// detection, a 405 or a validation error naming "content" on PATCH switches
// to variant B. Updates send the same body every time and are retried on
// transient failures.
func (c *Client) UpdateMemory(ctx context.Context, id ID, params MemoryParams, opts ...Option) (*Memory, error) {
	cfg := c.callConfig(opts)
	path := pathf("/memories/%s", id)
	v := c.variantFor(cfg)
	if v == MemoryB {
		return c.memoryCall(ctx, cfg, request{method: http.MethodPut, path: path, body: params.bodyB(false), retry: true}, MemoryB)
	}
	m, err := c.memoryCall(ctx, cfg, request{method: http.MethodPatch, path: path, body: params.bodyA(), retry: true}, MemoryA)
	if err == nil {
		c.learnVariant(cfg, MemoryA)
		return m, nil
	}
	if v == MemoryAuto && (StatusCode(err) == http.StatusMethodNotAllowed || namesVariantB(err)) {
		m, err = c.memoryCall(ctx, cfg, request{method: http.MethodPut, path: path, body: params.bodyB(false), retry: true}, MemoryB)
		if err == nil {
			c.learnVariant(cfg, MemoryB)
		}
	}
	return m, err
}

// memoryCall sends a memory request and decodes {"message", "memory": {...}}
// (variant A) or a bare record (variant B).
func (c *Client) memoryCall(ctx context.Context, cfg *config, req request, v MemoryVariant) (*Memory, error) {
	var raw json.RawMessage
	if err := c.do(ctx, cfg, req, &raw); err != nil {
		return nil, err
	}
	var m Memory
	if err := json.Unmarshal(unwrapRecord(raw, "memory", "data"), &m); err != nil {
		return nil, &DecodeError{Method: req.method, Path: req.path, Err: err, Body: truncate(raw, 512)}
	}
	if m.Variant == MemoryAuto {
		m.Variant = v
	}
	return &m, nil
}

// UpdateCollection renames a memory collection (PUT /memory-collections/{id}).
// A missing collection is a 404 ("Collection not found").
func (c *Client) UpdateCollection(ctx context.Context, id ID, name string, opts ...Option) (*Collection, error) {
	cfg := c.callConfig(opts)
	var raw json.RawMessage
	req := request{method: http.MethodPut, path: pathf("/memory-collections/%s", id), body: map[string]any{"name": name}, retry: true}
	if err := c.do(ctx, cfg, req, &raw); err != nil {
		return nil, err
	}
	var col Collection
	if err := json.Unmarshal(unwrapRecord(raw, "collection", "data"), &col); err != nil {
		return nil, &DecodeError{Method: req.method, Path: req.path, Err: err, Body: truncate(raw, 512)}
	}
	return &col, nil
}
