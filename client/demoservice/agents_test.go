package demoservice

import (
	"regexp"
	"strings"
	"testing"
)

var microZPattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$`)

func TestListAgentsEnvelope(t *testing.T) {
	e := start(t, Options{})
	page := e.call("GET", "/agents", nil, 200)
	if num(page["total"]) < 40 || num(page["per_page"]) != 15 || num(page["current_page"]) != 1 {
		t.Fatalf("envelope: total %v per_page %v current_page %v", page["total"], page["per_page"], page["current_page"])
	}
	data := page["data"].([]any)
	if len(data) != 15 || num(page["from"]) != 1 || num(page["to"]) != 15 {
		t.Fatalf("first page: %d items, from %v to %v", len(data), page["from"], page["to"])
	}
	total := int(num(page["total"]))
	last := (total + 14) / 15
	if int(num(page["last_page"])) != last {
		t.Fatalf("last_page %v, want %d", page["last_page"], last)
	}
	host := e.srv.URL
	if page["path"] != host+"/agents" || page["first_page_url"] != host+"/agents?page=1" || page["next_page_url"] != host+"/agents?page=2" || page["prev_page_url"] != nil {
		t.Fatalf("urls: %v %v %v %v", page["path"], page["first_page_url"], page["next_page_url"], page["prev_page_url"])
	}
	links := page["links"].([]any)
	if len(links) != last+2 {
		t.Fatalf("links: %d, want %d", len(links), last+2)
	}
	first, second, final := links[0].(map[string]any), links[1].(map[string]any), links[len(links)-1].(map[string]any)
	if first["label"] != "pagination.previous" || first["url"] != nil || second["label"] != "1" || second["active"] != true || final["label"] != "pagination.next" || final["url"] != host+"/agents?page=2" {
		t.Fatalf("links: %v", links)
	}

	types := map[string]int{}
	for n := 1; n <= last; n++ {
		for _, it := range e.call("GET", "/agents?page="+itoa(n), nil, 200)["data"].([]any) {
			types[it.(map[string]any)["type"].(string)]++
		}
	}
	for _, typ := range []string{"chat", "image", "text", "video"} {
		if types[typ] == 0 {
			t.Fatalf("no %s agents: %v", typ, types)
		}
	}

	lastPage := e.call("GET", "/agents?page="+itoa(last), nil, 200)
	if lastPage["next_page_url"] != nil || len(lastPage["data"].([]any)) != total-(last-1)*15 || num(lastPage["to"]) != float64(total) {
		t.Fatalf("last page: %v %v", lastPage["next_page_url"], lastPage["to"])
	}

	beyond := e.call("GET", "/agents?page=99", nil, 200)
	if len(beyond["data"].([]any)) != 0 || beyond["from"] != nil || beyond["to"] != nil || num(beyond["current_page"]) != 99 || num(beyond["total"]) != float64(total) {
		t.Fatalf("out of range page: %v", beyond)
	}

	per := e.call("GET", "/agents?per_page=100&type=chat", nil, 200)
	if num(per["last_page"]) != 1 || !strings.Contains(per["first_page_url"].(string), "type=chat") {
		t.Fatalf("per_page 100: %v %v", per["last_page"], per["first_page_url"])
	}
	for _, bad := range []string{"0", "101", "x", "-3"} {
		e.expectError("GET", "/agents?per_page="+bad, nil, 422, "", "per_page")
	}
	e.expectError("GET", "/agents?page=0", nil, 422, "", "page")
	e.expectError("GET", "/agents?type=robot", nil, 422, "", "type")
}

func TestListAgentsSearchAndFilter(t *testing.T) {
	e := start(t, Options{})
	cases := []struct {
		query string
		want  string
	}{
		{"q=minutes", "Meeting Minutes Writer"},
		{"q=CONTRACT%20CLAUSE", "Contract Clause Explainer"},
		{"q=studio-style", "Product Photo Studio"}, // long description only
		{"q=neutral%20backgrounds", "Product Photo Studio"},
		{"type=video&q=recap", "Event Recap Video"},
	}
	for _, c := range cases {
		data := e.call("GET", "/agents?"+c.query, nil, 200)["data"].([]any)
		found := false
		for _, it := range data {
			if it.(map[string]any)["title"] == c.want {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: %q not found in %d results", c.query, c.want, len(data))
		}
	}
	empty := e.call("GET", "/agents?q=zzzzzz", nil, 200)
	if len(empty["data"].([]any)) != 0 || num(empty["total"]) != 0 || num(empty["last_page"]) != 1 || empty["from"] != nil {
		t.Fatalf("empty search: %v", empty)
	}
	for _, it := range e.call("GET", "/agents?type=image&per_page=100", nil, 200)["data"].([]any) {
		if it.(map[string]any)["type"] != "image" {
			t.Fatalf("type filter let through %v", it)
		}
	}
}

func TestGetChatAgentQuestions(t *testing.T) {
	e := start(t, Options{})
	a := e.call("GET", "/agents/"+itoa(chatAgentID), nil, 200)
	if a["type"] != "chat" || a["visibility"] != "public" || num(a["active"]) != 1 || num(a["workspace_id"]) != 1 || a["created_at"] != "2024-05-01T10:00:00.000000Z" {
		t.Fatalf("agent: %v", a)
	}
	if !microZPattern.MatchString(a["updated_at"].(string)) {
		t.Fatalf("updated_at %v", a["updated_at"])
	}
	qs := a["questions"].([]any)
	byName := map[string]map[string]any{}
	for _, q := range qs {
		m := q.(map[string]any)
		byName[m["name"].(string)] = m
	}
	opts := func(name string) []any { o, _ := byName[name]["options"].([]any); return o }
	if got := opts("temperature"); len(got) != 5 || got[0] != "0" || got[1] != "0.25" || got[4] != "1" {
		t.Fatalf("temperature options %v", got)
	}
	if len(opts("model")) != 25 {
		t.Fatalf("model options: %d", len(opts("model")))
	}
	tools := opts("tools")
	if len(tools) != 10 || tools[0] != "no-tools" || tools[1] != "internet" {
		t.Fatalf("tools options %v", tools)
	}
	if byName["root_id"]["type"] != "number" || byName["root_id"]["required"] != false || byName["root_id"]["options"] != nil {
		t.Fatalf("root_id %v", byName["root_id"])
	}
	if byName["messages"]["type"] != "array" || byName["messages"]["required"] != true {
		t.Fatalf("messages %v", byName["messages"])
	}
	for _, name := range []string{"temperature", "model", "tools"} {
		if byName[name]["type"] != "select" || byName[name]["required"] != true {
			t.Fatalf("%s: %v", name, byName[name])
		}
	}
	for _, id := range []int{textAgentID, imageAgentID, videoAgentID} {
		other := e.call("GET", "/agents/"+itoa(id), nil, 200)
		var required, optional int
		for _, q := range other["questions"].([]any) {
			if q.(map[string]any)["required"] == true {
				required++
			} else {
				optional++
			}
		}
		if required == 0 || optional == 0 {
			t.Fatalf("agent %d questions: %d required, %d optional", id, required, optional)
		}
	}
	e.expectError("GET", "/agents/999999", nil, 404, "Agent not found", "")
	e.expectError("GET", "/agents/abc", nil, 404, "Agent not found", "")
}

func TestSeedReadsLikeARealAccount(t *testing.T) {
	svc := New(Options{})
	defer svc.Close()
	if len(svc.agents) < 40 {
		t.Fatalf("%d agents", len(svc.agents))
	}
	seen := map[string]bool{}
	for _, a := range svc.agents {
		if seen[a.Slug] {
			t.Fatalf("duplicate slug %s", a.Slug)
		}
		seen[a.Slug] = true
		if a.Description == nil || len(*a.Description) < 20 {
			t.Fatalf("%s: thin description", a.Title)
		}
	}
	if len(svc.resources) < 16 {
		t.Fatalf("%d resources", len(svc.resources))
	}
}

func TestExtraAgents(t *testing.T) {
	base := int(num(start(t, Options{}).call("GET", "/agents?per_page=1", nil, 200)["total"]))
	e := start(t, Options{ExtraAgents: 250})
	if total := int(num(e.call("GET", "/agents?per_page=1", nil, 200)["total"])); total != base+250 {
		t.Fatalf("total %d, want %d seeded + 250 extra", total, base)
	}
	titles := map[string]bool{}
	last := (base + 250 + 99) / 100
	var lastID float64
	for n := 1; n <= last; n++ {
		for _, it := range e.call("GET", "/agents?per_page=100&page="+itoa(n), nil, 200)["data"].([]any) {
			a := it.(map[string]any)
			if titles[a["title"].(string)] {
				t.Fatalf("title %q appears twice", a["title"])
			}
			titles[a["title"].(string)] = true
			lastID = num(a["id"])
		}
	}
	if len(titles) != base+250 {
		t.Fatalf("listed %d agents, want %d", len(titles), base+250)
	}
	a := e.call("GET", "/agents/"+itoa(int(lastID)), nil, 200)
	if a["type"] != "text" || len(a["questions"].([]any)) != 5 || !strings.HasSuffix(a["title"].(string), " 250") {
		t.Fatalf("the last extra agent: %v", a)
	}
	found := e.call("GET", "/agents?q="+strings.ReplaceAll(strings.ToLower(a["title"].(string)), " ", "+"), nil, 200)
	if num(found["total"]) != 1 {
		t.Fatalf("searching the generated title %q found %v", a["title"], found["total"])
	}
}
