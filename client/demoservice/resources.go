package demoservice

import (
	"net/http"
)

// listResources answers GET /resources with q, type, page and per_page.
//
// Assumption: the parameters are read from the query string; the interface
// lists them under path, query and body alike.
func (s *Service) listResources(w http.ResponseWriter, r *http.Request) {
	p, ok := readPage(w, r)
	if !ok {
		return
	}
	q, typ := searchParam(r, "q"), searchParam(r, "type")
	matched := []resource{}
	for _, res := range s.resources {
		if (typ == "" || res.typ == typ) && matchesText(q, res.Title, res.Description, res.long) {
			matched = append(matched, res)
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": pageOf(matched, p), "meta": p.meta(len(matched))})
}
