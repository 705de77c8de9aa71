package app_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/storage"
)

// TestNothingOutlivesClose uses the app as a person would for a moment (a
// chat reply, a run, the memories' lists, drafts, a settings write) and
// closes it: no goroutine it started may be left running.
func TestNothingOutlivesClose(t *testing.T) {
	before := runtime.NumGoroutine()
	zero := time.Duration(0)
	ctx := context.Background()
	a, err := app.Open(ctx, app.Config{Paths: storage.PathsIn(t.TempDir()), DemoPace: &zero, Keyring: apptest.NewKeyring()})
	if err != nil {
		t.Fatal(err)
	}
	s, err := a.NewChat(ctx, getAgent(t, a, "101"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(ctx, "Plan the offsite", nil); err != nil {
		t.Fatal(err)
	}
	s.Wait()
	ar, err := a.NewRunner().Start(getAgent(t, a, "119"), map[string]string{"tone": "formal", "length": "120"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	<-ar.Done()
	if _, err := a.SyncMemories(ctx); err != nil {
		t.Fatal(err)
	}
	a.SetMemoryDraft("", "Half a thought", "")
	a.SetAnswerDraft("119", map[string]string{"tone": "formal"})
	a.SaveSettingsLater(func(st *app.Settings) { st.LastScreen = "Memories" })
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	// Connections and timers wind down on their own schedule: allow them a
	// moment, then every goroutine the app started must be gone.
	deadline := time.Now().Add(3 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before {
		buf := make([]byte, 1<<20)
		t.Fatalf("%d goroutines before the app, %d after it closed:\n%s", before, after, buf[:runtime.Stack(buf, true)])
	}
}
