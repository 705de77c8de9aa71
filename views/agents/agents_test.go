package agents

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
	"github.com/agentdesk/agentdesk/views/screen"
)

// fakeNav records what the screen asks of the shell.
type fakeNav struct {
	mu      sync.Mutex
	chatted []client.Agent
	att     *fakeAttachments
	tabs    func(client.Agent) []*container.TabItem
	// newAtt, when set, makes the attachments (the files screen's own).
	newAtt func() screen.Attachments
}

func (n *fakeNav) Show(string) {}
func (n *fakeNav) OpenChat(a client.Agent) {
	n.mu.Lock()
	n.chatted = append(n.chatted, a)
	n.mu.Unlock()
}
func (n *fakeNav) ChooseChatAgent()       {}
func (n *fakeNav) OpenConversation(int64) {}
func (n *fakeNav) AgentTabs(a client.Agent) []*container.TabItem {
	if n.tabs == nil {
		return nil
	}
	return n.tabs(a)
}
func (n *fakeNav) NewAttachments() screen.Attachments {
	if n.newAtt != nil {
		return n.newAtt()
	}
	if n.att == nil {
		return nil
	}
	return n.att
}
func (n *fakeNav) ShowCredits()                        {}
func (n *fakeNav) OpenAgentWith(app.AgentItem, string) {}
func (n *fakeNav) Restart()                            {}

// fakeAttachments stands in for the files screen's chips.
type fakeAttachments struct {
	dropped []string
	cleared int
}

func (f *fakeAttachments) Dropped(p []string)        { f.dropped = append(f.dropped, p...) }
func (f *fakeAttachments) DropHint() (string, bool)  { return "attach", true }
func (f *fakeAttachments) Object() fyne.CanvasObject { return widget.NewLabel("chips") }
func (f *fakeAttachments) FileIDs() []client.ID      { return nil }
func (f *fakeAttachments) Pending() bool             { return false }
func (f *fakeAttachments) Clear()                    { f.cleared++ }
func (f *fakeAttachments) State() live.Observable[app.UploadsState] {
	return live.NewState(app.UploadsState{})
}
func (f *fakeAttachments) AddFiles() {}

// countingTransport counts agent searches and holds back the ones whose
// query contains slowQ until slowGo closes, like a slow answer from the
// service; with perPage set, the service answers lists that many agents to
// a page.
type countingTransport struct {
	searches atomic.Int64
	slowQ    string
	slowGo   chan struct{}
	slowDone atomic.Int64 // slow answers given
	perPage  int
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Path == "/agents" && r.URL.Query().Get("q") != "" {
		c.searches.Add(1)
		if c.slowQ != "" && strings.Contains(r.URL.Query().Get("q"), c.slowQ) {
			<-c.slowGo
			r = r.Clone(context.WithoutCancel(r.Context()))
			defer c.slowDone.Add(1)
		}
	}
	if r.URL.Path == "/agents" && c.perPage > 0 {
		q := r.URL.Query()
		q.Set("per_page", strconv.Itoa(c.perPage))
		r = r.Clone(r.Context())
		r.URL.RawQuery = q.Encode()
	}
	return http.DefaultTransport.RoundTrip(r)
}

type fixture struct {
	s   *Screen
	a   *app.App
	nav *fakeNav
	w   fyne.Window
	cw  *kittest.CountingWindow
	tr  *countingTransport
	q   *kit.Queue
}

// newFixture is the screen with a search delay of 20 ms, and what change
// makes of its options.
func newFixture(t *testing.T, perPage int, change ...func(*options)) *fixture {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	o := options{searchDelay: 20 * time.Millisecond}
	for _, c := range change {
		c(&o)
	}
	tr := &countingTransport{perPage: perPage}
	a := apptest.Open(t, func(c *app.Config) { c.HTTPClient = &http.Client{Transport: tr} })
	nav := &fakeNav{}
	w := test.NewTempWindow(t, widget.NewLabel(""))
	cw := &kittest.CountingWindow{Window: w}
	s := newScreen(screen.Env{App: a, Window: cw, Nav: nav}, o)
	w.SetContent(s.Content())
	height := float32(800)
	if perPage > 0 {
		// A short window shows a few rows: further pages wait for scrolling.
		height = 400
	}
	w.Resize(fyne.NewSize(1200, height))
	s.Shown()
	withPlayer(s, true)
	f := &fixture{s: s, a: a, nav: nav, w: w, cw: cw, tr: tr, q: q}
	f.wait(t, "the first page", func() bool { return len(s.shown.Agents) > 0 })
	return f
}

// page is the agents list as the app last published it.
func (f *fixture) page() app.AgentPage {
	p, _ := f.s.browser.State().Snapshot()
	return p
}

// wait runs the screen's updates until the list shows the app's last page,
// not loading, and cond holds on the UI.
func (f *fixture) wait(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		f.q.Drain()
		if p := f.page(); !p.Loading && samePage(f.s.shown, p) && cond() {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	p := f.page()
	t.Fatalf("timed out waiting for %s; the list shows %d agents of %+v, the app has %d (loading %v, error %v)",
		what, len(f.s.shown.Agents), f.s.shown.Query, len(p.Agents), p.Loading, p.Err)
}

// samePage reports whether two snapshots of the list say the same.
func samePage(a, b app.AgentPage) bool {
	return a.Query == b.Query && a.Total == b.Total && a.Loading == b.Loading && a.HasMore == b.HasMore &&
		(a.Err == nil) == (b.Err == nil) && len(a.Agents) == len(b.Agents) &&
		(len(a.Agents) == 0 || &a.Agents[0] == &b.Agents[0])
}

func (f *fixture) open(t *testing.T, id client.ID) *detail {
	t.Helper()
	for i, r := range f.s.rows {
		if r.heading == "" && r.agent.ID == id {
			f.s.list.Select(i)
			d := f.s.current
			f.wait(t, "the agent's detail", func() bool { return d.loaded })
			return d
		}
	}
	// Further down the list: open it as a link from elsewhere would.
	f.s.openAgent(app.AgentItem{ID: id, Title: "Agent " + string(id)})
	d := f.s.current
	f.wait(t, "the agent's detail", func() bool { return d.loaded })
	return d
}

func TestListShowsAgentsAndTotal(t *testing.T) {
	f := newFixture(t, 0)
	if f.s.total.Text != "44 agents" {
		t.Fatalf("total: %q", f.s.total.Text)
	}
	if f.s.listStack.Objects[0] != f.s.list {
		t.Fatal("the list should be visible")
	}
	row := newAgentRow()
	setAgentRow(row, f.s.shown.Agents[0])
	text := row.(*fyne.Container).Objects[0].(*fyne.Container)
	title, _ := kit.LineText(text.Objects[0])
	desc, _ := kit.LineText(text.Objects[1])
	if title != "Meeting Minutes Writer" || !strings.HasPrefix(desc, "Turns rough meeting notes") {
		t.Fatal("a row shows the title and the description's first line")
	}
	if got := row.(*fyne.Container).Objects[1].(*fyne.Container).Objects[1].(*fyne.Container).Objects[1].(*widget.Label).Text; got != "Chat" {
		t.Fatalf("type badge %q", got)
	}
}

func TestTypeFilterNarrowsTheList(t *testing.T) {
	f := newFixture(t, 0)
	f.s.typeSel.SetSelected("Video")
	f.wait(t, "video agents", func() bool {
		return len(f.s.shown.Agents) > 0 && f.page().Query.Type == client.AgentVideo
	})
	for _, ag := range f.s.shown.Agents {
		if ag.Type != client.AgentVideo {
			t.Fatalf("video filter shows a %s agent", ag.Type)
		}
	}
	if want := countText(f.page().Total); f.s.total.Text != want || want == "44 agents" {
		t.Fatalf("total %q, want %q", f.s.total.Text, want)
	}
}

func TestSearchIsDebouncedAndEmptyExplained(t *testing.T) {
	// A pause no typing of a test takes, however busy the machine.
	f := newFixture(t, 0, func(o *options) { o.searchDelay = time.Second })
	test.Type(f.s.search, "press release")
	f.wait(t, "search results", func() bool { return f.page().Query.Q == "press release" })
	if n := f.tr.searches.Load(); n != 1 {
		t.Fatalf("typing 13 characters sent %d searches, want 1", n)
	}
	if len(f.s.shown.Agents) != 1 || f.s.shown.Agents[0].Title != "Press Release Drafter" || f.s.total.Text != "1 agent" {
		t.Fatalf("results: %d, total %q", len(f.s.shown.Agents), f.s.total.Text)
	}
	f.s.search.SetText("zzzz no such agent")
	f.wait(t, "no results", func() bool { return f.page().Query.Q == "zzzz no such agent" })
	if f.s.listStack.Objects[0] == f.s.list || f.s.total.Text != "0 agents" {
		t.Fatal("a search without results shows the empty state")
	}
	// Ctrl+F again and what is typed replaces the search, as in any
	// desktop app's find box, rather than adding to it.
	f.s.FocusFind()
	test.Type(f.s.search, "invoice")
	if f.s.search.Text != "invoice" {
		t.Fatalf("typing after Ctrl+F made the search %q, want it replaced", f.s.search.Text)
	}
}

func TestSlowOldSearchDoesNotOverwriteNewer(t *testing.T) {
	// Only Enter searches: typing never pauses long enough.
	f := newFixture(t, 0, func(o *options) { o.searchDelay = time.Hour })
	f.tr.slowQ, f.tr.slowGo = "video", make(chan struct{})
	f.s.search.SetText("video script") // words of a search ("video" alone is the type)
	f.s.runSearch()
	f.q.WaitUntil(t, func() bool { return f.tr.searches.Load() == 1 }, func() string { return "the old search never left" })
	f.s.search.SetText("invoice")
	f.s.runSearch()
	f.wait(t, "the newer search", func() bool { return f.page().Query.Q == "invoice" && !f.page().Loading })
	close(f.tr.slowGo)
	f.wait(t, "the old answer", func() bool { return f.tr.slowDone.Load() == 1 })
	// Closing waits for the app's work, the old answer's handling included.
	if err := f.a.Close(); err != nil {
		t.Fatal(err)
	}
	f.q.Drain()
	if len(f.s.shown.Agents) != 1 || f.s.shown.Agents[0].Title != "Invoice Query Assistant" {
		t.Fatalf("the list shows %d agents, first %q", len(f.s.shown.Agents), f.s.shown.Agents[0].Title)
	}
}

func TestListPagesAsItScrolls(t *testing.T) {
	f := newFixture(t, 10)
	if len(f.s.shown.Agents) != 10 {
		t.Fatalf("first page has %d agents", len(f.s.shown.Agents))
	}
	for i := 0; i < 10 && len(f.s.shown.Agents) < 44; i++ {
		n := len(f.s.shown.Agents)
		f.s.list.ScrollToBottom()
		f.wait(t, "the next page", func() bool { return len(f.s.shown.Agents) > n || !f.page().HasMore })
		// The list is as long as the agents loaded: the mouse wheel
		// scrolls down to the page's last agent.
		pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(f.s.list).AddXY(20, 20)
		test.Scroll(f.w.Canvas(), pos, 0, -1e6)
		if last := f.s.shown.Agents[len(f.s.shown.Agents)-1].Title; !strings.Contains(shownText(f.s.list), last) {
			t.Fatalf("with %d agents loaded, the wheel does not reach the last, %q; it shows:\n%s", len(f.s.shown.Agents), last, shownText(f.s.list))
		}
	}
	if len(f.s.shown.Agents) != 44 || f.s.total.Text != "44 agents" {
		t.Fatalf("after scrolling: %d agents, %q", len(f.s.shown.Agents), f.s.total.Text)
	}
}

// failedList is the agents screen after its list failed to load.
func failedList(t *testing.T) (*Screen, *app.App, *fixture) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	a := apptest.Open(t)
	a.SetReachable(true)
	apptest.Demo(a).Service.SetFaults(demoservice.Faults{Fail500: 1000})
	w := test.NewTempWindow(t, widget.NewLabel(""))
	s := New(screen.Env{App: a, Window: w, Nav: &fakeNav{}}).(*Screen)
	w.SetContent(s.Content())
	s.Shown()
	f := &fixture{s: s, a: a, q: q}
	f.wait(t, "the error", func() bool { return f.page().Err != nil })
	return s, a, f
}

func TestListErrorHasRetry(t *testing.T) {
	s, a, f := failedList(t)
	if s.listStack.Objects[0] == s.list {
		t.Fatal("the error state should replace the list")
	}
	apptest.Demo(a).Service.SetFaults(demoservice.Faults{})
	s.browser.Reload()
	f.wait(t, "agents after retry", func() bool { return len(s.shown.Agents) > 0 && s.total.Text == "44 agents" })
}

// A list that could not be loaded loads by itself when the service can be
// reached again.
func TestTheListLoadsByItselfWhenTheServiceIsBack(t *testing.T) {
	s, a, f := failedList(t)
	a.SetReachable(false) // the status bar's check finds the service gone
	apptest.Demo(a).Service.SetFaults(demoservice.Faults{})
	a.SetReachable(true) // and back
	f.wait(t, "agents without a retry", func() bool { return len(s.shown.Agents) > 0 && s.total.Text == "44 agents" })
}

// Started while the service fails, the list shows the agents saved the
// last time it loaded, says so and why under the list (not that it updates
// by itself: a service that answers, with a failure, is not checked on),
// and shows the service's list again after Try again.
func TestAStartWithoutTheServiceShowsTheSavedAgents(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	a := apptest.Open(t)
	a.SetReachable(true)
	earlier := a.Agents().NewBrowser(0) // the last start
	earlier.Search(app.AgentQuery{})
	var n int
	q.WaitUntil(t, func() bool { p, _ := earlier.State().Snapshot(); n = len(p.Agents); return n > 0 && !p.Loading },
		func() string { return "the list never loaded" })

	apptest.Demo(a).Service.SetFaults(demoservice.Faults{Fail500: 1000})
	w := test.NewTempWindow(t, widget.NewLabel(""))
	s := New(screen.Env{App: a, Window: w, Nav: &fakeNav{}}).(*Screen)
	w.SetContent(s.Content())
	w.Resize(fyne.NewSize(1200, 800))
	s.Shown()
	f := &fixture{s: s, a: a, q: q}
	f.wait(t, "the saved list", func() bool { return f.page().Err != nil })
	footer := kittest.AllText(s.footer)
	if s.listStack.Objects[0] != s.list || len(s.shown.Agents) != n || s.total.Text != countText(n) ||
		!strings.Contains(footer, "saved on") || strings.Contains(footer, "updates by itself") {
		t.Fatalf("the saved agents should show with a word on where they come from; %d agents, %q, footer %q", len(s.shown.Agents), s.total.Text, footer)
	}
	apptest.Demo(a).Service.SetFaults(demoservice.Faults{})
	test.Tap(kittest.FindButton(s.footer, "Try again"))
	f.wait(t, "the service's list", func() bool { return f.page().Err == nil && f.page().Saved.IsZero() && len(s.shown.Agents) > 0 })
	if strings.Contains(kittest.AllText(s.footer), "saved on") {
		t.Fatal("the service's own list needs no word")
	}
}

// Fields end at one edge, whether or not a clear button sits beside them.
func TestFormFieldsLineUpOnTheRight(t *testing.T) {
	test.NewTempApp(t)
	agent := client.Agent{Type: client.AgentImage, Questions: []client.Question{
		{Type: "select", Name: "style", Required: true, Options: []string{"photo", "watercolor"}},
		{Type: "select", Name: "quality", Options: []string{"draft", "best"}},
		{Type: "number", Name: "seed"},
	}}
	fm := newForm(agent, nil, func() {}, nil)
	w := test.NewTempWindow(t, fm.content)
	w.Resize(fyne.NewSize(700, 400))
	// The seed, a technical question, waits under Advanced.
	if fm.fold == nil || fm.fold.Open() || !fm.byName["seed"].advanced {
		t.Fatal("the seed should wait in a closed Advanced fold")
	}
	test.Tap(fm.fold.Button)
	fm.content.Refresh() // laid out again, as the window does on its next frame
	d := fyne.CurrentApp().Driver()
	right := func(o fyne.CanvasObject) float32 { return d.AbsolutePositionForObject(o).X + o.Size().Width }
	style := fm.byName["style"].input
	quality := fm.byName["quality"].input.(*fyne.Container).Objects[0] // the choice, left of its clear button
	seed := fm.byName["seed"].input
	if r := right(style); r != right(quality) || r != right(seed) {
		t.Fatalf("right edges: style %v, quality %v, seed %v", r, right(quality), right(seed))
	}
}

func TestFormRendersEachQuestionType(t *testing.T) {
	test.NewTempApp(t)
	agent := client.Agent{Type: client.AgentText, Questions: []client.Question{
		{Type: "select", Name: "tone", Required: true, Options: []string{"neutral", "friendly", "formal"}},
		{Type: "number", Name: "length"},
		{Type: "colour_wheel", Name: "shade", Description: "Pick a colour."},
		{Type: "date", Name: "due"},
		{Type: "boolean", Name: "urgent"},
		{Type: "textarea", Name: "request"},
		{Type: "array", Name: "items"},
	}}
	fm := newForm(agent, map[string]string{"tone": "formal", "length": "50"}, func() {}, nil)
	w := test.NewTempWindow(t, fm.content)
	_ = w
	sel := fm.byName["tone"].input.(*kit.Select)
	// The service's values read as words; the value sent stays the same.
	if strings.Join(sel.Options, ",") != "Neutral,Friendly,Formal" || sel.Selected != "Formal" || fm.answers()["tone"] != "formal" {
		t.Fatalf("select: %v / %q, sends %q", sel.Options, sel.Selected, fm.answers()["tone"])
	}
	num := fm.byName["length"].input.(*numberEntry)
	num.SetText("")
	test.Type(num, "1a2.5x.3")
	if num.Text != "12.53" {
		t.Fatalf("the number field let through %q", num.Text)
	}
	// A decimal comma, as Portuguese and Spanish write numbers, is the
	// point the service reads.
	num.SetText("")
	test.Type(num, "0,5,3")
	if num.Text != "0.53" {
		t.Fatalf("typed 0,5,3 the field holds %q, want 0.53", num.Text)
	}
	num.SetText("12.53")
	test.Type(num, "q")
	if msg := fm.byName["length"].err.Text; !strings.Contains(msg, "Only a number goes here") || !strings.Contains(msg, "“q”") || num.Text != "12.53" {
		t.Fatalf("a refused letter leaves no word at the field: %q", msg)
	}
	// A type Agent Desk does not know is a line of text: nothing blocks a run.
	shade := fm.byName["shade"]
	if shade.get == nil {
		t.Fatal("an unknown question type cannot be answered")
	}
	test.Type(shade.input.(*kit.FormEntry), "teal")
	test.Type(fm.byName["due"].input.(*dateField), "2026-12-01")
	test.Tap(fm.byName["urgent"].input.(*kit.Check))
	req := fm.byName["request"].input.(*kit.FormEntry)
	if !req.MultiLine {
		t.Fatal("a textarea question is one line")
	}
	test.Type(req, "Two lines")
	if fm.byName["items"].list == nil {
		t.Fatal("a list question has no list editor")
	}
	if questionLabel(agent.Questions[0]) != "Tone *" {
		t.Fatalf("required label %q", questionLabel(agent.Questions[0]))
	}
	got := fm.answers()
	want := map[string]string{"tone": "formal", "length": "12.53", "shade": "teal", "due": "2026-12-01", "urgent": "true", "request": "Two lines"}
	if len(got) != len(want) {
		t.Fatalf("answers %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("answers %v, want %v", got, want)
		}
	}
	sent := app.ExecuteAnswers(agent, got)
	if sent["urgent"] != true || fmt.Sprint(sent["length"]) != "12.53" || sent["due"] != "2026-12-01" {
		t.Fatalf("the request would carry %v", sent)
	}
}

// Only Ctrl+Enter runs the form from the keyboard (a run costs credits):
// Tab reaches a choice, whose arrows and Enter open its list rather than
// change it or run; Enter in a field runs nothing; Ctrl+Enter in any
// field, an optional choice's included, runs it.
func TestOnlyCtrlEnterRunsTheForm(t *testing.T) {
	test.NewTempApp(t)
	agent := client.Agent{Type: client.AgentText, Questions: []client.Question{
		{Type: "select", Name: "tone", Required: true, Options: []string{"neutral", "friendly", "formal"}},
		{Type: "select", Name: "format", Options: []string{"paragraphs", "bullets"}},
		{Type: "number", Name: "length"},
		{Type: "textarea", Name: "request"},
		{Type: "date", Name: "due"},
		{Type: "array", Name: "items"},
		{Type: "colour_wheel", Name: "shade"},
	}}
	runs := 0
	fm := newForm(agent, map[string]string{"tone": "neutral"}, func() { runs++ }, nil)
	w := test.NewTempWindow(t, fm.content)
	c := w.Canvas()

	c.FocusNext() // Tab: the first choice
	if sel, _ := c.Focused().(*kit.Select); sel == nil || fyne.CanvasObject(sel) != fm.byName["tone"].input {
		t.Fatalf("Tab should reach the first choice, focused %T", c.Focused())
	}
	for _, k := range []fyne.KeyName{fyne.KeyRight, fyne.KeyLeft} {
		c.Focused().TypedKey(&fyne.KeyEvent{Name: k})
	}
	if got := fm.answers()["tone"]; got != "neutral" || runs != 0 {
		t.Fatalf("the arrows should change nothing while the list is closed: %q, %d runs", got, runs)
	}
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if runs != 0 || len(c.Overlays().List()) != 1 {
		t.Fatalf("Enter on a choice should open its list (%d lists open) and run nothing (%d runs)", len(c.Overlays().List()), runs)
	}
	c.Overlays().Top().Hide()
	c.Overlays().Remove(c.Overlays().Top())

	// Enter in a field runs nothing; Ctrl+Enter in each runs the form.
	fields := map[string]fyne.Focusable{
		"length":  fm.byName["length"].input.(*numberEntry),
		"request": fm.byName["request"].input.(*kit.FormEntry),
		"due":     fm.byName["due"].input.(*dateField),
		"items":   fm.byName["items"].list.rows[0].entry,
		"shade":   fm.byName["shade"].input.(*kit.FormEntry),
	}
	for name, f := range fields {
		c.Focus(f)
		f.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		if runs != 0 {
			t.Fatalf("Enter in %s ran the form", name)
		}
	}
	want := 0
	for name, f := range fields {
		want++
		f.(fyne.Shortcutable).TypedShortcut(kit.CtrlEnterShortcut)
		if runs != want {
			t.Fatalf("Ctrl+Enter in %s should run the form: %d runs, want %d", name, runs, want)
		}
	}
}

func TestRequiredAnswersAreChecked(t *testing.T) {
	f := newFixture(t, 0)
	d := f.open(t, "120")
	test.Tap(d.runBtn)
	if !d.form.byName["tone"].err.Visible() || !d.form.byName["length"].err.Visible() {
		t.Fatal("missing required answers are marked beside their fields")
	}
	if d.form.byName["language"].err.Visible() {
		t.Fatal("an optional question is not marked")
	}
	if want := "Check Prompt, Tone and Length:"; !strings.HasPrefix(d.formErr.Text, want) {
		t.Fatalf("the line under the form should name the questions to check (%q…), got %q", want, d.formErr.Text)
	}
	if n := len(apptest.Demo(f.a).Service.Executions()); n != 0 {
		t.Fatalf("nothing should reach the service, got %d executions", n)
	}
	// The line follows the fields as they are fixed, and goes with the last.
	fillPrompt(d)
	d.form.byName["tone"].set("formal")
	if want := "Check Length:"; !strings.HasPrefix(d.formErr.Text, want) || !d.formErr.Visible() {
		t.Fatalf("with Prompt and Tone answered the line should read %q…, got %q", want, d.formErr.Text)
	}
	d.form.byName["length"].set("50")
	if d.formErr.Visible() {
		t.Fatalf("with every question answered the line should go, it reads %q", d.formErr.Text)
	}
}

func TestServiceValidationShownBesideField(t *testing.T) {
	f := newFixture(t, 0)
	d := f.open(t, "120")
	fillPrompt(d)
	// The agent changed on the service since the form was loaded.
	d.agent.Question("length").Required = false
	d.form.byName["tone"].set("formal")
	test.Tap(d.runBtn)
	f.wait(t, "the service's answer", func() bool { return d.active == nil })
	l := d.form.byName["length"].err
	if !l.Visible() || !strings.Contains(l.Text, "length") {
		t.Fatalf("the length field should show the service's message, got %q", l.Text)
	}
	if want := "Check Length:"; !strings.HasPrefix(d.formErr.Text, want) {
		t.Fatalf("the line under the form should name the question the service refused (%q…), got %q", want, d.formErr.Text)
	}
}

func TestRunTextAgentShowsOutputAndHistory(t *testing.T) {
	f := newFixture(t, 0)
	d := f.open(t, "119")
	fillPrompt(d)
	d.form.byName["tone"].set("friendly")
	num := d.form.byName["length"].input.(*numberEntry)
	test.Type(num, "80")
	num.TypedShortcut(kit.CtrlEnterShortcut) // Ctrl+Enter runs the form
	f.wait(t, "the run", func() bool { return d.active == nil && d.output.run.Output != "" })
	if d.output.run.Credits == nil {
		t.Fatal("the credits are shown")
	}
	shown := kittest.Labels(d.output.content)
	if want := "Result · "; !strings.Contains(shown, want) || !strings.Contains(shown, app.Credits(*d.output.run.Credits)) || !strings.Contains(shown, " second") {
		t.Fatalf("the result line says how long the run took and what it cost, in words; it shows:\n%s", shown)
	}
	var rich *widget.RichText
	for _, o := range d.output.content.Objects {
		if box, ok := o.(*fyne.Container); ok {
			for _, c := range box.Objects {
				if st, ok := c.(*fyne.Container); ok {
					if r, ok := st.Objects[0].(*widget.RichText); ok {
						rich = r
					}
				}
			}
		}
	}
	if rich == nil || len(rich.Segments) == 0 {
		t.Fatal("the text output is rendered")
	}
	// Copy gives the words alone, to paste into a mail; Copy as Markdown
	// the markdown as written.
	clip := fyne.CurrentApp().Clipboard()
	test.Tap(kittest.FindButton(d.output.content, "Copy"))
	if got := clip.Content(); got == "" || strings.Contains(got, "# ") || strings.Contains(got, "**") {
		t.Fatalf("Copy gave %q, want the words without markdown marks", got)
	}
	test.Tap(kittest.FindButton(d.output.content, "Copy as Markdown"))
	if clip.Content() != d.output.run.Output {
		t.Fatal("Copy as Markdown should put the result's markdown on the clipboard")
	}
	// The history may list the run before its output is stored: it follows.
	f.wait(t, "the run kept in history with its output", func() bool {
		return len(d.history.Items) == 1 && d.history.Items[0].Output == d.output.run.Output
	})
	// The history row sums the answer up in words, not in markdown.
	heading, _, _ := strings.Cut(d.history.Items[0].Output, "\n")
	if !strings.HasPrefix(heading, "# ") {
		t.Fatalf("the demo answer no longer opens with a heading: %q", heading)
	}
	if got := runSummary(d.history.Items[0]); got != strings.TrimPrefix(heading, "# ") {
		t.Fatalf("history row reads %q, want the heading's words %q", got, strings.TrimPrefix(heading, "# "))
	}
	// Re-open the run from history.
	d.output.clear()
	d.history.Select(0)
	if d.output.run.ID != d.history.Items[0].ID {
		t.Fatal("a past run re-opens")
	}
	// The answers are remembered for the next time.
	if f.a.Agents().LastAnswers(d.agent)["tone"] != "friendly" {
		t.Fatal("answers are remembered")
	}
}

func TestRunImageAgentShowsPreview(t *testing.T) {
	f := newFixture(t, 0)
	d := f.open(t, "131")
	fillPrompt(d)
	d.form.byName["style"].set("photo")
	d.form.byName["aspect_ratio"].set("1:1")
	test.Tap(d.runBtn)
	var img *canvas.Image
	f.wait(t, "the preview", func() bool {
		img = findImage(d.output.content)
		return img != nil
	})
	if img.Image == nil {
		t.Fatal("the preview shows the downloaded picture")
	}
	// Open large hands the downloaded copy (never the address) to the
	// computer's picture viewer; Save as… names the picture after its agent.
	var opened []string
	f.s.env.Opener = func(u *url.URL) error { opened = append(opened, u.String()); return nil }
	test.Tap(kittest.FindButton(d.output.content, "Open large"))
	if len(opened) != 1 || !strings.HasPrefix(opened[0], "file://") {
		t.Fatalf("Open large opened %v", opened)
	}
	r := d.output.run
	if got, want := d.output.saveName(r), r.AgentTitle+" "+r.CreatedAt.Local().Format("2006-01-02")+".png"; got != want {
		t.Fatalf("Save as… suggests %q, want %q", got, want)
	}
}

// findImage is the picture o shows (decoded by the app, not an icon), or
// nil when it shows none.
func findImage(o fyne.CanvasObject) *canvas.Image {
	if x, ok := o.(*canvas.Image); ok && x.Resource == nil && x.Image != nil {
		return x
	}
	for _, c := range kittest.Children(o) {
		if img := findImage(c); img != nil {
			return img
		}
	}
	return nil
}

func findButton(o fyne.CanvasObject, text string) *widget.Button {
	switch x := o.(type) {
	case *widget.Button:
		if x.Text == text {
			return x
		}
	case *kit.Button:
		if x.Text == text {
			return &x.Button
		}
	case *fyne.Container:
		for _, c := range x.Objects {
			if b := findButton(c, text); b != nil {
				return b
			}
		}
	}
	return nil
}

func TestRunVideoAgentOffersPlayAndSave(t *testing.T) {
	f := newFixture(t, 0)
	d := f.open(t, "139")
	fillPrompt(d)
	test.Type(d.form.byName["duration"].input.(*numberEntry), "15")
	d.form.byName["aspect_ratio"].set("9:16")
	test.Tap(d.runBtn)
	f.wait(t, "the video", func() bool { return findButton(d.output.content, "Play video") != nil })
	if findButton(d.output.content, "Save as…") == nil {
		t.Fatal("a video can be saved")
	}
	f.wait(t, "the history", func() bool { return len(d.history.Items) == 1 && d.history.Items[0].AgentType == client.AgentVideo })
}

func TestEscCancelsRun(t *testing.T) {
	f := newFixture(t, 0)
	d := f.open(t, "119")
	fillPrompt(d)
	d.form.byName["tone"].set("formal")
	apptest.Demo(f.a).Service.SetFaults(demoservice.Faults{Latency: 10 * time.Second})
	test.Tap(d.runBtn)
	if !d.cancelBtn.Visible() || !d.runBtn.Disabled() {
		t.Fatal("a running form shows Cancel and cannot be run twice")
	}
	f.s.Escape()
	f.wait(t, "the cancel", func() bool { return d.active == nil })
	apptest.Demo(f.a).Service.SetFaults(demoservice.Faults{})
	if d.output.run.Status != app.RunCancelled || d.cancelBtn.Visible() {
		t.Fatalf("status %q", d.output.run.Status)
	}
}

func TestChatAgentOpensChat(t *testing.T) {
	f := newFixture(t, 0)
	d := f.open(t, "101")
	b := kittest.FindButton(d.runTab.Content, "Start chat")
	if b == nil {
		t.Fatal("a chat agent offers Start chat")
	}
	test.Tap(b)
	if len(f.nav.chatted) != 1 || f.nav.chatted[0].ID != "101" {
		t.Fatalf("OpenChat calls: %v", f.nav.chatted)
	}
}

func TestDropsGoToTheRunForm(t *testing.T) {
	f := newFixture(t, 0)
	f.nav.att = &fakeAttachments{}
	d := f.open(t, "119")
	f.s.Dropped([]string{"/tmp/a.txt"})
	if _, ok := d.tabs.Selected().Content.(screen.DropTarget); len(f.nav.att.dropped) != 1 || !ok {
		t.Fatalf("dropped files: %v", f.nav.att.dropped)
	}
}

// A sheet dropped alone on the Run tab asks whether it goes with the next
// run (Enter: to the form, as any drop) or the agent runs once for each
// of its rows (Tab, Enter: its plan); the hint says both.
func TestASheetDroppedOnTheRunTabAsksSendItOrRunForEachRow(t *testing.T) {
	f := newFixture(t, 0)
	f.nav.att = &fakeAttachments{}
	f.open(t, "119")
	path := filepath.Join(t.TempDir(), "sales.csv")
	if err := os.WriteFile(path, []byte("Prompt,Tone\nA note on sales,friendly\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if hint, takes := f.s.DropHint(); !takes || hint != "Drop the files to send them with the next run, or to run once for each" {
		t.Fatalf("the Run tab's hint reads %q", hint)
	}
	c := f.w.Canvas()
	enter := func() { c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) }
	f.s.Dropped([]string{path})
	top := c.Overlays().Top()
	if text := kittest.AllText(top); !strings.Contains(text, "Send it with the next run") || !strings.Contains(text, "Run once for each row…") {
		t.Fatalf("a sheet dropped asks:\n%s", text)
	}
	if len(f.nav.att.dropped) != 0 {
		t.Fatal("the sheet went with the run before the user chose")
	}
	enter()
	if c.Overlays().Top() != nil || len(f.nav.att.dropped) != 1 || f.nav.att.dropped[0] != path {
		t.Fatalf("Enter: attached %v, question open %v", f.nav.att.dropped, c.Overlays().Top() != nil)
	}
	f.s.Dropped([]string{path})
	top = c.Overlays().Top()
	c.FocusNext()
	enter()
	f.wait(t, "the plan", func() bool {
		now := c.Overlays().Top()
		return now != nil && now != top && strings.Contains(kittest.AllText(now), "Which column answers each question:")
	})
	if len(f.nav.att.dropped) != 1 {
		t.Fatalf("Run once for each row… attached %v", f.nav.att.dropped)
	}
}

func TestLongRunNotifiesWhenWindowIsInBackground(t *testing.T) {
	f := newFixture(t, 0)
	d := f.open(t, "119")
	fillPrompt(d)
	d.form.byName["tone"].set("formal")
	f.s.notifyAfter = 0

	run := func() {
		test.Tap(d.runBtn)
		f.wait(t, "the run", func() bool { return d.active == nil && d.output.run.Status != "" })
	}
	kit.SetForeground(f.s.env.Window, false)
	test.AssertNotificationSent(t, &fyne.Notification{
		Title: "Agent Desk", Content: "Newsletter Writer has finished. Open Agent Desk to see the result.",
	}, run)

	kit.SetForeground(f.s.env.Window, true)
	d.output.clear()
	test.AssertNotificationSent(t, nil, run)
}

func TestAgentFromALaterPageOpensInFull(t *testing.T) {
	f := newFixture(t, 10)
	for i := 0; i < 10 && f.page().HasMore; i++ {
		n := len(f.s.shown.Agents)
		f.s.list.ScrollToBottom()
		f.wait(t, "the next page", func() bool { return len(f.s.shown.Agents) > n || !f.page().HasMore })
	}
	if len(f.s.shown.Agents) != 44 {
		t.Fatalf("paged to %d agents", len(f.s.shown.Agents))
	}
	var id client.ID
	for i := len(f.s.shown.Agents) - 1; i >= 0 && id == ""; i-- {
		if f.s.shown.Agents[i].Type == client.AgentText {
			id = f.s.shown.Agents[i].ID
		}
	}
	full, err := f.a.Agents().Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	d := f.open(t, id)
	shown := kittest.Labels(d.content)
	if full.LongDescription == "" || !strings.Contains(shown, full.LongDescription) {
		t.Fatalf("the detail shows the long description %q; it shows:\n%s", full.LongDescription, shown)
	}
	if len(app.FormQuestions(*full)) == 0 || len(d.form.byName) == 0 {
		t.Fatalf("the form asks the agent's questions: %d of %d", len(d.form.byName), len(app.FormQuestions(*full)))
	}
	for _, q := range app.FormQuestions(*full) {
		if d.form.byName[q.Name] == nil {
			t.Fatalf("the form lacks the question %q", q.Name)
		}
	}
}

// Once the list rests after many rows, the text drawn meanwhile is let go;
// the user sees the same screen: the same rows, the selected agent, the
// search box still focused.
func TestListAtRestKeepsTheScreen(t *testing.T) {
	limits := kit.ReleaseLimits{Many: 12, Few: 4, Rest: time.Millisecond}
	f := newFixture(t, 10, func(o *options) { o.textLimits = limits })
	d := f.open(t, f.s.shown.Agents[0].ID)
	// The search box has the keyboard (nothing typed: a search typed
	// here would start the list again whenever its pause ended).
	f.w.Canvas().Focus(f.s.search)
	for i := 0; i < 10 && f.page().HasMore; i++ {
		n := len(f.s.shown.Agents)
		f.s.list.ScrollToBottom()
		f.wait(t, "the next page", func() bool { return len(f.s.shown.Agents) > n || !f.page().HasMore })
	}
	f.s.list.ScrollToBottom()
	f.wait(t, "the list at rest", func() bool { return f.cw.Sets.Load() > 0 && f.s.text.Pending() < limits.Few })

	if len(f.s.shown.Agents) != 44 || f.s.total.Text != "44 agents" || f.s.listStack.Objects[0] != f.s.list {
		t.Fatalf("the list shows %d agents, %q", len(f.s.shown.Agents), f.s.total.Text)
	}
	if shown := shownText(f.s.list); !strings.Contains(shown, f.s.shown.Agents[43].Title) {
		t.Fatalf("the last agent's row shows %q; the list shows:\n%s", f.s.shown.Agents[43].Title, shown)
	}
	if f.s.current != d || f.s.detailBox.Objects[0] != d.content {
		t.Fatal("the open agent stays open")
	}
	if f.w.Canvas().Focused() != f.s.search {
		t.Fatalf("the search box lost the focus to %T", f.w.Canvas().Focused())
	}
}

// shownText is the text of the labels inside o, widgets included.
func shownText(o fyne.CanvasObject) string {
	if !o.Visible() {
		return ""
	}
	switch v := o.(type) {
	case *widget.Label:
		return v.Text + "\n"
	case *fyne.Container:
		var b strings.Builder
		for _, c := range v.Objects {
			b.WriteString(shownText(c))
		}
		return b.String()
	case fyne.Widget:
		var b strings.Builder
		for _, c := range test.WidgetRenderer(v).Objects() {
			b.WriteString(shownText(c))
		}
		return b.String()
	}
	return ""
}

// A loading state that has made way for the list stops animating: left
// running, it has the window redrawn every frame for a minute.
func TestLoadingStopsOnceAgentsShow(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	a := apptest.Open(t)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	s := New(screen.Env{App: a, Window: w, Nav: &fakeNav{}}).(*Screen)
	w.SetContent(s.Content())
	loading := kittest.Find[*widget.ProgressBarInfinite](s.listStack)
	if loading == nil || !loading.Running() {
		t.Fatal("the list starts with a running loading bar")
	}
	s.Shown()
	f := &fixture{s: s, a: a, q: q}
	f.wait(t, "the first page", func() bool { return len(s.shown.Agents) > 0 })
	if s.listStack.Objects[0] != s.list || loading.Running() {
		t.Fatal("the loading bar still runs behind the list")
	}
	d := f.open(t, s.shown.Agents[0].ID)
	if opening := kittest.Find[*widget.ProgressBarInfinite](d.content); opening != nil && opening.Running() {
		t.Fatal("the detail's loading bar still runs once the agent is open")
	}
}

// reloadCounter is an agent tab that counts how often it was asked to read
// its content again.
type reloadCounter struct {
	widget.Label
	n int
}

func (r *reloadCounter) Reload() { r.n++ }

func TestAgentTabsReadAgainWhenShown(t *testing.T) {
	f := newFixture(t, 0)
	tab := &reloadCounter{}
	tab.ExtendBaseWidget(tab)
	f.nav.tabs = func(client.Agent) []*container.TabItem {
		return []*container.TabItem{container.NewTabItem("Files", tab)}
	}
	d := f.open(t, "119")
	d.tabs.SelectIndex(2)
	if tab.n != 1 {
		t.Fatalf("selecting the tab read it %d times, want once", tab.n)
	}
	// Coming back to the screen (after linking a file on the Files screen)
	// reads the tab in view again.
	f.s.Shown()
	if tab.n != 2 {
		t.Fatalf("coming back read it %d times, want twice in all", tab.n)
	}
}

func TestAnswersTypedIntoTheFormAreKeptWithoutRunning(t *testing.T) {
	f := newFixture(t, 0)
	d := f.open(t, "119")
	test.Type(d.form.byName["length"].input.(*numberEntry), "85")
	if err := f.a.FlushDrafts(); err != nil {
		t.Fatal(err)
	}
	if got := f.a.Agents().LastAnswers(d.agent); got["length"] != "85" {
		t.Fatalf("the typed answer should be kept for next time, got %v", got)
	}
}

// A run's time counts up on screen once a second, only while the run goes
// and its agent is the one on show.
func TestRunningTimeCountsWhileOnShow(t *testing.T) {
	f := newFixture(t, 0)
	other := f.open(t, "120")
	d := f.open(t, "119")
	fillPrompt(d)
	d.form.byName["tone"].set("formal")
	apptest.Demo(f.a).Service.SetFaults(demoservice.Faults{Latency: 3 * time.Second})
	test.Tap(d.runBtn)
	f.wait(t, "the running time", func() bool { return strings.HasPrefix(d.elapsed.Text, "Running for ") })
	if d.clock == nil {
		t.Fatal("the running time is redrawn while the run is on show")
	}
	f.s.openAgent(app.ItemOf(other.agent))
	if d.clock != nil {
		t.Fatal("the clock keeps going behind another agent")
	}
	f.s.openAgent(app.ItemOf(d.agent))
	if d.clock == nil {
		t.Fatal("the clock goes on when the running agent is shown again")
	}
	f.wait(t, "the run's end", func() bool { return d.active == nil })
	if d.clock != nil || d.progress.Visible() {
		t.Fatal("the clock stops when the run ends")
	}
	apptest.Demo(f.a).Service.SetFaults(demoservice.Faults{})
}

// When the service asks to wait (429), the screen counts down to when the
// run goes on, and the run then finishes.
func TestRateLimitedRunCountsDown(t *testing.T) {
	f := newFixture(t, 0)
	d := f.open(t, "119")
	fillPrompt(d)
	d.form.byName["tone"].set("formal")
	apptest.Demo(f.a).Service.SetFaults(demoservice.Faults{RateLimit: 1, RetryAfter: 2 * time.Second})
	test.Tap(d.runBtn)
	f.wait(t, "the countdown", func() bool {
		return strings.HasPrefix(d.elapsed.Text, "The service asked to wait: going on in ")
	})
	f.wait(t, "the result", func() bool { return d.active == nil && d.output.run.Output != "" })
	if d.output.run.Status != client.StatusCompleted {
		t.Fatalf("the run should finish after the wait: %+v", d.output.run)
	}
}

// Another account drops the agents and details of the old one: their
// state is no longer heard, and the list shows the new account's agents.
func TestAccountChangeDropsWhatWasShown(t *testing.T) {
	f := newFixture(t, 0)
	d := f.open(t, "119")
	f.wait(t, "the history", func() bool { return d.past.Subscribers() == 1 })
	if err := f.a.Activate(context.Background(), app.DemoAccountID); err != nil {
		t.Fatal(err)
	}
	f.wait(t, "the list again", func() bool { return f.s.current == nil && len(f.s.shown.Agents) > 0 && f.s.total.Text == "44 agents" })
	if n := d.past.Subscribers(); n != 0 {
		t.Fatalf("the closed detail still hears its history (%d subscriptions)", n)
	}
	if f.s.detailBox.Objects[0] == d.content {
		t.Fatal("the old account's agent stays open")
	}
}

// Closing the app with a run going and its time on screen leaves nothing
// of the screen's running: the app's Close ends and waits for it.
func TestNothingOfTheScreenOutlivesClose(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	before := runtime.NumGoroutine()
	a := apptest.Open(t)
	s := newScreen(screen.Env{App: a, Window: w, Nav: &fakeNav{}}, options{searchDelay: 20 * time.Millisecond})
	w.SetContent(s.Content())
	s.Shown()
	f := &fixture{s: s, a: a, q: q}
	d := f.open(t, "119")
	fillPrompt(d)
	d.form.byName["tone"].set("formal")
	apptest.Demo(a).Service.SetFaults(demoservice.Faults{Latency: time.Minute})
	test.Tap(d.runBtn)
	test.Type(s.search, "news") // a search waiting for typing to pause
	if d.clock == nil {
		t.Fatal("the run's time should be on screen")
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	q.Drain()
	apptest.NothingOutlives(t, before, nil)
}

func TestCtrlTabMovesThroughTheAgentsTabsWithTheKeyboard(t *testing.T) {
	f := newFixture(t, 0)
	d := f.open(t, "119")
	names := []string{}
	for _, it := range d.tabs.Items {
		names = append(names, it.Text)
	}
	if len(names) < 2 {
		t.Fatalf("the agent shows tabs %v", names)
	}
	c := f.w.Canvas()
	f.s.MoveTab(1)
	if got := d.tabs.Selected().Text; got != names[1] {
		t.Fatalf("Ctrl+Tab from the first tab shows %q, want %q", got, names[1])
	}
	f.s.MoveTab(1)
	if got := d.tabs.Selected().Text; got != names[0] {
		t.Fatalf("Ctrl+Tab from the last tab shows %q, want the first, %q", got, names[0])
	}
	f.s.MoveTab(-1)
	if got := d.tabs.Selected().Text; got != names[len(names)-1] {
		t.Fatalf("Ctrl+Shift+Tab from the first tab shows %q, want the last, %q", got, names[len(names)-1])
	}
	// Back on the form, the keyboard is in its first field.
	f.s.MoveTab(-len(names) + 1)
	if c.Focused() == nil || c.Focused() != firstInput(d) {
		t.Fatalf("the keyboard should be in the form's first field, is in %T", c.Focused())
	}
}

// firstInput is the first field of the agent's form.
func firstInput(d *detail) fyne.Focusable {
	for _, fl := range d.form.fields {
		if f, ok := fl.input.(fyne.Focusable); ok {
			return f
		}
	}
	return nil
}

// An agent opened with a request (a resource used as a template) shows it
// in its form's request, on the Run tab, the keyboard there to finish it;
// nothing runs.
func TestAnAgentOpensWithARequestWritten(t *testing.T) {
	f := newFixture(t, 0)
	item := f.s.shown.Agents[0]
	for _, ag := range f.s.shown.Agents {
		if ag.ID == "119" {
			item = ag
		}
	}
	f.s.OpenWith(item, "Payment Reminder\n\nFirst reminder for an overdue invoice.")
	d := f.s.current
	f.wait(t, "the agent's form", func() bool { return d.loaded && d.form != nil })
	name := app.RequestQuestion(d.agent)
	if got := d.form.answers()[name]; got != "Payment Reminder\n\nFirst reminder for an overdue invoice." {
		t.Fatalf("the request %q holds %q", name, got)
	}
	if d.tabs.Selected() != d.runTab || f.w.Canvas().Focused() != d.form.byName[name].input.(fyne.Focusable) {
		t.Fatal("the Run tab should show, the keyboard in the request")
	}
	if len(apptest.Demo(f.a).Service.Executions()) != 0 {
		t.Fatal("opening with a request ran the agent")
	}
	// A second template goes under what is written: nothing typed is lost.
	f.s.OpenWith(item, "Customer Welcome Email")
	if got := d.form.answers()[name]; got != "Payment Reminder\n\nFirst reminder for an overdue invoice.\n\nCustomer Welcome Email" {
		t.Fatalf("the request should keep what it held and add the template under it, holds %q", got)
	}
}

// An agent opened from elsewhere (the command box) while the list answers
// a search without it: the list shows all agents again with the agent
// marked, not "No agents found" beside it, and what its form holds stays.
// Opened while the list shows it, the search stays.
func TestAnAgentOpenedFromElsewhereShowsInTheList(t *testing.T) {
	f := newFixture(t, 0)
	find := func(title string) app.AgentItem {
		for _, ag := range f.s.shown.Agents {
			if ag.Title == title {
				return ag
			}
		}
		t.Fatalf("no agent %q in the list", title)
		return app.AgentItem{}
	}
	newsletter, press := find("Newsletter Writer"), find("Press Release Drafter")
	marked := func() client.ID {
		if i := f.s.list.KeyboardRow(); i >= 0 && i < len(f.s.rows) {
			return f.s.rows[i].agent.ID
		}
		return ""
	}

	f.s.search.SetText("newsletter")
	f.wait(t, "search results", func() bool { return f.page().Query.Q == "newsletter" })
	f.s.OpenWith(newsletter, "")
	if f.s.search.Text != "newsletter" || marked() != newsletter.ID {
		t.Fatalf("opened while listed: the search holds %q, the row marked is agent %q", f.s.search.Text, marked())
	}
	d := f.s.current
	f.wait(t, "the agent's form", func() bool { return d.loaded && d.form != nil })
	name := app.RequestQuestion(d.agent)
	d.form.byName[name].set("The March newsletter: the new office")

	f.s.search.SetText("zzzz no such agent")
	f.wait(t, "no results", func() bool { return f.page().Query.Q == "zzzz no such agent" })
	f.s.OpenWith(press, "")
	f.wait(t, "all agents, the agent marked", func() bool {
		return f.page().Query == (app.AgentQuery{}) && marked() == press.ID
	})
	if f.s.search.Text != "" || f.s.listStack.Objects[0] != f.s.list {
		t.Fatalf("the search holds %q; the list should show all agents", f.s.search.Text)
	}
	if f.s.current.agent.ID != press.ID {
		t.Fatalf("agent %q on show, want %q", f.s.current.agent.ID, press.ID)
	}
	// Back to the first agent: what its request held is as it was.
	f.s.OpenWith(newsletter, "")
	if got := d.form.byName[name].get(); got != "The March newsletter: the new office" {
		t.Fatalf("opening the agent again changed its request to %q", got)
	}
}
