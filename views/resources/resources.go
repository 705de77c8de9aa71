// Package resources is the Resources screen: the service's templates, with
// search, a type filter and each one's detail.
package resources

import (
	"encoding/json"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/catalog"
	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/safe"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

func anyType() string { return lang.L("Any type") }

// Screen is the Resources screen.
type Screen struct {
	env     screen.Env
	content fyne.CanvasObject
	found   *catalog.ResourceSearch

	search *kit.FormEntry
	typ    *widget.SelectEntry
	count  *widget.Label
	list   *screen.Rows[client.Resource]

	detail      *fyne.Container
	placeholder fyne.CanvasObject
}

// New builds the Resources screen.
func New(env screen.Env) screen.Screen {
	s := &Screen{env: env, found: env.App.Catalog().NewResourceSearch()}
	s.search = kit.NewSearchEntry()
	s.search.SetPlaceHolder(lang.L("Search ({{.Key}})", map[string]any{"Key": kit.CtrlName("F")}))
	s.search.ActionItem = widget.NewIcon(theme.SearchIcon())
	// One request per typing pause; Enter searches at once.
	s.search.OnChanged = func(string) { s.found.FindSoon(s.query()) }
	s.search.OnSubmitted = func(string) { s.Reload() }

	s.typ = widget.NewSelectEntry(append([]string{anyType()}, catalog.ResourceTypes...))
	s.typ.SetText(anyType())
	s.typ.OnChanged = func(string) { s.found.FindSoon(s.query()) }

	s.count = screen.Quiet("")

	s.list = screen.NewRows(lang.L("Reading resources…"), kit.NewTwoLineRow, func(_ int, r client.Resource, o fyne.CanvasObject) {
		kit.SetTwoLineRow(o, title(r), r.Description)
	})
	kit.DownInto(s.search, s.list.List)
	s.list.OnChosen(s.showDetail)
	s.placeholder = kit.Empty(theme.InfoIcon(), lang.L("No resource chosen"), lang.L("Choose a resource on the left to see its details."))
	s.detail = container.NewStack(s.placeholder)

	// One above the other: side by side, the search's hint did not fit.
	filters := container.NewVBox(s.search, s.typ)
	header := kit.Header(lang.L("Resources"), lang.L("Templates offered by the service. Search them or narrow them to one type."))
	left := kit.NewBorder(container.NewVBox(filters, s.count), nil, nil, nil, s.list.Stack)
	split := kit.Split(container.NewPadded(left), container.NewPadded(s.detail), 0.45)
	s.content = kit.NewBorder(container.NewPadded(header), nil, nil, nil, split)
	kit.Bind[live.ListState[client.Resource]](s.found, s.show)
	screen.Follow(env.App, func() {
		s.found.Clear() // another account's resources
		s.Reload()
	}, func() bool { st, _ := s.found.Snapshot(); return st.Err != nil }, s.Reload)
	return s
}

// Content is the screen's widget tree.
func (s *Screen) Content() fyne.CanvasObject { return s.content }

// Shown loads the list the first time the user comes to the screen.
func (s *Screen) Shown() {
	if st, _ := s.found.Snapshot(); !st.Loaded && !st.Loading && st.Err == nil {
		s.Reload()
	}
}

func (s *Screen) query() (q, typ string) {
	typ = strings.TrimSpace(s.typ.Text)
	if strings.EqualFold(typ, anyType()) {
		typ = ""
	}
	return s.search.Text, strings.ToLower(typ)
}

// Reload runs the search again at once, reading every page.
func (s *Screen) Reload() { s.found.Find(s.query()) }

func (s *Screen) show(st live.ListState[client.Resource]) {
	s.list.UnselectAll()
	kit.SetBody(s.detail, s.placeholder)
	empty := func() fyne.CanvasObject {
		if q, typ := s.found.Query(); q != "" || typ != "" {
			return kit.Empty(theme.SearchIcon(), lang.L("No resources match"), lang.L("Try other words, or choose Any type."))
		}
		return kit.Empty(theme.InfoIcon(), lang.L("No resources"), lang.L("This account has no resources yet. They are added on the service."))
	}
	s.list.ShowState(st, lang.L("Reading resources…"), empty, s.Reload, func(n int, why string) string {
		return lang.N("Only {{.Count}} resources could be read. {{.Why}}", n, map[string]any{"Count": app.Number(n), "Why": why})
	})
	s.count.SetText("")
	if n := len(s.list.Items); n > 0 {
		s.count.SetText(lang.N("{{.Count}} resource", n, map[string]any{"Count": app.Number(n)}))
	}
}

// title is a resource's name on one line without control or direction-changing
// characters a service could use to break the list or disguise the name.
func title(r client.Resource) string {
	if t := safe.Text(r.Title, 0); t != "" {
		return t
	}
	return safe.Text(lang.L("Untitled resource {{.Reference}}", map[string]any{"Reference": r.ID.String()}), 0)
}

func (s *Screen) showDetail(r client.Resource) {
	// Wrapped in reading order, Hebrew and Arabic too (BidiLines).
	t := kit.BidiLines(title(r), fyne.TextStyle{Bold: true}, theme.SizeNameSubHeadingText, true)
	desc := screen.Wrapped(r.Description)
	ref := widget.NewLabel(r.ID.String())
	ref.Selectable = true
	form := widget.NewForm(widget.NewFormItem(lang.L("Reference"), ref))
	if !r.CreatedAt.IsZero() {
		form.Append(lang.L("Added"), widget.NewLabel(app.DateTime(r.CreatedAt.Time)))
	}
	if !r.UpdatedAt.IsZero() {
		form.Append(lang.L("Changed"), widget.NewLabel(app.DateTime(r.UpdatedAt.Time)))
	}
	keys := make([]string, 0, len(r.Extra))
	for k := range r.Extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		var v any
		text := string(r.Extra[k])
		if json.Unmarshal(r.Extra[k], &v) == nil {
			if str, ok := v.(string); ok {
				text = str
			}
		}
		form.Append(label(k), screen.Wrapped(text))
	}
	use := kit.NewButtonWithIcon(lang.L("Write with an agent…"), theme.DocumentCreateIcon(), func() { s.use(r) })
	use.Importance = widget.HighImportance
	box := container.NewVBox(t, desc, container.NewHBox(use), widget.NewSeparator(), form)
	kit.SetBody(s.detail, container.NewVScroll(box))
}

func (s *Screen) use(r client.Resource) {
	var long string
	if raw, ok := r.Extra["long_description"]; ok {
		_ = json.Unmarshal(raw, &long)
	}
	request := app.ResourceRequest(r.Title, r.Description, long)
	screen.ChooseAgent(s.env, screen.AgentPick{
		Type: client.AgentText, Title: lang.L("Write with an agent"), Action: lang.L("Open its form"), Search: lang.L("Search writing agents"),
		NoneTitle: lang.L("No writing agents"), None: lang.L("This account has no agents that write text. The Agents screen lists what it has."),
	}, func(ag app.AgentItem) { s.env.Nav.OpenAgentWith(ag, request) })
}

func label(k string) string {
	k = strings.ReplaceAll(k, "_", " ")
	if k == "" {
		return k
	}
	return strings.ToUpper(k[:1]) + k[1:]
}

// FocusFind puts the cursor in this screen's search (Ctrl+F).
func (s *Screen) FocusFind() { s.env.FocusFind(s.search) }
