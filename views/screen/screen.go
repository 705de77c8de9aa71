// Package screen ties a screen to the app: its environment (Env), the
// navigation it can ask for (Nav), account following and shared error
// states. Widgets that need no app are in views/kit.
package screen

import (
	"net/url"
	"time"

	"github.com/agentdesk/agentdesk/views/kit"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/kit/richtext"
)

// Env is what a screen is built with.
type Env struct {
	App    *app.App
	Window fyne.Window
	Nav    Nav
	// Opener hands a link, file or folder to the system; nil is the desktop's.
	Opener func(*url.URL) error
	// PickerDelay is the typing pause before an agent search; 0 is the default.
	PickerDelay time.Duration
}

// Open hands u to the system through Opener.
func (e Env) Open(u *url.URL) error {
	if e.Opener != nil {
		return e.Opener(u)
	}
	return fyne.CurrentApp().OpenURL(u)
}

// Focus gives o the keyboard, when there is a window.
func (e Env) Focus(o fyne.Focusable) {
	if e.Window != nil {
		e.Window.Canvas().Focus(o)
	}
}

// FocusFind gives the keyboard to a screen's search with what it holds
// selected (Ctrl+F), as desktop apps do: what is typed next replaces it.
func (e Env) FocusFind(search *kit.FormEntry) {
	e.Focus(search)
	search.TypedShortcut(&fyne.ShortcutSelectAll{})
}

// Nav lets a screen move the user elsewhere without knowing the others.
type Nav interface {
	// Show switches to a screen of the rail by name (ScreenAgents, ...).
	Show(screen string)
	// OpenChat starts a new conversation with a chat agent.
	OpenChat(agent client.Agent)
	// ChooseChatAgent asks which chat agent to start a conversation with.
	ChooseChatAgent()
	// OpenConversation continues a stored conversation.
	OpenConversation(id int64)
	// AgentTabs are extra tabs other screens add to an agent's detail.
	AgentTabs(agent client.Agent) []*container.TabItem
	// NewAttachments makes file chips for the next execution; nil when unavailable.
	NewAttachments() Attachments
	// OpenAgentWith shows an agent with request written in its form.
	OpenAgentWith(agent app.AgentItem, request string)
	// Restart closes the window (saving as any close does) to start again.
	Restart()
}

// Screen is one destination of the navigation rail.
type Screen interface {
	// Content is built once and kept: switching screens never loses state.
	Content() fyne.CanvasObject
	// Shown is called each time the user comes to the screen.
	Shown()
}

// DropTarget accepts files dropped on the window (given to the visible screen).
type DropTarget interface {
	Dropped(paths []string)
	// DropHint says what a drop does now; takes is false when it would be
	// refused, the hint then saying what to do.
	DropHint() (hint string, takes bool)
}

// Finder is a screen with its own search for Ctrl+F.
type Finder interface {
	FocusFind()
}

// Tabbed is a screen with tabs: Ctrl+Tab and friends move by delta tabs.
type Tabbed interface {
	MoveTab(delta int)
}

// Escaper is a screen that reacts to Esc.
type Escaper interface {
	Escape()
}

// Attachments are files attached to the next execution, shown as chips.
type Attachments interface {
	DropTarget
	// Object is the chips row (empty and small when nothing is attached).
	Object() fyne.CanvasObject
	// FileIDs are the attached files that finished uploading.
	FileIDs() []client.ID
	// Pending reports uploads still running; sending waits for them.
	Pending() bool
	// State is the uploads, for a sender to wait on.
	State() live.Observable[app.UploadsState]
	// Clear removes every chip (after a send).
	Clear()
	// AddFiles opens the system file dialog.
	AddFiles()
}

// ScreenLabel is a screen's (or agent tab's) name in the language in use.
func ScreenLabel(name string) string {
	labels := map[string]string{
		ScreenAgents:    lang.L("Agents"),
		ScreenChats:     lang.L("Chats"),
		ScreenFiles:     lang.L("Files"),
		ScreenMemories:  lang.L("Memories"),
		ScreenResources: lang.L("Resources"),
		ScreenWebhooks:  lang.L("Webhooks"),
		ScreenBatches:   lang.L("Batches"),
		ScreenUsage:     lang.L("Usage"),
		ScreenSettings:  lang.L("Settings"),
	}
	if l, ok := labels[name]; ok {
		return l
	}
	return name
}

// Names of the rail's screens, also kept in settings; ScreenLabel is for users.
const (
	ScreenAgents    = "Agents"
	ScreenChats     = "Chats"
	ScreenFiles     = "Files"
	ScreenMemories  = "Memories"
	ScreenResources = "Resources"
	ScreenWebhooks  = "Webhooks"
	ScreenBatches   = "Batches"
	ScreenUsage     = "Usage"
	ScreenSettings  = "Settings"
)

// Pictures is the app as kit's pictures need it.
func Pictures(a *app.App) richtext.Pictures { return pictures{a} }

type pictures struct{ *app.App }

func (pictures) Describe(err error) string { return app.Describe(err) }

// NoNav is the Nav of a screen shown alone (in tests): it offers no other screens.
type NoNav struct{}

func (NoNav) Show(string)                                 {}
func (NoNav) OpenChat(client.Agent)                       {}
func (NoNav) ChooseChatAgent()                            {}
func (NoNav) OpenConversation(int64)                      {}
func (NoNav) AgentTabs(client.Agent) []*container.TabItem { return nil }
func (NoNav) NewAttachments() Attachments                 { return nil }
func (NoNav) Restart()                                    {}
func (NoNav) OpenAgentWith(app.AgentItem, string)         {}
