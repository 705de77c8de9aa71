package screen

import (
	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/views/kit"
)

// RememberOpen has f open as the user last left an Advanced fold,
// and remember each opening and closing: one choice for every Advanced
// fold of the app.
func RememberOpen(f *kit.Fold, a *app.App) {
	f.SetOpen(a.Settings().ShowAdvanced)
	f.OnChanged = func(open bool) {
		a.SaveSettingsLater(func(st *app.Settings) { st.ShowAdvanced = open })
	}
}
