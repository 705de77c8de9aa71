package views

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"github.com/agentdesk/agentdesk/assets"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/agents"
	"github.com/agentdesk/agentdesk/views/batches"
	"github.com/agentdesk/agentdesk/views/chat"
	"github.com/agentdesk/agentdesk/views/credits"
	"github.com/agentdesk/agentdesk/views/files"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/memories"
	"github.com/agentdesk/agentdesk/views/resources"
	"github.com/agentdesk/agentdesk/views/settings"
	"github.com/agentdesk/agentdesk/views/webhooks"
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

// screens are the navigation rail, in order; nil until the shell is first
// built, because theme icons can only be looked up once the app runs.
var screens []ScreenSpec

// defaultScreens are the navigation rail, in order. Each screen package adds
// its own line here.
func defaultScreens() []ScreenSpec {
	return []ScreenSpec{
		{Name: kit.ScreenAgents, Icon: theme.ListIcon(), New: agents.New},
		{Name: kit.ScreenChats, Icon: assets.ChatIcon, New: chat.New},
		{Name: kit.ScreenFiles, Icon: theme.FolderIcon(), New: files.New},
		{Name: kit.ScreenMemories, Icon: theme.StorageIcon(), New: memories.New},
		{Name: kit.ScreenResources, Icon: theme.DocumentIcon(), New: resources.New},
		{Name: kit.ScreenWebhooks, Icon: theme.MailSendIcon(), New: webhooks.New},
		{Name: kit.ScreenBatches, Icon: theme.ListIcon(), New: batches.New},
		{Name: kit.ScreenSettings, Icon: theme.SettingsIcon(), New: settings.New},
	}
}

// agentTabs are the extra tabs of an agent's detail, in order; set with
// screens.
var agentTabs []AgentTabSpec

func defaultAgentTabs() []AgentTabSpec {
	return []AgentTabSpec{
		{Name: kit.ScreenFiles, Icon: theme.FileIcon(), New: files.NewAgentTab},
		{Name: kit.ScreenWebhooks, Icon: theme.MailSendIcon(), New: webhooks.NewAgentTab},
	}
}

// newAttachments builds the attachment chips of chats and run forms; set by
// the files screen.
var newAttachments func(env kit.Env) kit.Attachments = files.NewAttachments

// The credits view is opened from the status bar.
func init() { showCredits = credits.Show }
