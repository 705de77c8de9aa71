package chat

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
)

// TestSendShowsTheMessageAtOnceAndStopCancelsBeforeTheFirstByte: with a
// service slow to answer, Enter shows the message, a line saying the reply
// is awaited and Stop in the same frame; Esc before the first byte gives
// up: nothing is stored, and the text is back in the composer to send again.
func TestSendShowsTheMessageAtOnceAndStopCancelsBeforeTheFirstByte(t *testing.T) {
	s, a := openScreen(t)
	v := startChat(t, s, a)
	s.goFn = func(f func()) { go f() } // the send really waits on the service
	apptest.Demo(a).Service.SetFaults(demoservice.Faults{SlowFirstByte: 20 * time.Second})
	test.Type(v.entry, "Summarise the meeting")
	v.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})

	// Nothing drained: what shows now showed in the frame of the key press.
	if len(v.msgs) != 2 || v.msgs[0].Content != "Summarise the meeting" {
		t.Fatalf("the message should show at once, the list holds %+v", v.msgs)
	}
	row, _ := v.rowObject(v.msgs[1], true, false, nil)
	if !strings.Contains(kittest.AllText(row), "Waiting for the agent") {
		t.Fatalf("a line should say the reply is awaited, it says %q", kittest.AllText(row))
	}
	if !v.stopBtn.Visible() || v.sendBtn.Visible() {
		t.Fatal("Stop should take Send's place at once")
	}

	// Esc once the request is on its way, before the service answers.
	ui(s).WaitUntil(t, func() bool { st, _ := v.sess.State().Snapshot(); return st.Phase == app.ChatSending },
		func() string { st, _ := v.sess.State().Snapshot(); return fmt.Sprint(st.Phase) })
	s.Escape()
	ui(s).WaitUntil(t, func() bool { return v.pending == "" }, func() string { return "still sending" })
	if v.errText.Text != StoppedBeforeReply() {
		t.Fatalf("after Stop the line under the composer should say what happened, it says %q", v.errText.Text)
	}
	if msgs, _ := a.DB().Messages(context.Background(), v.sess.ID()); len(msgs) != 0 {
		t.Fatalf("a message the service never took should not be stored, got %+v", msgs)
	}
	if len(v.msgs) != 0 || v.entry.Text != "Summarise the meeting" || !v.sendBtn.Visible() {
		t.Fatalf("after Stop the text should be back in the composer to send again: list %d, composer %q", len(v.msgs), v.entry.Text)
	}
}
