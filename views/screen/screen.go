// Package screen is what ties a screen of Agent Desk to the app: the
// environment a screen is built with (Env), the navigation it can ask for
// (Nav), how it follows the account (OnAccountChange), and the app's
// problems shown alike everywhere (Error). Widgets that need no app are in
// views/kit.
package screen

import (
	"net/url"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/kit"
)

// Env is what a screen is built with.
type Env struct {
	App    *app.App
	Window fyne.Window
	Nav    Nav
	// Opener hands a link, file or folder to the system (the browser, the
	// file manager); nil is the desktop's own (fyne.App.OpenURL). Tests
	// give one that records instead.
	Opener func(*url.URL) error
	// PickerDelay is how long typing in an agent picker's search must
	// pause before the service is asked; 0 is 300 ms.
	PickerDelay time.Duration
}

// Open hands u to the system through Opener.
func (e Env) Open(u *url.URL) error {
	if e.Opener != nil {
		return e.Opener(u)
	}
	return fyne.CurrentApp().OpenURL(u)
}

// Nav lets a screen move the user elsewhere without knowing the others.
type Nav interface {
	// Show switches to a screen of the navigation rail by its name
	// (ScreenAgents, ScreenChats, ...).
	Show(screen string)
	// OpenChat starts a new conversation with a chat agent.
	OpenChat(agent client.Agent)
	// ChooseChatAgent asks which chat agent a new conversation is with
	// (the one on show chosen first), and starts it.
	ChooseChatAgent()
	// OpenConversation continues a stored conversation.
	OpenConversation(id int64)
	// AgentTabs are the extra tabs of an agent's detail that other screens
	// provide (its files, its webhooks).
	AgentTabs(agent client.Agent) []*container.TabItem
	// NewAttachments makes the file chips a chat composer or run form uses
	// for files attached to the next execution; nil when unavailable.
	NewAttachments() Attachments
	// ShowCredits opens the credits view.
	ShowCredits()
	// OpenAgentWith shows an agent with request written in its form's
	// request (a resource used as a template), for the user to finish.
	OpenAgentWith(agent app.AgentItem, request string)
	// Restart closes the window for Agent Desk to start again (what was
	// typed is saved first, as on any close).
	Restart()
}

// Screen is one destination of the navigation rail.
type Screen interface {
	// Content is built once and kept: switching screens never loses state.
	Content() fyne.CanvasObject
	// Shown is called each time the user comes to the screen.
	Shown()
}

// DropTarget is implemented by screens (or parts of them) that accept files
// dropped on the window. The shell gives a drop to the visible screen.
type DropTarget interface {
	Dropped(paths []string)
	// DropHint says what a drop does now, for the highlight while files
	// are dragged over the window; takes is false when the drop would be
	// refused (no conversation open), the hint then saying what to do.
	DropHint() (hint string, takes bool)
}

// Finder is implemented by screens with a search of their own: Ctrl+F
// puts the cursor in it.
type Finder interface {
	FocusFind()
}

// Tabbed is implemented by screens that show tabs: Ctrl+Tab and
// Ctrl+Shift+Tab (or Ctrl+Page Down, Page Up) move by delta tabs.
type Tabbed interface {
	MoveTab(delta int)
}

// Escaper is implemented by screens that react to Esc (cancel a run, stop a
// stream).
type Escaper interface {
	Escape()
}

// Attachments are files attached to the next execution, shown as removable
// chips with their upload progress.
type Attachments interface {
	DropTarget
	// Object is the chips row (empty and small when nothing is attached).
	Object() fyne.CanvasObject
	// FileIDs are the ids of the attached files that finished uploading.
	FileIDs() []client.ID
	// Pending reports uploads still running; sending waits for them.
	Pending() bool
	// State is the attached files' uploads, for a sender to wait on.
	State() app.Observable[app.UploadsState]
	// Clear removes every chip (after a send).
	Clear()
	// AddFiles opens the system file dialog ("Add files…").
	AddFiles()
}

// ScreenLabel is how a screen (or an agent's tab) of that name is called
// in the language in use.
func ScreenLabel(name string) string {
	switch name {
	case ScreenAgents:
		return lang.L("Agents")
	case ScreenChats:
		return lang.L("Chats")
	case ScreenFiles:
		return lang.L("Files")
	case ScreenMemories:
		return lang.L("Memories")
	case ScreenResources:
		return lang.L("Resources")
	case ScreenWebhooks:
		return lang.L("Webhooks")
	case ScreenBatches:
		return lang.L("Batches")
	case ScreenSettings:
		return lang.L("Settings")
	}
	return name
}

// Names of the screens of the navigation rail (and of the settings that
// remember the last): ScreenLabel is what the user reads.
const (
	ScreenAgents    = "Agents"
	ScreenChats     = "Chats"
	ScreenFiles     = "Files"
	ScreenMemories  = "Memories"
	ScreenResources = "Resources"
	ScreenWebhooks  = "Webhooks"
	ScreenBatches   = "Batches"
	ScreenSettings  = "Settings"
)

// Pictures is the app as kit's pictures need it: app.Describe says why one
// is not shown.
func Pictures(a *app.App) kit.Pictures { return pictures{a} }

type pictures struct{ *app.App }

func (pictures) Describe(err error) string { return app.Describe(err) }
