package views

import (
	"context"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/find"
	"github.com/agentdesk/agentdesk/assets"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/batches"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

// commandBox is the command box (Ctrl+K): one field that finds agents,
// chats, memories, screens and actions by name, typos forgiven, and a list
// of what it found; Enter does the first or the chosen one.
type commandBox struct {
	s      *Shell
	finder *app.Finder
	places find.Index[choice]
	entry  *kit.FormEntry
	prompt *widget.Label
	list   *kit.List
	none   fyne.CanvasObject // said when nothing matches
	shown  []choice
	dialog *dialog.CustomDialog
	// agentFor, when set, is an action waiting for its agent: only agents
	// are offered, and choosing one hands it over.
	agentFor func(app.AgentItem)
	wantChat bool // agentFor takes chat agents only
	// searched is the service's and the history's last answer, for its query.
	searched app.SearchResult
}

// commandRows is how many things the box lists at most.
const commandRows = 30

// choice is one line of the box: what it is, where, and what Enter does.
type choice struct {
	title, detail string
	icon          fyne.Resource
	do            func()
	agent         *app.AgentItem // set for an agent
	keepOpen      bool           // do asks for an agent in the box
}

// ShowCommandBox opens the command box over the window.
func (s *Shell) ShowCommandBox() {
	if s.overlaid() {
		return
	}
	b := &commandBox{s: s}
	b.finder = app.NewFinder(s.env.App, 250*time.Millisecond, func(r app.SearchResult) { kit.Do(func() { b.searchedFor(r) }) })
	b.addPlaces()
	b.entry = kit.NewFormEntry() // Esc closes the box at once, typed text or not
	b.entry.ActionItem = widget.NewIcon(theme.SearchIcon())
	b.entry.SetPlaceHolder(lang.L("Find an agent, a chat, a memory, a screen or an action"))
	b.entry.OnChanged = func(string) { b.update(); b.finder.SearchSoon(b.entry.Text) }
	b.entry.OnSubmitted = func(string) { b.choose(0) }
	b.prompt = screen.Quiet("")
	b.prompt.Hide()
	b.list = kit.NewList(func() int { return len(b.shown) }, newChoiceRow, func(id widget.ListItemID, o fyne.CanvasObject) {
		if id < len(b.shown) {
			setChoiceRow(o, b.shown[id])
		}
	})
	b.list.OnSelected = func(id widget.ListItemID) { b.choose(id) }
	kit.DownInto(b.entry, b.list)
	b.none = kit.Empty(theme.SearchIcon(), lang.L("Nothing found"), lang.L("Try fewer letters or other words. Agents the service has are looked up as you pause."))
	b.none.Hide()
	content := kit.NewBorder(container.NewVBox(b.prompt, b.entry), nil, nil, nil, container.NewStack(b.list, b.none))
	b.dialog = dialog.NewCustomWithoutButtons(lang.L("Find anything"), content, s.win)
	win := s.win.Canvas().Size()
	b.dialog.Resize(fyne.NewSize(min(win.Width*0.9, 640), min(win.Height*0.85, 520)))
	b.dialog.SetOnClosed(b.finder.Close)
	kit.ShowDialogKeys(b.dialog, s.win, func() { b.choose(b.keyboardRow()) }, b.dialog.Hide)
	s.win.Canvas().Focus(b.entry)
	a := s.env.App
	a.Go(func() {
		err := b.finder.Load(context.Background())
		kit.Do(func() {
			b.update()
			if err != nil {
				b.say(lang.L("Some of your history could not be read, so not all chats and memories are offered. {{.Why}}", map[string]any{"Why": app.Describe(err)}))
			}
		})
	})
	b.update()
}

// keyboardRow is the row the keyboard is on in the list, or the first.
func (b *commandBox) keyboardRow() int {
	if b.s.win.Canvas().Focused() == b.list {
		return max(b.list.KeyboardRow(), 0)
	}
	return 0
}

// say shows a line over the field: what the box waits for, or a problem.
func (b *commandBox) say(text string) {
	b.prompt.SetText(text)
	screen.ShowIf(b.prompt, text != "")
}

// addPlaces indexes the screens and actions by their names in the
// language in use.
func (b *commandBox) addPlaces() {
	s := b.s
	for _, sp := range s.screens {
		name := sp.Name
		label := screen.ScreenLabel(name)
		b.places.Add(choice{title: label, detail: lang.L("Screen"), icon: sp.Icon, do: func() { s.Show(name) }}, label)
	}
	action := func(title string, icon fyne.Resource, do func()) {
		b.places.Add(choice{title: title, detail: lang.L("Action"), icon: icon, do: do}, title)
	}
	asking := func(title string, icon fyne.Resource, prompt string, chat bool, do func(client.Agent)) {
		b.places.Add(choice{title: title, detail: lang.L("Action"), icon: icon, keepOpen: true, do: func() {
			b.askAgent(prompt, chat, func(it app.AgentItem) { b.withAgent(it, do) })
		}}, title)
	}
	asking(lang.L("New chat with…"), assets.ChatIcon, lang.L("New chat with which agent?"), true, s.OpenChat)
	asking(lang.L("Run on many…"), theme.ListIcon(), lang.L("Run which agent on many?"), false, func(ag client.Agent) { batches.RunOnMany(s.env, ag) })
	action(lang.L("Keyboard shortcuts"), theme.HelpIcon(), s.ShowKeys)
	action(lang.L("Larger text"), theme.ZoomInIcon(), func() { s.StepTextSize(1) })
	action(lang.L("Smaller text"), theme.ZoomOutIcon(), func() { s.StepTextSize(-1) })
	action(lang.L("Normal text size"), theme.ViewRestoreIcon(), func() { s.StepTextSize(0) })
	for _, part := range settingParts() {
		title := screen.ScreenLabel(screen.ScreenSettings) + " › " + part.label
		b.places.Add(choice{title: title, detail: lang.L("Setting"), icon: theme.SettingsIcon(), do: func() {
			tell(s, screen.ScreenSettings, func(r interface{ Reveal(string) }) { r.Reveal(part.name) })
		}}, title, part.label)
	}
}

// settingPart is a part of Settings the box goes to.
type settingPart struct{ name, label string }

func settingParts() []settingPart {
	return []settingPart{
		{"accounts", lang.L("Accounts")}, {"appearance", lang.L("Appearance")}, {"contrast", lang.L("High contrast")},
		{"textsize", lang.L("Text size")}, {"language", lang.L("Language")}, {"network", lang.L("Network")},
	}
}

// askAgent turns the box to choosing an agent for then.
func (b *commandBox) askAgent(prompt string, chat bool, then func(app.AgentItem)) {
	b.agentFor, b.wantChat = then, chat
	b.say(prompt)
	b.entry.SetText("")
	b.update()
	b.s.win.Canvas().Focus(b.entry)
}

// withAgent reads the whole agent, which chats and batches need, then does.
func (b *commandBox) withAgent(it app.AgentItem, do func(client.Agent)) {
	a := b.s.env.App
	a.Go(func() {
		ag, err := a.Agents().Get(context.Background(), it.ID)
		kit.Do(func() {
			if err != nil {
				kit.ShowInformation(it.Title, lang.L("This agent could not be opened. {{.Why}}", map[string]any{"Why": app.Describe(err)}), b.s.win)
				return
			}
			do(*ag)
		})
	})
}

// choose does row id's thing, closing the box unless it asks for an agent.
func (b *commandBox) choose(id int) {
	if id < 0 || id >= len(b.shown) {
		return
	}
	c := b.shown[id]
	if b.agentFor != nil && c.agent != nil {
		then := b.agentFor
		b.dialog.Hide()
		then(*c.agent)
		return
	}
	if b.agentFor == nil {
		if !c.keepOpen {
			b.dialog.Hide()
		}
		c.do()
	}
}

// searchedFor keeps the service's answer when it is for what is typed.
func (b *commandBox) searchedFor(r app.SearchResult) {
	if r.Query != b.entry.Text {
		return
	}
	b.searched = r
	b.update()
}

// update lists what the field finds: the best of the screens, actions and
// what this computer keeps, then the service's agents and the history's
// messages once they answer.
func (b *commandBox) update() {
	q := b.entry.Text
	var out []choice
	seen := map[client.ID]bool{}
	addAgent := func(it app.AgentItem, detail string) {
		if seen[it.ID] || (b.wantChat && it.Type != client.AgentChat) {
			return
		}
		seen[it.ID] = true
		item := it
		icon, kind, _ := agentKind(it.Type)
		out = append(out, choice{title: it.Title, detail: detail + kind, icon: icon, agent: &item, do: func() { b.s.OpenAgentWith(item, "") }})
	}
	if q == "" {
		favourites, recent := b.s.env.App.Agents().Pinned()
		for _, it := range favourites {
			addAgent(it, lang.L("Favourite")+" · ")
		}
		for _, it := range recent {
			addAgent(it, lang.L("Recent")+" · ")
		}
		if b.agentFor == nil {
			out = append(out, b.places.All()...)
		}
	} else {
		var places []find.Hit[choice]
		if b.agentFor == nil {
			places = b.places.Match(q, commandRows)
		}
		found := b.finder.Match(q, commandRows)
		for len(places) > 0 || len(found) > 0 {
			if len(found) == 0 || (len(places) > 0 && places[0].Score >= found[0].Score) {
				out = append(out, places[0].Value)
				places = places[1:]
				continue
			}
			f := found[0].Value
			found = found[1:]
			b.addFound(&out, f, addAgent)
		}
		if b.searched.Query == q {
			for _, it := range b.searched.Agents {
				addAgent(it, "")
			}
			if b.agentFor == nil {
				for _, m := range b.searched.Messages {
					b.addFound(&out, m, addAgent)
				}
			}
		}
	}
	if len(out) > commandRows {
		out = out[:commandRows]
	}
	b.shown = out
	screen.ShowIf(b.none, len(out) == 0)
	screen.ShowIf(b.list, len(out) > 0)
	b.list.UnselectAll()
	b.list.Refresh()
	b.list.ScrollToTop()
}

// addFound adds a thing the finder found, as the row it is.
func (b *commandBox) addFound(out *[]choice, f app.Found, addAgent func(app.AgentItem, string)) {
	s := b.s
	switch f.Kind {
	case app.FoundAgent:
		addAgent(f.Agent, "")
	case app.FoundChat, app.FoundMessage:
		if b.agentFor != nil {
			return
		}
		id := f.Conversation
		detail := lang.L("Chat")
		if f.Detail != "" {
			detail += " · " + f.Detail
		}
		*out = append(*out, choice{title: f.Title, detail: detail, icon: assets.ChatIcon, do: func() { s.OpenConversation(id) }})
	case app.FoundSaved:
		if b.agentFor != nil {
			return
		}
		agent, id := f.Agent, f.Saved
		*out = append(*out, choice{title: f.Title, detail: lang.L("Saved answer · {{.Agent}}", map[string]any{"Agent": f.Detail}), icon: theme.DocumentSaveIcon(),
			do: func() {
				tell(s, screen.ScreenAgents, func(o interface{ RunSaved(app.AgentItem, int64) }) { o.RunSaved(agent, id) })
			}})
	case app.FoundMemory:
		if b.agentFor != nil {
			return
		}
		m := f.Memory
		detail := lang.L("Memory")
		if f.Detail != "" {
			detail += " · " + f.Detail
		}
		*out = append(*out, choice{title: f.Title, detail: detail, icon: theme.StorageIcon(), do: func() {
			tell(s, screen.ScreenMemories, func(o interface{ OpenMemory(app.MemoryEntry) }) { o.OpenMemory(m) })
		}})
	}
}

// agentKind is an agent type's icon and name in words.
func agentKind(typ string) (fyne.Resource, string, bool) {
	switch typ {
	case client.AgentChat:
		return assets.ChatIcon, lang.L("Chat agent"), true
	case client.AgentImage:
		return theme.MediaPhotoIcon(), lang.L("Image agent"), true
	case client.AgentVideo:
		return theme.MediaVideoIcon(), lang.L("Video agent"), true
	case client.AgentText:
		return theme.DocumentIcon(), lang.L("Text agent"), true
	}
	return theme.ListIcon(), lang.L("Agent"), false
}

func newChoiceRow() fyne.CanvasObject {
	title := kit.NewLine(fyne.TextStyle{Bold: true}, false)
	detail := kit.NewLine(fyne.TextStyle{}, true)
	return container.NewBorder(nil, nil, widget.NewIcon(theme.ListIcon()), nil, container.NewVBox(title, detail))
}

func setChoiceRow(o fyne.CanvasObject, c choice) {
	row := o.(*fyne.Container)
	text := row.Objects[0].(*fyne.Container)
	kit.SetLine(text.Objects[0], c.title)
	kit.SetLine(text.Objects[1], c.detail)
	row.Objects[1].(*widget.Icon).SetResource(c.icon)
}
