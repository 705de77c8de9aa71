package screen

import (
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/views/kit"
)

// Error is a failed load's state: app.Explain's words and ProblemActions.
func Error(err error, retry func()) fyne.CanvasObject {
	p := app.Explain(err)
	return kit.Empty(theme.ErrorIcon(), p.Title, p.Sentence, ProblemActions(p, retry)...)
}

// ProblemActions are a problem's buttons: the account settings when the key
// or workspace needs a look, and retry as "Try again" or "Check again".
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

// SetSettingsOpener sets how the window shows account settings (once, by the shell).
func SetSettingsOpener(open func()) { settingsOpener.Store(&open) }
