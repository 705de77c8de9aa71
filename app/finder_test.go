package app_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/internal/clock"
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

// typo is title with its longest word's last two letters swapped, or
// with one letter dropped: a slip the command box forgives.
func typo(title string) string {
	words := strings.Fields(title)
	long := 0
	for i, w := range words {
		if len([]rune(w)) > len([]rune(words[long])) {
			long = i
		}
	}
	w := []rune(words[long])
	w[len(w)-2], w[len(w)-1] = w[len(w)-1], w[len(w)-2]
	words[long] = string(w)
	return strings.Join(words, " ")
}

// An agent on the third page of a long list, which neither the Agents
// screen's first pages nor the service's own search (which wants words
// spelled right) would bring, is found by a name with a typo once the
// Agents screen has listed: the agent index holds every agent. Listing
// again does not read an index still fresh twice; one an hour old is read
// again.
func TestTheFinderForgivesATypoInAnyAgent(t *testing.T) {
	clk := clock.NewFake()
	a := apptest.Open(t, apptest.WithDemo(demoservice.Options{ExtraAgents: 320}), func(c *app.Config) { c.Clock = clk })
	ctx := t.Context()
	third, err := a.Client().ListAgents(ctx, client.ListAgentsParams{Page: 3, PerPage: 100})
	if err != nil || len(third.Data) == 0 {
		t.Fatalf("page 3: %v", err)
	}
	want := third.Data[len(third.Data)/2]
	query := typo(want.Title)
	found := func() bool {
		f := app.NewFinder(a, time.Millisecond, func(app.SearchResult) {})
		defer f.Close()
		if err := f.Load(ctx); err != nil {
			t.Fatal(err)
		}
		hits := f.Match(query, 5)
		return len(hits) > 0 && hits[0].Value.Agent.ID == want.ID
	}
	if found() {
		t.Fatalf("%q found %s before any index was read: the test shows nothing", query, want.Title)
	}

	b := a.Agents().NewBrowser(time.Millisecond)
	b.Reload()
	eventually(t, "the agent index is read after the list", func() bool {
		agents, _ := a.Agents().Indexed()
		return len(agents) >= 300
	})
	if !found() {
		t.Fatalf("%q does not find %s (page 3) first", query, want.Title)
	}
	_, read := a.Agents().Indexed()

	b.Reload()
	waitBrowser(t, b, func(p app.AgentPage) bool { return len(p.Agents) > 0 })
	if err := a.Agents().IndexAll(ctx); err != nil { // waits for a read under way, if one began
		t.Fatal(err)
	}
	if _, again := a.Agents().Indexed(); !again.Equal(read) {
		t.Fatalf("an index read %v ago was read again for the same list", clk.Now().Sub(read))
	}
	clk.Advance(2 * time.Hour)
	b.Reload()
	eventually(t, "an index older than an hour is read again", func() bool { _, again := a.Agents().Indexed(); return again.After(read) })
	t.Logf("%q found %s, page 3", query, want.Title)
}

// BenchmarkFinderLoad10000 opens the command box's finder on an index of
// 10,000 agents read from disk (load), against a search in it once loaded
// (baseline-match): the box lists places at once and agents after load.
func BenchmarkFinderLoad10000(b *testing.B) {
	a := apptest.Open(b, apptest.WithDemo(demoservice.Options{ExtraAgents: 10_000}))
	ctx := b.Context()
	if err := a.Agents().IndexAll(ctx); err != nil {
		b.Fatal(err)
	}
	if agents, _ := a.Agents().Indexed(); len(agents) < 10_000 {
		b.Fatalf("indexed %d agents", len(agents))
	}
	f := app.NewFinder(a, time.Millisecond, func(app.SearchResult) {})
	defer f.Close()
	if err := f.Load(ctx); err != nil {
		b.Fatal(err)
	}
	b.Run("baseline-match", func(b *testing.B) {
		for b.Loop() {
			f.Match("operatiosn report", 20)
		}
	})
	b.Run("load", func(b *testing.B) {
		for b.Loop() {
			f := app.NewFinder(a, time.Millisecond, func(app.SearchResult) {})
			if err := f.Load(ctx); err != nil {
				b.Fatal(err)
			}
			f.Close()
		}
	})
}
