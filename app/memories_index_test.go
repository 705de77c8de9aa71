package app_test

import (
	"context"
	"testing"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
)

// settled waits until both of the index's lists have finished loading.
func settled(t *testing.T, x *app.MemoryIndex) (live.ListState[app.CollectionSummary], live.ListState[app.MemoryEntry]) {
	t.Helper()
	sh, _ := waitFor(t, x.Shelves, "the collections", func(st live.ListState[app.CollectionSummary]) bool { return st.Loaded && !st.Loading })
	fd, _ := waitFor(t, x.Found, "the memories", func(st live.ListState[app.MemoryEntry]) bool { return st.Loaded && !st.Loading })
	return sh, fd
}

// The index reads the service's lists, then shows every memory and each
// collection with its count, and finds memories by words and collection.
func TestMemoryIndexSyncsFindsAndDeletes(t *testing.T) {
	a, _ := served(t, demoservice.Options{API: demoservice.APIReal}, nil)
	ctx := context.Background()
	col, err := a.Memories().CreateCollection(ctx, "Customer care")
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"Refunds within 14 days", "Call back within a day"} {
		if _, err := a.Client().CreateMemory(ctx, client.MemoryParams{Content: text, CollectionID: client.ID(col.ID)}); err != nil {
			t.Fatal(err)
		}
	}
	x := a.Memories().NewIndex()
	x.Sync()
	eventually(t, "the service's lists", func() bool { s, _ := x.SyncState().Snapshot(); return s.Listed && !s.Syncing })
	sh, fd := settled(t, x)
	if sh.Items[0].ID != "" || sh.Items[0].Count != len(fd.Items) || len(fd.Items) < 2 {
		t.Fatalf("the first shelf counts every memory: %+v, %d found", sh.Items[0], len(fd.Items))
	}
	var care app.CollectionSummary
	for _, c := range sh.Items[1:] {
		if c.ID == col.ID {
			care = c
		}
	}
	if care.Count != 2 {
		t.Fatalf("collections: %+v", sh.Items)
	}

	x.Load("refunds", col.ID)
	_, fd = settled(t, x)
	if len(fd.Items) != 1 || fd.Items[0].Content != "Refunds within 14 days" {
		t.Fatalf("found %+v", fd.Items)
	}
	if err := x.DeleteMemory(ctx, fd.Items[0].ID); err != nil {
		t.Fatal(err)
	}
	if n := len(x.Found.Get().Items); n != 0 {
		t.Fatalf("a deleted memory stays listed until the next reading: %d", n)
	}
	sh, _ = settled(t, x)
	for _, c := range sh.Items[1:] {
		if c.ID == col.ID && c.Count != 1 {
			t.Fatalf("after the deletion: %+v", c)
		}
	}
}
