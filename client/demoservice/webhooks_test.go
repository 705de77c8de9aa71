package demoservice

import "testing"

// FillWebhooks gives the first workspace that many webhooks, ten for each
// of its agents in turn, listed in pages of a hundred; the second workspace
// keeps its own.
func TestFillWebhooksGivesTheFirstWorkspaceThatMany(t *testing.T) {
	e := start(t, Options{})
	other := num(e.call("GET", "/webhooks", nil, 200, "x-workspace-id", "2")["total"])
	e.svc.FillWebhooks(246)
	agents := map[float64]bool{}
	for page := 1; page <= 3; page++ {
		out := e.call("GET", "/webhooks?per_page=100&page="+itoa(page), nil, 200)
		if num(out["total"]) != 246 || num(out["last_page"]) != 3 {
			t.Fatalf("page %d: total %v, last page %v", page, out["total"], out["last_page"])
		}
		for _, h := range out["data"].([]any) {
			agents[num(h.(map[string]any)["template_id"])] = true
		}
	}
	if len(agents) != 25 {
		t.Fatalf("246 webhooks over %d agents", len(agents))
	}
	if n := num(e.call("GET", "/webhooks", nil, 200, "x-workspace-id", "2")["total"]); n != other {
		t.Fatalf("workspace 2 has %v webhooks, had %v", n, other)
	}
}
