package screen

import (
	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/views/kit"
)

// RememberOpen opens f as the user last left an Advanced fold and remembers
// each change: one choice for every such fold.
func RememberOpen(f *kit.Fold, a *app.App) {
	f.SetOpen(a.Settings().ShowAdvanced)
	f.OnChanged = func(open bool) {
		a.SaveSettingsLater(func(st *app.Settings) { st.ShowAdvanced = open })
	}
}
