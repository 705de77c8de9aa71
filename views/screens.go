package views

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"github.com/agentdesk/agentdesk/assets"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/agents"
	"github.com/agentdesk/agentdesk/views/batches"
	"github.com/agentdesk/agentdesk/views/chat"
	"github.com/agentdesk/agentdesk/views/files"
	"github.com/agentdesk/agentdesk/views/memories"
	"github.com/agentdesk/agentdesk/views/resources"
	"github.com/agentdesk/agentdesk/views/screen"
	"github.com/agentdesk/agentdesk/views/settings"
	"github.com/agentdesk/agentdesk/views/usage"
	"github.com/agentdesk/agentdesk/views/webhooks"
)

// ScreenSpec is one destination of the navigation rail.
type ScreenSpec struct {
	Name string
	Icon fyne.Resource
	New  func(env screen.Env) screen.Screen
}

// AgentTabSpec is a tab another screen adds to an agent's detail.
type AgentTabSpec struct {
	Name string
	Icon fyne.Resource
	New  func(env screen.Env, agent client.Agent) fyne.CanvasObject
}

// defaultScreens are the rail, in order; built with the shell because theme
// icons exist only once the app runs.
func defaultScreens() []ScreenSpec {
	return []ScreenSpec{
		{Name: screen.ScreenAgents, Icon: theme.ListIcon(), New: agents.New},
		{Name: screen.ScreenChats, Icon: assets.ChatIcon, New: chat.New},
		{Name: screen.ScreenFiles, Icon: theme.FolderIcon(), New: files.New},
		{Name: screen.ScreenMemories, Icon: theme.StorageIcon(), New: memories.New},
		{Name: screen.ScreenResources, Icon: theme.DocumentIcon(), New: resources.New},
		{Name: screen.ScreenWebhooks, Icon: theme.MailSendIcon(), New: webhooks.New},
		{Name: screen.ScreenBatches, Icon: theme.ListIcon(), New: batches.New},
		{Name: screen.ScreenUsage, Icon: theme.HistoryIcon(), New: usage.New},
		{Name: screen.ScreenSettings, Icon: theme.SettingsIcon(), New: settings.New},
	}
}

func defaultAgentTabs() []AgentTabSpec {
	return []AgentTabSpec{
		{Name: screen.ScreenFiles, Icon: theme.FileIcon(), New: files.NewAgentTab},
		{Name: screen.ScreenWebhooks, Icon: theme.MailSendIcon(), New: webhooks.NewAgentTab},
	}
}

func (s *Shell) NewAttachments() screen.Attachments { return files.NewAttachments(s.env) }
