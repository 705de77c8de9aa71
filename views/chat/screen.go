// Package chat is the Chats screen: conversations and the open one, whose
// replies stream in as markdown.
package chat

import (
	"context"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
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
	env screen.Env
	a   *app.App
	// goFn runs slow work off the UI goroutine (Close waits); tests run it inline.
	goFn func(func())
	wrap *richtext.CodeBlocks

	search     *kit.FormEntry
	convs      *screen.Rows[app.Conversation] // its Stack: list, empty or error state
	undo       *fyne.Container
	emptyShown string
	right      *fyne.Container
	open       *convView
	content    fyne.CanvasObject
	loadSeq    int
	selfSel    bool
	finished   uint64
	text       *kit.TextRelease
}

// textLimits: drawn text is let go (kit.TextRelease) so long streams stay small.
var textLimits = kit.ReleaseLimits{Many: 600, Few: 20, Rest: 500 * time.Millisecond}

func New(env screen.Env) screen.Screen {
	s := &Screen{env: env, a: env.App, goFn: func(f func()) { env.App.Go(f) }, wrap: richtext.NewCodeBlocks(env.App.Settings().WrapCode, func(wrap bool) {
		env.App.SaveSettingsLater(func(st *app.Settings) { st.WrapCode = wrap })
	}, app.Number)}
	s.text = kit.NewTextRelease(env.Window, env.App.Life(), textLimits)
	s.build()
	screen.OnAccountChange(env.App, func() {
		s.closeOpen()
		s.showNoConversation()
		s.reload()
	})
	kit.Bind(env.App.Chats().Finished(), func(recent []app.ChatFinished) {
		for _, f := range recent {
			if f.Seq > s.finished {
				s.finished = f.Seq
				s.notifyFinished(f)
			}
		}
	})
	return s
}

func (s *Screen) notifyFinished(f app.ChatFinished) {
	if f.Status == app.MessageStopped {
		return
	}
	if kit.InForeground(s.env.Window) && s.open != nil && s.open.sess.ID() == f.ConversationID && (s.env.Window == nil || screen.InWindow(s.env.Window, s.content)) {
		return
	}
	a := fyne.CurrentApp()
	if a == nil {
		return
	}
	names := map[string]any{"Agent": f.AgentTitle, "Title": f.Title}
	body := lang.L("{{.Agent}} has answered in “{{.Title}}”.", names)
	if f.Status == app.MessageFailed {
		body = lang.L("{{.Agent}} could not finish its reply in “{{.Title}}”.", names)
	}
	kit.Notify(a, lang.L("Reply ready"), body) // the titles come from the service: made safe there
}

func (s *Screen) build() {
	s.search = kit.NewSearchEntry()
	s.search.SetPlaceHolder(lang.L("Search ({{.Key}})", map[string]any{"Key": kit.CtrlName("F")}))
	s.search.ActionItem = widget.NewIcon(theme.SearchIcon())
	s.search.OnChanged = func(string) { s.reload() }
	s.convs = screen.NewRows(lang.L("Loading conversations…"), kit.NewTwoLineRow, func(_ int, c app.Conversation, o fyne.CanvasObject) {
		kit.SetTwoLineRow(o, c.Title, c.AgentTitle+" · "+when(c.UpdatedAt))
	})
	kit.DownInto(s.search, s.convs.List)
	s.convs.OnChosen(func(c app.Conversation) {
		if !s.selfSel {
			s.OpenConversation(c.ID)
		}
	})
	s.undo = container.NewVBox()
	newBtn := kit.NewButtonWithIcon(lang.L("New chat"), theme.ContentAddIcon(), s.env.Nav.ChooseChatAgent)
	newBtn.Tip = lang.L("Start a chat with an agent ({{.Key}})", map[string]any{"Key": kit.CtrlName("N")})
	leftPane := kit.NewBorder(
		container.NewVBox(kit.Header(lang.L("Chats"), "", newBtn), s.search, s.undo), nil, nil, nil, s.convs.Stack)
	s.right = container.NewStack()
	s.showNoConversation()
	s.content = kit.Split(leftPane, s.right, 0.28)
}

func (s *Screen) setRight(o fyne.CanvasObject) {
	kit.SetBody(s.right, o)
	s.emptyShown = ""
}

// showNoConversation shows the empty state, rebuilt only when its words change;
// "Opening…" or an error with Try again stays when the list changes.
func (s *Screen) showNoConversation() {
	title, detail := lang.L("No conversation open"), lang.L("Pick a conversation on the left, or start a new one.")
	if len(s.convs.Items) == 0 && s.search.Text == "" {
		title, detail = lang.L("No conversations yet"),
			lang.L("Start a chat: pick a chat agent, then write your first message. Every conversation is kept on this computer.")
	}
	if s.emptyShown == title {
		return
	}
	start := kit.NewButtonWithIcon(lang.L("Start a chat"), theme.ContentAddIcon(), s.env.Nav.ChooseChatAgent)
	start.Importance = widget.HighImportance
	kit.SetBody(s.right, kit.Empty(assets.ChatIcon, title, detail, start))
	s.emptyShown = title
}

func (s *Screen) Content() fyne.CanvasObject { return s.content }

func (s *Screen) Shown() { s.reload() }

func (s *Screen) reload() {
	s.loadSeq++
	seq := s.loadSeq
	query := s.search.Text
	if len(s.convs.Items) == 0 {
		kit.ShowBody(s.convs.Stack, kit.Loading(lang.L("Loading conversations…")))
	}
	var convs []app.Conversation
	s.act(func(ctx context.Context) (err error) {
		convs, err = s.a.Chats().List(ctx, query)
		return err
	}, func(err error) {
		if seq != s.loadSeq {
			return
		}
		if err != nil {
			kit.ShowBody(s.convs.Stack, screen.Error(err, s.reload))
			return
		}
		s.convs.Items = convs
		switch {
		case len(convs) == 0 && query != "":
			kit.ShowBody(s.convs.Stack, kit.Empty(theme.SearchIcon(), lang.L("Nothing found"),
				lang.L("No conversation mentions “{{.Words}}”. Try other words.", map[string]any{"Words": query})))
		case len(convs) == 0:
			quiet := screen.Wrapped(lang.L("Conversations you start are listed here."))
			quiet.Importance = widget.LowImportance
			kit.ShowBody(s.convs.Stack, container.NewVBox(quiet))
		default:
			kit.ShowBody(s.convs.Stack, s.convs.List)
			s.convs.Refresh()
			s.markSelected()
		}
		if s.open == nil && s.emptyShown != "" {
			s.showNoConversation() // as the list now stands
		}
	})
}

// act runs work off the UI goroutine (goFn), then then on it with work's error.
func (s *Screen) act(work func(context.Context) error, then func(error)) {
	s.goFn(func() {
		err := work(context.Background())
		kit.Do(func() { then(err) })
	})
}

// change runs a change to the chats, says if it failed, and lists them again.
func (s *Screen) change(work func(context.Context) error) {
	s.act(work, func(err error) {
		if err != nil {
			s.showErr(err)
		}
		s.reload()
	})
}

// markSelected selects the open conversation's row, or none: a row left
// selected would not open on a click.
func (s *Screen) markSelected() {
	s.selfSel = true
	defer func() { s.selfSel = false }()
	for i, c := range s.convs.Items {
		if s.open != nil && c.ID == s.open.sess.ID() {
			s.convs.Select(i)
			return
		}
	}
	s.convs.UnselectAll()
}

// OpenChat starts a new conversation with a chat agent.
func (s *Screen) OpenChat(agent client.Agent) {
	var sess *app.ChatSession
	s.opening(func(ctx context.Context) (err error) {
		sess, err = s.a.Chats().New(ctx, agent)
		return err
	}, func() { s.OpenChat(agent) }, func() {
		s.show(sess)
		s.reload()
	})
}

// opening does work for the right pane, then; a failure shows there with retry.
func (s *Screen) opening(work func(context.Context) error, retry, then func()) {
	s.act(work, func(err error) {
		if err != nil {
			s.setRight(screen.Error(err, retry))
		} else {
			then()
		}
	})
}

// OpenConversation continues a stored conversation.
func (s *Screen) OpenConversation(id int64) {
	if s.open != nil && s.open.sess.ID() == id {
		return
	}
	s.setRight(kit.Loading(lang.L("Opening the conversation…")))
	var sess *app.ChatSession
	s.opening(func(ctx context.Context) (err error) {
		sess, err = s.a.Chats().Open(ctx, id)
		return err
	}, func() { s.OpenConversation(id) }, func() { s.show(sess) })
}

func (s *Screen) show(sess *app.ChatSession) {
	s.closeOpen()
	s.open = newConvView(s, sess)
	s.setRight(s.open.obj)
	s.open.scrollToEnd()
	s.markSelected()
	if c := fyne.CurrentApp(); c != nil && s.env.Window != nil {
		s.env.Window.Canvas().Focus(s.open.entry)
	}
}

func (s *Screen) closeOpen() {
	if s.open != nil {
		s.open.detach()
		s.open = nil
	}
}

// Submit sends the open conversation's message (Ctrl+Enter).
func (s *Screen) Submit() {
	if s.open != nil {
		s.open.send()
	}
}

// Escape stops the reply streaming in the open conversation.
func (s *Screen) Escape() {
	if s.open != nil {
		s.open.sess.Stop()
	}
}

// DropHint: files dropped on an open conversation go with the next message.
func (s *Screen) DropHint() (string, bool) {
	if s.open != nil && s.open.attach != nil {
		return s.open.attach.DropHint()
	}
	return lang.L("Open a conversation first, then drop the files on it"), false
}

func (s *Screen) Dropped(paths []string) {
	if s.open != nil && s.open.attach != nil {
		s.open.attach.Dropped(paths)
		return
	}
	if s.env.Window != nil {
		kit.ShowInformation(lang.L("Files not added"), lang.L("Open a conversation first, then drop the files on it."), s.env.Window)
	}
}

func (s *Screen) deleted(c app.Conversation) {
	if s.open != nil && s.open.sess.ID() == c.ID {
		s.closeOpen()
		s.showNoConversation()
	}
	var bar fyne.CanvasObject
	undo := kit.NewButtonWithIcon(lang.L("Undo"), theme.ContentUndoIcon(), func() {
		s.undo.Remove(bar)
		s.change(func(ctx context.Context) error { return s.a.Chats().Restore(ctx, c.ID) })
	})
	msg := screen.Wrapped(lang.L("“{{.Title}}” was deleted.", map[string]any{"Title": c.Title}))
	bar = container.NewBorder(nil, nil, nil, undo, msg)
	s.undo.Objects = []fyne.CanvasObject{bar}
	s.undo.Refresh()
	s.reload()
	time.AfterFunc(15*time.Second, func() {
		kit.Do(func() { s.undo.Remove(bar) })
	})
}

func (s *Screen) showErr(err error) {
	if s.env.Window != nil {
		kit.ShowInformation(lang.L("Something went wrong"), app.Describe(err), s.env.Window)
	}
}

func when(t time.Time) string {
	t = t.Local()
	now := time.Now()
	switch {
	case t.IsZero():
		return ""
	case now.Sub(t) < time.Minute:
		return lang.L("just now")
	case t.YearDay() == now.YearDay() && t.Year() == now.Year():
		return t.Format("15:04")
	case now.Sub(t) < 6*24*time.Hour:
		day, _, _ := strings.Cut(app.DayDate(t), " ")
		return day + " " + t.Format("15:04")
	default:
		return app.Date(t)
	}
}

// FocusFind puts the cursor in this screen's search (Ctrl+F).
func (s *Screen) FocusFind() { s.env.FocusFind(s.search) }

// ChooseAgent asks which chat agent a new conversation is with and starts it;
// pre, else the open conversation's agent, else the latest, is chosen first.
func (s *Screen) ChooseAgent(pre client.ID) {
	if pre == "" && s.open != nil {
		pre = client.ID(s.open.sess.Conversation().AgentID)
	}
	if pre == "" && len(s.convs.Items) > 0 {
		pre = client.ID(s.convs.Items[0].AgentID)
	}
	screen.ChooseAgent(s.env, screen.AgentPick{
		Type: client.AgentChat, Title: lang.L("New chat"), Action: lang.L("Start chat"), Search: lang.L("Search chat agents"), Pre: pre,
		NoneTitle: lang.L("No chat agents"), None: lang.L("This account has no agents to chat with. The Agents screen lists what it has."),
	}, func(ag app.AgentItem) { s.startWith(ag.ID) })
}

// startWith reads agent id whole first: its questions make the pickers.
func (s *Screen) startWith(id client.ID) {
	s.setRight(kit.Loading(lang.L("Starting the chat…")))
	var agent *client.Agent
	s.opening(func(ctx context.Context) (err error) {
		agent, err = s.a.Agents().Get(ctx, id)
		return err
	}, func() { s.startWith(id) }, func() { s.OpenChat(*agent) })
}
