package views

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/agents"
	"github.com/agentdesk/agentdesk/views/files"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/settings"
)

// ScreenSpec is one destination of the navigation rail.
type ScreenSpec struct {
	Name string
	Icon fyne.Resource
	New  func(env kit.Env) kit.Screen
}

// AgentTabSpec is a tab another screen adds to an agent's detail.
type AgentTabSpec struct {
	Name string
	Icon fyne.Resource
	New  func(env kit.Env, agent client.Agent) fyne.CanvasObject
}

// screens are the navigation rail, in order. Each screen package adds its
// own line here.
var screens = []ScreenSpec{
	{Name: kit.ScreenAgents, Icon: theme.ListIcon(), New: agents.New},
	{Name: kit.ScreenFiles, Icon: theme.FolderIcon(), New: files.New},
	{Name: kit.ScreenSettings, Icon: theme.SettingsIcon(), New: settings.New},
}

// agentTabs are the extra tabs of an agent's detail, in order.
var agentTabs = []AgentTabSpec{
	{Name: "Files", Icon: theme.FileIcon(), New: files.NewAgentTab},
}

// newAttachments builds the attachment chips of chats and run forms; set by
// the files screen.
var newAttachments func(env kit.Env) kit.Attachments = files.NewAttachments

var _ = container.NewTabItem
