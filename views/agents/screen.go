// Package agents is the agents browser: the searchable list and the chosen
// agent's detail, form, runs and outputs.
package agents

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/assets"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/richtext"
	"github.com/agentdesk/agentdesk/views/screen"
)

type Screen struct {
	env     screen.Env
	app     *app.App
	browser *app.AgentBrowser
	runner  *app.Runner
	text    *kit.TextRelease

	content   fyne.CanvasObject
	search    *kit.FormEntry
	typeSel   *kit.Select
	total     *widget.Label
	list      *kit.List
	listStack *fyne.Container
	footer    *fyne.Container
	detailBox *fyne.Container

	// shown is the page on screen (the browser's: read only, UI goroutine);
	// rows are what the list shows of it, favourites and recent ones first.
	shown  app.AgentPage
	rows   []agentRow
	pinned [2][]app.AgentItem // the favourites and recent agents rows were made with
	// reselecting: the list's selection follows the agent on show, which
	// stays as it is.
	reselecting bool
	// pending is an agent opened from elsewhere while the list answered a
	// search without it: marked once the list of all agents shows it.
	pending client.ID
	started bool
	details map[client.ID]*detail
	current *detail

	// notifyAfter: runs shorter than it end without a notification; hasPlayer
	// asks for a program for a kind of file.
	notifyAfter time.Duration
	hasPlayer   func(ctx context.Context, ext string) bool
}

// options are what tests change; zero values are the defaults.
type options struct {
	// searchDelay: one request per typing pause, not per key.
	searchDelay time.Duration
	textLimits  kit.ReleaseLimits
}

func New(env screen.Env) screen.Screen { return newScreen(env, options{}) }

func newScreen(env screen.Env, o options) *Screen {
	s := &Screen{env: env, app: env.App, details: map[client.ID]*detail{}, notifyAfter: 10 * time.Second, hasPlayer: app.HasPlayer}
	s.browser = env.App.Agents().NewBrowser(cmp.Or(o.searchDelay, 300*time.Millisecond))
	s.runner = env.App.Runs().Runner()
	s.text = kit.NewTextRelease(env.Window, env.App.Life(), cmp.Or(o.textLimits, kit.ReleaseLimits{Many: 300, Few: 20, Rest: 500 * time.Millisecond}))
	s.build()
	screen.Follow(env.App, s.accountChanged, func() bool { st, _ := s.browser.State().Snapshot(); return st.Err != nil }, s.browser.Reload)
	return s
}

func (s *Screen) build() {
	s.total = screen.Quiet("")
	header := container.NewBorder(nil, nil, nil, s.total, kit.Header(lang.L("Agents"), ""))

	s.search = kit.NewSearchEntry()
	s.search.SetPlaceHolder(lang.L("Search agents")) // short enough for large text; the keys are in F1's list
	s.search.ActionItem = widget.NewIcon(theme.SearchIcon())
	s.search.OnChanged = func(string) { s.pending = ""; s.browser.SearchSoon(s.query()) }
	s.search.OnSubmitted = func(string) { s.runSearch() }

	types := []string{lang.L("All types")}
	for _, typ := range app.AgentTypes[1:] {
		types = append(types, typeName(typ))
	}
	s.typeSel = kit.NewSelect(types, func(string) { s.runSearch() })
	s.typeSel.SetSelectedIndex(0)

	s.list = kit.NewList(
		func() int { return len(s.rows) },
		newListRow,
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id >= len(s.rows) {
				return
			}
			if setListRow(o, s.rows[id]) {
				s.text.Drawn(1)
			}
			if id >= len(s.rows)-5 {
				s.browser.LoadMore()
			}
		})
	kit.DownInto(s.search, s.list)
	s.list.OnSelected = func(id widget.ListItemID) {
		if id < len(s.rows) && s.rows[id].heading == "" && !s.reselecting {
			s.openAgent(s.rows[id].agent)
		}
	}
	s.listStack = container.NewStack(kit.Loading(lang.L("Loading agents…")))
	s.footer = container.NewVBox()

	left := kit.NewBorder(
		container.NewVBox(header, s.search, container.NewBorder(nil, nil, widget.NewLabel(lang.L("Type")), nil, s.typeSel)),
		s.footer, nil, nil, s.listStack)
	s.detailBox = container.NewStack(pickAgent())
	s.content = kit.Split(container.NewPadded(left), s.detailBox, 0.36)
}

func pickAgent() fyne.CanvasObject {
	return kit.Empty(theme.ListIcon(), lang.L("Pick an agent"),
		lang.L("Choose an agent on the left to see what it does, answer its questions and run it."))
}

func (s *Screen) Content() fyne.CanvasObject { return s.content }

// Shown loads the agents on the first visit, then follows the browser.
func (s *Screen) Shown() {
	if !s.started {
		s.started = true
		s.browser.Search(app.AgentQuery{})
		kit.Bind(s.browser.State(), s.showList)
		kit.Bind(s.app.Session(), func(app.Session) { s.showList(s.shown) }) // a star, a run
	}
	if d := s.current; d != nil && d.tabs != nil {
		d.refreshTab(d.tabs.Selected())
	}
}

// FocusFind puts the cursor in the search box (Ctrl+F).
func (s *Screen) FocusFind() { s.env.FocusFind(s.search) }

// OpenWith shows agent on its Run tab with request in its request question.
func (s *Screen) OpenWith(agent app.AgentItem, request string) {
	s.openAgent(agent)
	// A row left selected would not open on a click.
	if !s.reselect() && s.query() != (app.AgentQuery{}) {
		// The list answers an earlier search without this agent: show all
		// agents, as the agent is no longer what was searched for.
		s.search.SetText("")
		s.pending = agent.ID // after the text's change, which forgets it
		if s.typeSel.SelectedIndex() != 0 {
			s.typeSel.SetSelectedIndex(0) // which searches
		} else {
			s.runSearch()
		}
	}
	s.current.fillRequest(request)
}

// ShownAgent is the agent on show, as far as it is read.
func (s *Screen) ShownAgent() (client.Agent, bool) {
	if s.current == nil {
		return client.Agent{}, false
	}
	return s.current.agent, true
}

// MoveTab shows the next (1) or previous (-1) tab and focuses its first control.
func (s *Screen) MoveTab(delta int) {
	d := s.current
	if d == nil || d.tabs == nil || len(d.tabs.Items) == 0 {
		return
	}
	n := len(d.tabs.Items)
	d.tabs.SelectIndex(((d.tabs.SelectedIndex()+delta)%n + n) % n)
	if c := s.env.Window.Canvas(); c != nil {
		kit.FocusFirst(c, d.tabs.Selected().Content)
	}
}

// Submit runs the agent on show (Ctrl+Enter).
func (s *Screen) Submit() {
	if s.current != nil {
		s.current.submit()
	}
}

// Escape cancels the run of the agent on show.
func (s *Screen) Escape() {
	if s.current != nil {
		s.current.cancelRun()
	}
}

// tabDrop is the agent's tab on show when it takes dropped files.
func (s *Screen) tabDrop() (screen.DropTarget, bool) {
	if d := s.current; d != nil && d.tabs != nil && d.tabs.Selected() != nil {
		dt, ok := d.tabs.Selected().Content.(screen.DropTarget)
		return dt, ok
	}
	return nil, false
}

func (s *Screen) DropHint() (string, bool) {
	if dt, ok := s.tabDrop(); ok {
		return dt.DropHint()
	}
	return lang.L("Open an agent first, then drop the files on its Run or Files tab"), false
}

func (s *Screen) Dropped(paths []string) {
	if dt, ok := s.tabDrop(); ok {
		dt.Dropped(paths)
		return
	}
	kit.ShowInformation(lang.L("Files not added"),
		lang.L("Open an agent, then drop the files on its Run tab to attach them to the next run, or on its Files tab to link them to the agent."), s.env.Window)
}

func (s *Screen) query() app.AgentQuery {
	q := app.AgentQuery{Q: strings.TrimSpace(s.search.Text)}
	if i := s.typeSel.SelectedIndex(); i > 0 && i < len(app.AgentTypes) {
		q.Type = app.AgentTypes[i]
	}
	return q
}

func (s *Screen) runSearch() {
	if !s.started {
		return
	}
	s.browser.Search(s.query())
}

func (s *Screen) showList(st app.AgentPage) {
	// Fyne's list rebuilds its template and drops spare rows on every Refresh:
	// refresh only when the agents changed; a next page only grows it.
	old, oldRows := s.shown, len(s.rows)
	s.shown = st
	favourites, recent := s.app.Agents().Pinned()
	repinned := !slices.Equal(favourites, s.pinned[0]) || !slices.Equal(recent, s.pinned[1])
	changed := !st.SameAgents(old) || repinned
	if changed || st.Extends(old) {
		s.pinned = [2][]app.AgentItem{favourites, recent}
		s.rows = listRows(st, favourites, recent)
	}
	if s.pending != "" && s.current != nil && s.current.agent.ID == s.pending && (changed || st.Extends(old)) {
		if s.reselect() {
			s.pending = ""
		}
	} else if st.Query != old.Query {
		// Row numbers of the old answer mean other agents now.
		s.list.UnselectAll()
	} else if repinned {
		s.reselect() // a star or a run moved the rows under the selection
	}
	switch {
	case len(st.Agents) == 0 && (st.Loading || st.Err != nil):
		s.total.SetText("")
	case st.Loading:
		s.total.SetText(countText(max(st.Total, len(st.Agents))))
	default:
		s.total.SetText(countText(st.Total))
	}

	var body fyne.CanvasObject
	switch {
	case len(st.Agents) > 0:
		body = s.list
	case st.Loading:
		body = kit.Loading(lang.L("Loading agents…"))
	case st.Err != nil:
		body = screen.Error(st.Err, s.browser.Reload)
	case st.Query.Q != "" || st.Query.Type != "":
		body = kit.Empty(theme.SearchIcon(), lang.L("No agents found"), noMatchText(st.Query))
	default:
		body = kit.Empty(theme.ListIcon(), lang.L("No agents yet"),
			lang.L("This account has no agents yet. Create one on the service's website, then come back here."))
	}
	kit.ShowBody(s.listStack, body)
	switch {
	case body == s.list && st.Extends(old) && !repinned && len(s.rows) > oldRows:
		s.list.Grew()
	case body == s.list && changed:
		s.list.Refresh()
	}

	s.footer.Objects = nil
	switch {
	case len(st.Agents) > 0 && st.Loading:
		text := lang.L("Updating the list…")
		if st.HasMore {
			text = lang.L("Loading more agents…")
		}
		l := screen.Quiet(text)
		s.footer.Objects = []fyne.CanvasObject{l}
	case len(st.Agents) > 0 && st.Err != nil:
		// A list kept from earlier is read again whole; else the next page is tried again.
		text, retry := lang.L("More agents could not be loaded. {{.Why}}", map[string]any{"Why": app.Describe(st.Err)}), s.browser.LoadMore
		if !st.Saved.IsZero() {
			text, retry = savedText(st), s.browser.Reload
		}
		msg := kit.ErrorText()
		kit.ShowError(msg, text)
		s.footer.Objects = []fyne.CanvasObject{msg, kit.NewButtonWithIcon(lang.L("Try again"), theme.ViewRefreshIcon(), retry)}
	}
	s.footer.Refresh()
}

// savedText says the list shown was kept from an earlier time, and why.
func savedText(st app.AgentPage) string {
	data := map[string]any{"Why": app.Describe(st.Err), "Day": app.Date(st.Saved), "Time": st.Saved.Local().Format("15:04")}
	if client.IsOffline(st.Err) {
		return lang.L("{{.Why}} Until it answers, these are the agents saved on {{.Day}} at {{.Time}}; the list updates by itself when the service answers.", data)
	}
	return lang.L("{{.Why}} Meanwhile, these are the agents saved on {{.Day}} at {{.Time}}.", data)
}

func countText(n int) string {
	return lang.N("{{.Count}} agent", n, map[string]any{"Count": app.Number(n)})
}

func noMatchText(q app.AgentQuery) string {
	if q.Type == "" {
		if q.Q == "" {
			return lang.L("This account has no agent. Choose All in the type filter to see every agent.")
		}
		return lang.L("No agent matches \"{{.Search}}\". Try fewer or other words, or choose All in the type filter.", map[string]any{"Search": q.Q})
	}
	kind := strings.ToLower(kindName(q.Type))
	if q.Q == "" {
		return lang.L("This account has no {{.Kind}}. Choose All in the type filter to see every agent.", map[string]any{"Kind": kind})
	}
	return lang.L("No {{.Kind}} matches \"{{.Search}}\". Try fewer or other words, or choose All in the type filter.", map[string]any{"Kind": kind, "Search": q.Q})
}

// openAgent keeps each opened agent's detail so nothing typed is lost.
func (s *Screen) openAgent(agent app.AgentItem) {
	d, ok := s.details[agent.ID]
	if !ok {
		d = newDetail(s, agent)
		s.details[agent.ID] = d
	}
	if s.current != nil && s.current != d {
		s.current.stopClock()
	}
	s.current = d
	s.detailBox.Objects = []fyne.CanvasObject{d.content}
	s.detailBox.Refresh()
	d.shown()
}

// accountChanged drops the old account's agents and details (runs cancelled).
func (s *Screen) accountChanged() {
	for _, d := range s.details {
		d.cancelRun()
		d.close()
	}
	s.details = map[client.ID]*detail{}
	s.current = nil
	s.detailBox.Objects = []fyne.CanvasObject{pickAgent()}
	s.detailBox.Refresh()
	s.list.UnselectAll()
	if s.started {
		s.browser.Clear()
		s.browser.Search(s.query())
	}
}

func (s *Screen) runFinished(ar *app.ActiveRun, p app.RunProgress) {
	if p.Took <= s.notifyAfter || kit.InForeground(s.env.Window) {
		return
	}
	if fa := fyne.CurrentApp(); fa != nil {
		msg := lang.L("{{.Agent}} has finished. Open Agent Desk to see the result.", map[string]any{"Agent": ar.Agent.Title})
		if p.Err != nil {
			msg = lang.L("{{.Agent}} stopped: {{.Why}}", map[string]any{"Agent": ar.Agent.Title, "Why": p.Run.Error})
		}
		kit.Notify(fa, "Agent Desk", msg) // the title and error come from the service: made safe there
	}
}

// reselect marks the row of the agent on show, where the rows now have it,
// without opening it again; false when they do not.
func (s *Screen) reselect() bool {
	s.list.UnselectAll()
	if s.current == nil {
		return false
	}
	for i, r := range s.rows {
		if r.heading == "" && r.agent.ID == s.current.agent.ID {
			s.reselecting = true
			s.list.Select(i)
			s.reselecting = false
			return true
		}
	}
	return false
}

// agentRow is one row of the list: an agent, or the heading of a group.
type agentRow struct {
	heading string
	agent   app.AgentItem
}

// listRows are the page's agents; on the whole list (no search, no type),
// the favourites come first, then the recent ones, each group headed, then
// the rest without them.
func listRows(st app.AgentPage, favourites, recent []app.AgentItem) []agentRow {
	rows := make([]agentRow, 0, len(st.Agents)+len(favourites)+len(recent)+3)
	if st.Query != (app.AgentQuery{}) || len(favourites)+len(recent) == 0 || len(st.Agents) == 0 {
		for _, a := range st.Agents {
			rows = append(rows, agentRow{agent: a})
		}
		return rows
	}
	pinned := map[client.ID]bool{}
	group := func(heading string, agents []app.AgentItem) {
		if len(agents) == 0 {
			return
		}
		rows = append(rows, agentRow{heading: heading})
		for _, a := range agents {
			pinned[a.ID] = true
			rows = append(rows, agentRow{agent: a})
		}
	}
	group(lang.L("Favourites"), favourites)
	group(lang.L("Recent"), recent)
	rows = append(rows, agentRow{heading: lang.L("All agents")})
	for _, a := range st.Agents {
		if !pinned[a.ID] {
			rows = append(rows, agentRow{agent: a})
		}
	}
	return rows
}

// newListRow is an agent's row with a group's heading over it, one shown.
func newListRow() fyne.CanvasObject {
	heading := widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	heading.Importance = widget.LowImportance
	heading.Hide()
	return container.NewStack(newAgentRow(), container.NewVBox(layout.NewSpacer(), heading))
}

// setListRow shows r in o; true when an agent's title is new to the row.
func setListRow(o fyne.CanvasObject, r agentRow) bool {
	stack := o.(*fyne.Container)
	agent, heading := stack.Objects[0], stack.Objects[1].(*fyne.Container).Objects[1].(*widget.Label)
	screen.ShowIf(agent, r.heading == "")
	screen.ShowIf(heading, r.heading != "")
	if r.heading != "" {
		heading.SetText(r.heading)
		return false
	}
	return setAgentRow(agent, r.agent)
}

func newAgentRow() fyne.CanvasObject {
	title, desc := kit.NewLine(fyne.TextStyle{Bold: true}, false), kit.NewLine(fyne.TextStyle{}, true)
	text := container.New(layout.NewCustomPaddedVBoxLayout(-2*theme.Padding()), title, desc)
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	bg.CornerRadius = theme.Size(theme.SizeNameInputRadius)
	badge := container.NewStack(bg, container.NewHBox(widget.NewIcon(theme.DocumentIcon()), captionLabel(typeName(client.AgentImage))))
	return container.New(&agentRowLayout{}, text, badge)
}

func captionLabel(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.SizeName = theme.SizeNameCaptionText
	return l
}

// agentRowLayout gives every type badge one width, so the titles keep a
// straight column, and shows the badge's icon alone in a narrow list so
// titles keep room. The width is measured again when the text size changes.
type agentRowLayout struct {
	full, size fyne.Size
	narrow     bool
	textSize   float32 // what full was measured at
}

const narrowRow = 320

// measure sizes the badge for the text size in use.
func (l *agentRowLayout) measure() {
	if ts := theme.TextSize(); ts != l.textSize {
		l.textSize = ts
		l.full = container.NewHBox(widget.NewIcon(theme.DocumentIcon()), captionLabel(widestTypeName())).MinSize().AddWidthHeight(theme.Padding(), 0)
		l.size = l.full
		if l.narrow {
			l.size = fyne.NewSize(theme.IconInlineSize()+3*theme.Padding(), l.full.Height)
		}
	}
}

func (l *agentRowLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	l.measure()
	text := objects[0].MinSize()
	return fyne.NewSize(l.size.Width+theme.Padding()+text.Width, fyne.Max(l.size.Height, text.Height))
}

func (l *agentRowLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	text, badge := objects[0], objects[1].(*fyne.Container)
	l.measure()
	if narrow := size.Width < narrowRow; narrow != l.narrow {
		l.narrow = narrow
		box := badge.Objects[1].(*fyne.Container)
		screen.ShowIf(box.Objects[1], !narrow)
		l.size, box.Layout = l.full, layout.NewHBoxLayout()
		if narrow { // the icon alone, in the middle
			l.size, box.Layout = fyne.NewSize(theme.IconInlineSize()+3*theme.Padding(), l.full.Height), layout.NewCenterLayout()
		}
		badge.Refresh()
	}
	badge.Move(fyne.NewPos(0, (size.Height-l.size.Height)/2))
	badge.Resize(l.size)
	text.Move(fyne.NewPos(l.size.Width+theme.Padding(), 0))
	text.Resize(fyne.NewSize(size.Width-l.size.Width-theme.Padding(), size.Height))
}

// setAgentRow reports whether the title is new to the row (Fyne must draw it).
func setAgentRow(o fyne.CanvasObject, a app.AgentItem) bool {
	row := o.(*fyne.Container)
	text := row.Objects[0].(*fyne.Container)
	changed := kit.SetLine(text.Objects[0], a.Title)
	kit.SetLine(text.Objects[1], richtext.PlainText(firstLine(a.Description)))
	box := row.Objects[1].(*fyne.Container).Objects[1].(*fyne.Container)
	icon, name, _ := typeInfo(a.Type)
	box.Objects[0].(*widget.Icon).SetResource(icon)
	box.Objects[1].(*widget.Label).SetText(name)
	return changed
}

// typeInfo is a type's icon, name and kind of agent; an unknown type as the service names it.
func typeInfo(typ string) (icon fyne.Resource, name, kind string) {
	switch typ {
	case client.AgentChat:
		return assets.ChatIcon, lang.L("Chat"), lang.L("Chat agent")
	case client.AgentImage:
		return theme.MediaPhotoIcon(), lang.L("Image"), lang.L("Image agent")
	case client.AgentText:
		return theme.DocumentIcon(), lang.L("Text"), lang.L("Text agent")
	case client.AgentVideo:
		return theme.MediaVideoIcon(), lang.L("Video"), lang.L("Video agent")
	case "":
		// "Other" alone is a word go-i18n keeps for itself.
		return theme.QuestionIcon(), lang.X("agents.other", "Other"), lang.L("Other agent")
	}
	return theme.QuestionIcon(), typ, lang.L("{{.Type}} agent", map[string]any{"Type": typ})
}

func typeName(typ string) string {
	_, name, _ := typeInfo(typ)
	return name
}

func kindName(typ string) string {
	_, _, kind := typeInfo(typ)
	return kind
}

func widestTypeName() string {
	widest, w := "", float32(0)
	for _, typ := range app.AgentTypes {
		name := typeName(typ)
		if nw := fyne.MeasureText(name, theme.Size(theme.SizeNameCaptionText), fyne.TextStyle{}).Width; nw > w {
			widest, w = name, nw
		}
	}
	return widest
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if s == "" {
		return lang.L("No description")
	}
	return s
}
