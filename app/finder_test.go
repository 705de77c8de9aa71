package app_test

import (
	"slices"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/storage"
)

func titlesOf(hits []app.Found) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.Kind + ":" + h.Title
	}
	return out
}

// The finder finds a favourite agent, a chat and a memory by name with a
// typo, and asks the service for agents and the history for words in
// messages; a newer search's answer is the one heard.
func TestTheFinderFindsWhatIsKeptAndAsksForTheRest(t *testing.T) {
	a := apptest.Open(t)
	ctx := t.Context()
	if err := a.Agents().SetFavourite(ctx, app.AgentItem{ID: "109", Title: "Invoice Query Assistant", Type: "chat"}, true); err != nil {
		t.Fatal(err)
	}
	db := a.DB()
	conv, err := db.CreateConversation(ctx, storage.Conversation{AccountID: a.AccountID(), AgentID: "101", AgentTitle: "Meeting Minutes Writer", Title: "Quarterly budget review"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddMessage(ctx, storage.Message{ConversationID: conv.ID, Role: storage.RoleUser, Content: "Please summarise the warehouse inventory figures", Status: storage.StatusComplete}); err != nil {
		t.Fatal(err)
	}
	if err := db.UpsertMemory(ctx, storage.MemoryEntry{AccountID: a.AccountID(), ID: "m1", Content: "Supplier contacts for Lisbon office\nsecond line", Variant: "A"}); err != nil {
		t.Fatal(err)
	}
	results := make(chan app.SearchResult, 4)
	f := app.NewFinder(a, time.Millisecond, func(r app.SearchResult) { results <- r })
	t.Cleanup(f.Close)
	if err := f.Load(ctx); err != nil {
		t.Fatal(err)
	}
	for query, want := range map[string]string{
		"invoce":         "agent:Invoice Query Assistant",
		"quartely budgt": "chat:Quarterly budget review",
		"lisbon suplier": "memory:Supplier contacts for Lisbon office",
	} {
		var found []app.Found
		for _, h := range f.Match(query, 5) {
			found = append(found, h.Value)
		}
		if len(found) == 0 || titlesOf(found)[0] != want {
			t.Errorf("%q finds %v, want %s first", query, titlesOf(found), want)
		}
	}

	f.SearchSoon("warehouse inventory")
	r := <-results
	if r.Err != nil || len(r.Messages) != 1 || r.Messages[0].Conversation != conv.ID {
		t.Fatalf("the history's words: %+v", r)
	}
	f.SearchSoon("Press Release")
	r = <-results
	if r.Query != "Press Release" || !slices.ContainsFunc(r.Agents, func(it app.AgentItem) bool { return it.Title == "Press Release Drafter" }) {
		t.Fatalf("the service's agents: %+v", r)
	}
	if hits := f.Match("pres relese", 3); len(hits) == 0 || hits[0].Value.Title != "Press Release Drafter" {
		t.Fatal("an agent the service found is not matched afterwards")
	}
}
