package storage

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"
)

func TestConversationsLifecycle(t *testing.T) {
	ctx := context.Background()
	clock := time.Date(2026, 1, 2, 10, 0, 0, 0, time.Local)
	db := openTestDB(t, testPaths(t), WithClock(func() time.Time { clock = clock.Add(time.Second); return clock }))

	c, err := db.CreateConversation(ctx, Conversation{AccountID: "a", AgentID: "7", AgentTitle: "Writer", Title: "Plan",
		Answers: map[string]string{"model": "m1", "temperature": "0.5"}, DeveloperMessage: "be brief", UseChatCompletions: true})
	if err != nil {
		t.Fatal(err)
	}
	other := newConversation(t, db, "a", "Other")
	newConversation(t, db, "b", "Another account")

	got, err := db.GetConversation(ctx, c.ID)
	if err != nil || !reflect.DeepEqual(got, c) {
		t.Fatalf("Get:\n got %+v\nwant %+v (%v)", got, c, err)
	}
	list, _ := db.ListConversations(ctx, ListParams{AccountID: "a"})
	if len(list) != 2 || list[0].ID != other.ID {
		t.Fatalf("newest first: %+v", list)
	}
	// A new message moves a conversation to the top.
	addMessage(t, db, c.ID, RoleUser, "hi", "")
	list, _ = db.ListConversations(ctx, ListParams{AccountID: "a"})
	if list[0].ID != c.ID {
		t.Errorf("after a message: %+v", list)
	}
	if page, _ := db.ListConversations(ctx, ListParams{AccountID: "a", Limit: 1, Offset: 1}); len(page) != 1 || page[0].ID != other.ID {
		t.Errorf("paging: %+v", page)
	}
	if only, _ := db.ListConversations(ctx, ListParams{AccountID: "a", AgentID: "none"}); len(only) != 0 {
		t.Errorf("agent filter: %+v", only)
	}

	c.Title, c.RootID, c.Answers["model"] = "Plan B", "991", "m2"
	if err := db.UpdateConversation(ctx, c); err != nil {
		t.Fatal(err)
	}
	db.RenameConversation(ctx, c.ID, "Final plan")
	db.SaveDraft(ctx, c.ID, "half typed")
	got, _ = db.GetConversation(ctx, c.ID)
	if got.Title != "Final plan" || got.RootID != "991" || got.Answers["model"] != "m2" || got.Draft != "half typed" {
		t.Errorf("after updates: %+v", got)
	}

	// Delete, undo, delete, purge.
	if err := db.DeleteConversation(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.GetConversation(ctx, c.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleted conversation still there: %v", err)
	}
	if err := db.RestoreConversation(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.GetConversation(ctx, c.ID); err != nil {
		t.Errorf("restore: %v", err)
	}
	db.DeleteConversation(ctx, c.ID)
	n, err := db.PurgeDeleted(ctx, clock.Add(time.Hour))
	if err != nil || n != 1 {
		t.Fatalf("purge: %d %v", n, err)
	}
	if msgs, _ := db.Messages(ctx, c.ID); len(msgs) != 0 {
		t.Errorf("messages outlived their conversation: %d", len(msgs))
	}
	if err := db.RenameConversation(ctx, c.ID, "x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("rename purged: %v", err)
	}
}

func TestMessages(t *testing.T) {
	ctx := context.Background()
	db := openTestDB(t, testPaths(t))
	c := newConversation(t, db, "a", "t")
	u1 := addMessage(t, db, c.ID, RoleUser, "one", "")
	credits := 0.5
	a1, _ := db.AddMessage(ctx, Message{ConversationID: c.ID, Role: RoleAssistant, Content: "two", Credits: &credits,
		FileIDs: []string{"f1", "f2"}, ResponseID: "r1"})
	addMessage(t, db, c.ID, RoleUser, "three", "")
	addMessage(t, db, c.ID, RoleAssistant, "four", StatusStopped)

	msgs, err := db.Messages(ctx, c.ID)
	if err != nil || len(msgs) != 4 {
		t.Fatal(msgs, err)
	}
	if !reflect.DeepEqual(msgs[1], a1) || msgs[0].Status != StatusComplete || msgs[3].Status != StatusStopped {
		t.Errorf("messages: %+v", msgs)
	}
	a1.Content, a1.Status, a1.Error = "two, edited", StatusFailed, "rate limited"
	if err := db.UpdateMessage(ctx, a1); err != nil {
		t.Fatal(err)
	}
	if err := db.NewReplyWriter(ctx, a1.ID).Finish(StatusComplete, nil, ""); err != nil {
		t.Fatal(err)
	}
	got, _ := message(db, c.ID, a1.ID)
	if got.Content != "two, edited" || got.Status != StatusComplete || *got.Credits != 0.5 {
		t.Errorf("after update: %+v", got)
	}
	// Edit and resend: everything after the first message goes.
	n, err := db.DeleteMessagesAfter(ctx, c.ID, u1.ID)
	if err != nil || n != 3 {
		t.Fatalf("DeleteMessagesAfter: %d %v", n, err)
	}
	if msgs, _ := db.Messages(ctx, c.ID); len(msgs) != 1 {
		t.Errorf("count %d", len(msgs))
	}
	if _, err := message(db, c.ID, a1.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("message: %v", err)
	}
}

func TestRuns(t *testing.T) {
	ctx := context.Background()
	db := openTestDB(t, testPaths(t))
	r, err := db.AddRun(ctx, Run{AccountID: "a", AgentID: "3", AgentTitle: "Poster", AgentType: "image",
		Inputs: map[string]string{"prompt": "a cat"}, FileIDs: []string{"9"}, Status: "starting"})
	if err != nil {
		t.Fatal(err)
	}
	db.AddRun(ctx, Run{AccountID: "a", AgentID: "4", Status: "starting"})
	db.AddRun(ctx, Run{AccountID: "b", AgentID: "3", Status: "starting"})
	credits := 2.0
	r.Output, r.Status, r.Credits, r.ResponseID = "https://img", "completed", &credits, "55"
	if err := db.UpdateRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	got, _ := run(db, "a", r.ID)
	if got.Output != "https://img" || got.Status != "completed" || *got.Credits != 2 || got.Inputs["prompt"] != "a cat" || got.FileIDs[0] != "9" {
		t.Errorf("%+v", got)
	}
	if runs, _ := db.Runs(ctx, "a", "3", 0); len(runs) != 1 {
		t.Errorf("runs of agent 3 in account a: %+v", runs)
	}
	if runs, _ := db.Runs(ctx, "a", "", 10); len(runs) != 2 || runs[0].AgentID != "4" {
		t.Errorf("all runs, newest first: %+v", runs)
	}
	if _, err := run(db, "a", 999); !errors.Is(err, ErrNotFound) {
		t.Error(err)
	}
}

func TestMemoryIndex(t *testing.T) {
	ctx := context.Background()
	db := openTestDB(t, testPaths(t))
	seen := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	if err := db.UpsertMemory(ctx, MemoryEntry{AccountID: "a", ID: "11", Content: "Invoices go to Ana (50% rule)", Variant: "A",
		CollectionID: "2", CollectionName: "Finance", LastSeen: seen}); err != nil {
		t.Fatal(err)
	}
	db.UpsertMemory(ctx, MemoryEntry{AccountID: "a", ID: "12", Content: "Office opens at 8", Variant: "B",
		Metadata: map[string]any{"source": "handbook", "tags": []any{"office"}}})
	db.UpsertMemory(ctx, MemoryEntry{AccountID: "b", ID: "11", Content: "other account"})

	if err := db.SaveMemoryDraft(ctx, "a", "11", "Invoices go to Bo"); err != nil {
		t.Fatal(err)
	}
	// A refresh from the server keeps the unsaved edit.
	db.UpsertMemory(ctx, MemoryEntry{AccountID: "a", ID: "11", Content: "Invoices go to Ana (50% rule)", Variant: "A", CollectionID: "2", CollectionName: "Finance"})
	m, err := db.GetMemory(ctx, "a", "11")
	if err != nil || m.Draft != "Invoices go to Bo" || m.CollectionName != "Finance" {
		t.Fatalf("%+v %v", m, err)
	}
	for q, want := range map[string]int{"": 2, "invoices": 1, "50%": 1, "%": 1, "handbook": 1, "12": 1, "nothing": 0} {
		if got, _ := db.Memories(ctx, "a", q); len(got) != want {
			t.Errorf("Memories(%q) = %d, want %d", q, len(got), want)
		}
	}
	b, _ := db.GetMemory(ctx, "a", "12")
	if b.Metadata["source"] != "handbook" {
		t.Errorf("metadata %+v", b.Metadata)
	}
	cols, _ := db.Collections(ctx, "a")
	if len(cols) != 1 || cols[0].Name != "Finance" {
		t.Errorf("collections %+v", cols)
	}
	db.UpsertCollection(ctx, CollectionEntry{AccountID: "a", ID: "2", Name: "Money"})
	if m, _ := db.GetMemory(ctx, "a", "11"); m.CollectionName != "Money" {
		t.Errorf("rename did not reach the memory: %+v", m)
	}
	db.DeleteCollectionEntry(ctx, "a", "2")
	db.DeleteMemoryEntry(ctx, "a", "11")
	if _, err := db.GetMemory(ctx, "a", "11"); !errors.Is(err, ErrNotFound) {
		t.Error(err)
	}
	if cols, _ := db.Collections(ctx, "a"); len(cols) != 0 {
		t.Error(cols)
	}
}

func TestCredits(t *testing.T) {
	ctx := context.Background()
	db := openTestDB(t, testPaths(t))
	day1 := time.Date(2026, 5, 1, 9, 0, 0, 0, time.Local)
	day2 := day1.AddDate(0, 0, 1)
	for _, r := range []CreditRecord{
		{At: day1, AccountID: "a", AgentID: "1", AgentTitle: "Chat", Kind: CreditsExecution, Credits: 1.5},
		{At: day1.Add(time.Hour), AccountID: "a", AgentID: "2", AgentTitle: "Image", Kind: CreditsExecution, Credits: 4},
		{At: day2, AccountID: "a", AgentID: "1", AgentTitle: "Chat", Kind: CreditsFile, Credits: 0.25},
		{At: day2, AccountID: "b", AgentID: "1", Kind: CreditsMemory, Credits: 100},
	} {
		if _, err := db.RecordCredits(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if s, _ := db.CreditsSince(ctx, "a", day1.Add(30*time.Minute)); s != 4.25 {
		t.Errorf("since: %v", s)
	}
	days, _ := db.CreditsByDay(ctx, "a", day1.AddDate(0, 0, -1), day2.AddDate(0, 0, 1))
	if len(days) != 2 || days[0].Credits != 5.5 || days[1].Credits != 0.25 || days[0].Day.Hour() != 0 {
		t.Errorf("by day: %+v", days)
	}
	agents, _ := db.CreditsByAgent(ctx, "a", day1.AddDate(0, 0, -1), day2.AddDate(0, 0, 1))
	if len(agents) != 2 || agents[0].AgentID != "2" || agents[1].Credits != 1.75 || agents[1].Calls != 2 {
		t.Errorf("by agent: %+v", agents)
	}
}

func TestNewMemoryDraftSurvivesReopenPerAccount(t *testing.T) {
	ctx := context.Background()
	p := PathsIn(t.TempDir())
	db, err := Open(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SaveNewMemoryDraft(ctx, "office", "Invoices go out on the 5th", "2"); err != nil {
		t.Fatal(err)
	}
	if err := db.SaveNewMemoryDraft(ctx, "office", "Invoices go out on the 1st", "3"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = Open(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	text, col, err := db.NewMemoryDraft(ctx, "office")
	if err != nil || text != "Invoices go out on the 1st" || col != "3" {
		t.Fatalf("got %q %q %v, want the latest draft", text, col, err)
	}
	if other, _, _ := db.NewMemoryDraft(ctx, "demo"); other != "" {
		t.Fatalf("another account sees the draft: %q", other)
	}
	if err := db.SaveNewMemoryDraft(ctx, "office", "", ""); err != nil {
		t.Fatal(err)
	}
	if text, _, _ := db.NewMemoryDraft(ctx, "office"); text != "" {
		t.Fatalf("an emptied draft should be forgotten, got %q", text)
	}
}
