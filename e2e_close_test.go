package main

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
)

// TestE2EEndingKeepsWhatWasTyped types into a chat's message box and asks
// the real binary to end (SIGTERM) before the draft's pause in typing has
// passed: it ends within endLimit with the words saved. Started again, the
// chat shows them; more typed, the window is asked to close (its close
// button): ended within endLimit, saved. Once more, and the display goes
// away under the program: saved again, where Xlib would have ended it at
// once.
func TestE2EEndingKeepsWhatWasTyped(t *testing.T) {
	srv, _ := demoservice.NewTestService(t, demoservice.Options{APIKey: e2eKey})
	const acct = e2eAccount
	e := startE2EOn(t, srv.URL, nil)
	db := e.History()
	draft := func() string {
		list, err := db.ListConversations(context.Background(), storage.ListParams{AccountID: acct})
		if err != nil || len(list) != 1 {
			t.Fatalf("want one conversation: %v %+v", err, list)
		}
		return list[0].Draft
	}

	e.WaitAgentsListed()
	e.Click(chatAgentRowX, chatAgentRowY)
	e.WaitLit("the agent's Start chat", startChatLitX, startChatLitY)
	e.Click(startChatX, startChatY)
	e.WaitComposer()
	e.Type("Notes for Monday")
	e.WaitStill("the words typed drawn")
	took := e.End(syscall.SIGTERM)
	t.Logf("ended %v after SIGTERM", took.Round(time.Millisecond))
	// The program's own limit is endLimit; the rest is room for a busy
	// machine to run the process at all.
	if took > 2*endLimit {
		t.Errorf("SIGTERM ended the program after %v, want within %v", took, endLimit)
	}
	if got := draft(); got != "Notes for Monday" {
		t.Fatalf("after SIGTERM the draft is %q", got)
	}

	reopen := func(more string) {
		t.Helper()
		e.launch()
		e.Key("ctrl+2")
		e.WaitStill("the Chats screen")
		e.Click(chatAgentRowX, chatListFirstY)
		e.WaitComposer()
		e.Key("End")
		e.Type(more)
		e.WaitStill("the words typed drawn")
	}
	reopen(" and Tuesday")
	e.Screenshot("ending-1-draft-back")
	e.AskToClose() // the window's close button
	took = e.waitEnded(time.Now())
	t.Logf("ended %v after the window was asked to close", took.Round(time.Millisecond))
	if took > 2*endLimit {
		t.Errorf("closing the window ended the program after %v, want within %v", took, endLimit)
	}
	if got := draft(); got != "Notes for Monday and Tuesday" {
		t.Fatalf("after the window closed the draft is %q", got)
	}

	reopen(" and Wednesday")
	took = e.LoseDisplay()
	t.Logf("ended %v after the display went away", took.Round(time.Millisecond))
	if got := draft(); got != "Notes for Monday and Tuesday and Wednesday" {
		t.Fatalf("after the display went away the draft is %q", got)
	}
	if !strings.Contains(e.log.String(), "the display went away") {
		t.Fatalf("the program did not say why it ended:\n%s", e.log.String())
	}
}

// chatListFirstY is the first conversation's row on the Chats screen.
const chatListFirstY = 110

// End sends sig to the program and waits for it to end, up to e2eWait.
func (e *E2E) End(sig os.Signal) time.Duration {
	e.t.Helper()
	start := time.Now()
	_ = e.app.Process.Signal(sig)
	return e.waitEnded(start)
}

// LoseDisplay ends the display's server under the program and waits for
// the program to end.
func (e *E2E) LoseDisplay() time.Duration {
	e.t.Helper()
	start := time.Now()
	_ = e.xvfb.Process.Kill()
	return e.waitEnded(start)
}

func (e *E2E) waitEnded(start time.Time) time.Duration {
	e.t.Helper()
	done := make(chan struct{})
	go func() {
		_ = e.app.Wait()
		close(done)
	}()
	select {
	case <-done:
		return time.Since(start)
	case <-time.After(e2eWait):
		_ = e.app.Process.Kill()
		<-done
		e.t.Fatalf("the program did not end within %v:\n%s", e2eWait, e.log.String())
		return 0
	}
}
