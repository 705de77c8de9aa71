package screen

import (
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

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

// ShowIf shows o when on, else hides it.
func ShowIf(o fyne.CanvasObject, on bool) {
	if on {
		o.Show()
	} else {
		o.Hide()
	}
}

// EnableIf enables each of ws when on, else disables them.
func EnableIf(on bool, ws ...fyne.Disableable) {
	for _, w := range ws {
		if on {
			w.Enable()
		} else {
			w.Disable()
		}
	}
}

// InWindow reports whether o is in w's content now and shown: screens are
// swapped in and out of the window.
func InWindow(w fyne.Window, o fyne.CanvasObject) bool {
	var walk func(fyne.CanvasObject) bool
	walk = func(p fyne.CanvasObject) bool {
		if p == o {
			return p.Visible()
		}
		if c, ok := p.(*fyne.Container); ok && c.Visible() {
			for _, ch := range c.Objects {
				if walk(ch) {
					return true
				}
			}
		}
		return false
	}
	return w != nil && w.Content() != nil && walk(w.Content())
}

// Wrapped is a label whose text wraps at word ends.
func Wrapped(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	return l
}

// Quiet is a label of low importance: a side note.
func Quiet(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Importance = widget.LowImportance
	return l
}
