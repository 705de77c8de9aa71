package views

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/assets"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/welcome"
)

// Preload starts loading, on a goroutine of its own, the faces of the two
// text styles every screen uses (regular and bold). Fyne parses a face, its
// emoji fallback and the system font index the first time a style is
// measured, 10–15 ms a style; main calls Preload before opening the app, so
// that this runs beside app.Open instead of after it, and gives what it
// returns (closed once the faces are loaded) to NewMainWindow, which waits
// for it. Fyne's font caches are safe to fill from any goroutine.
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

// NewMainWindow opens Agent Desk's window on fa for a, at the size it had
// last time, with the user's theme, once fonts (Preload) are loaded; on
// first start it shows the welcome screen before the shell.
func NewMainWindow(fa fyne.App, a *app.App, fonts <-chan struct{}) fyne.Window {
	fa.SetIcon(assets.Icon)
	kit.TrackForeground(fa)
	settings := a.Settings()
	fa.Settings().SetTheme(ThemeFor(settings.Theme))
	applied := settings.Theme
	kit.Bind(a.Session(), func(s app.Session) {
		// Settings change often (the last screen, answers); re-theming
		// redraws everything, so only when the theme itself changed.
		if t := s.Settings.Theme; t != applied {
			applied = t
			fa.Settings().SetTheme(ThemeFor(t))
		}
	})
	win := fa.NewWindow("Agent Desk")
	win.SetIcon(assets.WindowIcon)
	w, h := settings.WindowWidth, settings.WindowHeight
	if w < 800 || h < 560 {
		w, h = 1180, 760
	}
	win.Resize(fyne.NewSize(w, h))
	<-fonts
	var sizes *sizeKeeper
	kit.AnswerDialogKeys(win)
	var shell *Shell // nil while the welcome screen shows
	if settings.Onboarded {
		shell = NewShell(a, win)
	} else {
		// First start: the welcome screen fills the window until the user
		// chooses the demo or connects an account, then the shell replaces it.
		win.SetContent(welcome.New(a, func() { shell = NewShell(a, win); sizes.keepSize(win) }).Content())
	}
	sizes = rememberSize(a, win)
	win.SetMaster()
	// Shown here, not by ShowAndRun, so that its scale is known and the
	// size saved on a bigger screen can be fitted to this one before the
	// first frame.
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

// windowFrame is the room a window's title bar and borders take around its
// content, as far as Agent Desk can tell without asking the desktop.
var windowFrame = fyne.NewSize(16, 48)

// fitScreen is size made small enough, frame included, for a screen area
// (the window size saved on a 4K screen, opened on a laptop), but not
// smaller than WindowMin unless the screen itself is (1366×768 at 200 %).
func fitScreen(size, area fyne.Size) fyne.Size {
	room := area.Subtract(windowFrame)
	return size.Min(room).Max(WindowMin.Min(room))
}
