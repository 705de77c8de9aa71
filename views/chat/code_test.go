package chat

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/views/kit/kittest"
	"github.com/agentdesk/agentdesk/views/kit/richtext"
	"github.com/agentdesk/agentdesk/views/screen"
)

// walkObjects calls f for o and everything inside it.
func walkObjects(o fyne.CanvasObject, f func(fyne.CanvasObject)) {
	f(o)
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			walkObjects(c, f)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(x).Objects() {
			walkObjects(c, f)
		}
	}
}

// The choice to wrap code is kept: a new start of the chat screen takes it.
func TestTheWrapChoiceIsKept(t *testing.T) {
	s, a := openScreen(t)
	c := richtext.NewMarkdown("```\nx := 1\n```", s.wrap)
	test.Tap(kittest.FindButton(c, "Wrap lines"))
	ui(s).WaitUntil(t, func() bool { return a.Settings().WrapCode }, func() string { return "settings do not say wrap" })
	again := New(screen.Env{App: a, Window: s.env.Window, Nav: &testNav{}}).(*Screen)
	if !again.wrap.On() || kittest.FindButton(richtext.NewMarkdown("```\ny\n```", again.wrap), "Don't wrap lines") == nil {
		t.Fatal("the chat screen should start with the kept choice")
	}
}
