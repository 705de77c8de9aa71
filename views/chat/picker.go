package chat

import (
	"context"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/assets"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/kit"
)

// pickerDelay is how long typing in the picker's search must pause before
// the service is asked.
var pickerDelay = 300 * time.Millisecond

// agentPicker is the "New chat" dialog: it asks which chat agent the new
// conversation is with, the one the user was looking at chosen already.
// Up and Down in its search move the choice; Enter starts the chat.
type agentPicker struct {
	s       *Screen
	browser *app.AgentBrowser
	page    app.AgentPage
	body    *fyne.Container
	list    *widget.List
	search  *kit.FormEntry
	chosen  client.ID
	d       *dialog.ConfirmDialog
}

// ChooseAgent asks which chat agent a new conversation is with; pre is
// chosen first (the agent on show elsewhere), else the agent of the open
// conversation, else that of the latest one.
func (s *Screen) ChooseAgent(pre client.ID) {
	if s.env.Window == nil {
		return
	}
	if pre == "" && s.open != nil {
		pre = client.ID(s.open.sess.Conversation().AgentID)
	}
	if pre == "" && len(s.convs) > 0 {
		pre = client.ID(s.convs[0].AgentID)
	}
	p := &agentPicker{s: s, chosen: pre, browser: s.a.NewAgentBrowser(pickerDelay)}
	p.search = kit.NewFormEntry()
	p.search.SetPlaceHolder("Search chat agents")
	p.search.ActionItem = widget.NewIcon(theme.SearchIcon())
	p.search.OnChanged = func(q string) { p.browser.SearchSoon(app.AgentQuery{Q: q, Type: client.AgentChat}) }
	p.search.OnKey = p.key
	p.list = widget.NewList(
		func() int { return len(p.page.Agents) },
		kit.NewTwoLineRow,
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id >= len(p.page.Agents) {
				return
			}
			ag := p.page.Agents[id]
			kit.SetTwoLineRow(o, ag.Title, kit.PlainText(ag.Description))
			if id >= len(p.page.Agents)-5 {
				p.browser.LoadMore()
			}
		})
	p.list.OnSelected = func(id widget.ListItemID) {
		if id < len(p.page.Agents) {
			p.chosen = p.page.Agents[id].ID
		}
	}
	p.body = container.NewStack(kit.Loading("Loading chat agents…"))
	content := kit.NewBorder(p.search, nil, nil, nil, p.body)
	p.d = dialog.NewCustomConfirm("New chat", "Start chat", "Cancel", content, func(ok bool) {
		p.browser.Clear()
		if ok && p.chosen != "" {
			s.startWith(p.chosen)
		}
	}, s.env.Window)
	stop := kit.Bind(p.browser.State(), p.show)
	p.d.SetOnClosed(stop)
	w := s.env.Window.Canvas().Size()
	p.d.Resize(fyne.NewSize(min(w.Width*0.9, 560), min(w.Height*0.85, 520)))
	kit.ShowDialogKeys(p.d, s.env.Window, p.start, p.d.Dismiss)
	s.env.Window.Canvas().Focus(p.search)
	p.browser.Search(app.AgentQuery{Type: client.AgentChat})
}

// start starts the chat with the chosen agent, when one is chosen.
func (p *agentPicker) start() {
	if p.chosen != "" {
		p.d.Confirm()
	}
}

// key moves the choice with Up and Down typed in the search.
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

// index is the chosen agent's row, or -1.
func (p *agentPicker) index() int {
	for i, ag := range p.page.Agents {
		if ag.ID == p.chosen {
			return i
		}
	}
	return -1
}

// show puts the agents found in the dialog, with the choice on its row;
// a new search chooses its first agent unless the one chosen is in it.
func (p *agentPicker) show(page app.AgentPage) {
	p.page = page
	switch {
	case len(page.Agents) == 0 && (page.Loading || page.Query.Type != client.AgentChat):
		// Asking, or not asked yet (the browser's first, empty state).
		kit.ShowBody(p.body, kit.Loading("Loading chat agents…"))
		return
	case len(page.Agents) == 0 && page.Err != nil:
		kit.ShowBody(p.body, kit.Error(page.Err, p.browser.Reload))
		return
	case len(page.Agents) == 0 && page.Query.Q != "":
		kit.ShowBody(p.body, kit.Empty(theme.SearchIcon(), "No chat agent found", "No chat agent matches “"+page.Query.Q+"”. Try fewer or other words."))
		p.chosen = ""
		return
	case len(page.Agents) == 0:
		kit.ShowBody(p.body, kit.Empty(assets.ChatIcon, "No chat agents", "This account has no agents to chat with. The Agents screen lists what it has."))
		p.chosen = ""
		return
	}
	kit.ShowBody(p.body, p.list)
	p.list.Refresh()
	i := p.index()
	if i < 0 {
		i = 0 // the list's first, on show, rather than one out of sight
	}
	p.list.Select(i)
	p.list.ScrollTo(i)
}

// startWith opens a new conversation with the agent id, read whole from
// the service first (its questions make the chat's pickers).
func (s *Screen) startWith(id client.ID) {
	kit.SetBody(s.right, kit.Loading("Starting the chat…"))
	spawn(s.a, func() {
		agent, err := s.a.GetAgent(context.Background(), id)
		kit.Do(func() {
			if err != nil {
				kit.SetBody(s.right, kit.Error(err, func() { s.startWith(id) }))
				return
			}
			s.OpenChat(*agent)
		})
	})
}
