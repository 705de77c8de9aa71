package views

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

// askProxySignIn asks for the user name and password a company's proxy
// wants, once each time it asks (or refuses what was given); the app keeps
// them like the API key. A proxy that takes no password is left to the
// error the screen shows.
func askProxySignIn(env screen.Env) {
	seen := 0
	kit.Bind(env.App.Network().Asked(), func(ask app.ProxyAsk) {
		if ask.Seq <= seen || !ask.CanSignIn {
			return
		}
		seen = ask.Seq
		showProxySignIn(env, ask)
	})
}

func showProxySignIn(env screen.Env, ask app.ProxyAsk) {
	proxy := map[string]any{"Proxy": ask.Proxy}
	intro := screen.Wrapped(lang.L("Your network's proxy ({{.Proxy}}) asks for your user name and password before Agent Desk can reach the service. They are kept like your API key and sent to this proxy only.", proxy))
	if ask.Refused {
		intro = screen.Wrapped(lang.L("Your network's proxy ({{.Proxy}}) refused that user name and password. Check them, then sign in again.", proxy))
		intro.Importance = widget.DangerImportance
	}
	user := kit.NewFormEntry()
	if ask.Windows {
		user.SetPlaceHolder(lang.L(`Your Windows sign-in, such as ACME\maria`))
	}
	password := kit.NewFormEntry()
	password.Password = true
	items := []*widget.FormItem{
		{Text: "", Widget: intro},
		{Text: lang.L("User name"), Widget: user},
		{Text: lang.L("Password"), Widget: password},
	}
	d := dialog.NewForm(lang.L("Sign in to the proxy"), lang.L("Sign in"), lang.L("Cancel"), items, func(ok bool) {
		if !ok {
			return
		}
		name, secret := user.Text, password.Text
		screen.Try(env, lang.L("Keeping the sign-in…"), lang.L("Sign-in not kept"), func(ctx context.Context) error {
			return env.App.Network().SignIn(ctx, ask.Proxy, name, secret)
		}, nil)
	}, env.Window)
	d.Resize(fyne.NewSize(min(520, env.Window.Canvas().Size().Width-40), 300))
	kit.ShowDialog(d, env.Window)
	user.SetText(ask.User) // a refused one is corrected, not typed again
	if ask.User != "" {
		env.Window.Canvas().Focus(password)
		return
	}
	env.Window.Canvas().Focus(user)
}
