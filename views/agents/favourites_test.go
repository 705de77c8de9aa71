package agents

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// listed is the list's rows as the user reads them: headings in capitals.
func listed(s *Screen, n int) []string {
	var out []string
	for _, r := range s.rows[:min(n, len(s.rows))] {
		if r.heading != "" {
			out = append(out, "# "+r.heading)
		} else {
			out = append(out, string(r.agent.ID))
		}
	}
	return out
}

// A star puts an agent under Favourites at the top of the list; a run puts
// its agent under Recent; the rest follow under All agents without them;
// a search lists plainly. Keyboard: Down from the search box reaches the
// first favourite, and Space opens it.
func TestFavouritesAndRecentComeFirst(t *testing.T) {
	f := newFixture(t, 0)
	if slices.Contains(listed(f.s, 100), "# Favourites") {
		t.Fatalf("a new account's list has headings: %v", listed(f.s, 5))
	}
	starred := f.s.shown.Agents[3].ID
	d := f.open(t, starred)
	if d.star.Text != "Add to favourites" {
		t.Fatalf("the star of an agent not starred reads %q", d.star.Text)
	}
	test.Tap(d.star)
	f.wait(t, "the star kept", func() bool {
		return d.star.Text == "Favourite" && len(f.s.rows) > 0 && f.s.rows[0].heading == "Favourites"
	})

	ran := f.open(t, "120")
	fillRequired(ran)
	test.Tap(ran.runBtn)
	f.wait(t, "the run", func() bool { return ran.active == nil && ran.output.run.Output != "" })
	f.wait(t, "the recent agent", func() bool { return slices.Contains(listed(f.s, 10), "# Recent") })
	got := listed(f.s, 5)
	if want := []string{"# Favourites", string(starred), "# Recent", "120", "# All agents"}; !slices.Equal(got, want) {
		t.Fatalf("the list begins %v, want %v", got, want)
	}
	if row := f.s.list.KeyboardRow(); row < 0 || f.s.rows[row].agent.ID != "120" {
		t.Fatalf("after the rows moved, the list marks row %d, not the agent on show", row)
	}
	for _, r := range f.s.rows[5:] {
		if r.agent.ID == "120" || r.agent.ID == starred {
			t.Fatalf("agent %s is listed again under All agents", r.agent.ID)
		}
	}

	// Keyboard: from the search box, Down then Enter opens the favourite.
	f.s.current = nil
	f.s.list.UnselectAll()
	f.w.Canvas().Focus(f.s.search)
	test.Type(f.s.search, "")
	f.s.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	if fo, ok := f.w.Canvas().Focused().(interface{ TypedKey(*fyne.KeyEvent) }); ok {
		fo.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown}) // past the heading
		fo.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	}
	f.wait(t, "the favourite opened by keyboard", func() bool { return f.s.current != nil && f.s.current.agent.ID == starred })

	// A search lists plainly, without headings.
	test.Type(f.s.search, "Press")
	f.s.runSearch()
	f.wait(t, "the search", func() bool { return f.page().Query.Q == "Press" })
	if slices.ContainsFunc(f.s.rows, func(r agentRow) bool { return r.heading != "" }) {
		t.Fatalf("a search shows headings: %v", listed(f.s, 5))
	}

	// Unstarred: the agent leaves the favourites.
	test.Tap(d.star)
	f.wait(t, "the star taken off", func() bool { return d.star.Text == "Add to favourites" && !f.a.Agents().IsFavourite(starred) })
	if _, ok := f.a.Settings().Prefs[f.a.AccountID()]; !ok {
		t.Fatal("the prefs were not kept under the account")
	}
}
