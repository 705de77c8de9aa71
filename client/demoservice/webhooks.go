package demoservice

import (
	"maps"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// webhook is a registered webhook: its record in the agent webhook list and
// in variant A, then what variant B adds.
// Assumption: variant-A webhook timestamps use microseconds and Z like
// agents; variant-B timestamps use the +00:00 offset like memory variant B.
type webhook struct {
	webhookCreated
	SuccessCount     int     `json:"success_count"`
	FailureCount     int     `json:"failure_count"`
	DeletedAt        *string `json:"deleted_at"`
	ws               int64
	events           []string
	secret           string
	created, updated time.Time
}

func newWebhook(id int64, a *Agent, url, method, status string, events []string, secret string, created, updated time.Time) *webhook {
	return &webhook{webhookCreated: webhookCreated{ID: id, TemplateID: a.ID, UserID: demoUserID, URL: url, Method: method,
		Status: status, CreatedAt: microZ(created), UpdatedAt: microZ(updated)}, ws: a.WorkspaceID, events: events, secret: secret, created: created, updated: updated}
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

type webhookB struct {
	ID        int64    `json:"id"`
	URL       string   `json:"url"`
	Events    []string `json:"events"`
	Secret    string   `json:"secret"`
	CreatedAt string   `json:"created_at"`
	UpdatedAt string   `json:"updated_at"`
}

func (h webhook) wireB() webhookB {
	return webhookB{ID: h.ID, URL: h.URL, Events: append([]string(nil), h.events...), Secret: h.secret,
		CreatedAt: offsetUTC(h.created), UpdatedAt: offsetUTC(h.updated)}
}

// seedWebhooks registers one or two webhooks on about every third agent.
func (s *Service) seedWebhooks() {
	next := int64(301)
	for i, id := range slices.Sorted(maps.Keys(s.agents)) {
		a := s.agents[id]
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
			h := newWebhook(next, a, "https://"+host+"/agents/"+a.Slug+"/"+strconv.Itoa(k+1), "POST", "active", events,
				"whsec_"+shortHash("webhook", strconv.FormatInt(next, 10))+shortHash("secret", a.Slug), created, created.Add(36*time.Hour))
			h.SuccessCount, h.FailureCount = 12+(i*37+k*11)%240, (i+k)%4
			s.webhooks[next] = h
			next++
		}
	}
}

// FillWebhooks replaces the first workspace's webhooks with n, for long
// lists: ten for each of its agents in turn.
func (s *Service) FillWebhooks(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ws := s.workspaces[0]
	maps.DeleteFunc(s.webhooks, func(_ int64, h *webhook) bool { return h.ws == ws })
	var agents []*Agent
	for _, id := range slices.Sorted(maps.Keys(s.agents)) {
		if s.agents[id].WorkspaceID == ws {
			agents = append(agents, s.agents[id])
		}
	}
	next := slices.Max(append(slices.Collect(maps.Keys(s.webhooks)), 0))
	for k := range n {
		next++
		a, created := agents[k/10%len(agents)], seedEpoch.Add(time.Duration(k)*time.Hour)
		s.webhooks[next] = newWebhook(next, a, "https://hooks.acme-office.example/agents/"+a.Slug+"/"+strconv.Itoa(k+1), "POST", "active",
			[]string{"agent.completed"}, "whsec_"+shortHash("webhook", strconv.FormatInt(next, 10)), created, created)
	}
}

func (s *Service) listAgentWebhooks(w http.ResponseWriter, r *http.Request) {
	a := s.agentFromPath(r)
	s.listWebhooksA(w, r, func(h *webhook) bool { return h.TemplateID == a.ID })
}

func (s *Service) listWebhooksA(w http.ResponseWriter, r *http.Request, mine func(*webhook) bool) {
	p := readPage(r, defaultPerPage, maxPerPage)
	page, total := collectPage(s, s.webhooks, mine, p)
	writeJSON(w, http.StatusOK, newEnvelope(r, p, page, total))
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
	errs.check()
	mine := wire(collect(s, s.webhooks, func(h *webhook) bool { return h.ws == ws }), webhook.wireB)
	lo := min(offset, len(mine))
	out := append([]webhookB{}, mine[lo:min(lo+limit, len(mine))]...)
	writeJSON(w, http.StatusOK, map[string]any{"webhooks": out, "total": len(mine), "limit": limit, "offset": offset})
}

// createWebhook answers POST /agents/{id}/webhooks (real reading).
// Assumption: a new webhook reports both events (agent.completed and
// agent.failed) and a fresh signing secret where variant B shows them.
func (s *Service) createWebhook(w http.ResponseWriter, r *http.Request) {
	a := s.agentFromPath(r)
	body := readJSONObject(w, r)
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
	errs.check()
	now := s.now()
	s.mu.Lock()
	next := slices.Max(append(slices.Collect(maps.Keys(s.webhooks)), 0))
	h := newWebhook(next+1, a, strings.TrimSpace(target), method, status, []string{"agent.completed", "agent.failed"},
		"whsec_"+shortHash("webhook", strconv.FormatInt(next+1, 10), now.String())+shortHash("secret", a.Slug), now, now)
	s.webhooks[h.ID] = h
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, h.webhookCreated)
}

// deleteWebhook answers DELETE /webhooks/{id} (real reading).
// Assumption: a deleted webhook leaves every list (no soft delete shown).
func (s *Service) deleteWebhook(w http.ResponseWriter, r *http.Request) {
	deleteRecord(s, w, r, s.webhooks, func(h *webhook) bool { return h.ws == workspaceOf(r) }, "Webhook", func(int64) {})
}
