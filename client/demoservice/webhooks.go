package demoservice

import (
	"cmp"
	"maps"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// webhook is a registered webhook; it renders in both list shapes.
type webhook struct {
	id, agentID, ws int64
	url             string
	method          string // POST or GET
	status          string // active or inactive
	events          []string
	secret          string
	success, failed int
	created         time.Time
	updated         time.Time
}

// webhookA is the record of the agent webhook list and of webhooks variant A.
type webhookA struct {
	ID           int64   `json:"id"`
	TemplateID   int64   `json:"template_id"`
	UserID       int64   `json:"user_id"`
	URL          string  `json:"url"`
	Method       string  `json:"method"`
	SuccessCount int     `json:"success_count"`
	FailureCount int     `json:"failure_count"`
	Status       string  `json:"status"`
	CreatedAt    string  `json:"created_at"`
	UpdatedAt    string  `json:"updated_at"`
	DeletedAt    *string `json:"deleted_at"`
}

// webhookB is the record of webhooks variant B.
type webhookB struct {
	ID        int64    `json:"id"`
	URL       string   `json:"url"`
	Events    []string `json:"events"`
	Secret    string   `json:"secret"`
	CreatedAt string   `json:"created_at"`
	UpdatedAt string   `json:"updated_at"`
}

// Assumption: variant-A webhook timestamps use microseconds and Z like
// agents; variant-B timestamps use the +00:00 offset like memory variant B.
func (h webhook) wireA() webhookA {
	return webhookA{ID: h.id, TemplateID: h.agentID, UserID: demoUserID, URL: h.url, Method: h.method,
		SuccessCount: h.success, FailureCount: h.failed, Status: h.status,
		CreatedAt: microZ(h.created), UpdatedAt: microZ(h.updated)}
}

func (h webhook) wireB() webhookB {
	return webhookB{ID: h.id, URL: h.url, Events: append([]string(nil), h.events...), Secret: h.secret,
		CreatedAt: offsetUTC(h.created), UpdatedAt: offsetUTC(h.updated)}
}

// seedWebhooks registers one or two webhooks on about every third agent.
func (s *Service) seedWebhooks() {
	next := int64(301)
	for i, a := range s.agents {
		if i%3 != 0 {
			continue
		}
		n := 1 + i%2
		for k := 0; k < n; k++ {
			created := seedEpoch.Add(time.Duration(i*40+k*7) * time.Hour)
			host := "hooks.acme-office.example"
			if a.WorkspaceID == 2 {
				host = "hooks.acme-marketing.example"
			}
			events := []string{"agent.completed"}
			if k == 1 || i%4 == 0 {
				events = append(events, "agent.failed")
			}
			s.webhooks[next] = &webhook{
				id: next, agentID: a.ID, ws: a.WorkspaceID,
				url:    "https://" + host + "/agents/" + a.Slug + "/" + strconv.Itoa(k+1),
				method: "POST", status: "active",
				events:  events,
				secret:  "whsec_" + shortHash("webhook", strconv.FormatInt(next, 10)) + shortHash("secret", a.Slug),
				success: 12 + (i*37+k*11)%240, failed: (i + k) % 4,
				created: created, updated: created.Add(36 * time.Hour),
			}
			next++
		}
	}
}

// listAgentWebhooks answers GET /agents/{id}/webhooks (pagination envelope).
func (s *Service) listAgentWebhooks(w http.ResponseWriter, r *http.Request) {
	if a, ok := s.agentFromPath(w, r); ok {
		s.listWebhooksA(w, r, func(h *webhook) bool { return h.agentID == a.ID })
	}
}

// webhooksWhere snapshots the webhooks mine accepts, in id order.
func (s *Service) webhooksWhere(mine func(*webhook) bool) []webhook {
	all := collect(s, maps.Values(s.webhooks), mine)
	slices.SortFunc(all, func(a, b webhook) int { return cmp.Compare(a.id, b.id) })
	return all
}

// listWebhooksA answers the webhooks mine accepts in a pagination envelope.
func (s *Service) listWebhooksA(w http.ResponseWriter, r *http.Request, mine func(*webhook) bool) {
	if p, ok := readPage(w, r, defaultPerPage, maxPerPage); ok {
		writeJSON(w, http.StatusOK, newEnvelope(r, p, wire(s.webhooksWhere(mine), webhook.wireA)))
	}
}

// listWebhooks answers GET /webhooks in variant A (envelope) or B.
// Assumption: the real reading always answers variant A.
func (s *Service) listWebhooks(w http.ResponseWriter, r *http.Request) {
	ws := workspaceOf(r)
	if s.opts.WebhookVariant != "B" || s.real {
		s.listWebhooksA(w, r, func(h *webhook) bool { return h.ws == ws })
		return
	}
	var errs fieldErrors
	q := r.URL.Query()
	limit := intParam(&errs, q, "limit", 25, 1, 100, "The limit field must be an integer between 1 and 100.")
	offset := intParam(&errs, q, "offset", 0, 0, math.MaxInt, "The offset field must be an integer of at least 0.")
	if errs.any() {
		errs.write(w, r)
		return
	}
	mine := wire(s.webhooksWhere(func(h *webhook) bool { return h.ws == ws }), webhook.wireB)
	lo := min(offset, len(mine))
	out := append([]webhookB{}, mine[lo:min(lo+limit, len(mine))]...)
	writeJSON(w, http.StatusOK, map[string]any{"webhooks": out, "total": len(mine), "limit": limit, "offset": offset})
}

// webhookCreated is the answer of POST /agents/{id}/webhooks.
type webhookCreated struct {
	ID         int64  `json:"id"`
	TemplateID int64  `json:"template_id"`
	UserID     int64  `json:"user_id"`
	URL        string `json:"url"`
	Method     string `json:"method"`
	Status     string `json:"status"`
	CreatedAt  string `json:"created_at"`
	UpdatedAt  string `json:"updated_at"`
}

// createWebhook answers POST /agents/{id}/webhooks (real reading).
// Assumption: a new webhook reports both events (agent.completed and
// agent.failed) and a fresh signing secret where variant B shows them.
func (s *Service) createWebhook(w http.ResponseWriter, r *http.Request) {
	a, body, ok := s.agentBody(w, r)
	if !ok {
		return
	}
	var errs fieldErrors
	target, _ := body["url"].(string)
	if strings.TrimSpace(target) == "" {
		errs.add("url", "The url field is required.")
	} else if u, err := url.Parse(strings.TrimSpace(target)); err != nil || u.Scheme != "https" || u.Host == "" {
		errs.add("url", "The url must be a valid URL that starts with https://.")
	}
	method, _ := body["method"].(string)
	if body["method"] == nil {
		errs.add("method", "The method field is required.")
	} else if method != "POST" && method != "GET" {
		errs.add("method", "The selected method is invalid. Allowed: POST, GET.")
	}
	status := "active"
	if body["status"] != nil {
		status, _ = body["status"].(string)
		if status != "active" && status != "inactive" {
			errs.add("status", "The selected status is invalid. Allowed: active, inactive.")
		}
	}
	if errs.any() {
		errs.write(w, r)
		return
	}
	now := s.now()
	s.mu.Lock()
	var next int64
	for id := range s.webhooks {
		next = max(next, id)
	}
	h := &webhook{
		id: next + 1, agentID: a.ID, ws: a.WorkspaceID, url: strings.TrimSpace(target), method: method, status: status,
		events:  []string{"agent.completed", "agent.failed"},
		secret:  "whsec_" + shortHash("webhook", strconv.FormatInt(next+1, 10), now.String()) + shortHash("secret", a.Slug),
		created: now, updated: now,
	}
	s.webhooks[h.id] = h
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, webhookCreated{ID: h.id, TemplateID: h.agentID, UserID: demoUserID, URL: h.url,
		Method: h.method, Status: h.status, CreatedAt: microZ(now), UpdatedAt: microZ(now)})
}

// deleteWebhook answers DELETE /webhooks/{id} (real reading).
// Assumption: a deleted webhook leaves every list (no soft delete shown).
func (s *Service) deleteWebhook(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	ws := workspaceOf(r)
	s.mu.Lock()
	h, found := s.webhooks[id]
	found = found && h.ws == ws
	if found {
		delete(s.webhooks, id)
	}
	s.mu.Unlock()
	if !found {
		writeError(w, r, http.StatusNotFound, "Webhook not found")
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"message": "Webhook deleted successfully"})
}
