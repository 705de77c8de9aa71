// Package views is Agent Desk's window: the navigation rail, the status
// bar and the screens, each in its own package under views/.
package views

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"fyne.io/fyne/v2/lang"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/batches"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

// Shell is the window's content. Screens are built once and kept, so switching
// never loses what was typed or a stream in progress.
type Shell struct {
	env     screen.Env
	win     fyne.Window
	rail    *kit.List
	stack   *fyne.Container
	status  *StatusBar
	built   map[string]screen.Screen
	current string
	screens []ScreenSpec   // the navigation rail, in order
	tabs    []AgentTabSpec // the extra tabs of an agent's detail
}

// NewShell builds the window's content on win (no screens: defaultScreens).
func NewShell(a *app.App, win fyne.Window, screens ...ScreenSpec) *Shell {
	if screens == nil {
		screens = defaultScreens()
	}
	s := &Shell{win: win, built: map[string]screen.Screen{}, screens: screens, tabs: defaultAgentTabs()}
	s.env = screen.Env{App: a, Window: win, Nav: s}
	screen.SetSettingsOpener(func() { s.Show(screen.ScreenSettings) })
	s.stack = container.NewStack()
	s.status = NewStatusBar(s.env)
	widest := longestLabel(screens) + "  "
	s.rail = kit.NewList(
		func() int { return len(screens) },
		func() fyne.CanvasObject {
			return container.NewHBox(widget.NewIcon(nil), widget.NewLabel(widest))
		},
		func(id widget.ListItemID, o fyne.CanvasObject) {
			row := o.(*fyne.Container)
			row.Objects[0].(*widget.Icon).SetResource(screens[id].Icon)
			row.Objects[1].(*widget.Label).SetText(screen.ScreenLabel(screens[id].Name))
		})
	s.rail.OnSelected = func(id widget.ListItemID) { s.show(screens[id].Name) }
	railBox := container.NewBorder(nil, nil, nil, widget.NewSeparator(), s.rail)
	win.SetContent(kit.NewBorder(nil, s.status.Object, railBox, nil, s.stack))

	win.SetOnDropped(func(_ fyne.Position, uris []fyne.URI) {
		paths := make([]string, 0, len(uris))
		for _, u := range uris {
			if u.Scheme() == "file" {
				paths = append(paths, u.Path())
			}
		}
		s.Dropped(paths)
	})
	s.answerKeys()

	for _, n := range a.Notices() {
		kit.ShowInformation("Agent Desk", n, win)
	}
	batches.Follow(s.env)
	first := a.Settings().LastScreen
	if s.index(first) < 0 {
		first = screen.ScreenAgents
	}
	s.Show(first)
	return s
}

// answerKeys installs the window's keys; fields pass them on themselves, and
// none reaches a screen behind a dialog.
func (s *Shell) answerKeys() {
	c := s.win.Canvas()
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) {
		kit.HideTip(c)
		if kit.DialogKey(c, ev.Name) {
			return
		}
		switch ev.Name {
		case fyne.KeyEscape:
			s.Escape()
		case fyne.KeyF1:
			s.ShowKeys()
		}
	})
	add := func(sc fyne.Shortcut, do func()) {
		c.AddShortcut(sc, func(fyne.Shortcut) {
			kit.HideTip(c)
			if !s.overlaid() {
				do()
			}
		})
	}
	add(kit.SearchShortcut, s.ShowCommandBox)
	add(kit.FindShortcut, s.FocusFind)
	add(kit.NewChatShortcut, s.ChooseChatAgent)
	add(kit.KeysShortcut, s.ShowKeys)
	for _, sc := range kit.LargerTextShortcuts {
		add(sc, func() { s.StepTextSize(1) })
	}
	add(kit.SmallerTextShortcut, func() { s.StepTextSize(-1) })
	add(kit.NormalTextShortcut, func() { s.StepTextSize(0) })
	for _, sc := range kit.NextTabShortcuts {
		add(sc, func() { s.MoveTab(1) })
	}
	for _, sc := range kit.PrevTabShortcuts {
		add(sc, func() { s.MoveTab(-1) })
	}
	for i, sc := range kit.ScreenShortcuts {
		if i < len(s.screens) {
			name := s.screens[i].Name
			add(sc, func() { s.Show(name) })
		}
	}
	// Ctrl+Enter where no field has the keyboard.
	for _, key := range []fyne.KeyName{fyne.KeyReturn, fyne.KeyEnter} {
		add(&desktop.CustomShortcut{KeyName: key, Modifier: fyne.KeyModifierShortcutDefault}, s.Submit)
	}
}

func (s *Shell) Current() string { return s.current }

// Screen returns a built screen by name, building it if needed.
func (s *Shell) Screen(name string) screen.Screen {
	if sc, ok := s.built[name]; ok {
		return sc
	}
	i := s.index(name)
	if i < 0 {
		return nil
	}
	sc := s.screens[i].New(s.env)
	s.built[name] = sc
	return sc
}

// index is where the rail has screen name, -1 when it has not.
func (s *Shell) index(name string) int {
	return slices.IndexFunc(s.screens, func(sp ScreenSpec) bool { return sp.Name == name })
}

func (s *Shell) Show(name string) {
	if i := s.index(name); i >= 0 {
		s.rail.Select(i) // calls show through OnSelected
	}
}

func (s *Shell) show(name string) {
	sc := s.Screen(name)
	if sc == nil {
		return
	}
	kit.HideTip(s.win.Canvas())
	if s.current != name {
		s.current = name
		kit.SetBody(s.stack, sc.Content())
		s.env.App.SaveSettingsLater(func(st *app.Settings) { st.LastScreen = name })
		// Focus moves to the new screen: typing in a hidden one would go unseen.
		if c := s.win.Canvas(); c != nil && !s.overlaid() {
			kit.FocusFirst(c, sc.Content())
		}
	}
	sc.Shown()
}

func longestLabel(screens []ScreenSpec) string {
	width := func(sp ScreenSpec) int { return utf8.RuneCountInString(screen.ScreenLabel(sp.Name)) }
	return screen.ScreenLabel(slices.MaxFunc(screens, func(a, b ScreenSpec) int { return width(a) - width(b) }).Name)
}

// DropHint says what dropping files does now; takes is false when refused.
func (s *Shell) DropHint() (hint string, takes bool) {
	if dt, ok := s.built[s.current].(screen.DropTarget); ok {
		return dt.DropHint()
	}
	return lang.L("Files can't be added here. Open a chat, an agent or the Files screen, then drop them"), false
}

// Dropped gives dropped files to the visible screen, or says it takes none.
func (s *Shell) Dropped(paths []string) {
	if len(paths) == 0 {
		return
	}
	if dt, ok := s.built[s.current].(screen.DropTarget); ok {
		dt.Dropped(paths)
		return
	}
	kit.ShowInformation(lang.L("Files not added"),
		lang.L("Drop files on a chat, an agent's form, an agent's Files tab or the Files screen to upload them."), s.win)
}

func (s *Shell) Submit() {
	if !s.overlaid() {
		tell(s, "", kit.Submitter.Submit)
	}
}

// Escape gives Esc to the visible screen unless a dialog or pop-up is open:
// Esc there never stops the run or reply behind it.
func (s *Shell) Escape() {
	if !s.overlaid() {
		tell(s, "", screen.Escaper.Escape)
	}
}

func (s *Shell) overlaid() bool { return s.win.Canvas().Overlays().Top() != nil }

// tell shows screen name ("": the one on show) and has it do what it
// answers to, when it does.
func tell[T any](s *Shell, name string, do func(T)) {
	if name == "" {
		name = s.current
	} else {
		s.Show(name)
	}
	if t, ok := s.built[name].(T); ok {
		do(t)
	}
}

func (s *Shell) FocusFind() { tell(s, "", screen.Finder.FocusFind) }

func (s *Shell) MoveTab(delta int) {
	tell(s, "", func(t screen.Tabbed) { t.MoveTab(delta) })
}

// ShowKeys lists the keys Agent Desk answers to (F1, Ctrl+/).
// StepTextSize makes text larger (1), smaller (-1) or normal (0) and keeps
// it; done at once, not in the background, so quick presses add up in
// order (the redraw that follows costs far more than the write). A size
// that could not be kept still applies, and a dialog says so.
func (s *Shell) StepTextSize(steps int) {
	if err := s.env.App.UpdateSettings(context.Background(), app.StepTextSize(steps)); err != nil {
		kit.ShowInformation(lang.L("Text size"), lang.L("The theme applies now but could not be saved for next time. {{.Why}}", map[string]any{"Why": app.Describe(err)}), s.win)
	}
}

func (s *Shell) ShowKeys() {
	if s.overlaid() {
		return
	}
	d := dialog.NewCustom(lang.L("Keyboard shortcuts"), lang.L("Close"), keysSheet(s.screens), s.win)
	d.Resize(fyne.NewSize(min(s.win.Canvas().Size().Width*0.9, 600), 0))
	kit.ShowDialog(d, s.win)
}

func keysSheet(screens []ScreenSpec) fyne.CanvasObject {
	names := make([]string, 0, len(screens))
	for _, sp := range screens {
		names = append(names, screen.ScreenLabel(sp.Name))
	}
	last := min(len(screens), len(kit.ScreenShortcuts))
	rows := [][2]string{
		{kit.CtrlName("1") + " … " + kit.CtrlName(strconv.Itoa(last)), lang.L("Go to {{.Screens}}", map[string]any{"Screens": strings.Join(names[:last], ", ")})},
		{kit.CtrlName("K"), lang.L("Find anything: an agent, a chat, a memory, a screen or an action")},
		{kit.CtrlName("F"), lang.L("Search on this screen")},
		{kit.CtrlName("N"), lang.L("New chat")},
		{"Ctrl+Tab, Ctrl+Shift+Tab", lang.L("Next or previous tab (an agent's Run, History, Files)")},
		{kit.CtrlEnterName, lang.L("Run the agent, or send the message (uses credits)")},
		{"Esc", lang.L("Stop the reply or the run; close a dialog")},
		{"Enter", lang.L("Press a dialog's main button")},
		{"Tab, Shift+Tab", lang.L("Go to the next or the previous control")},
		{lang.L("Space"), lang.L("Press the button that has the keyboard; tick a box")},
		{kit.CtrlName("+") + ", " + kit.CtrlName("-") + ", " + kit.CtrlName("0"), lang.L("Larger text, smaller text, normal text")},
		{"F1, " + kit.CtrlName("/"), lang.L("This list")},
	}
	grid := container.New(layout.NewFormLayout())
	for _, r := range rows {
		grid.Add(widget.NewLabelWithStyle(r[0], fyne.TextAlignTrailing, fyne.TextStyle{Bold: true}))
		grid.Add(screen.Wrapped(r[1]))
	}
	return grid
}

func (s *Shell) OpenAgentWith(agent app.AgentItem, request string) {
	tell(s, screen.ScreenAgents, func(o interface{ OpenWith(app.AgentItem, string) }) { o.OpenWith(agent, request) })
}

func (s *Shell) OpenChat(agent client.Agent) {
	tell(s, screen.ScreenChats, func(c interface{ OpenChat(client.Agent) }) { c.OpenChat(agent) })
}

// ChooseChatAgent prefers the chat agent on the agents screen.
func (s *Shell) ChooseChatAgent() {
	var pre client.ID
	if a, ok := s.built[screen.ScreenAgents].(interface{ ShownAgent() (client.Agent, bool) }); ok {
		if ag, ok := a.ShownAgent(); ok && ag.Type == client.AgentChat {
			pre = ag.ID
		}
	}
	tell(s, screen.ScreenChats, func(c interface{ ChooseAgent(pre client.ID) }) { c.ChooseAgent(pre) })
}

func (s *Shell) OpenConversation(id int64) {
	tell(s, screen.ScreenChats, func(c interface{ OpenConversation(int64) }) { c.OpenConversation(id) })
}

func (s *Shell) AgentTabs(agent client.Agent) []*container.TabItem {
	tabs := make([]*container.TabItem, 0, len(s.tabs))
	for _, t := range s.tabs {
		tabs = append(tabs, container.NewTabItemWithIcon(screen.ScreenLabel(t.Name), t.Icon, t.New(s.env, agent)))
	}
	return tabs
}

var restartAsked atomic.Bool

// RestartAsked tells main to start Agent Desk again after its window closed.
func RestartAsked() bool { return restartAsked.Load() }

func (s *Shell) Restart() {
	restartAsked.Store(true)
	s.win.Close()
}

// sizeKeeper hands each new window size to the app, which saves it.
type sizeKeeper struct {
	a    *app.App
	win  fyne.Window
	size fyne.Size // the last size laid out (UI goroutine only)
}

// MinSize is capped at WindowMin: Fyne grows a window whose content asks for
// more, and that size would be saved as the user's. Content is cut instead.
func (k *sizeKeeper) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var min fyne.Size
	for _, o := range objects {
		min = min.Max(o.MinSize())
	}
	return kit.CapSize(min, WindowMin)
}

// WindowMin is the most content may ask for; it fits an 800×600 screen.
var WindowMin = fyne.NewSize(720, 480)

func (k *sizeKeeper) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objects {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
	size = k.win.Canvas().Size()
	if size == k.size || size.Width <= 0 {
		return
	}
	k.size = size
	k.a.SetWindowSize(size.Width, size.Height)
}

// keepSize wraps the content to remember its size; call again after replacing it.
func (k *sizeKeeper) keepSize(win fyne.Window) {
	win.SetContent(container.New(k, win.Content(), kit.NewLayer(win.Canvas())))
}

// rememberSize saves the window's size; call keepSize again on new content.
func rememberSize(a *app.App, win fyne.Window) *sizeKeeper {
	k := &sizeKeeper{a: a, win: win}
	k.keepSize(win)
	win.SetOnClosed(func() { _ = a.FlushDrafts() })
	return k
}
