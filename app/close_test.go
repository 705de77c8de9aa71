package app_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
)

// TestNothingOutlivesClose uses the app as a person would for a moment (a
// chat reply, a run, the memories' lists, drafts, a settings write) and
// closes it: no goroutine it started may be left running.
func TestNothingOutlivesClose(t *testing.T) {
	before := runtime.NumGoroutine()
	ctx := context.Background()
	a, err := app.Open(ctx, app.Config{Paths: storage.PathsIn(t.TempDir()), StartDemo: apptest.DemoStarter(demoservice.Options{}), Keyring: apptest.NewKeyring()})
	if err != nil {
		t.Fatal(err)
	}
	s, err := a.Chats().New(ctx, getAgent(t, a, "101"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(ctx, "Plan the offsite", nil); err != nil {
		t.Fatal(err)
	}
	s.Wait()
	ar, err := a.Runs().Runner().Start(getAgent(t, a, "119"), map[string]string{"prompt": "A short note inviting the team to lunch on Friday", "tone": "formal", "length": "120"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	<-ar.Done()
	if _, err := a.Memories().Sync(ctx); err != nil {
		t.Fatal(err)
	}
	a.Memories().SetDraft("", "Half a thought", "")
	a.Agents().SetAnswerDraft("119", map[string]string{"tone": "formal"})
	a.SaveSettingsLater(func(st *app.Settings) { st.LastScreen = "Memories" })
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	// Connections and timers wind down on their own schedule: allow them a
	// moment, then every goroutine the app started must be gone.
	apptest.NothingOutlives(t, before, nil)
}

// TestClosingMidReplyKeepsItsText closes Agent Desk while a reply streams:
// the text received so far is kept, marked as cut short by the closing, and
// nothing of the reply is left running.
func TestClosingMidReplyKeepsItsText(t *testing.T) {
	before := runtime.NumGoroutine()
	pace := 30 * time.Millisecond
	ctx := context.Background()
	paths := storage.PathsIn(t.TempDir())
	cfg := app.Config{Paths: paths, StartDemo: apptest.DemoStarter(demoservice.Options{Pace: pace}), Keyring: apptest.NewKeyring()}
	a, err := app.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	s, err := a.Chats().New(ctx, getAgent(t, a, "101"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(ctx, "Write a long memo about the office move", nil); err != nil {
		t.Fatal(err)
	}
	for st, _ := s.State().Snapshot(); len(st.Live) < 20; st, _ = s.State().Snapshot() {
		time.Sleep(5 * time.Millisecond)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	apptest.NothingOutlives(t, before, nil)
	b, err := app.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	msgs, err := b.DB().Messages(ctx, s.ID())
	if err != nil || len(msgs) != 2 {
		t.Fatalf("after reopening: %d messages, %v", len(msgs), err)
	}
	if r := msgs[1]; r.Status != app.MessageInterrupted || len(r.Content) < 20 {
		t.Fatalf("the reply cut by closing: status %q, %d characters kept", r.Status, len(r.Content))
	}
}
