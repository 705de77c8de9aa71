// Package welcome is the first-start screen: try the demo or connect an
// account; either marks Agent Desk as set up, so it shows once.
package welcome

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/assets"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
	"github.com/agentdesk/agentdesk/views/settings"
)

// Welcome is the first-start screen.
type Welcome struct {
	a    *app.App
	done func()

	// Demo and Connect are the choices; the connect form replaces them.
	Demo    *kit.Button
	Connect *kit.Button
	Form    *settings.AccountForm
	Finish  *kit.Button
	Back    *kit.Button

	errText *widget.Label
	choices fyne.CanvasObject
	connect fyne.CanvasObject
	content *container.Scroll
}

// New builds the welcome screen; done is called on the UI goroutine once
// the main window may show.
func New(a *app.App, done func()) *Welcome {
	w := &Welcome{a: a, done: done}
	w.errText = kit.ErrorText()

	w.Demo = kit.NewButtonWithIcon(lang.L("Try the demo"), theme.MediaPlayIcon(), w.tryDemo)
	w.Demo.Importance = widget.HighImportance
	w.Connect = kit.NewButtonWithIcon(lang.L("Connect your account"), theme.AccountIcon(), func() { w.show(true) })

	demoText := screen.Wrapped(lang.L("Explore Agent Desk with sample agents that run on this computer. Nothing is charged: the credits it counts are for practice. You can connect your account later in Settings."))
	connectText := screen.Wrapped(lang.L("Use the agents of your organisation. You need the service address and an API key from your administrator."))
	w.choices = container.NewGridWithColumns(2,
		card(theme.ComputerIcon(), lang.L("Try it first"), demoText, w.Demo),
		card(theme.AccountIcon(), lang.L("Use your account"), connectText, w.Connect))

	w.Form = settings.NewAccountForm(a, preset(a))
	w.Finish = kit.NewButtonWithIcon(lang.L("Connect"), theme.ConfirmIcon(), w.finish)
	w.Finish.Importance = widget.HighImportance
	w.Back = kit.NewButtonWithIcon(lang.L("Back"), theme.NavigateBackIcon(), func() { w.show(false) })
	w.Form.OnBusy(func(busy bool) { screen.EnableIf(!busy, w.Finish, w.Back) })
	w.connect = container.NewVBox(
		widget.NewLabelWithStyle(lang.L("Connect your account"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		screen.Wrapped(lang.L("Agent Desk checks the connection before it saves your account. The key is kept in your system's keyring when there is one.")),
		w.Form.Object,
		container.NewBorder(nil, nil, w.Back, w.Finish))
	w.connect.Hide()

	icon := canvas.NewImageFromResource(assets.Icon)
	icon.FillMode = canvas.ImageFillContain
	icon.SetMinSize(fyne.NewSquareSize(96))
	title := widget.NewLabelWithStyle(lang.L("Welcome to Agent Desk"), fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	title.SizeName = theme.SizeNameHeadingText
	sub := widget.NewLabel(lang.L("Run your organisation's AI agents from your desktop."))
	sub.Alignment = fyne.TextAlignCenter

	body := container.NewVBox(container.NewCenter(icon), title, sub, w.errText, w.choices, w.connect)
	// A fixed-width column, centred, that scrolls when the window is short.
	w.content = container.NewVScroll(kit.Column(body, 640))
	return w
}

func card(icon fyne.Resource, title string, text fyne.CanvasObject, action *kit.Button) fyne.CanvasObject {
	head := container.NewHBox(widget.NewIcon(icon),
		widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	return widget.NewCard("", "", kit.NewBorder(head, action, nil, nil, text))
}

// Content is the screen's widgets.
func (w *Welcome) Content() fyne.CanvasObject { return w.content }

// show puts the connect form, or the choices, in place of the other.
func (w *Welcome) show(connect bool) {
	screen.ShowIf(w.choices, !connect)
	screen.ShowIf(w.connect, connect)
	w.content.Content.Refresh()
	w.content.Refresh()
}

func (w *Welcome) tryDemo() {
	w.Demo.Disable()
	w.Connect.Disable()
	kit.ShowError(w.errText, "")
	a := w.a
	a.Go(func() {
		ctx := context.Background()
		var err error
		if !a.IsDemo() {
			err = a.Activate(ctx, app.DemoAccountID)
		}
		if err == nil {
			err = a.UpdateSettings(ctx, func(s *app.Settings) { s.Onboarded = true })
		}
		kit.Do(func() {
			w.Demo.Enable()
			w.Connect.Enable()
			if err != nil && !a.IsDemo() {
				kit.ShowError(w.errText, lang.L("The demo could not start. {{.Why}}", map[string]any{"Why": app.Describe(err)}))
				return
			}
			// Unsaved settings only mean the welcome shows again; the demo runs.
			w.done()
		})
	})
}

// finish saves the typed account (SaveAccount marks set-up) and opens the app.
// preset is the account the organisation set up on this computer and no
// key was given for yet (its address and workspace filled in), if any.
func preset(a *app.App) app.Account {
	for _, acct := range a.Settings().Accounts {
		if !acct.IsDemo() && acct.KeyStore == "" {
			return acct
		}
	}
	return app.Account{}
}

func (w *Welcome) finish() {
	w.Form.Save(func(app.Account) { w.done() })
}
