package demoservice

import (
	"strings"
	"testing"
)

func TestMemoriesVariantA(t *testing.T) {
	e := start(t, Options{})
	out := e.call("POST", "/memories", map[string]any{"memory": "Northwind pays by bank transfer.", "collection_id": 2}, 201)
	m := out["memory"].(map[string]any)
	if out["message"] != "Memory created successfully" || m["memory"] != "Northwind pays by bank transfer." || num(m["collection_id"]) != 2 || num(m["user_id"]) != float64(demoUserID) || num(m["credits"]) <= 0 {
		t.Fatalf("create: %v", out)
	}
	if _, has := m["collection"]; has {
		t.Fatalf("create answer carries collection: %v", m)
	}
	id := int64(num(m["id"]))
	if got, ok := e.svc.Memory(id); !ok || got.Content != "Northwind pays by bank transfer." || got.CollectionID != 2 {
		t.Fatalf("stored %+v", got)
	}
	plain := e.call("POST", "/memories", map[string]any{"memory": "No collection given."}, 201)["memory"].(map[string]any)
	if num(plain["collection_id"]) != float64(defaultCollectionID) {
		t.Fatalf("default collection: %v", plain)
	}

	upd := e.call("PATCH", "/memories/"+itoa(int(id)), map[string]any{"memory": "Northwind pays within 14 days.", "collection_id": 3}, 200)
	um := upd["memory"].(map[string]any)
	coll := um["collection"].(map[string]any)
	if um["memory"] != "Northwind pays within 14 days." || num(um["collection_id"]) != 3 || num(coll["id"]) != 3 || coll["name"] != "Policies" || num(coll["user_id"]) != float64(demoUserID) {
		t.Fatalf("update: %v", upd)
	}
	e.call("PATCH", "/memories/501", map[string]any{"memory": "Keep the collection."}, 200)
	if got, _ := e.svc.Memory(501); got.CollectionID != 2 || got.Content != "Keep the collection." {
		t.Fatalf("patch without collection_id: %+v", got)
	}

	e.expectError("PATCH", "/memories/999999", map[string]any{"memory": "x"}, 404, "Memory not found", "")
	e.expectError("POST", "/memories", map[string]any{}, 422, "", "memory")
	e.expectError("POST", "/memories", map[string]any{"memory": ""}, 422, "", "memory")
	e.expectError("POST", "/memories", map[string]any{"memory": "x", "collection_id": 999}, 422, "", "collection_id")
	e.expectError("POST", "/memories", map[string]any{"memory": strings.Repeat("a", 32001)}, 422, "The memory field must not be greater than 32000 characters.", "memory")
	e.call("POST", "/memories", map[string]any{"memory": strings.Repeat("é", 32000)}, 201)
	e.expectError("PATCH", "/memories/501", map[string]any{"memory": strings.Repeat("a", 32001)}, 422, "The memory field must not be greater than 32000 characters.", "memory")
	e.expectError("PATCH", "/memories/501", map[string]any{"collection_id": 1}, 422, "", "memory")
	// Variant detection: B's body on an A server names A's field.
	out = e.expectError("POST", "/memories", map[string]any{"content": "x", "metadata": map[string]any{}}, 422, "", "memory")
	if _, names := out["errors"].(map[string]any)["content"]; names {
		t.Fatal("variant A must not name content")
	}
}

func TestMemoriesVariantB(t *testing.T) {
	e := start(t, Options{MemoryVariant: "B"})
	meta := map[string]any{"source": "agentdesk", "tags": []any{"clients", "billing"}}
	m := e.call("POST", "/memories", map[string]any{"content": "Invoices go to accounts@example.com", "metadata": meta}, 201)
	if m["content"] != "Invoices go to accounts@example.com" || m["metadata"].(map[string]any)["source"] != "agentdesk" || !offsetPattern.MatchString(m["created_at"].(string)) || !offsetPattern.MatchString(m["updated_at"].(string)) {
		t.Fatalf("create: %v", m)
	}
	id := itoa(int(num(m["id"])))
	// Only metadata changes; content stays.
	upd := e.call("PUT", "/memories/"+id, map[string]any{"metadata": map[string]any{"tags": []any{"vip"}}}, 200)
	if upd["content"] != "Invoices go to accounts@example.com" || upd["metadata"].(map[string]any)["tags"].([]any)[0] != "vip" {
		t.Fatalf("update metadata: %v", upd)
	}
	upd = e.call("PUT", "/memories/"+id, map[string]any{"content": "Invoices go to billing@example.com"}, 200)
	if upd["content"] != "Invoices go to billing@example.com" {
		t.Fatalf("update content: %v", upd)
	}
	e.expectError("PUT", "/memories/999999", map[string]any{"content": "x"}, 404, "Memory not found", "")
	e.expectError("PUT", "/memories/"+id, map[string]any{"metadata": "tags"}, 422, "", "metadata")
	e.expectError("PATCH", "/memories/"+id, map[string]any{"memory": "x"}, 405, "", "")
	// Variant detection: A's body on a B server names B's field.
	e.expectError("POST", "/memories", map[string]any{"memory": "Northwind pays by transfer."}, 422, "", "content")
}

func TestMemoryCollections(t *testing.T) {
	e := start(t, Options{})
	out := e.call("PUT", "/memory-collections/2", map[string]any{"name": "Key clients"}, 200)
	c := out["collection"].(map[string]any)
	if out["message"] == "" || num(c["id"]) != 2 || c["name"] != "Key clients" || num(c["user_id"]) != float64(demoUserID) {
		t.Fatalf("update: %v", out)
	}
	if got, _ := e.svc.Collection(2); got.Name != "Key clients" {
		t.Fatalf("stored %+v", got)
	}
	e.expectError("PUT", "/memory-collections/999", map[string]any{"name": "x"}, 404, "Collection not found", "")
	e.expectError("PUT", "/memory-collections/2", map[string]any{"name": ""}, 422, "", "name")
	e.expectError("PUT", "/memory-collections/2", map[string]any{}, 422, "", "name")
	e.expectError("PUT", "/memory-collections/2", map[string]any{"name": strings.Repeat("n", 256)}, 422, "", "name")
	if _, ok := e.svc.Collection(999); ok {
		t.Fatal("unknown collection found")
	}
}
