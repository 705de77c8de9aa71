package demoservice

import (
	"testing"
)

func TestResources(t *testing.T) {
	e := start(t, Options{})
	out := e.call("GET", "/resources", nil, 200)
	data, meta := out["data"].([]any), out["meta"].(map[string]any)
	total := int(num(meta["total"]))
	if total < 16 || len(data) != 15 || num(meta["current_page"]) != 1 || num(meta["from"]) != 1 || num(meta["to"]) != 15 || num(meta["per_page"]) != 15 || int(num(meta["last_page"])) != (total+14)/15 {
		t.Fatalf("first page: %d items, meta %v", len(data), meta)
	}
	first := data[0].(map[string]any)
	if _, isString := first["id"].(string); !isString || first["title"] == "" || first["description"] == "" || !microZPattern.MatchString(first["created_at"].(string)) {
		t.Fatalf("resource: %v", first)
	}
	second := e.call("GET", "/resources?page=2", nil, 200)
	if len(second["data"].([]any)) != total-15 || num(second["meta"].(map[string]any)["to"]) != float64(total) {
		t.Fatalf("second page: %v", second["meta"])
	}
	empty := e.call("GET", "/resources?page=9", nil, 200)
	if len(empty["data"].([]any)) != 0 || empty["meta"].(map[string]any)["from"] != nil {
		t.Fatalf("beyond: %v", empty)
	}
	search := e.call("GET", "/resources?q=REMINDER", nil, 200)
	if num(search["meta"].(map[string]any)["total"]) != 2 {
		t.Fatalf("q=REMINDER: %v", search["meta"])
	}
	// Long description is searched too.
	if n := num(e.call("GET", "/resources?q=traffic-light", nil, 200)["meta"].(map[string]any)["total"]); n != 1 {
		t.Fatalf("long description search: %v", n)
	}
	typed := e.call("GET", "/resources?type=spreadsheet&per_page=100", nil, 200)
	if n := len(typed["data"].([]any)); n != 4 {
		t.Fatalf("type=spreadsheet: %d", n)
	}
	if n := num(e.call("GET", "/resources?type=nothing", nil, 200)["meta"].(map[string]any)["total"]); n != 0 {
		t.Fatalf("unknown type: %v", n)
	}
	e.expectError("GET", "/resources?per_page=500", nil, 422, "", "per_page")
}

func TestAgentWebhooks(t *testing.T) {
	e := start(t, Options{})
	page := e.call("GET", "/agents/101/webhooks", nil, 200)
	data := page["data"].([]any)
	if len(data) == 0 || num(page["per_page"]) != 15 || page["path"] != e.srv.URL+"/agents/101/webhooks" {
		t.Fatalf("envelope: %v", page)
	}
	h := data[0].(map[string]any)
	if num(h["template_id"]) != 101 || h["method"] != "POST" || h["status"] != "active" || h["deleted_at"] != nil || num(h["user_id"]) != float64(demoUserID) {
		t.Fatalf("webhook: %v", h)
	}
	none := e.call("GET", "/agents/102/webhooks", nil, 200)
	if len(none["data"].([]any)) != 0 || num(none["total"]) != 0 || none["from"] != nil {
		t.Fatalf("agent without webhooks: %v", none)
	}
	e.expectError("GET", "/agents/999/webhooks", nil, 404, "Agent not found", "")
}

func TestWebhooksVariantA(t *testing.T) {
	e := start(t, Options{})
	page := e.call("GET", "/webhooks?per_page=5", nil, 200)
	total := int(num(page["total"]))
	if total < 10 || len(page["data"].([]any)) != 5 || int(num(page["last_page"])) != (total+4)/5 {
		t.Fatalf("variant A: %v", page)
	}
	last := e.call("GET", "/webhooks?per_page=5&page="+itoa((total+4)/5), nil, 200)
	if last["next_page_url"] != nil || num(last["to"]) != float64(total) {
		t.Fatalf("last page: %v", last)
	}
	ws2 := e.call("GET", "/webhooks", nil, 200, "x-workspace-id", "2")
	for _, it := range ws2["data"].([]any) {
		if num(it.(map[string]any)["template_id"]) < otherWSAgent {
			t.Fatalf("workspace 2 lists %v", it)
		}
	}
}

func TestWebhooksVariantB(t *testing.T) {
	e := start(t, Options{WebhookVariant: "B"})
	out := e.call("GET", "/webhooks", nil, 200)
	hooks := out["webhooks"].([]any)
	total := int(num(out["total"]))
	if num(out["limit"]) != 25 || num(out["offset"]) != 0 || len(hooks) != min(total, 25) {
		t.Fatalf("variant B: %v", out)
	}
	h := hooks[0].(map[string]any)
	if h["url"] == "" || len(h["secret"].(string)) < 10 || len(h["events"].([]any)) == 0 || !offsetPattern.MatchString(h["created_at"].(string)) {
		t.Fatalf("webhook B: %v", h)
	}
	if _, has := out["data"]; has {
		t.Fatal("variant B has data")
	}
	paged := e.call("GET", "/webhooks?limit=3&offset=2", nil, 200)
	if len(paged["webhooks"].([]any)) != 3 || num(paged["offset"]) != 2 || num(paged["limit"]) != 3 {
		t.Fatalf("limit/offset: %v", paged)
	}
	if beyond := e.call("GET", "/webhooks?offset=1000", nil, 200); len(beyond["webhooks"].([]any)) != 0 || int(num(beyond["total"])) != total {
		t.Fatalf("beyond: %v", beyond)
	}
	e.call("GET", "/webhooks?limit=100", nil, 200)
	e.expectError("GET", "/webhooks?limit=101", nil, 422, "", "limit")
	e.expectError("GET", "/webhooks?limit=0", nil, 422, "", "limit")
	e.expectError("GET", "/webhooks?offset=-1", nil, 422, "", "offset")
	// The agent webhook list keeps the envelope in both variants.
	if _, has := e.call("GET", "/agents/101/webhooks", nil, 200)["data"]; !has {
		t.Fatal("agent webhooks lost the envelope")
	}
}
