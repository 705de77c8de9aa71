package screen

import (
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/views/kit"
)

// Error is the state of a screen whose load failed: app.Explain's title and
// sentence, and the buttons for what can be done about it (ProblemActions).
func Error(err error, retry func()) fyne.CanvasObject {
	p := app.Explain(err)
	return kit.Empty(theme.ErrorIcon(), p.Title, p.Sentence, ProblemActions(p, retry)...)
}

// ProblemActions are the buttons a problem offers: the account's settings
// when its key or workspace needs a look, and retry (when not nil) as "Try
// again", or "Check again" for work that goes on at the service.
func ProblemActions(p app.Problem, retry func()) []fyne.CanvasObject {
	var out []fyne.CanvasObject
	if p.Action == app.ActionOpenSettings {
		if open := settingsOpener.Load(); open != nil {
			out = append(out, kit.NewButtonWithIcon(p.Action.Label(), theme.SettingsIcon(), *open))
		}
	}
	if retry != nil {
		label := app.ActionTryAgain.Label()
		if p.Action == app.ActionCheckLater {
			label = lang.L("Check again")
		}
		out = append(out, kit.NewButtonWithIcon(label, theme.ViewRefreshIcon(), retry))
	}
	return out
}

var settingsOpener atomic.Pointer[func()]

// SetSettingsOpener is how the window shows the account settings; problems
// with the key offer it (the shell sets it once).
func SetSettingsOpener(open func()) { settingsOpener.Store(&open) }
