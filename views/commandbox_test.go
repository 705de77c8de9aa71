package views

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
	"github.com/agentdesk/agentdesk/views/screen"
)

// boxFixture is the whole window on the built-in service, its command box
// opened with Ctrl+K.
type boxFixture struct {
	shell *Shell
	w     fyne.Window
	q     *kit.Queue
	f     *kittest.Frames
}

func newBoxFixture(t *testing.T) *boxFixture {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	a := apptest.Open(t)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(fyne.NewSize(1024, 768))
	shell := NewShell(a, w)
	rememberSize(a, w)
	return &boxFixture{shell: shell, w: w, q: q, f: kittest.NewFrames(w.Canvas())}
}

// open presses Ctrl+K and returns the box's field, which has the keyboard.
func (x *boxFixture) open(t *testing.T) *kit.FormEntry {
	t.Helper()
	x.w.Canvas().(fyne.Shortcutable).TypedShortcut(kit.SearchShortcut)
	e, ok := x.w.Canvas().Focused().(*kit.FormEntry)
	if !ok || !dialogShowing(x.w, lang.L("Find anything")) {
		t.Fatalf("Ctrl+K did not open the command box with the keyboard in its field (focused: %T)", x.w.Canvas().Focused())
	}
	return e
}

// rows are the box's lines as shown.
func (x *boxFixture) rows() string {
	if top := x.w.Canvas().Overlays().Top(); top != nil {
		for _, l := range kittest.FindAll[*kit.List](top) {
			return kittest.AllText(l)
		}
	}
	return ""
}

// typeAndWait types text in e and waits until the first line holds want.
func (x *boxFixture) typeAndWait(t *testing.T, e *kit.FormEntry, text, want string) {
	t.Helper()
	test.Type(e, text)
	x.q.WaitUntil(t, func() bool {
		x.f.Settle(x.q)
		first, _, _ := strings.Cut(strings.TrimSpace(x.rows()), "\n")
		return strings.Contains(first, want)
	}, func() string { return fmt.Sprintf("after typing %q the box lists:\n%s", e.Text, x.rows()) })
}

// Keyboard only: Ctrl+K, part of an agent's name with a typo, Enter: the
// agent is open on the Agents screen; a setting's name goes to the setting
// with the keyboard on it; "New chat with…" asks for the agent, then starts
// the chat; Esc closes the box.
func TestTheCommandBoxFindsAndGoes(t *testing.T) {
	x := newBoxFixture(t)
	e := x.open(t)
	if !strings.Contains(x.rows(), screen.ScreenLabel(screen.ScreenAgents)) {
		t.Fatalf("the empty box does not list the screens:\n%s", x.rows())
	}
	x.typeAndWait(t, e, "prss relase", "Press Release Drafter")
	kittest.Look(t, x.f, x.q, x.w, "the command box with an agent found")
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	x.q.WaitUntil(t, func() bool {
		ag, ok := x.shell.Screen(screen.ScreenAgents).(interface{ ShownAgent() (client.Agent, bool) }).ShownAgent()
		return ok && ag.Title == "Press Release Drafter" && x.w.Canvas().Overlays().Top() == nil
	}, func() string { return "the agent is not shown" })
	if x.shell.Current() != screen.ScreenAgents {
		t.Fatalf("Enter on an agent shows %q", x.shell.Current())
	}

	e = x.open(t)
	x.typeAndWait(t, e, "languag", "Language")
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if x.shell.Current() != screen.ScreenSettings || x.w.Canvas().Focused() == nil {
		t.Fatalf("Settings › Language shows %q with the keyboard on %T", x.shell.Current(), x.w.Canvas().Focused())
	}
	// The keyboard is on the first language, scrolled into view: Down and
	// Space then choose another.
	x.f.Settle(x.q)
	c, ok := x.w.Canvas().Focused().(*kit.Check)
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(c)
	if !ok || c.Text != lang.L("Same as my computer") || at.Y < 0 || at.Y+c.Size().Height > x.w.Canvas().Size().Height {
		t.Fatalf("Settings › Language puts the keyboard on %#v at %v in a window %v high", x.w.Canvas().Focused(), at, x.w.Canvas().Size().Height)
	}
	kittest.Look(t, x.f, x.q, x.w, "Settings › Language")

	e = x.open(t)
	x.typeAndWait(t, e, "new chat", "New chat with")
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if !dialogShowing(x.w, "New chat with which agent?") {
		t.Fatal("New chat with… does not ask for the agent")
	}
	e = x.w.Canvas().Focused().(*kit.FormEntry)
	if strings.Contains(x.rows(), "Press Release Drafter") {
		t.Fatalf("a text agent is offered for a chat:\n%s", x.rows())
	}
	x.typeAndWait(t, e, "invoce query", "Invoice Query Assistant")
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	x.q.WaitUntil(t, func() bool {
		return x.shell.Current() == screen.ScreenChats && strings.Contains(kittest.AllText(x.shell.Screen(screen.ScreenChats).Content()), "Invoice Query Assistant")
	}, func() string { return "the chat did not start: on " + x.shell.Current() })

	e = x.open(t)
	test.Type(e, "something")
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if x.w.Canvas().Overlays().Top() != nil {
		t.Fatal("Esc does not close the box")
	}
}

// The box lays out in every language and at each size, after typing.
func TestTheCommandBoxLaysOut(t *testing.T) {
	kittest.EachLanguage(t, apptest.Speak, func(t *testing.T, size fyne.Size) {
		x := newBoxFixture(t)
		x.w.Resize(size)
		e := x.open(t)
		kittest.Look(t, x.f, x.q, x.w, "the command box opened")
		test.Type(e, "zzzz")
		kittest.Look(t, x.f, x.q, x.w, "nothing found")
		e.SetText("")
		test.Type(e, "a")
		kittest.Look(t, x.f, x.q, x.w, "much found")
	})
}
