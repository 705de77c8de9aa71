package demoservice

import (
	"fmt"
	"maps"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Default page sizes stated by the interface.
const (
	defaultPerPage = 15
	maxPerPage     = 100
)

// pageQuery holds a validated page and per_page.
type pageQuery struct {
	page, perPage int
}

// readPage validates page and per_page, answering 422 naming the field on failure.
// Assumption: the per_page bounds stated for the file list (1..100) hold for
// every paginated list; values outside answer 422 naming the parameter.
func readPage(w http.ResponseWriter, r *http.Request) (pageQuery, bool) {
	return readPageSized(w, r, defaultPerPage, maxPerPage)
}

// readPageSized is readPage with another default and maximum per_page.
func readPageSized(w http.ResponseWriter, r *http.Request, perPage, maxPer int) (pageQuery, bool) {
	q := r.URL.Query()
	var errs fieldErrors
	p := pageQuery{
		page:    intParam(&errs, q, "page", 1, 1, math.MaxInt, "The page field must be an integer of at least 1."),
		perPage: intParam(&errs, q, "per_page", perPage, 1, maxPer, fmt.Sprintf("The per_page field must be an integer between 1 and %d.", maxPer)),
	}
	if errs.any() {
		errs.write(w, r)
		return p, false
	}
	return p, true
}

// intParam reads query parameter name as an integer within lo..hi, def when
// absent; otherwise it adds msg to errs.
func intParam(errs *fieldErrors, q url.Values, name string, def, lo, hi int, msg string) int {
	v := q.Get(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		errs.add(name, msg)
		return def
	}
	return n
}

// window returns the slice bounds of page p over total items.
func (p pageQuery) window(total int) (lo, hi int) {
	lo = min((p.page-1)*p.perPage, total)
	return lo, min(lo+p.perPage, total)
}

// lastPage is the number of the last page; 1 for an empty list.
func (p pageQuery) lastPage(total int) int {
	if total == 0 {
		return 1
	}
	return (total + p.perPage - 1) / p.perPage
}

// meta holds page p's pagination fields over total items. The wire objects
// order their keys alphabetically, as maps marshal.
// Assumption: on an empty page from and to are null, as the widely used
// envelope does.
func (p pageQuery) meta(total int) map[string]any {
	m := map[string]any{"current_page": p.page, "from": nil, "last_page": p.lastPage(total), "per_page": p.perPage, "to": nil, "total": total}
	if lo, hi := p.window(total); lo < hi {
		m["from"], m["to"] = lo+1, hi
	}
	return m
}

// shortMeta is the meta object of the real memory and collection lists.
func (p pageQuery) shortMeta(total int) map[string]any {
	return map[string]any{"current_page": p.page, "last_page": p.lastPage(total), "total": total}
}

// pageOf returns the items of page p.
func pageOf[T any](items []T, p pageQuery) []T {
	lo, hi := p.window(len(items))
	return append([]T{}, items[lo:hi]...)
}

// wire converts every item, as for the wire.
func wire[T, U any](items []T, conv func(T) U) []U {
	out := make([]U, 0, len(items))
	for _, it := range items {
		out = append(out, conv(it))
	}
	return out
}

// pageLink is one entry of the envelope's links.
type pageLink struct {
	URL    *string `json:"url"`
	Label  string  `json:"label"`
	Active bool    `json:"active"`
}

// baseURL is the absolute scheme://host of the request.
func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// newEnvelope is page p of items in the pagination envelope of agents and
// webhooks (variant A). Page URLs are absolute and keep the other query
// parameters, so next_page_url keeps the filter.
func newEnvelope[T any](r *http.Request, p pageQuery, items []T) map[string]any {
	path := baseURL(r) + r.URL.Path
	pageURL := func(n int) *string {
		q := r.URL.Query()
		q.Set("page", strconv.Itoa(n))
		u := path + "?" + q.Encode()
		return &u
	}
	last := p.lastPage(len(items))
	var prev, next *string
	if p.page > 1 {
		prev = pageURL(min(p.page-1, last))
	}
	if p.page < last {
		next = pageURL(p.page + 1)
	}
	links := []pageLink{{URL: prev, Label: "pagination.previous"}}
	for n := 1; n <= last; n++ {
		links = append(links, pageLink{URL: pageURL(n), Label: strconv.Itoa(n), Active: n == p.page})
	}
	links = append(links, pageLink{URL: next, Label: "pagination.next"})
	e := p.meta(len(items))
	maps.Copy(e, map[string]any{"data": pageOf(items, p), "first_page_url": *pageURL(1), "last_page_url": *pageURL(last),
		"links": links, "next_page_url": next, "path": path, "prev_page_url": prev})
	return e
}
