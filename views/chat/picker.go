package chat

import (
	"context"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

// ChooseAgent asks which chat agent a new conversation is with and starts it;
// pre, else the open conversation's agent, else the latest, is chosen first.
func (s *Screen) ChooseAgent(pre client.ID) {
	if pre == "" && s.open != nil {
		pre = client.ID(s.open.sess.Conversation().AgentID)
	}
	if pre == "" && len(s.convs) > 0 {
		pre = client.ID(s.convs[0].AgentID)
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
	s.act(func(ctx context.Context) (err error) {
		agent, err = s.a.Agents().Get(ctx, id)
		return err
	}, func(err error) {
		if err != nil {
			s.setRight(screen.Error(err, func() { s.startWith(id) }))
			return
		}
		s.OpenChat(*agent)
	})
}
