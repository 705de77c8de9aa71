package demoservice

import (
	"net/http"
	"strconv"
	"time"
)

// webhook is a registered webhook; it renders in both list shapes.
type webhook struct {
	id, agentID, ws int64
	url             string
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
func (h *webhook) wireA() webhookA {
	return webhookA{ID: h.id, TemplateID: h.agentID, UserID: demoUserID, URL: h.url, Method: "POST",
		SuccessCount: h.success, FailureCount: h.failed, Status: "active",
		CreatedAt: microZ(h.created), UpdatedAt: microZ(h.updated)}
}

func (h *webhook) wireB() webhookB {
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
			s.webhooks = append(s.webhooks, &webhook{
				id: next, agentID: a.ID, ws: a.WorkspaceID,
				url:     "https://" + host + "/agents/" + a.Slug + "/" + strconv.Itoa(k+1),
				events:  events,
				secret:  "whsec_" + shortHash("webhook", strconv.FormatInt(next, 10)) + shortHash("secret", a.Slug),
				success: 12 + (i*37+k*11)%240, failed: (i + k) % 4,
				created: created, updated: created.Add(36 * time.Hour),
			})
			next++
		}
	}
}

// listAgentWebhooks answers GET /agents/{id}/webhooks (pagination envelope).
func (s *Service) listAgentWebhooks(w http.ResponseWriter, r *http.Request) {
	a, ok := s.agentFromPath(w, r)
	if !ok {
		return
	}
	p, ok := readPage(w, r)
	if !ok {
		return
	}
	var all []webhookA
	for _, h := range s.webhooks {
		if h.agentID == a.ID {
			all = append(all, h.wireA())
		}
	}
	writeJSON(w, http.StatusOK, newEnvelope(r, p, len(all), pageOf(all, p)))
}

// listWebhooks answers GET /webhooks: variant A is the pagination envelope,
// variant B is {webhooks, total, limit, offset}.
func (s *Service) listWebhooks(w http.ResponseWriter, r *http.Request) {
	ws := workspaceOf(r)
	var mine []*webhook
	for _, h := range s.webhooks {
		if h.ws == ws {
			mine = append(mine, h)
		}
	}
	if s.opts.WebhookVariant != "B" {
		p, ok := readPage(w, r)
		if !ok {
			return
		}
		all := make([]webhookA, 0, len(mine))
		for _, h := range mine {
			all = append(all, h.wireA())
		}
		writeJSON(w, http.StatusOK, newEnvelope(r, p, len(all), pageOf(all, p)))
		return
	}
	limit, offset := 25, 0
	var errs fieldErrors
	q := r.URL.Query()
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			errs.add("limit", "The limit field must be an integer between 1 and 100.")
		}
		limit = n
	}
	if v := q.Get("offset"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			errs.add("offset", "The offset field must be an integer of at least 0.")
		}
		offset = n
	}
	if errs.any() {
		errs.write(w, r)
		return
	}
	out := []webhookB{}
	for i := offset; i < len(mine) && i < offset+limit; i++ {
		out = append(out, mine[i].wireB())
	}
	writeJSON(w, http.StatusOK, map[string]any{"webhooks": out, "total": len(mine), "limit": limit, "offset": offset})
}
