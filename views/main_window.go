package views

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/assets"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
	"github.com/agentdesk/agentdesk/views/welcome"
)

// Preload loads the regular and bold faces on its own goroutine, so Fyne's
// first-measure font parsing runs beside app.Open; the channel closes when
// done. Fyne's font caches are safe to fill from any goroutine.
func Preload() <-chan struct{} {
	done := make(chan struct{})
	size := theme.TextSize()
	go func() {
		defer close(done)
		for _, style := range []fyne.TextStyle{{}, {Bold: true}} {
			fyne.MeasureText("Agent Desk", size, style)
		}
	}()
	return done
}

// NewMainWindow opens the window at its last size and theme once fonts are
// loaded; on first start the welcome screen comes before the shell.
func NewMainWindow(fa fyne.App, a *app.App, fonts <-chan struct{}, closed func()) fyne.Window {
	fa.SetIcon(assets.Icon)
	settings := a.Settings()
	fa.Settings().SetTheme(ThemeFor(settings))
	applied := lookOf(settings)
	kit.Bind(a.Session(), func(s app.Session) {
		// Re-theming redraws everything: only when the look itself changed.
		if l := lookOf(s.Settings); l != applied {
			applied = l
			fa.Settings().SetTheme(ThemeFor(s.Settings))
		}
	})
	win := fa.NewWindow("Agent Desk")
	kit.TrackForeground(fa, win)
	win.SetIcon(assets.WindowIcon)
	w, h := settings.WindowWidth, settings.WindowHeight
	if w < 800 || h < 560 {
		w, h = 1180, 760
	}
	win.Resize(fyne.NewSize(w, h))
	<-fonts
	var sizes *sizeKeeper
	kit.AnswerDialogKeys(win)
	askProxySignIn(screen.Env{App: a, Window: win}) // the welcome's Test connection meets the proxy too
	var shell *Shell                                // nil while the welcome screen shows
	if settings.Onboarded {
		shell = NewShell(a, win)
	} else {
		first := welcome.New(a, func() { shell = NewShell(a, win); sizes.keepSize(win) })
		first.Form.Window = win
		win.SetContent(first.Content())
	}
	sizes = rememberSize(a, win)
	// Drafts and the size are written as the window closes, before
	// anything that might hang on the way out; then closed (main's
	// watchdog) is told.
	win.SetOnClosed(func() {
		_ = a.FlushDrafts()
		if closed != nil {
			closed()
		}
	})
	win.SetMaster()
	// Shown here, not by ShowAndRun, so the scale is known and a saved size can
	// be fitted to this screen before the first frame.
	win.Show()
	if area, ok := screenArea(win); ok {
		if fit := fitScreen(fyne.NewSize(w, h), area); fit != fyne.NewSize(w, h) {
			win.Resize(fit)
		}
	}
	stopDrags := watchDrags(win, func() (string, bool) {
		if shell == nil {
			return "", false
		}
		return shell.DropHint()
	})
	fa.Lifecycle().SetOnStopped(stopDrags)
	return win
}

// windowFrame is a guess at the title bar and borders around the content.
var windowFrame = fyne.NewSize(16, 48)

// fitScreen shrinks size, frame included, to fit area, but not below
// WindowMin unless the screen itself is smaller.
func fitScreen(size, area fyne.Size) fyne.Size {
	room := area.Subtract(windowFrame)
	return size.Min(room).Max(WindowMin.Min(room))
}
