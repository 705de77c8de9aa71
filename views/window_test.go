package views

import (
	"net"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
	"github.com/agentdesk/agentdesk/views/screen"
)

// recordingScreen is a screen that remembers what the shell gave it.
type recordingScreen struct {
	label   *widget.Label
	shown   int
	dropped [][]string
	escaped int
	submits int
}

func (r *recordingScreen) Content() fyne.CanvasObject { return r.label }
func (r *recordingScreen) Shown()                     { r.shown++ }
func (r *recordingScreen) Dropped(p []string)         { r.dropped = append(r.dropped, p) }
func (r *recordingScreen) DropHint() (string, bool)   { return "Drop the files to attach them", true }
func (r *recordingScreen) Escape()                    { r.escaped++ }
func (r *recordingScreen) Submit()                    { r.submits++ }

type plainScreen struct{ label *widget.Label }

func (p *plainScreen) Content() fyne.CanvasObject { return p.label }
func (p *plainScreen) Shown()                     {}

func TestShellKeepsScreensAndRoutesDropsAndEscape(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	a := apptest.Open(t)
	agents := &recordingScreen{label: widget.NewLabel("agents")}
	builds := 0
	screens := []ScreenSpec{
		{Name: screen.ScreenAgents, Icon: theme.ListIcon(), New: func(screen.Env) screen.Screen { builds++; return agents }},
		{Name: screen.ScreenSettings, Icon: theme.SettingsIcon(), New: func(screen.Env) screen.Screen { return &plainScreen{label: widget.NewLabel("settings")} }},
	}
	w := test.NewTempWindow(t, widget.NewLabel(""))
	shell := NewShell(a, w, screens...)
	q.WaitUntil(t, func() bool { return strings.Contains(barText(shell.status), "Connected") }, func() string { return barText(shell.status) })

	if shell.Current() != screen.ScreenAgents || agents.shown != 1 {
		t.Fatalf("the agents screen should open first, got %q shown %d", shell.Current(), agents.shown)
	}
	if hint, takes := shell.DropHint(); !takes || hint != "Drop the files to attach them" {
		t.Fatalf("dragging files over the agents screen says %q (takes them: %v), want its own hint", hint, takes)
	}
	shell.Show(screen.ScreenSettings)
	if hint, takes := shell.DropHint(); takes || !strings.Contains(hint, "Open a chat, an agent or the Files screen") {
		t.Fatalf("dragging files over Settings says %q (takes them: %v), want where they go instead", hint, takes)
	}
	shell.Show(screen.ScreenAgents)
	shell.Dropped([]string{"/tmp/a.txt"})
	shell.Escape()
	// Ctrl+Enter where no field has the keyboard, either Enter key
	for _, key := range []fyne.KeyName{fyne.KeyReturn, fyne.KeyEnter} {
		w.Canvas().(fyne.Shortcutable).TypedShortcut(&desktop.CustomShortcut{KeyName: key, Modifier: fyne.KeyModifierShortcutDefault})
	}
	if len(agents.dropped) != 1 || agents.escaped != 1 || agents.submits != 2 {
		t.Fatalf("drop, Esc and Ctrl+Enter should reach the visible screen: %v, %d, %d", agents.dropped, agents.escaped, agents.submits)
	}

	// Keys with a dialog open are the dialog's, not the screen's run or
	// reply: Ctrl+Enter does nothing, Esc closes the dialog.
	kit.ShowInformation("Saved", "The file was saved.", w)
	w.Canvas().(fyne.Shortcutable).TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierShortcutDefault})
	w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if agents.escaped != 1 || agents.submits != 2 {
		t.Fatalf("keys with a dialog open reached the screen behind it: Esc %d, Ctrl+Enter %d", agents.escaped-1, agents.submits-2)
	}
	if w.Canvas().Overlays().Top() != nil {
		t.Fatal("Esc should close the dialog")
	}

	shell.Show(screen.ScreenSettings)
	if shell.Current() != screen.ScreenSettings {
		t.Fatalf("current = %q", shell.Current())
	}
	// A screen that takes no files says so instead of dropping them silently.
	shell.Dropped([]string{"/tmp/b.txt"})
	if len(agents.dropped) != 1 {
		t.Fatal("a drop reached a screen that is not visible")
	}
	if !dialogShowing(w, "Files not added") {
		t.Fatal("dropping on a screen that takes no files should explain where to drop them")
	}

	shell.Show(screen.ScreenAgents)
	if builds != 1 || agents.shown != 3 {
		t.Fatalf("coming back should reuse the screen (builds %d) and tell it (shown %d)", builds, agents.shown)
	}
}

func dialogShowing(w fyne.Window, text string) bool {
	for _, o := range w.Canvas().Overlays().List() {
		if containsText(o, text) {
			return true
		}
	}
	return false
}

func containsText(o fyne.CanvasObject, text string) bool {
	switch v := o.(type) {
	case *widget.Label:
		return strings.Contains(v.Text, text)
	case fyne.Widget:
		r := test.WidgetRenderer(v)
		for _, c := range r.Objects() {
			if containsText(c, text) {
				return true
			}
		}
	case *fyne.Container:
		for _, c := range v.Objects {
			if containsText(c, text) {
				return true
			}
		}
	}
	return false
}

func TestStatusBarShowsDemoAgentsAndCredits(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	a := apptest.Open(t)
	screens := []ScreenSpec{{Name: screen.ScreenAgents, Icon: theme.ListIcon(), New: func(screen.Env) screen.Screen { return &plainScreen{label: widget.NewLabel("")} }}}
	w := test.NewTempWindow(t, widget.NewLabel(""))
	shell := NewShell(a, w, screens...)
	bar := shell.status
	q.WaitUntil(t, func() bool {
		return strings.Contains(barText(bar), "Connected") && !strings.Contains(barText(bar), "unknown") && strings.Contains(barText(bar), "Practice credits today: 0")
	}, func() string { return barText(bar) })
	text := barText(bar)
	for _, want := range []string{"Demo service", "44 agents", "Practice credits today: 0"} {
		if !strings.Contains(text, want) {
			t.Fatalf("status bar %q lacks %q", text, want)
		}
	}
}

// TestTheStatusBarFitsTheSmallestWindow: in Portuguese, at 800 px, with
// practice credits spent, the account's name gives up its room ("…") and
// nothing is drawn over the connection or the credits; with room it is whole.
func TestTheStatusBarFitsTheSmallestWindow(t *testing.T) {
	for _, language := range []string{"en", "pt-BR", "es"} {
		t.Run(language, func(t *testing.T) {
			apptest.Speak(t, language)
			test.NewTempApp(t)
			q := kit.UseQueue(t)
			a := apptest.Open(t)
			w := test.NewTempWindow(t, widget.NewLabel(""))
			w.Resize(fyne.NewSize(800, 600))
			shell := NewShell(a, w)
			rememberSize(a, w)
			bar := shell.status
			q.WaitUntil(t, func() bool { return bar.connIcon.Visible() && strings.Contains(barText(bar), "44") }, func() string { return barText(bar) })
			f := kittest.NewFrames(w.Canvas())
			bar.credits.SetText(lang.L("Practice credits today: {{.Credits}}", map[string]any{"Credits": app.CreditsFigure(123.4567)}))
			kittest.Look(t, f, q, w, "the status bar with credits spent")
			if end := bar.connection.Position().X + bar.connection.Size().Width; end > bar.credits.Position().X {
				t.Fatalf("the connection ends at %v, over the credits at %v", end, bar.credits.Position().X)
			}
			w.Resize(fyne.NewSize(1920, 1080))
			kittest.Look(t, f, q, w, "the status bar made wide")
			if drawn := drawnText(bar.account); drawn != bar.account.Text {
				t.Fatalf("with room, the account's name %q is drawn as %q", bar.account.Text, drawn)
			}
		})
	}
}

// drawnText is what a label draws: its text, or less and "…" when cut.
func drawnText(l *widget.Label) string {
	var out string
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch v := o.(type) {
		case *canvas.Text:
			out += v.Text
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(v).Objects() {
				walk(c)
			}
		}
	}
	walk(l)
	return out
}

func TestStatusBarSaysWhenTheServiceIsUnreachable(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	a := apptest.Open(t)
	screens := []ScreenSpec{{Name: screen.ScreenAgents, Icon: theme.ListIcon(), New: func(screen.Env) screen.Screen { return &plainScreen{label: widget.NewLabel("")} }}}
	apptest.Demo(a).Service.SetFaults(demoFaultsAllFail())
	w := test.NewTempWindow(t, widget.NewLabel(""))
	shell := NewShell(a, w, screens...)
	bar := shell.status
	q.WaitUntil(t, func() bool { return !strings.Contains(barText(bar), "Connecting") }, func() string { return barText(bar) })
	if !strings.Contains(barText(bar), "Service problem") || !bar.retry.Visible() {
		t.Fatalf("status bar %q should report the problem and offer Retry", barText(bar))
	}
}

func TestStatusBarOffersTheAccountWhenTheKeyIsRejected(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	// The real service's answer to a bad key: 403 {"error":"Invalid authentication"}.
	srv, _ := demoservice.NewTestService(t, demoservice.Options{APIKey: "right", API: demoservice.APIReal})
	a := apptest.Open(t, func(c *app.Config) {
		c.ClientOptions = []client.Option{client.WithBaseURL(srv.URL), client.WithAPIKey("wrong"), client.WithMaxRetries(0)}
	})
	screens := []ScreenSpec{
		{Name: screen.ScreenAgents, Icon: theme.ListIcon(), New: func(screen.Env) screen.Screen { return &plainScreen{label: widget.NewLabel("")} }},
		{Name: screen.ScreenSettings, Icon: theme.SettingsIcon(), New: func(screen.Env) screen.Screen { return &plainScreen{label: widget.NewLabel("settings")} }},
	}
	w := test.NewTempWindow(t, widget.NewLabel(""))
	shell := NewShell(a, w, screens...)
	bar := shell.status
	q.WaitUntil(t, func() bool { return !strings.Contains(barText(bar), "Connecting") }, func() string { return barText(bar) })
	if !strings.Contains(barText(bar), "Key rejected") || !bar.settings.Visible() {
		t.Fatalf("status bar %q should say the key was rejected and offer the account", barText(bar))
	}
	test.Tap(bar.settings)
	if shell.Current() != screen.ScreenSettings {
		t.Fatalf("the button should open Settings, shows %q", shell.Current())
	}
}

func TestWindowSizeIsSavedOnResizeAndCloseWithoutPolling(t *testing.T) {
	test.NewTempApp(t)
	a := apptest.Open(t)
	w := test.NewWindow(widget.NewLabel("content"))
	rememberSize(a, w)
	w.Resize(fyne.NewSize(900, 650))
	deadline := time.Now().Add(5 * time.Second)
	for s := a.Settings(); s.WindowWidth != 900 || s.WindowHeight != 650; s = a.Settings() {
		if time.Now().After(deadline) {
			t.Fatalf("the new size was not saved after the resize: %v×%v", s.WindowWidth, s.WindowHeight)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Closing saves what was last laid out at once.
	w.Resize(fyne.NewSize(1000, 700))
	w.Close()
	if s := a.Settings(); s.WindowWidth != 1000 || s.WindowHeight != 700 {
		t.Fatalf("closing should save the size: %v×%v", s.WindowWidth, s.WindowHeight)
	}
}

// barText is what the status bar says.
func barText(b *StatusBar) string {
	return b.account.Text + " · " + b.connection.Text + " · " + b.credits.Text
}

// Offline, the bar says so and checks again by itself; when the service
// answers, it says Connected and the app hears the service is back.
func TestStatusBarChecksAgainByItselfWhileOffline(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there yet
	a := apptest.Open(t, func(c *app.Config) {
		c.ClientOptions = []client.Option{client.WithBaseURL("http://" + addr), client.WithAPIKey("k"), client.WithMaxRetries(0)}
	})
	screens := []ScreenSpec{{Name: screen.ScreenAgents, Icon: theme.ListIcon(), New: func(screen.Env) screen.Screen { return &plainScreen{label: widget.NewLabel("")} }}}
	w := test.NewTempWindow(t, widget.NewLabel(""))
	bar := NewShell(a, w, screens...).status
	bar.recheckAfter = []time.Duration{20 * time.Millisecond} // read when a check ends, on the test's goroutine
	q.WaitUntil(t, func() bool { return strings.Contains(barText(bar), "Offline") }, func() string { return barText(bar) })

	// the service comes up at that address
	l, err = net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("the address was taken meanwhile: %v", err)
	}
	srv := httptest.NewUnstartedServer(demoservice.New(demoservice.Options{APIKey: "k"}))
	srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	q.WaitUntil(t, func() bool { return strings.Contains(barText(bar), "Connected") }, func() string { return barText(bar) })
	if c, _ := a.Connection().Snapshot(); !c.Reachable || c.Returns != 1 {
		t.Fatalf("the app should hear the service is back once: %+v", c)
	}
}

// fieldScreen is a screen with a text field.
type fieldScreen struct{ field *kit.FormEntry }

func (f *fieldScreen) Content() fyne.CanvasObject {
	return container.NewVBox(widget.NewLabel("settings"), f.field)
}
func (f *fieldScreen) Shown() {}

// findScreen is a screen with a search of its own.
type findScreen struct {
	plainScreen
	finds, chooses int
}

func (f *findScreen) FocusFind()                { f.finds++ }
func (f *findScreen) ChooseAgent(pre client.ID) { f.chooses++ }

func TestWindowShortcutsGoToScreensFromAnywhere(t *testing.T) {
	test.NewTempApp(t)
	kit.UseQueue(t)
	a := apptest.Open(t)
	field := kit.NewFormEntry()
	chats := &findScreen{plainScreen: plainScreen{label: widget.NewLabel("chats")}}
	screens := []ScreenSpec{
		{Name: screen.ScreenAgents, Icon: theme.ListIcon(), New: func(screen.Env) screen.Screen {
			return &plainScreen{label: widget.NewLabel("agents")}
		}},
		{Name: screen.ScreenChats, Icon: theme.ListIcon(), New: func(screen.Env) screen.Screen { return chats }},
		{Name: screen.ScreenSettings, Icon: theme.SettingsIcon(), New: func(screen.Env) screen.Screen {
			return &fieldScreen{field: field}
		}},
	}
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(fyne.NewSize(1024, 768))
	shell := NewShell(a, w, screens...)
	c := w.Canvas()
	sc := c.(fyne.Shortcutable)

	sc.TypedShortcut(kit.ScreenShortcuts[2])
	if shell.Current() != screen.ScreenSettings {
		t.Fatalf("Ctrl+3 should show the third screen, shows %q", shell.Current())
	}
	if c.Focused() != field {
		t.Fatal("the keyboard should go to the new screen's first control")
	}
	// From a text field that has the keyboard, as Fyne gives it the keys.
	field.TypedShortcut(kit.ScreenShortcuts[1])
	if shell.Current() != screen.ScreenChats {
		t.Fatalf("Ctrl+2 typed in a field should show the second screen, shows %q", shell.Current())
	}
	if c.Focused() != nil {
		t.Fatal("the keyboard stayed in a screen no longer shown: typing would go there unseen")
	}
	sc.TypedShortcut(kit.FindShortcut)
	if chats.finds != 1 {
		t.Fatal("Ctrl+F should put the cursor in the screen's search")
	}
	// Ctrl+9 names no screen here: nothing happens.
	sc.TypedShortcut(kit.ScreenShortcuts[8])
	if shell.Current() != screen.ScreenChats {
		t.Fatalf("Ctrl+9 moved to %q", shell.Current())
	}

	// F1 lists the keys; with it open, the window's shortcuts wait.
	c.OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyF1})
	if !dialogShowing(w, "Keyboard shortcuts") || !dialogShowing(w, "Go to Agents, Chats, Settings") {
		t.Fatal("F1 should list the keys, the screens by name")
	}
	sc.TypedShortcut(kit.ScreenShortcuts[0])
	sc.TypedShortcut(kit.NewChatShortcut)
	if shell.Current() != screen.ScreenChats {
		t.Fatalf("a shortcut behind the open list moved to %q", shell.Current())
	}
	c.OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if c.Overlays().Top() != nil {
		t.Fatal("Esc should close the list of keys")
	}
	sc.TypedShortcut(kit.KeysShortcut)
	if !dialogShowing(w, "Keyboard shortcuts") {
		t.Fatal("Ctrl+/ should list the keys")
	}
	c.OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyReturn})
	// Ctrl+N: a new chat starts by choosing its agent, on the Chats screen.
	shell.Show(screen.ScreenSettings)
	sc.TypedShortcut(kit.NewChatShortcut)
	if shell.Current() != screen.ScreenChats || chats.chooses != 1 {
		t.Fatalf("Ctrl+N should ask for the new chat's agent on the Chats screen: shows %q, asked %d times", shell.Current(), chats.chooses)
	}
}

// Ctrl+= (or Ctrl++) makes text larger a step at a time up to 150 %, Ctrl+-
// smaller, Ctrl+0 normal again, also from a field; each size is kept.
func TestTextSizeKeys(t *testing.T) {
	test.NewTempApp(t)
	kit.UseQueue(t)
	a := apptest.Open(t)
	field := kit.NewFormEntry()
	w := test.NewTempWindow(t, widget.NewLabel(""))
	NewShell(a, w, ScreenSpec{Name: screen.ScreenSettings, Icon: theme.SettingsIcon(), New: func(screen.Env) screen.Screen {
		return &fieldScreen{field: field}
	}})
	sc := w.Canvas().(fyne.Shortcutable)
	press := func(s fyne.Shortcut, want int) {
		t.Helper()
		sc.TypedShortcut(s)
		if got := a.Settings().TextSize; got != want {
			t.Fatalf("after %s the text size is %d %%, want %d %%", s.ShortcutName(), got, want)
		}
	}
	press(kit.LargerTextShortcuts[0], 110)
	press(kit.LargerTextShortcuts[1], 125)
	press(kit.LargerTextShortcuts[2], 150)
	press(kit.LargerTextShortcuts[0], 150) // no larger
	press(kit.SmallerTextShortcut, 125)
	w.Canvas().Focus(field)
	field.TypedShortcut(kit.NormalTextShortcut)
	if got := a.Settings().TextSize; got != 100 {
		t.Fatalf("Ctrl+0 typed in a field leaves the text at %d %%", got)
	}
	press(kit.SmallerTextShortcut, 90)
	press(kit.SmallerTextShortcut, 90) // no smaller
}
