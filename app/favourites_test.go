package app_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
)

func ids(items []app.AgentItem) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = string(it.ID)
	}
	return out
}

// Recent keeps the last RecentMax agents used, newest first, once each;
// a favourite is listed under Favourites only; both survive a restart.
func TestFavouritesAndRecentAreKept(t *testing.T) {
	dir := t.TempDir()
	a := apptest.Open(t, func(c *app.Config) { c.Paths.Config, c.Paths.Data = dir, dir })
	ctx := t.Context()
	for i := range app.RecentMax + 3 {
		if err := a.Agents().Used(ctx, client.Agent{ID: client.ID(fmt.Sprint(200 + i)), Title: fmt.Sprint("Agent ", i), Type: client.AgentText}); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Agents().Used(ctx, client.Agent{ID: "205", Title: "Agent 5 renamed"}); err != nil {
		t.Fatal(err)
	}
	if err := a.Agents().SetFavourite(ctx, app.AgentItem{ID: "211", Title: "Agent 11"}, true); err != nil {
		t.Fatal(err)
	}
	favs, recent := a.Agents().Pinned()
	if got := ids(favs); !slices.Equal(got, []string{"211"}) {
		t.Fatalf("favourites %v", got)
	}
	want := []string{"205", "212", "210", "209", "208", "207", "206", "204", "203"} // 211 is a favourite
	if got := ids(recent); !slices.Equal(got, want) {
		t.Fatalf("recent %v, want %v", got, want)
	}
	if recent[0].Title != "Agent 5 renamed" {
		t.Fatalf("the recent agent keeps its old title %q", recent[0].Title)
	}
	if !a.Agents().IsFavourite("211") || a.Agents().IsFavourite("212") {
		t.Fatal("IsFavourite does not follow the star")
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	again := apptest.Open(t, func(c *app.Config) { c.Paths.Config, c.Paths.Data = dir, dir })
	favs2, recent2 := again.Agents().Pinned()
	if !slices.Equal(ids(favs2), ids(favs)) || !slices.Equal(ids(recent2), want) {
		t.Fatalf("after a restart: favourites %v, recent %v", ids(favs2), ids(recent2))
	}
}
