package settings

import (
	"context"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

// AccountForm edits an account's address, key and workspace, with "Test
// connection"; the welcome and settings screens share it.
type AccountForm struct {
	a    *app.App
	acct app.Account // the account being edited; zero ID for a new one

	Name      *kit.FormEntry
	BaseURL   *kit.FormEntry
	Key       *kit.FormEntry
	Workspace *kit.FormEntry
	// WorkspaceNote, under the workspace field, says what is wrong with it.
	WorkspaceNote *widget.Label
	Result        *widget.Label
	Object        fyne.CanvasObject // the form
	Test          *kit.Button

	// Window is where the form asks before the stored key goes to a changed
	// address; without it, the form asks for the key again instead.
	Window fyne.Window

	// keyAsk is the open key question (for tests); keyFor is the address the
	// user agreed to send the stored key to.
	keyAsk *dialog.ConfirmDialog
	keyFor string

	busy     *widget.ProgressBarInfinite
	onChange []func(busy bool)

	// certs lists the company certificates the account trusts, with Trust
	// to add one: shown once Test connection meets a network that
	// inspects secure connections, or when the account has some.
	certs *fyne.Container
	Trust *kit.Button
}

// NewAccountForm builds the form for acct (zero for a new one). The stored
// key is never shown: a blank key field keeps it.
func NewAccountForm(a *app.App, acct app.Account) *AccountForm {
	f := &AccountForm{a: a, acct: acct}
	f.Name = kit.NewFormEntry()
	f.Name.SetPlaceHolder(lang.L("For example: Office account"))
	f.BaseURL = kit.NewFormEntry()
	f.BaseURL.SetPlaceHolder("https://agents.example.com/api")
	f.Key = kit.NewFormPasswordEntry()
	f.Key.SetPlaceHolder(lang.L("Paste your API key"))
	f.Workspace = kit.NewFormEntry()
	f.Workspace.SetPlaceHolder(lang.L("A number, for example 12345"))
	if acct.ID != "" {
		f.Name.SetText(acct.Name)
		f.BaseURL.SetText(acct.BaseURL)
		f.Workspace.SetText(acct.WorkspaceID)
		f.Key.SetPlaceHolder(lang.L("Leave blank to keep the stored key"))
	}
	f.WorkspaceNote = kit.ErrorText()
	f.Result = screen.Wrapped("")
	f.Result.Hide()
	f.busy = widget.NewProgressBarInfinite()
	f.busy.Stop()
	f.busy.Hide()
	f.Test = kit.NewButtonWithIcon(lang.L("Test connection"), theme.ViewRefreshIcon(), f.TestConnection)
	f.Trust = kit.NewButtonWithIcon(lang.L("Trust a certificate from my company…"), theme.FileIcon(), f.trust)
	f.certs = container.NewVBox()
	f.showCertificates(false)

	form := widget.NewForm(
		widget.NewFormItem(lang.L("Name"), f.Name),
		widget.NewFormItem(lang.L("Service address"), f.BaseURL),
		widget.NewFormItem(lang.L("API key"), f.Key),
		widget.NewFormItem(lang.L("Workspace number"), f.Workspace),
	)
	form.Items[0].HintText = lang.L("A name you will recognise in Settings.")
	form.Items[1].HintText = lang.L("Your administrator gives you this address.")
	form.Items[3].HintText = lang.L("In the service's web app: Settings → Workspace (or the number after w= in its address).")
	if a.Locks().Account(acct.ID) {
		f.BaseURL.Disable()
		f.Workspace.Disable()
		form.Items[1].HintText = lang.L("Set by your organisation.")
		form.Items[3].HintText = lang.L("Set by your organisation.")
	}
	f.Object = container.NewVBox(form, f.WorkspaceNote,
		container.NewHBox(f.Test),
		f.busy, f.Result, f.certs)
	return f
}

// OnBusy hears when a check or save starts and ends, so callers can disable buttons.
func (f *AccountForm) OnBusy(fn func(busy bool)) { f.onChange = append(f.onChange, fn) }

// Account is what the form holds, ready for SaveAccount.
func (f *AccountForm) Account() app.Account {
	acct := f.acct
	acct.Name = f.Name.Text
	acct.BaseURL = f.BaseURL.Text
	acct.WorkspaceID = f.Workspace.Text
	return acct
}

func (f *AccountForm) setBusy(busy bool, msg string) {
	if busy {
		kit.ShowError(f.WorkspaceNote, "")
		f.Test.Disable()
		f.busy.Show()
		f.busy.Start()
		f.say(widget.MediumImportance, msg)
	} else {
		f.Test.Enable()
		f.busy.Stop()
		f.busy.Hide()
	}
	for _, fn := range f.onChange {
		fn(busy)
	}
}

func (f *AccountForm) show(res app.ConnectionResult) {
	switch {
	case res.AboutWorkspace():
		f.Result.Hide()
		kit.ShowError(f.WorkspaceNote, res.Message)
	case res.State == app.Connected:
		f.say(widget.SuccessImportance, res.Message)
	default:
		f.say(widget.DangerImportance, res.Message)
	}
	f.showCertificates(res.NeedsCertificate)
}

// showCertificates lists the certificates the account trusts, and offers
// to add one when the network needs it (offer) or some are there already.
func (f *AccountForm) showCertificates(offer bool) {
	f.certs.Objects = nil
	for _, c := range f.acct.Certificates {
		f.certs.Add(quietNote(lang.L("Trusts {{.Name}}. {{.Dates}}", map[string]any{"Name": c.Name, "Dates": CertificateDates(f.a, c)})))
	}
	if offer || len(f.acct.Certificates) > 0 {
		f.certs.Add(container.NewHBox(f.Trust))
		f.certs.Show()
	} else {
		f.certs.Hide()
	}
	f.certs.Refresh()
}

// trust asks for the company's certificate, keeps it with the account
// being edited (saved with it), and tests the connection again.
func (f *AccountForm) trust() {
	if f.Window == nil {
		return
	}
	TrustCertificate(f.a, f.Window, func(c app.Certificate) {
		f.AddCertificate(c)
		f.TestConnection()
	}, func(err error) { f.say(widget.DangerImportance, certificateFailed(app.Describe(err))) })
}

// AddCertificate trusts c for the account being edited, once saved.
func (f *AccountForm) AddCertificate(c app.Certificate) {
	f.acct.Certificates = append(slices.DeleteFunc(slices.Clone(f.acct.Certificates), func(x app.Certificate) bool { return x.PEM == c.PEM }), c)
	f.showCertificates(true)
}

// say shows msg under the form, as important as imp says.
func (f *AccountForm) say(imp widget.Importance, msg string) {
	f.Result.Importance = imp
	f.Result.SetText(msg)
	f.Result.Show()
}

// TestConnection makes one cheap call with what is typed and says how it went.
func (f *AccountForm) TestConnection() { f.check(false, nil) }

// Save checks the connection, then stores the account and activates it;
// done is not called on failure, and what was typed stays.
func (f *AccountForm) Save(done func(app.Account)) { f.check(true, done) }

// check tests the connection with what is typed; when save, an account
// that connects is stored and activated.
func (f *AccountForm) check(save bool, done func(app.Account)) {
	acct, key := f.Account(), f.Key.Text
	f.whenKeyMayGo(acct, key, func() {
		f.setBusy(true, lang.L("Checking the connection…"))
		f.a.Go(func() {
			ctx := context.Background()
			res := f.a.Accounts().Test(ctx, acct, key, true)
			if !save || res.State != app.Connected {
				kit.Do(func() {
					f.show(res)
					f.setBusy(false, "")
				})
				return
			}
			// Saving the active account already renews its connection.
			saved, err := f.a.Accounts().Save(ctx, acct, key)
			if err == nil && f.a.AccountID() != saved.ID {
				err = f.a.Activate(ctx, saved.ID)
			}
			kit.Do(func() {
				if err != nil {
					f.Result.Importance = widget.DangerImportance
					kit.ShowError(f.Result, app.Describe(err))
					f.setBusy(false, "")
					return
				}
				f.acct = saved
				f.show(res)
				// Say at once that the key landed in the keys file, not the keyring.
				if note := app.KeyInFileNote(saved); note != "" && key != "" {
					f.say(widget.WarningImportance, res.Message+" "+note)
				}
				f.setBusy(false, "")
				if done != nil {
					done(saved)
				}
			})
		})
	})
}

// whenKeyMayGo runs send at once unless the key field is blank and the
// address names another server than the stored key's: the key goes only to
// its origin, so the user confirms first. Nothing is sent while asking.
func (f *AccountForm) whenKeyMayGo(acct app.Account, key string, send func()) {
	moves, from, to := f.a.Accounts().StoredKeyMoves(acct, key)
	if !moves || (f.keyFor != "" && app.SameServer(f.keyFor, acct.BaseURL)) {
		send()
		return
	}
	if f.keyAsk != nil {
		return // the question is already on screen
	}
	if f.Window == nil {
		f.say(widget.WarningImportance, lang.L("Paste the API key again to use it with {{.Address}}. Agent Desk does not send your saved key to a new address without asking.", map[string]any{"Address": to}))
		return
	}
	d := dialog.NewConfirm(lang.L("Send your saved key to {{.Address}}?", map[string]any{"Address": to}),
		lang.L("Your API key was saved for {{.Old}}. The address now points to {{.Address}}, and Agent Desk has not sent the key there. Send it only if your administrator gave you this new address. If you are not sure, choose Cancel and paste the key again.",
			map[string]any{"Old": from, "Address": to}),
		func(ok bool) {
			f.keyAsk = nil
			if !ok {
				f.say(widget.WarningImportance, lang.L("Your saved API key was not sent to {{.Address}}. To use this address, paste the API key again, or choose Send the key.", map[string]any{"Address": to}))
				return
			}
			f.keyFor = acct.BaseURL
			send()
		}, f.Window)
	d.SetConfirmText(lang.L("Send the key"))
	d.SetDismissText(lang.L("Cancel"))
	f.keyAsk = d
	kit.ShowDestructive(d, f.Window)
}
