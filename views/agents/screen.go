// Package agents is the agents browser: a searchable, filterable list of
// the account's agents on the left, the selected agent's detail on the
// right, with its question form, its runs and their outputs.
package agents

import (
	"cmp"
	"context"
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
	"github.com/agentdesk/agentdesk/views/screen"
)

// typeChoices are the filter's labels, in the order of app.AgentTypes.
func typeChoices() []string {
	return []string{lang.L("All types"), lang.L("Chat"), lang.L("Image"), lang.L("Text"), lang.L("Video")}
}

// Screen is the agents browser.
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

	// shown is the browser's page on screen; its agents are the list's
	// rows (shared with the browser: read only). UI goroutine only.
	shown   app.AgentPage
	started bool
	details map[client.ID]*detail
	current *detail

	// notifyAfter is how long a run must take before its end is worth a
	// desktop notification; hasPlayer asks whether the computer has a
	// program for a kind of file (a test machine has no video player).
	notifyAfter time.Duration
	hasPlayer   func(ctx context.Context, ext string) bool
}

// options are what tests change of the screen as it is built; zero
// values are the defaults.
type options struct {
	// searchDelay is how long typing must pause before the service is
	// asked (300 ms): one request per pause, not one per key.
	searchDelay time.Duration
	// textLimits: the text drawn for rows bound to new agents is let go
	// (see kit.TextRelease) after 300 rows, and when the list has rested
	// for half a second after about a screen of them (20). Paging through
	// 10,000 agents then holds a few MB of text.
	textLimits kit.ReleaseLimits
}

// New builds the agents screen.
func New(env screen.Env) screen.Screen { return newScreen(env, options{}) }

func newScreen(env screen.Env, o options) *Screen {
	s := &Screen{env: env, app: env.App, details: map[client.ID]*detail{}, notifyAfter: 10 * time.Second, hasPlayer: app.HasPlayer}
	s.browser = env.App.Agents().NewBrowser(cmp.Or(o.searchDelay, 300*time.Millisecond))
	s.runner = env.App.Runs().NewRunner()
	s.text = kit.NewTextRelease(env.Window, env.App.Life(), cmp.Or(o.textLimits, kit.ReleaseLimits{Many: 300, Few: 20, Rest: 500 * time.Millisecond}))
	screen.OnAccountChange(env.App, s.accountChanged)
	s.build()
	// When the service can be reached again, a list that could not be
	// loaded loads by itself.
	screen.OnServiceBack(env.App, func() {
		if st, _ := s.browser.State().Snapshot(); st.Err != nil {
			s.browser.Reload()
		}
	})
	return s
}

func (s *Screen) build() {
	s.total = widget.NewLabel("")
	s.total.Importance = widget.LowImportance
	header := container.NewBorder(nil, nil, nil, s.total, kit.Header(lang.L("Agents"), ""))

	s.search = kit.NewSearchEntry()
	s.search.SetPlaceHolder(lang.L("Search agents ({{.Key}})", map[string]any{"Key": kit.CtrlName("K")}))
	s.search.ActionItem = widget.NewIcon(theme.SearchIcon())
	s.search.OnChanged = func(string) { s.queueSearch() }
	s.search.OnSubmitted = func(string) { s.runSearch() }

	s.typeSel = kit.NewSelect(typeChoices(), func(string) { s.runSearch() })
	s.typeSel.SetSelectedIndex(0)

	s.list = kit.NewList(
		func() int { return len(s.shown.Agents) },
		newAgentRow,
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id >= len(s.shown.Agents) {
				return
			}
			if setAgentRow(o, s.shown.Agents[id]) {
				s.text.Drawn(1)
			}
			// The next page loads as the end of the list comes into view.
			if id >= len(s.shown.Agents)-5 {
				s.browser.LoadMore()
			}
		})
	s.list.OnSelected = func(id widget.ListItemID) {
		if id < len(s.shown.Agents) {
			s.openAgent(s.shown.Agents[id])
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

// Content is the screen's widget tree, built once.
func (s *Screen) Content() fyne.CanvasObject { return s.content }

// Shown loads the agents the first time the screen is visited, and from
// then on shows the list as the browser publishes it (the screen lives as
// long as the window: it never stops hearing).
func (s *Screen) Shown() {
	if !s.started {
		s.started = true
		s.browser.Search(app.AgentQuery{})
		kit.Bind(s.browser.State(), s.showList)
	}
	if d := s.current; d != nil && d.tabs != nil {
		d.refreshTab(d.tabs.Selected())
	}
}

// FocusSearch puts the cursor in the search box (Ctrl+K).
func (s *Screen) FocusSearch() {
	if c := s.env.Window.Canvas(); c != nil {
		c.Focus(s.search)
	}
}

// FocusFind is FocusSearch (Ctrl+F): the agents are this screen's search.
func (s *Screen) FocusFind() { s.FocusSearch() }

// OpenWith shows an agent with request written in its form's request
// question (a resource used as a template), on its Run tab, for the user
// to finish and run.
func (s *Screen) OpenWith(agent app.AgentItem, request string) {
	s.openAgent(agent)
	// Its row selected when listed, no other: a row left selected would
	// not open on a click.
	s.list.UnselectAll()
	for i, ag := range s.shown.Agents {
		if ag.ID == agent.ID {
			s.list.Select(i)
			break
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

// MoveTab shows the agent's next (delta 1) or previous (-1) tab, and
// gives the keyboard to the first control in it.
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

// Dropped gives dropped files to the agent's tab on show: the Files tab
// links them to the agent, the Run tab attaches them to the next run.
// DropHint is the hint of the agent's tab on show.
func (s *Screen) DropHint() (string, bool) {
	if d := s.current; d != nil && d.tabs != nil && d.tabs.Selected() != nil {
		if dt, ok := d.tabs.Selected().Content.(screen.DropTarget); ok {
			return dt.DropHint()
		}
	}
	return lang.L("Open an agent first, then drop the files on its Run or Files tab"), false
}

func (s *Screen) Dropped(paths []string) {
	if d := s.current; d != nil && d.tabs != nil && d.tabs.Selected() != nil {
		if dt, ok := d.tabs.Selected().Content.(screen.DropTarget); ok {
			dt.Dropped(paths)
			return
		}
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

// queueSearch searches once typing pauses.
func (s *Screen) queueSearch() { s.browser.SearchSoon(s.query()) }

// runSearch searches at once (Enter, a new type).
func (s *Screen) runSearch() {
	if !s.started {
		return
	}
	s.browser.Search(s.query())
}

// showList shows the browser's page: the list, its total, and the
// loading, empty and error states.
func (s *Screen) showList(st app.AgentPage) {
	// Fyne's list makes a new template row and drops the rows it keeps
	// aside on every Refresh: only when the agents changed, not when a
	// page is merely on its way, and a next page only lays the list out
	// at its new length (kit.List.Grew).
	old := s.shown
	s.shown = st
	changed := !st.SameAgents(old)
	if st.Query != old.Query {
		// Row numbers of the old answer mean other agents now.
		s.list.UnselectAll()
	}
	switch {
	case st.Loading && len(st.Agents) == 0:
		s.total.SetText("")
	case st.Err != nil && len(st.Agents) == 0:
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
	case body == s.list && st.Extends(old):
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
		l := widget.NewLabel(text)
		l.Importance = widget.LowImportance
		s.footer.Objects = []fyne.CanvasObject{l}
	case len(st.Agents) > 0 && st.Err != nil && !st.Saved.IsZero():
		// Started without the service: the list kept from last time.
		msg := kit.ErrorText()
		kit.ShowError(msg, savedText(st))
		s.footer.Objects = []fyne.CanvasObject{msg,
			kit.NewButtonWithIcon(lang.L("Try again"), theme.ViewRefreshIcon(), s.browser.Reload)}
	case len(st.Agents) > 0 && st.Err != nil:
		msg := kit.ErrorText()
		kit.ShowError(msg, lang.L("More agents could not be loaded. {{.Why}}", map[string]any{"Why": app.Describe(st.Err)}))
		s.footer.Objects = []fyne.CanvasObject{msg,
			kit.NewButtonWithIcon(lang.L("Try again"), theme.ViewRefreshIcon(), s.browser.LoadMore)}
	}
	s.footer.Refresh()
}

// savedText says that the agents shown are the list kept from an earlier
// time, and why. The list loads by itself when the service can be reached
// again (the status bar checks while it cannot); a service that answers
// with a failure is asked again with Try again.
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

// noMatchText says that no agent matched the search or the type chosen,
// and what to try instead.
func noMatchText(q app.AgentQuery) string {
	if q.Type == "" {
		if q.Q == "" {
			return lang.L("This account has no agent. Choose All in the type filter to see every agent.")
		}
		return lang.L("No agent matches \"{{.Search}}\". Try fewer or other words, or choose All in the type filter.", map[string]any{"Search": q.Q})
	}
	// "video agent": the kind in the middle of a sentence.
	kind := strings.ToLower(kindName(q.Type))
	if q.Q == "" {
		return lang.L("This account has no {{.Kind}}. Choose All in the type filter to see every agent.", map[string]any{"Kind": kind})
	}
	return lang.L("No {{.Kind}} matches \"{{.Search}}\". Try fewer or other words, or choose All in the type filter.", map[string]any{"Kind": kind, "Search": q.Q})
}

// openAgent shows an agent's detail, keeping the detail of each agent
// opened before so nothing typed is lost when switching.
func (s *Screen) openAgent(agent app.AgentItem) {
	d, ok := s.details[agent.ID]
	if !ok {
		d = newDetail(s, agent)
		s.details[agent.ID] = d
	}
	if s.current != nil && s.current != d {
		s.current.hidden()
	}
	s.current = d
	s.detailBox.Objects = []fyne.CanvasObject{d.content}
	s.detailBox.Refresh()
	d.shown()
}

// accountChanged drops what the screen shows of the old account: its
// agents, and the details opened (their runs are cancelled).
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

// runFinished tells the user about a long run that ended while they were
// in another window.
func (s *Screen) runFinished(ar *app.ActiveRun, p app.RunProgress) {
	if p.Took <= s.notifyAfter || kit.InForeground() {
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

// newAgentRow is the template of one list row: the type badge, the title
// and the first line of the description.
func newAgentRow() fyne.CanvasObject {
	title, desc := kit.NewLine(fyne.TextStyle{Bold: true}, false), kit.NewLine(fyne.TextStyle{}, true)
	// The labels' own padding is enough between title and description.
	text := container.New(layout.NewCustomPaddedVBoxLayout(-2*theme.Padding()), title, desc)
	return container.New(&agentRowLayout{}, text, newBadge())
}

// agentRowLayout puts the type badge left of the title and description. In
// a narrow list (an 800 px window) the badge shows its icon alone, so that
// the titles keep the room.
type agentRowLayout struct{ narrow bool }

// narrowRow is the row width under which badges lose their words.
const narrowRow = 320

func (l *agentRowLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	text, badge := objects[0].MinSize(), objects[1].MinSize()
	return fyne.NewSize(badge.Width+theme.Padding()+text.Width, fyne.Max(badge.Height, text.Height))
}

func (l *agentRowLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	text, badge := objects[0], objects[1].(*fyne.Container)
	if narrow := size.Width < narrowRow; narrow != l.narrow {
		l.narrow = narrow
		setBadgeWords(badge, !narrow)
	}
	bw := badge.MinSize().Width
	badge.Move(fyne.NewPos(0, 0))
	badge.Resize(fyne.NewSize(bw, size.Height))
	text.Move(fyne.NewPos(bw+theme.Padding(), 0))
	text.Resize(fyne.NewSize(size.Width-bw-theme.Padding(), size.Height))
}

// setAgentRow shows a in the row, and reports whether its title is new
// to the row (a string Fyne had to draw).
func setAgentRow(o fyne.CanvasObject, a app.AgentItem) bool {
	row := o.(*fyne.Container)
	text := row.Objects[0].(*fyne.Container)
	changed := kit.SetLine(text.Objects[0], a.Title)
	kit.SetLine(text.Objects[1], kit.PlainText(firstLine(a.Description)))
	setBadge(row.Objects[1].(*fyne.Container), a.Type)
	return changed
}

// newBadge is a small tag with the agent's type: its icon and name.
func newBadge() *fyne.Container {
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	bg.CornerRadius = theme.Size(theme.SizeNameInputRadius)
	icon := widget.NewIcon(theme.DocumentIcon())
	label := widget.NewLabelWithStyle(typeName(client.AgentImage), fyne.TextAlignLeading, fyne.TextStyle{})
	label.SizeName = theme.SizeNameCaptionText
	box := container.NewHBox(icon, label)
	// One width for every type keeps the titles in a straight column.
	return container.NewCenter(container.NewGridWrap(badgeSize(true), container.NewStack(bg, box)))
}

// setBadgeWords shows or hides the type's name in a badge, which keeps one
// width for every type either way.
func setBadgeWords(c *fyne.Container, words bool) {
	grid := c.Objects[0].(*fyne.Container)
	box := grid.Objects[0].(*fyne.Container).Objects[1].(*fyne.Container)
	if words {
		box.Objects[1].Show()
		box.Layout = layout.NewHBoxLayout()
	} else {
		box.Objects[1].Hide()
		box.Layout = layout.NewCenterLayout() // the icon alone, in the middle
	}
	grid.Layout = layout.NewGridWrapLayout(badgeSize(words))
	c.Refresh()
}

// badgeSize is a badge's size, with its words as wide as the widest type
// name ("Image" in English) or without them.
func badgeSize(words bool) fyne.Size {
	label := widget.NewLabelWithStyle(widestTypeName(), fyne.TextAlignLeading, fyne.TextStyle{})
	label.SizeName = theme.SizeNameCaptionText
	full := container.NewHBox(widget.NewIcon(theme.DocumentIcon()), label).MinSize().AddWidthHeight(theme.Padding(), 0)
	if words {
		return full
	}
	return fyne.NewSize(theme.IconInlineSize()+3*theme.Padding(), full.Height)
}

func setBadge(c *fyne.Container, typ string) {
	stack := c.Objects[0].(*fyne.Container).Objects[0].(*fyne.Container)
	box := stack.Objects[1].(*fyne.Container)
	box.Objects[0].(*widget.Icon).SetResource(typeIcon(typ))
	box.Objects[1].(*widget.Label).SetText(typeName(typ))
}

// typeIcon is what a type looks like: a speech bubble, a photo, a film
// camera, a page.
func typeIcon(typ string) fyne.Resource {
	switch typ {
	case client.AgentChat:
		return assets.ChatIcon
	case client.AgentImage:
		return theme.MediaPhotoIcon()
	case client.AgentVideo:
		return theme.MediaVideoIcon()
	case client.AgentText:
		return theme.DocumentIcon()
	}
	return theme.QuestionIcon()
}

// typeName is a type's name in a badge and the type filter: "Chat",
// "Image"; a type Agent Desk does not know as the service names it.
func typeName(typ string) string {
	switch typ {
	case client.AgentChat:
		return lang.L("Chat")
	case client.AgentImage:
		return lang.L("Image")
	case client.AgentText:
		return lang.L("Text")
	case client.AgentVideo:
		return lang.L("Video")
	case "":
		// "Other" alone is a word go-i18n keeps for itself.
		return lang.X("agents.other", "Other")
	}
	return typ
}

// widestTypeName is the known type name that takes the most room in a
// badge, in the language in use.
func widestTypeName() string {
	widest, w := "", float32(0)
	for _, typ := range []string{client.AgentChat, client.AgentImage, client.AgentText, client.AgentVideo, ""} {
		name := typeName(typ)
		if nw := fyne.MeasureText(name, theme.Size(theme.SizeNameCaptionText), fyne.TextStyle{}).Width; nw > w {
			widest, w = name, nw
		}
	}
	return widest
}

// kindName is what an agent of a type is called: "Video agent".
func kindName(typ string) string {
	switch typ {
	case client.AgentChat:
		return lang.L("Chat agent")
	case client.AgentImage:
		return lang.L("Image agent")
	case client.AgentText:
		return lang.L("Text agent")
	case client.AgentVideo:
		return lang.L("Video agent")
	case "":
		return lang.L("Other agent")
	}
	return lang.L("{{.Type}} agent", map[string]any{"Type": typ})
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
