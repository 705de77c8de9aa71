package screen

import (
	"slices"
	"time"

	"fyne.io/fyne/v2/lang"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/richtext"
)

// AgentPick is what ChooseAgent asks: of which type, in which words.
type AgentPick struct {
	Type            string    // client.AgentChat, AgentText…
	Title, Action   string    // the dialog's title, its confirm button
	Search          string    // the search's placeholder ("Search chat agents")
	Pre             client.ID // chosen first, when listed
	NoneTitle, None string
}

// agentPicker asks which agent of a type to use; Up/Down move, Enter confirms.
type agentPicker struct {
	pick    AgentPick
	browser *app.AgentBrowser
	page    app.AgentPage
	body    *fyne.Container
	list    *kit.List
	search  *kit.FormEntry
	chosen  client.ID
	d       *dialog.ConfirmDialog
	placed  int // the series (app.AgentPage) whose first page placed the choice
}

// ChooseAgent asks which agent of pick.Type to use and gives it to chosen.
func ChooseAgent(env Env, pick AgentPick, chosen func(app.AgentItem)) {
	if env.Window == nil {
		return
	}
	a, delay := env.App, env.PickerDelay
	if delay == 0 {
		delay = 300 * time.Millisecond
	}
	p := &agentPicker{pick: pick, chosen: pick.Pre, browser: a.Agents().NewBrowser(delay), placed: -1}
	p.search = kit.NewSearchEntry()
	p.search.SetPlaceHolder(pick.Search)
	p.search.ActionItem = widget.NewIcon(theme.SearchIcon())
	p.search.OnChanged = func(q string) { p.browser.SearchSoon(app.AgentQuery{Q: q, Type: pick.Type}) }
	clearFirst := p.search.OnKey // Esc clears the search first
	p.search.OnKey = func(ev *fyne.KeyEvent) bool { return p.key(ev) || clearFirst(ev) }
	p.list = kit.NewList(
		func() int { return len(p.page.Agents) },
		kit.NewTwoLineRow,
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id >= len(p.page.Agents) {
				return
			}
			ag := p.page.Agents[id]
			kit.SetTwoLineRow(o, ag.Title, richtext.PlainText(ag.Description))
			if id >= len(p.page.Agents)-5 {
				p.browser.LoadMore()
			}
		})
	p.list.OnSelected = func(id widget.ListItemID) {
		if id < len(p.page.Agents) {
			p.chosen = p.page.Agents[id].ID
		}
	}
	p.body = container.NewStack(kit.Loading(lang.L("Loading agents…")))
	content := kit.NewBorder(p.search, nil, nil, nil, p.body)
	p.d = dialog.NewCustomConfirm(pick.Title, pick.Action, lang.L("Cancel"), content, func(ok bool) {
		p.browser.Clear()
		if !ok {
			return
		}
		if i := p.index(); i >= 0 {
			chosen(p.page.Agents[i])
		}
	}, env.Window)
	stop := kit.Bind(p.browser.State(), p.show)
	p.d.SetOnClosed(stop)
	w := env.Window.Canvas().Size()
	p.d.Resize(fyne.NewSize(min(w.Width*0.9, 560), min(w.Height*0.85, 520)))
	kit.ShowDialogKeys(p.d, env.Window, p.start, p.d.Dismiss)
	env.Window.Canvas().Focus(p.search)
	p.browser.Search(app.AgentQuery{Type: pick.Type})
}

func (p *agentPicker) start() {
	if p.index() >= 0 {
		p.d.Confirm()
	}
}

func (p *agentPicker) key(ev *fyne.KeyEvent) bool {
	step := map[fyne.KeyName]int{fyne.KeyDown: 1, fyne.KeyUp: -1}[ev.Name]
	if step == 0 || len(p.page.Agents) == 0 {
		return false
	}
	i := p.index() + step
	if i < 0 || i >= len(p.page.Agents) {
		return true
	}
	p.list.Select(i)
	p.list.ScrollTo(i)
	return true
}

func (p *agentPicker) index() int {
	return slices.IndexFunc(p.page.Agents, func(ag app.AgentItem) bool { return ag.ID == p.chosen })
}

// show lists the agents found, keeping the choice if it is among them.
func (p *agentPicker) show(page app.AgentPage) {
	old := p.page
	p.page = page
	switch {
	case len(page.Agents) == 0 && (page.Loading || page.Query.Type != p.pick.Type):
		kit.ShowBody(p.body, kit.Loading(lang.L("Loading agents…")))
		return
	case len(page.Agents) == 0 && page.Err != nil:
		kit.ShowBody(p.body, Error(page.Err, p.browser.Reload))
		return
	case len(page.Agents) == 0 && page.Query.Q != "":
		kit.ShowBody(p.body, kit.Empty(theme.SearchIcon(), lang.L("No agent found"), lang.L("No agent of this kind matches “{{.Words}}”. Try fewer or other words.", map[string]any{"Words": page.Query.Q})))
		p.chosen = ""
		return
	case len(page.Agents) == 0:
		kit.ShowBody(p.body, kit.Empty(theme.InfoIcon(), p.pick.NoneTitle, p.pick.None))
		p.chosen = ""
		return
	}
	kit.ShowBody(p.body, p.list)
	switch {
	case page.Extends(old):
		p.list.Grew()
	case !page.SameAgents(old):
		p.list.Refresh()
	}
	// The choice is placed once per answer to a search, also a search again
	// for the same words (a search cleared back): later pages leave the list
	// where the user scrolled it.
	if p.placed == page.Series {
		return
	}
	p.placed = page.Series
	i := p.index()
	if i < 0 {
		i = 0 // the list's first, on show, rather than one out of sight
	}
	// Chosen here too: a list that kept the row marked from before a search
	// found nothing does not tell OnSelected again.
	p.chosen = page.Agents[i].ID
	p.list.Select(i)
	p.list.ScrollTo(i)
}
