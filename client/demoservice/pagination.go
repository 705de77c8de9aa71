package demoservice

import (
	"fmt"
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
	lo = (p.page - 1) * p.perPage
	if lo > total {
		lo = total
	}
	hi = lo + p.perPage
	if hi > total {
		hi = total
	}
	return lo, hi
}

// lastPage is the number of the last page; 1 for an empty list.
func (p pageQuery) lastPage(total int) int {
	if total == 0 {
		return 1
	}
	return (total + p.perPage - 1) / p.perPage
}

// fromTo are the 1-based positions of the page's first and last item.
// Assumption: on an empty page from and to are null, as the widely used
// envelope does.
func (p pageQuery) fromTo(total int) (from, to *int) {
	lo, hi := p.window(total)
	if lo >= hi {
		return nil, nil
	}
	f, t := lo+1, hi
	return &f, &t
}

// pageLink is one entry of the envelope's links.
type pageLink struct {
	URL    *string `json:"url"`
	Label  string  `json:"label"`
	Active bool    `json:"active"`
}

// envelope is the pagination envelope of agents and webhooks (variant A).
type envelope struct {
	CurrentPage  int        `json:"current_page"`
	Data         any        `json:"data"`
	FirstPageURL string     `json:"first_page_url"`
	From         *int       `json:"from"`
	LastPage     int        `json:"last_page"`
	LastPageURL  string     `json:"last_page_url"`
	Links        []pageLink `json:"links"`
	NextPageURL  *string    `json:"next_page_url"`
	Path         string     `json:"path"`
	PerPage      int        `json:"per_page"`
	PrevPageURL  *string    `json:"prev_page_url"`
	To           *int       `json:"to"`
	Total        int        `json:"total"`
}

// baseURL is the absolute scheme://host of the request.
func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// newEnvelope builds page p's envelope. Page URLs are absolute and keep the
// other query parameters, so next_page_url keeps the filter.
func newEnvelope(r *http.Request, p pageQuery, total int, data any) envelope {
	path := baseURL(r) + r.URL.Path
	pageURL := func(n int) string {
		q := url.Values{}
		for k, v := range r.URL.Query() {
			if k != "page" {
				q[k] = v
			}
		}
		q.Set("page", strconv.Itoa(n))
		return path + "?" + q.Encode()
	}
	last := p.lastPage(total)
	e := envelope{
		CurrentPage:  p.page,
		Data:         data,
		FirstPageURL: pageURL(1),
		LastPage:     last,
		LastPageURL:  pageURL(last),
		Path:         path,
		PerPage:      p.perPage,
		Total:        total,
	}
	e.From, e.To = p.fromTo(total)
	if p.page > 1 {
		u := pageURL(min(p.page-1, last))
		e.PrevPageURL = &u
	}
	if p.page < last {
		u := pageURL(p.page + 1)
		e.NextPageURL = &u
	}
	e.Links = append(e.Links, pageLink{URL: e.PrevPageURL, Label: "pagination.previous"})
	for n := 1; n <= last; n++ {
		u := pageURL(n)
		e.Links = append(e.Links, pageLink{URL: &u, Label: strconv.Itoa(n), Active: n == p.page})
	}
	e.Links = append(e.Links, pageLink{URL: e.NextPageURL, Label: "pagination.next"})
	return e
}

// resourceMeta is the meta object of the resource list.
type resourceMeta struct {
	CurrentPage int  `json:"current_page"`
	From        *int `json:"from"`
	LastPage    int  `json:"last_page"`
	PerPage     int  `json:"per_page"`
	To          *int `json:"to"`
	Total       int  `json:"total"`
}

func newResourceMeta(p pageQuery, total int) resourceMeta {
	m := resourceMeta{CurrentPage: p.page, LastPage: p.lastPage(total), PerPage: p.perPage, Total: total}
	m.From, m.To = p.fromTo(total)
	return m
}

// pageOf returns the items of page p.
func pageOf[T any](items []T, p pageQuery) []T {
	lo, hi := p.window(len(items))
	out := make([]T, hi-lo)
	copy(out, items[lo:hi])
	return out
}

// listMeta is the meta object of the real memory and collection lists.
type listMeta struct {
	CurrentPage int `json:"current_page"`
	LastPage    int `json:"last_page"`
	Total       int `json:"total"`
}

func newListMeta(p pageQuery, total int) listMeta {
	return listMeta{CurrentPage: p.page, LastPage: p.lastPage(total), Total: total}
}
