package app_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/agentdesk/agentdesk/app/catalog"
	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
)

// hookIDs are the ids a webhook list shows.
func hookIDs(l *catalog.Hooks) []client.ID {
	var out []client.ID
	for _, w := range l.Get().Items {
		out = append(out, w.ID)
	}
	return out
}

// Turning a webhook off and deleting it change the list at once, before
// the service is asked for the list again.
func TestWebhookSwitchAndDeleteChangeTheListAtOnce(t *testing.T) {
	// While a gate is set, the service answers no list of webhooks until
	// it is closed.
	var gate atomic.Pointer[chan struct{}]
	a, _ := served(t, demoservice.Options{API: demoservice.APIReal}, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if g := gate.Load(); g != nil && r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/webhooks") {
				<-*g
			}
			next.ServeHTTP(w, r)
		})
	})
	ctx := context.Background()
	h := a.Catalog().NewAgentWebhooks("101")
	if err := h.Add(ctx, "101", "https://example.com/hook", "POST", true); err != nil {
		t.Fatal(err)
	}
	st, _ := waitFor(t, h.List, "the new webhook", func(st live.ListState[client.Webhook]) bool { return st.Loaded && !st.Loading })
	var added client.Webhook
	for _, w := range st.Items {
		if w.URL == "https://example.com/hook" {
			added = w
		}
	}
	if added.ID == "" {
		t.Fatalf("the added webhook is not listed: %+v", st.Items)
	}

	closed := make(chan struct{})
	gate.Store(&closed)
	if err := h.SetActive(ctx, added, false); err != nil {
		t.Fatal(err)
	}
	var off client.Webhook
	for _, w := range h.Get().Items {
		if w.URL == added.URL {
			off = w
		}
	}
	if off.ID == added.ID || off.Status != client.WebhookInactive || slices.Contains(hookIDs(h), added.ID) {
		t.Fatalf("switched off, the list shows %+v", h.Get().Items)
	}
	if err := h.Delete(ctx, off.ID); err != nil {
		t.Fatal(err)
	}
	if slices.Contains(hookIDs(h), off.ID) || !h.Get().Loading {
		t.Fatalf("deleted, the list shows %v (loading %v)", hookIDs(h), h.Get().Loading)
	}
	close(closed)
	waitFor(t, h.List, "the list again", func(st live.ListState[client.Webhook]) bool { return st.Loaded && !st.Loading })
	if slices.Contains(hookIDs(h), off.ID) {
		t.Fatal("the service still lists the deleted webhook")
	}
}

// The workspace's webhooks name their agents once read; another account
// clears both.
func TestWorkspaceWebhooksNameTheirAgentsUntilCleared(t *testing.T) {
	a, _ := served(t, demoservice.Options{API: demoservice.APISpec, WebhookVariant: "A"}, nil)
	h := a.Catalog().NewWebhooks()
	h.Reload()
	waitFor(t, h.List, "the webhooks", func(st live.ListState[client.Webhook]) bool { return st.Loaded && len(st.Items) > 0 })
	titles := h.Titles()
	h.WantTitle(h.Get().Items[0].TemplateID) // as a row in view does
	eventually(t, "an agent's title", func() bool { m, _ := titles.Snapshot(); return len(m) > 0 })
	h.Clear()
	if m, _ := titles.Snapshot(); m != nil || len(h.Get().Items) != 0 {
		t.Fatalf("after Clear: titles %v, %d webhooks", m, len(h.Get().Items))
	}
}

// Typing a word into the resources' search sends one search, for the
// whole word.
func TestResourceSearchWhileTypingSendsTheLastWordOnly(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	a, _ := served(t, demoservice.Options{}, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/resources" || strings.HasSuffix(r.URL.Path, "/resources") {
				mu.Lock()
				asked = append(asked, r.URL.Query().Get("q"))
				mu.Unlock()
			}
			next.ServeHTTP(w, r)
		})
	})
	r := a.Catalog().NewResourceSearch()
	word := "reminder"
	for i := 1; i <= len(word); i++ {
		r.FindSoon(word[:i], "")
	}
	st, _ := waitFor(t, r.List, "the search", func(st live.ListState[client.Resource]) bool { return st.Loaded && !st.Loading })
	mu.Lock()
	sent := slices.Clone(asked)
	mu.Unlock()
	if len(st.Items) != 2 || len(sent) == 0 || slices.ContainsFunc(sent, func(q string) bool { return q != word }) {
		t.Fatalf("found %d resources; the service was asked for %q", len(st.Items), sent)
	}
	r.Find("", "prompt")
	st, _ = waitFor(t, r.List, "the type", func(st live.ListState[client.Resource]) bool { return st.Loaded && !st.Loading })
	if len(st.Items) != 4 {
		t.Fatalf("prompts = %d", len(st.Items))
	}
}
