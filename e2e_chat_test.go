package main

import (
	"context"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
)

// Window-relative positions for the chat flow (1180×760 window).
const (
	chatAgentRowX, chatAgentRowY = 290, 150 // the first agent of the list, a chat agent
	startChatX, startChatY       = 770, 530
	startChatLitX, startChatLitY = 720, 535 // a spot of Start chat away from its words
)

// TestE2EChatStreamsAndStops opens a chat agent, sends a message, waits for
// the whole reply and checks storage holds it exactly as the service sent
// it; then starts a second reply, stops it with Esc and checks the partial
// text is kept and marked stopped. The service is the built-in demo's own
// code served from the test, so what it sent can be compared.
func TestE2EChatStreamsAndStops(t *testing.T) {
	srv, svc := demoservice.NewTestService(t, demoservice.Options{APIKey: e2eKey, Pace: 30 * time.Millisecond})
	const acct = e2eAccount
	e := startE2EOn(t, srv.URL, nil)
	db := e.History()
	ctx := context.Background()

	e.WaitAgentsListed()
	e.Click(chatAgentRowX, chatAgentRowY)
	e.WaitLit("the agent's Start chat", startChatLitX, startChatLitY)
	e.Screenshot("chat-1-agent")
	e.Click(startChatX, startChatY)
	e.WaitComposer()
	e.Type("How should we plan the office move?")
	e.Screenshot("chat-2-typed")
	e.Key("Return")

	var conv storage.Conversation
	e.WaitFor("the reply to finish", func() bool {
		list, err := db.ListConversations(ctx, storage.ListParams{AccountID: acct})
		if err != nil || len(list) != 1 {
			return false
		}
		conv = list[0]
		msgs, err := db.Messages(ctx, conv.ID)
		return err == nil && len(msgs) == 2 && msgs[1].Status == storage.StatusComplete
	})
	e.Screenshot("chat-3-reply")
	msgs, _ := db.Messages(ctx, conv.ID)
	ex := svc.Executions()
	if len(ex) != 1 || msgs[1].Content != ex[0].Output {
		t.Fatalf("storage should hold the reply exactly as sent:\nstored %q\nsent   %q", msgs[1].Content, ex[len(ex)-1].Output)
	}
	if msgs[0].Content != "How should we plan the office move?" {
		t.Fatalf("the question should be stored as typed, got %q", msgs[0].Content)
	}
	e.WaitComposer() // the reply drawn whole, the message box ready again

	e.Type("Make it shorter, please")
	e.Key("Return")
	e.WaitFor("the second reply to start", func() bool {
		msgs, err := db.Messages(ctx, conv.ID)
		return err == nil && len(msgs) == 4 && len(msgs[3].Content) > 20
	})
	e.Screenshot("chat-4-streaming")
	e.Key("Escape")
	e.WaitFor("the second reply to stop", func() bool {
		msgs, err := db.Messages(ctx, conv.ID)
		return err == nil && len(msgs) == 4 && msgs[3].Status == storage.StatusStopped
	})
	e.Screenshot("chat-5-stopped")
	msgs, _ = db.Messages(ctx, conv.ID)
	ex = svc.Executions()
	full := ex[len(ex)-1].Output
	if msgs[3].Content == "" || len(msgs[3].Content) > len(full) || full[:len(msgs[3].Content)] != msgs[3].Content {
		t.Fatalf("the stopped reply should keep the start of the text:\nkept %q\nfull %q", msgs[3].Content, full)
	}
}
