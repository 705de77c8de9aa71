package demoservice

import (
	"net/http"
	"strings"
	"testing"
)

func TestAuthentication(t *testing.T) {
	e := start(t, Options{})
	for _, path := range []string{"/agents", "/agents/101", "/files", "/resources", "/webhooks", "/agents/101/webhooks"} {
		for _, auth := range []string{"", "Bearer wrong", "Basic dGVzdA==", "Bearer"} {
			req := e.request("GET", path, nil)
			if auth == "" {
				req.Header.Del("Authorization")
			} else {
				req.Header.Set("Authorization", auth)
			}
			res, err := e.srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusUnauthorized {
				t.Fatalf("%s with %q: %d", path, auth, res.StatusCode)
			}
		}
	}
	e.expectError("POST", "/agents/101/execute", chatReq(nil, "hi"), 401, "Unauthenticated.", "", "Authorization", "")
	e.expectError("POST", "/memories", map[string]any{"memory": "x"}, 401, "Unauthenticated.", "", "Authorization", "Bearer nope")
	// The scheme name is case-insensitive.
	e.call("GET", "/agents/101", nil, 200, "Authorization", "bearer "+testKey)
}

func TestDefaultKeyIsDemo(t *testing.T) {
	ts, _ := NewTestService(t, Options{})
	req, _ := http.NewRequest("GET", ts.URL+"/agents", nil)
	req.Header.Set("Authorization", "Bearer demo")
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("demo key: %d", res.StatusCode)
	}
}

func TestWorkspaceScoping(t *testing.T) {
	e := start(t, Options{})
	ws1 := e.call("GET", "/agents", nil, 200)
	explicit := e.call("GET", "/agents", nil, 200, "x-workspace-id", "1")
	if ws1["total"] != explicit["total"] {
		t.Fatalf("no header should select workspace 1: %v vs %v", ws1["total"], explicit["total"])
	}
	ws2 := e.call("GET", "/agents?per_page=100", nil, 200, "x-workspace-id", "2")
	if num(ws2["total"]) == 0 || num(ws2["total"]) == num(ws1["total"]) {
		t.Fatalf("workspace 2 total %v", ws2["total"])
	}
	for _, it := range ws2["data"].([]any) {
		if num(it.(map[string]any)["workspace_id"]) != 2 {
			t.Fatalf("workspace 2 lists %v", it)
		}
	}
	e.expectError("GET", "/agents/"+itoa(otherWSAgent), nil, 404, "Agent not found", "")
	e.call("GET", "/agents/"+itoa(otherWSAgent), nil, 200, "x-workspace-id", "2")
	e.expectError("GET", "/agents/101", nil, 404, "Agent not found", "", "x-workspace-id", "2")

	// Files and webhooks are scoped too.
	files2 := e.call("GET", "/files?per_page=100", nil, 200, "x-workspace-id", "2")["data"].([]any)
	for _, f := range files2 {
		if num(f.(map[string]any)["id"]) < otherWSFileID {
			t.Fatalf("workspace 2 lists file %v", f)
		}
	}
	body := chatReq(map[string]any{"file_ids": []int{otherWSFileID}}, "hello")
	e.expectError("POST", "/agents/101/execute", body, 422, "", "file_ids")

	for _, bad := range []string{"3", "abc", "1.5", "-1"} {
		out := e.expectError("GET", "/agents", nil, 403, "", "", "x-workspace-id", bad)
		if !strings.Contains(out["message"].(string), "workspace") {
			t.Fatalf("403 message %q should name the workspace", out["message"])
		}
	}
	if got := New(Options{API: APISpec}).workspaces; len(got) != 2 || got[0] != 1 {
		t.Fatalf("workspaces %v", got)
	}
}

func TestUnknownRouteAndMethod(t *testing.T) {
	e := start(t, Options{})
	e.expectError("GET", "/nothing/here", nil, 404, "", "")
	e.expectError("GET", "/agents/101/unknown", nil, 404, "", "")
	status, data, hdr := e.do("DELETE", "/agents", nil)
	if status != 405 || !strings.Contains(string(data), `"message"`) || !strings.Contains(hdr.Get("Allow"), "GET") {
		t.Fatalf("DELETE /agents: %d %s allow=%q", status, data, hdr.Get("Allow"))
	}
	e.expectError("PUT", "/agents/101/execute", nil, 405, "", "")
	e.expectError("PUT", "/memories/501", map[string]any{"content": "x"}, 405, "", "")
	status, data, _ = e.do("POST", "/agents/101/execute", []byte(`{"answers":`))
	if status != 422 || !strings.Contains(string(data), `"message"`) {
		t.Fatalf("malformed JSON: %d %s", status, data)
	}
	status, _, _ = e.do("POST", "/memories", []byte(`[1,2]`))
	if status != 422 {
		t.Fatalf("array body: %d", status)
	}
}
