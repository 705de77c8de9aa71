package chat

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
)

// A message whose reply would take the day past the daily limit asks
// first; Cancel sends nothing and keeps the message in the box.
func TestAMessagePastTheDailyLimitAsksFirst(t *testing.T) {
	s, a := openScreen(t)
	v := startChat(t, s, a)
	enter := &fyne.KeyEvent{Name: fyne.KeyReturn}
	test.Type(v.entry, "How do I book leave?")
	v.entry.TypedKey(enter)
	settle(v)
	if err := a.Accounts().UpdatePrefs(context.Background(), func(p *app.AccountPrefs) { p.DailyLimit = 0.0001 }); err != nil {
		t.Fatal(err)
	}
	c := s.env.Window.Canvas()
	test.Type(v.entry, "And lunch?")
	v.entry.TypedKey(enter)
	ui(s).WaitUntil(t, func() bool { return c.Overlays().Top() != nil }, func() string { return "no question asked" })
	if text := kittest.AllText(c.Overlays().Top()); !strings.Contains(text, "past your daily limit") {
		t.Fatalf("the question reads %q", text)
	}
	test.Tap(kittest.FindButton(c.Overlays().Top(), "Cancel"))
	if n := len(apptest.Demo(a).Service.Executions()); n != 1 || v.entry.Text != "And lunch?" || c.Overlays().Top() != nil {
		t.Fatalf("after Cancel: %d sent, the box holds %q", n, v.entry.Text)
	}
}
