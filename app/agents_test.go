package app_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/internal/clock"
)

// page is the browser's current snapshot.
func page(b *app.AgentBrowser) app.AgentPage {
	p, _ := b.State().Snapshot()
	return p
}

// waitBrowser waits until the browser has an answer for its query.
func waitBrowser(t *testing.T, b *app.AgentBrowser, ok func(app.AgentPage) bool) app.AgentPage {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if st := page(b); !st.Loading && ok(st) {
			return st
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("the agent list never settled: %+v", page(b))
	return app.AgentPage{}
}

// pagesOf answers agent lists n to a page, as a service with another page
// size would.
type pagesOf int

func (n pagesOf) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Path == "/agents" {
		q := r.URL.Query()
		q.Set("per_page", strconv.Itoa(int(n)))
		r = r.Clone(r.Context())
		r.URL.RawQuery = q.Encode()
	}
	return http.DefaultTransport.RoundTrip(r)
}

// openPaged is an app whose service answers agent lists n to a page.
func openPaged(t *testing.T, n int) *app.App {
	return apptest.Open(t, func(c *app.Config) { c.HTTPClient = &http.Client{Transport: pagesOf(n)} })
}

func TestAgentBrowserPagesThroughEveryAgent(t *testing.T) {
	a := openPaged(t, 10)
	b := a.Agents().NewBrowser(0)
	b.Search(app.AgentQuery{})
	st := waitBrowser(t, b, func(l app.AgentPage) bool { return len(l.Agents) > 0 })
	if len(st.Agents) != 10 || !st.HasMore || st.Total != 44 {
		t.Fatalf("first page: %d agents, more %v, total %d", len(st.Agents), st.HasMore, st.Total)
	}
	for i := 0; i < 10 && page(b).HasMore; i++ {
		b.LoadMore()
		waitBrowser(t, b, func(app.AgentPage) bool { return true })
	}
	st = page(b)
	if len(st.Agents) != st.Total || st.HasMore {
		t.Fatalf("after scrolling to the end: %d of %d agents, more %v", len(st.Agents), st.Total, st.HasMore)
	}
	seen := map[client.ID]bool{}
	for _, ag := range st.Agents {
		if seen[ag.ID] {
			t.Fatalf("agent %s listed twice", ag.ID)
		}
		seen[ag.ID] = true
	}
}

// The list keeps a lean item per agent; a snapshot taken earlier stays as
// it was while later pages come in, and opening an agent reads all of it.
func TestAgentBrowserSnapshotsStayAndOpeningReadsTheFullAgent(t *testing.T) {
	a := openPaged(t, 10)
	b := a.Agents().NewBrowser(0)
	b.Search(app.AgentQuery{})
	first := waitBrowser(t, b, func(l app.AgentPage) bool { return len(l.Agents) > 0 })
	kept := append([]app.AgentItem(nil), first.Agents...)
	prev := first
	for i := 0; i < 10 && page(b).HasMore; i++ {
		b.LoadMore()
		next := waitBrowser(t, b, func(app.AgentPage) bool { return true })
		if !next.Extends(prev) || !next.Extends(first) || prev.Extends(next) {
			t.Fatalf("page %d does not say it extends the page before it (%d agents after %d)", i+2, len(next.Agents), len(prev.Agents))
		}
		prev = next
	}
	if st := page(b); len(st.Agents) != st.Total || st.Total != 44 {
		t.Fatalf("paged to %d of %d agents", len(st.Agents), st.Total)
	}
	if len(first.Agents) != len(kept) {
		t.Fatalf("the first snapshot changed length: %d, was %d", len(first.Agents), len(kept))
	}
	for i := range kept {
		if first.Agents[i] != kept[i] {
			t.Fatalf("the first snapshot changed at %d: %+v, was %+v", i, first.Agents[i], kept[i])
		}
	}

	// The same query asked again starts a new list: its pages extend one
	// another, not the old list's, though they hold the same agents.
	whole := page(b)
	b.Reload()
	again := waitBrowser(t, b, func(l app.AgentPage) bool { return len(l.Agents) == 10 })
	b.LoadMore()
	more := waitBrowser(t, b, func(l app.AgentPage) bool { return len(l.Agents) == 20 })
	if !more.Extends(again) || more.Extends(first) || more.Extends(prev) {
		t.Fatalf("the second page loaded again extends: the first loaded again %v, the old list's first page %v, its pages before %v; want true, false, false",
			more.Extends(again), more.Extends(first), more.Extends(prev))
	}

	last := whole.Agents[43]
	if last.Title == "" || last.Type == "" {
		t.Fatalf("a listed agent keeps its title and type: %+v", last)
	}
	full, err := a.Agents().Get(context.Background(), last.ID)
	if err != nil {
		t.Fatal(err)
	}
	if full.Title != last.Title || full.Description != last.Description || full.Type != last.Type {
		t.Fatalf("the list shows %+v, the agent is %+v", last, full)
	}
	if full.LongDescription == "" || len(full.Questions) == 0 {
		t.Fatalf("the opened agent has its long description and questions: %+v", full)
	}
}

func TestAgentBrowserTypeAndSearch(t *testing.T) {
	a := apptest.Open(t)
	b := a.Agents().NewBrowser(0)
	b.Search(app.AgentQuery{Type: client.AgentImage})
	st := waitBrowser(t, b, func(l app.AgentPage) bool { return l.Total > 0 })
	for _, ag := range st.Agents {
		if ag.Type != client.AgentImage {
			t.Fatalf("image filter listed a %s agent", ag.Type)
		}
	}
	b.Search(app.AgentQuery{Q: "press release"})
	st = waitBrowser(t, b, func(l app.AgentPage) bool { return l.Query.Q == "press release" })
	if st.Total != 1 || st.Agents[0].Title != "Press Release Drafter" {
		t.Fatalf("search found %d agents: %+v", st.Total, st.Agents)
	}
	// The service searches titles and descriptions; a type's word finds
	// the agents of that type.
	b.Search(app.AgentQuery{Q: "Videos "})
	st = waitBrowser(t, b, func(l app.AgentPage) bool { return l.Query.Q == "Videos " && !l.Loading })
	if st.Total == 0 {
		t.Fatal("searching \"videos\" should list the video agents")
	}
	for _, ag := range st.Agents {
		if ag.Type != client.AgentVideo {
			t.Fatalf("searching \"videos\" listed a %s agent, %q", ag.Type, ag.Title)
		}
	}
	b.Search(app.AgentQuery{Q: "nothing-matches-this"})
	st = waitBrowser(t, b, func(l app.AgentPage) bool { return true })
	if st.Total != 0 || len(st.Agents) != 0 || st.Err != nil {
		t.Fatalf("a search without matches should be empty, got %+v", st)
	}
}

// heldList holds the next agent list asked once armed until released, then
// answers it whole (though its asker gave up), so a test controls when an old
// answer comes back.
type heldList struct {
	armed   atomic.Bool
	arrived chan struct{}
	release chan struct{}
}

func newHeldList() *heldList {
	return &heldList{arrived: make(chan struct{}, 1), release: make(chan struct{})}
}

func (h *heldList) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Path == "/agents" && h.armed.CompareAndSwap(true, false) {
		h.arrived <- struct{}{}
		<-h.release
		r = r.Clone(context.WithoutCancel(r.Context()))
	}
	return http.DefaultTransport.RoundTrip(r)
}

// hold arms h and runs ask, returning once ask's list request is held.
func (h *heldList) hold(t *testing.T, ask func()) {
	t.Helper()
	h.armed.Store(true)
	ask()
	select {
	case <-h.arrived:
	case <-time.After(10 * time.Second):
		t.Fatal("the agent list was never asked")
	}
}

// settled lets the held answer come and closes a, which waits for all its
// work: what the browser shows then is final.
func (h *heldList) settled(t *testing.T, a *app.App, b *app.AgentBrowser) app.AgentPage {
	t.Helper()
	close(h.release)
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	return page(b)
}

// An old search's answer arriving after the newer one's never replaces it.
func TestAgentBrowserNewerSearchWins(t *testing.T) {
	held := newHeldList()
	a := apptest.Open(t, func(c *app.Config) { c.HTTPClient = &http.Client{Transport: held} })
	b := a.Agents().NewBrowser(0)
	held.hold(t, func() { b.Search(app.AgentQuery{Q: "video"}) })
	b.Search(app.AgentQuery{Q: "invoice"})
	waitBrowser(t, b, func(l app.AgentPage) bool { return len(l.Agents) > 0 })
	st := held.settled(t, a, b)
	if st.Query.Q != "invoice" || st.Err != nil || len(st.Agents) == 0 || st.Agents[0].Title != "Invoice Query Assistant" {
		t.Fatalf("the older search overwrote the newer one: %+v", st)
	}
}

// A search waiting for typing to pause gives way to one asked for at once
// (Enter): the list never goes back to the typed words.
func TestAgentBrowserTypedSearchGivesWayToEnter(t *testing.T) {
	clk := clock.NewFake()
	a := apptest.Open(t, func(c *app.Config) { c.Clock = clk })
	const pause = 50 * time.Millisecond
	b := a.Agents().NewBrowser(pause)
	b.SearchSoon(app.AgentQuery{Q: "video"})
	b.Search(app.AgentQuery{Q: "invoice"})
	waitBrowser(t, b, func(l app.AgentPage) bool { return len(l.Agents) > 0 })
	clk.Advance(3 * pause) // the typed search would start now
	if st := page(b); st.Query.Q != "invoice" || st.Loading {
		t.Fatalf("the typed search came back after Enter: %+v", st.Query)
	}
	// Typing on: one search once it pauses.
	for _, q := range []string{"p", "pr", "press"} {
		b.SearchSoon(app.AgentQuery{Q: q})
		clk.Advance(pause / 2)
	}
	if st := page(b); st.Query.Q == "press" || st.Loading {
		t.Fatalf("a search started while typing went on: %+v", st.Query)
	}
	clk.Advance(pause)
	st := waitBrowser(t, b, func(l app.AgentPage) bool { return l.Query.Q == "press" })
	if len(st.Agents) == 0 || st.Agents[0].Title != "Press Release Drafter" {
		t.Fatalf("typing found %+v", st.Agents)
	}
}

// Another account: the old agents go at once, and an answer for the old
// account still on its way is dropped.
func TestAgentBrowserClearDropsTheOldAnswer(t *testing.T) {
	held := newHeldList()
	a := apptest.Open(t, func(c *app.Config) { c.HTTPClient = &http.Client{Transport: held} })
	b := a.Agents().NewBrowser(0)
	b.Search(app.AgentQuery{})
	waitBrowser(t, b, func(l app.AgentPage) bool { return len(l.Agents) > 0 })
	held.hold(t, b.Reload)
	b.Clear()
	if st := page(b); len(st.Agents) != 0 || st.Loading {
		t.Fatalf("cleared, the list still shows %d agents (loading %v)", len(st.Agents), st.Loading)
	}
	if st := held.settled(t, a, b); len(st.Agents) != 0 || st.Err != nil {
		t.Fatalf("the answer asked before Clear came back: %d agents (error %v)", len(st.Agents), st.Err)
	}
}

func TestAgentBrowserShowsFailureAndRetries(t *testing.T) {
	a := apptest.Open(t)
	apptest.Demo(a).Service.SetFaults(demoservice.Faults{Fail500: 10})
	b := a.Agents().NewBrowser(0)
	b.Search(app.AgentQuery{})
	st := waitBrowser(t, b, func(l app.AgentPage) bool { return l.Err != nil })
	if app.Describe(st.Err) == "" {
		t.Fatal("a failure needs a sentence")
	}
	apptest.Demo(a).Service.SetFaults(demoservice.Faults{})
	b.Reload()
	st = waitBrowser(t, b, func(l app.AgentPage) bool { return len(l.Agents) > 0 })
	if st.Err != nil {
		t.Fatalf("retry kept the error: %v", st.Err)
	}
}

func TestCheckAnswers(t *testing.T) {
	agent := client.Agent{Type: client.AgentText, Questions: []client.Question{
		{Type: "select", Name: "tone", Required: true, Options: []string{"neutral", "formal"}},
		{Type: "number", Name: "length", Required: true},
		{Type: "select", Name: "language", Options: []string{"en"}},
		{Type: "colour", Name: "shade", Required: true},
	}}
	agent.Questions = append(agent.Questions, client.Question{Type: "date", Name: "due"}, client.Question{Type: "array", Name: "items", Required: true})
	errs := app.CheckAnswers(agent, map[string]string{"length": "ten", "due": "next week"})
	if errs["tone"] == "" || errs["length"] == "" || errs["shade"] == "" || errs["language"] != "" || !strings.Contains(errs["due"], "2026-11-25") || errs["items"] == "" {
		t.Fatalf("unexpected messages: %v", errs)
	}
	// A required list needs at least one line.
	if errs := app.CheckAnswers(agent, map[string]string{"tone": "formal", "length": "250", "shade": "teal", "due": "2026-12-01", "items": `["first"]`}); errs != nil {
		t.Fatalf("valid answers refused: %v", errs)
	}
	got := app.ExecuteAnswers(agent, map[string]string{"tone": "formal", "length": "250", "shade": "red", "items": "x"})
	if fmt.Sprint(got["length"]) != "250" || got["tone"] != "formal" || got["shade"] != "red" || fmt.Sprint(got["items"]) != "[x]" {
		t.Fatalf("execute answers: %#v", got)
	}
}

func TestAnswersAreRemembered(t *testing.T) {
	a := apptest.Open(t)
	agent := client.Agent{ID: "119"}
	if err := a.Agents().RememberAnswers(context.Background(), agent.ID, map[string]string{"tone": "formal", "length": ""}); err != nil {
		t.Fatal(err)
	}
	got := a.Agents().LastAnswers(agent)
	// An empty answer is a question cleared: kept, so that its default
	// does not come back.
	if v, ok := got["length"]; got["tone"] != "formal" || !ok || v != "" || len(got) != 2 {
		t.Fatalf("remembered %v", got)
	}
}

func BenchmarkFilterAgents(b *testing.B) {
	types := []string{client.AgentChat, client.AgentImage, client.AgentText, client.AgentVideo}
	agents := make([]app.AgentItem, 10000)
	for i := range agents {
		agents[i] = app.AgentItem{ID: client.ID(fmt.Sprint(i)), Title: fmt.Sprintf("Agent %d", i), Type: types[i%4],
			Description: "An agent that does useful things for the office."}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if n := len(app.FilterAgents(agents, types[i%4])); n != 2500 {
			b.Fatalf("filtered %d", n)
		}
	}
}

// unplugged is a transport that, while its mode says so, fails every
// request as a cable pulled out would (offline) or answers it as a service
// that rejects the key (rejected).
type unplugged struct{ mode *atomic.Int32 }

const (
	plugged int32 = iota
	offline
	rejected
)

func (u unplugged) RoundTrip(r *http.Request) (*http.Response, error) {
	switch u.mode.Load() {
	case offline:
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	case rejected:
		return &http.Response{StatusCode: http.StatusUnauthorized, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(`{"message":"Unauthenticated."}`)), Request: r}, nil
	}
	return http.DefaultTransport.RoundTrip(r)
}

func openUnplugged(t *testing.T) (*app.App, *atomic.Int32) {
	var mode atomic.Int32
	a := apptest.Open(t, func(c *app.Config) {
		c.HTTPClient = &http.Client{Transport: unplugged{&mode}}
		c.FastRetries = true
	})
	return a, &mode
}

// Started without the service, the agents list shows the agents kept from
// the last time it loaded, says so, and shows the service's own list again
// once it answers. A rejected key shows no kept list: that is the user's
// to fix.
func TestAgentsListKeptForAStartWithoutTheService(t *testing.T) {
	a, mode := openUnplugged(t)
	b := a.Agents().NewBrowser(0)
	b.Search(app.AgentQuery{})
	live := waitBrowser(t, b, func(l app.AgentPage) bool { return len(l.Agents) > 0 })
	if !live.Saved.IsZero() {
		t.Fatal("a list from the service is not a saved one")
	}

	mode.Store(offline)
	b = a.Agents().NewBrowser(0) // as on the next start
	b.Search(app.AgentQuery{})
	st := waitBrowser(t, b, func(l app.AgentPage) bool { return l.Err != nil })
	if !client.IsOffline(st.Err) || st.Saved.IsZero() || time.Since(st.Saved) > time.Minute {
		t.Fatalf("offline, the list should be the saved one with the reason: err %v, saved %v", st.Err, st.Saved)
	}
	if len(st.Agents) != len(live.Agents) || st.Agents[0] != live.Agents[0] || st.HasMore {
		t.Fatalf("the saved list shows %d agents (first %+v), the service's had %d (first %+v)", len(st.Agents), st.Agents[0], len(live.Agents), live.Agents[0])
	}

	// a filter is not answered from the saved list either
	b.Search(app.AgentQuery{Type: client.AgentChat})
	if st := waitBrowser(t, b, func(l app.AgentPage) bool { return l.Err != nil }); len(st.Agents) != 0 || !st.Saved.IsZero() {
		t.Fatalf("a filter offline shows %d saved agents (saved %v)", len(st.Agents), st.Saved)
	}
	b.Search(app.AgentQuery{})
	waitBrowser(t, b, func(l app.AgentPage) bool { return !l.Saved.IsZero() })

	mode.Store(plugged)
	b.Reload()
	st = waitBrowser(t, b, func(l app.AgentPage) bool { return l.Err == nil && len(l.Agents) > 0 })
	if !st.Saved.IsZero() {
		t.Fatal("back online, the list is the service's again")
	}

	// a search typed offline is not answered from the saved list
	mode.Store(offline)
	b.Search(app.AgentQuery{Q: "minutes"})
	if st = waitBrowser(t, b, func(l app.AgentPage) bool { return l.Err != nil }); !st.Saved.IsZero() {
		t.Fatal("a search is not answered from the saved list")
	}
}

func TestAgentsListKeptIsNotShownForARejectedKey(t *testing.T) {
	a, mode := openUnplugged(t)
	b := a.Agents().NewBrowser(0)
	b.Search(app.AgentQuery{})
	waitBrowser(t, b, func(l app.AgentPage) bool { return len(l.Agents) > 0 })
	mode.Store(rejected)
	b = a.Agents().NewBrowser(0)
	b.Search(app.AgentQuery{})
	st := waitBrowser(t, b, func(l app.AgentPage) bool { return l.Err != nil })
	if len(st.Agents) != 0 || !st.Saved.IsZero() || !client.IsAuth(st.Err) {
		t.Fatalf("a rejected key should show no list: %d agents, saved %v, err %v", len(st.Agents), st.Saved, st.Err)
	}
}
