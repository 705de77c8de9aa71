package client

import (
	"context"
	"encoding/json"
	"iter"
	"maps"
	"net/url"
	"strconv"
)

// Page is one page of a list, with the service's pagination fields when it sent them.
type Page[T any] struct {
	Data        []T
	CurrentPage int
	LastPage    int
	PerPage     int
	Total       int
	NextPageURL string
	Meta        *Meta // the resource list's pagination object, copied above

	next func(ctx context.Context) (*Page[T], error) // the following page; nil on the last
}

// PageParams selects a page of lists that only take page and per_page.
type PageParams struct {
	Page    int // 1-based; 0 means the first page
	PerPage int // 0 means the server's default (15)
}

// HasNext reports whether another page follows.
func (p *Page[T]) HasNext() bool { return p != nil && len(p.Data) > 0 && p.next != nil }

// Next fetches the following page, or nil, nil.
func (p *Page[T]) Next(ctx context.Context) (*Page[T], error) {
	if !p.HasNext() {
		return nil, nil
	}
	return p.next(ctx)
}

// follow has p's Next fetch the page after it, when one follows; p answered
// a request for page and perPage, with pagination fields or not. A
// next_page_url is read for its page number only, never followed, so no
// other host gets the key. Assumption: without pagination fields, a page
// follows while pages come back full (15 by default).
func (p *Page[T]) follow(page, perPage int, paginated bool, fetch func(ctx context.Context, page int) (*Page[T], error)) {
	current := max(page, 1)
	if p.CurrentPage > 0 {
		current = p.CurrentPage
	}
	next, more := current+1, false
	switch {
	case p.NextPageURL != "":
		more = true
		if u, err := url.Parse(p.NextPageURL); err == nil {
			if n, err := strconv.Atoi(u.Query().Get("page")); err == nil && n > current {
				next = n
			}
		}
	case p.LastPage > 0:
		more = current < p.LastPage
	case !paginated:
		if perPage <= 0 {
			perPage = 15
		}
		more = len(p.Data) >= perPage
	}
	if more {
		p.next = func(ctx context.Context) (*Page[T], error) { return fetch(ctx, next) }
	}
}

// All iterates over this page's items and all that follow, stopping at the first error.
func (p *Page[T]) All(ctx context.Context) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		page := p
		for page != nil {
			for _, v := range page.Data {
				if !yield(v, nil) {
					return
				}
			}
			var err error
			page, err = page.Next(ctx)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
		}
	}
}

// iterate lists every item of every page from list(params) on.
func iterate[T, P any](ctx context.Context, list func(context.Context, P, ...Option) (*Page[T], error), params P, opts []Option) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		p, err := list(ctx, params, opts...)
		if err != nil {
			var zero T
			yield(zero, err)
			return
		}
		p.All(ctx)(yield)
	}
}

// pageEnvelope is the wire form of every list answer.
type pageEnvelope[T any] struct {
	Data        []T    `json:"data"`
	CurrentPage *int   `json:"current_page"`
	LastPage    int    `json:"last_page"`
	PerPage     int    `json:"per_page"`
	Total       int    `json:"total"`
	NextPageURL string `json:"next_page_url"`
	Meta        *Meta  `json:"meta"`
}

// page returns the page, and whether the answer carried pagination fields.
func (e *pageEnvelope[T]) page() (*Page[T], bool) {
	p := &Page[T]{Data: e.Data, LastPage: e.LastPage, PerPage: e.PerPage, Total: e.Total, NextPageURL: e.NextPageURL, Meta: e.Meta}
	if e.CurrentPage != nil {
		p.CurrentPage = *e.CurrentPage
	}
	if m := e.Meta; m != nil {
		p.CurrentPage, p.LastPage, p.PerPage, p.Total = m.CurrentPage, m.LastPage, m.PerPage, m.Total
	}
	if p.Data == nil {
		p.Data = []T{}
	}
	return p, e.CurrentPage != nil || e.Meta != nil
}

// listPage fetches one page of path, its items under key ("" or absent:
// data), and wires Next to the following ones.
func listPage[T any](ctx context.Context, c *Client, path, key string, filters map[string]any, page, perPage int, opts []Option) (*Page[T], error) {
	values := map[string]any{"page": page, "per_page": perPage}
	maps.Copy(values, filters)
	req := request{method: "GET", path: path, query: query(values), retry: true}
	return doRaw(ctx, c, c.callConfig(opts), req, func(raw json.RawMessage) (*Page[T], error) {
		return decodePage(raw, key, page, perPage, func(ctx context.Context, n int) (*Page[T], error) {
			return listPage[T](ctx, c, path, key, filters, n, perPage, opts)
		})
	})
}

// query holds the values that say something: numbers above zero, texts not empty.
func query(values map[string]any) url.Values {
	q := url.Values{}
	for k, v := range values {
		switch v := v.(type) {
		case int:
			if v > 0 {
				q.Set(k, strconv.Itoa(v))
			}
		case string:
			if v != "" {
				q.Set(k, v)
			}
		}
	}
	return q
}

// decodePage reads a list answer to a request for page and perPage, its
// items under key ("" or absent: data); fetch reads another page.
func decodePage[T any](raw []byte, key string, page, perPage int, fetch func(ctx context.Context, page int) (*Page[T], error)) (*Page[T], error) {
	var env pageEnvelope[T]
	err := decodeLoose(raw, &env)
	if err == nil && key != "" {
		var named map[string]json.RawMessage
		if err = json.Unmarshal(raw, &named); err == nil && !isNull(named[key]) {
			env.Data = nil
			err = json.Unmarshal(named[key], &env.Data)
		}
	}
	if err != nil {
		return nil, err
	}
	p, paginated := env.page()
	p.follow(page, perPage, paginated, fetch)
	return p, nil
}

// Collect reads at most max items of seq; on an error, what came before it.
func Collect[T any](seq iter.Seq2[T, error], max int) ([]T, error) {
	var out []T
	for v, err := range seq {
		if err != nil {
			return out, err
		}
		out = append(out, v)
		if len(out) >= max {
			break
		}
	}
	return out, nil
}
