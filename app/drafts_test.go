package app_test

import (
	"context"
	"testing"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
)

// TestMemoryDraftsTypedJustBeforeQuittingAreKept types into a memory and a
// new one, quits within the pause the drafts wait for, and opens again:
// every character is there.
func TestMemoryDraftsTypedJustBeforeQuittingAreKept(t *testing.T) {
	ctx := context.Background()
	a, cfg := openToQuit(t)
	m, err := a.Memories().Create(ctx, app.MemoryEdit{Content: "Office hours are 9 to 5."})
	if err != nil {
		t.Fatal(err)
	}
	a.Memories().SetDraft(m.ID, "Office hours are 9 to 5, Fridays 9 to 3.", "")
	a.Memories().SetDraft("", "Parking is behind the building", "")
	b := quitAndReopen(t, a, cfg)
	if e, err := b.Memories().Get(ctx, m.ID); err != nil || e.Draft != "Office hours are 9 to 5, Fridays 9 to 3." {
		t.Fatalf("the edit typed before quitting: %q, %v", e.Draft, err)
	}
	if text, _, err := b.Memories().NewDraft(ctx); err != nil || text != "Parking is behind the building" {
		t.Fatalf("the new memory typed before quitting: %q, %v", text, err)
	}
}

// TestFormAnswersTypedJustBeforeQuittingAreKept: answers typed into a form
// and not run are there when the form opens again after a quick quit.
func TestFormAnswersTypedJustBeforeQuittingAreKept(t *testing.T) {
	ctx := context.Background()
	a, cfg := openToQuit(t)
	agent, err := a.Client().GetAgent(ctx, "119")
	if err != nil {
		t.Fatal(err)
	}
	a.Agents().SetAnswerDraft(agent.ID, map[string]string{"tone": "formal", "length": "7"})
	a.Agents().SetAnswerDraft(agent.ID, map[string]string{"tone": "formal", "length": "75"})
	b := quitAndReopen(t, a, cfg)
	if got := b.Agents().LastAnswers(*agent); got["tone"] != "formal" || got["length"] != "75" {
		t.Fatalf("the answers typed before quitting: %v", got)
	}
}

// TestChatDraftAndWindowSizeJustBeforeQuittingAreKept: a message typed key
// by key into a chat, and the window resized, then a quit at once: the
// whole message and the size are there next time.
func TestChatDraftAndWindowSizeJustBeforeQuittingAreKept(t *testing.T) {
	ctx := context.Background()
	a, cfg := openToQuit(t)
	agent, err := a.Client().GetAgent(ctx, "101")
	if err != nil {
		t.Fatal(err)
	}
	s, err := a.Chats().New(ctx, *agent)
	if err != nil {
		t.Fatal(err)
	}
	const msg = "Can you draft the rota for the Christmas week?"
	for i := 1; i <= len(msg); i++ {
		s.SetDraft(msg[:i])
	}
	a.SetWindowSize(1111, 777)
	b := quitAndReopen(t, a, cfg)
	again, err := b.Chats().Open(ctx, s.ID())
	if err != nil {
		t.Fatal(err)
	}
	if got := again.Conversation().Draft; got != msg {
		t.Fatalf("the message typed before quitting: %q, want %q", got, msg)
	}
	if st := b.Settings(); st.WindowWidth != 1111 || st.WindowHeight != 777 {
		t.Fatalf("the window size before quitting: %v×%v", st.WindowWidth, st.WindowHeight)
	}
}

// quitAndReopen closes a at once (within the pause drafts wait for) and
// opens Agent Desk again on the same folders.
func quitAndReopen(t *testing.T, a *app.App, cfg app.Config) *app.App {
	t.Helper()
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := app.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

// openToQuit opens Agent Desk on fresh folders that quitAndReopen opens
// again; the test closes it.
func openToQuit(t *testing.T) (*app.App, app.Config) {
	t.Helper()
	cfg := app.Config{Paths: storage.PathsIn(t.TempDir()), StartDemo: apptest.DemoStarter(demoservice.Options{}), Keyring: apptest.NewKeyring()}
	a, err := app.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return a, cfg
}
