package settings

import (
	"cmp"
	"context"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

// certificateEndings are the files a company's certificate comes in.
var certificateEndings = []string{".pem", ".crt", ".cer", ".der"}

func proxyOptions() []option[string] {
	return []option[string]{
		{lang.L("Use the computer's settings (recommended)"), app.ProxySystem},
		{lang.L("Connect directly, without a proxy"), app.ProxyNone},
		{lang.L("Through this proxy"), app.ProxyManual},
		{lang.L("As the setup script from my IT department says"), app.ProxyPAC},
	}
}

// network is Settings → Advanced → Network: how calls leave this computer,
// and the company certificates the account in use trusts.
type network struct {
	s        *Screen
	mode     *kit.RadioGroup
	address  *kit.FormEntry
	use      *kit.Button
	addrRow  *fyne.Container
	modeNote *widget.Label // set by the organisation
	certs    *fyne.Container
	trust    *kit.Button
	// test checks the account in use the way calls now go, and result
	// says how it went (and through which proxy).
	test    *kit.Button
	result  *widget.Label
	testing *widget.ProgressBarInfinite
	// pending is a proxy mode picked whose address is not kept yet: shown
	// as picked until kept, even after a refused address.
	pending string
}

func newNetwork(s *Screen) *network {
	n := &network{s: s}
	opts := proxyOptions()
	labels := make([]string, len(opts))
	for i, o := range opts {
		labels[i] = o.label
	}
	n.mode = kit.NewRadioGroup(labels, func(label string) {
		if i := slices.Index(labels, label); i >= 0 && !s.syncing {
			n.chose(opts[i].value)
		}
	})
	n.mode.Required = true
	n.address = kit.NewFormEntry()
	n.address.OnSubmitted = func(string) { n.useAddress() }
	n.use = kit.NewButton(lang.L("Use this address"), n.useAddress)
	n.addrRow = container.NewBorder(nil, nil, nil, n.use, n.address)
	n.addrRow.Hide()
	n.modeNote = screen.Quiet(lang.L("Set by your organisation."))
	n.modeNote.Hide()
	n.test = kit.NewButtonWithIcon(lang.L("Test connection"), theme.ViewRefreshIcon(), n.testConnection)
	n.result = screen.Wrapped("")
	n.result.Hide()
	n.testing = widget.NewProgressBarInfinite()
	n.testing.Stop()
	n.testing.Hide()
	n.certs = container.NewVBox()
	n.trust = kit.NewButtonWithIcon(lang.L("Trust a certificate from my company…"), theme.FileIcon(), func() {
		TrustCertificate(s.env.App, s.env.Window, func(c app.Certificate) {
			s.change(func(ctx context.Context) error { return s.env.App.Network().Trust(ctx, c) }, certificateFailed)
		}, func(err error) { kit.ShowError(s.errText, certificateFailed(app.Describe(err))) })
	})
	return n
}

func certificateFailed(why string) string {
	return lang.L("The certificate was not added. {{.Why}}", map[string]any{"Why": why})
}

// TrustCertificate asks for a company's certificate file and reads it.
func TrustCertificate(a *app.App, w fyne.Window, read func(app.Certificate), failed func(error)) {
	screen.PickIn(w, false, lang.L("Certificate not added"), certificateEndings, func(path string) {
		c, err := a.Network().ReadCertificate(path)
		if err != nil {
			failed(err)
			return
		}
		read(c)
	})
}

// object is the section's widgets.
func (n *network) object() fyne.CanvasObject {
	return container.NewVBox(
		section(lang.L("Network"), lang.L("How Agent Desk reaches the internet. Most computers need no change here; your IT department tells you if yours does."),
			container.NewVBox(n.mode, n.addrRow, n.modeNote, container.NewHBox(n.test), n.testing, n.result)),
		section(lang.L("Company certificates"), lang.L("Some company networks check secure connections with a certificate of their own. Add it only if your IT department gives you one: it is kept for the account in use."),
			container.NewVBox(n.certs, container.NewHBox(n.trust))))
}

// testConnection checks the account in use as calls now go: staff see at
// once whether a proxy chosen works, and which proxy the calls took.
func (n *network) testConnection() {
	a := n.s.env.App
	acct := a.Account()
	if acct.IsDemo() {
		n.say(widget.MediumImportance, lang.L("The demo runs on this computer: its calls never go through a proxy. Switch to your own account to test the network."))
		return
	}
	n.test.Disable()
	n.testing.Show()
	n.testing.Start()
	n.result.Hide()
	a.Go(func() {
		res := a.Accounts().Test(context.Background(), acct, "", false)
		kit.Do(func() {
			n.test.Enable()
			n.testing.Stop()
			n.testing.Hide()
			if res.State == app.Connected {
				n.say(widget.SuccessImportance, res.Message)
			} else {
				n.say(widget.DangerImportance, res.Message)
			}
		})
	})
}

func (n *network) say(imp widget.Importance, msg string) {
	n.result.Importance = imp
	n.result.SetText(msg)
	n.result.Show()
}

// chose is a proxy mode picked: the plain ones apply at once, the others
// once their address is given.
func (n *network) chose(mode string) {
	a := n.s.env.App
	n.pending = ""
	n.result.Hide() // it told of the way calls went before
	if mode == app.ProxySystem || mode == app.ProxyNone {
		n.addrRow.Hide()
		n.s.change(func(ctx context.Context) error {
			return a.Network().SetProxy(ctx, app.ProxySetting{Mode: mode})
		}, proxyFailed)
		return
	}
	n.showAddress(mode)
	if cur, _ := a.Network().Proxy(); cur.Mode != mode {
		n.address.SetText("")
		n.pending = mode
	}
	n.s.env.Window.Canvas().Focus(n.address)
}

func proxyFailed(why string) string {
	return lang.L("The network setting was not changed. {{.Why}}", map[string]any{"Why": why})
}

// showAddress shows the address field as mode needs it.
func (n *network) showAddress(mode string) {
	if mode == app.ProxyPAC {
		n.address.SetPlaceHolder("http://wpad.example.com/proxy.pac")
	} else {
		n.address.SetPlaceHolder("http://proxy.example.com:8080")
	}
	n.addrRow.Show()
}

// selected is the mode the radio shows.
func (n *network) selected() string {
	for _, o := range proxyOptions() {
		if o.label == n.mode.Selected {
			return o.value
		}
	}
	return app.ProxySystem
}

func (n *network) useAddress() {
	p := app.ProxySetting{Mode: n.selected(), URL: n.address.Text}
	n.result.Hide()
	n.s.change(func(ctx context.Context) error { return n.s.env.App.Network().SetProxy(ctx, p) }, proxyFailed, func() { n.pending = "" })
}

// refresh shows the settings in force; called while the screen syncs.
func (n *network) refresh(active app.Account) {
	a := n.s.env.App
	p, locked := a.Network().Proxy()
	mode := cmp.Or(p.Mode, app.ProxySystem)
	if locked {
		n.pending = ""
	}
	if n.pending != "" {
		mode = n.pending // as picked, with the address as typed
	} else if mode == app.ProxyManual || mode == app.ProxyPAC {
		n.address.SetText(p.URL)
	}
	n.mode.SetSelected(labelOf(proxyOptions(), mode))
	if mode == app.ProxyManual || mode == app.ProxyPAC {
		n.showAddress(mode)
	} else {
		n.addrRow.Hide()
	}
	screen.EnableIf(!locked, n.mode, n.address, n.use)
	if locked {
		n.modeNote.Show()
	} else {
		n.modeNote.Hide()
	}

	n.certs.Objects = nil
	org := a.Network().OrganisationCertificates()
	for _, c := range org {
		n.certs.Add(n.certificateRow(c, false))
	}
	switch {
	case active.IsDemo():
		n.certs.Add(quietNote(lang.L("The demo runs on this computer and needs no certificates. Switch to your own account to add one.")))
	case len(active.Certificates) == 0 && len(org) == 0:
		n.certs.Add(screen.Quiet(lang.L("None.")))
	}
	if !active.IsDemo() {
		for _, c := range active.Certificates {
			n.certs.Add(n.certificateRow(c, true))
		}
	}
	n.certs.Refresh()
	screen.EnableIf(!active.IsDemo(), n.trust)
}

// certificateRow shows a certificate trusted, with Remove when the account's
// own (mine); the organisation's for every account are its to remove.
func (n *network) certificateRow(c app.Certificate, mine bool) fyne.CanvasObject {
	name := widget.NewLabel(c.Name)
	name.Truncation = fyne.TextTruncateEllipsis
	until := quietNote(CertificateDates(n.s.env.App, c))
	if n.s.env.App.Network().Expired(c) {
		until.Importance = widget.WarningImportance
	}
	text := container.NewVBox(name, until)
	if !mine {
		text.Add(quietNote(lang.L("Set by your organisation, for every account.")))
		return container.NewBorder(nil, nil, widget.NewIcon(theme.FileIcon()), nil, text)
	}
	remove := kit.NewButtonWithIcon(lang.L("Remove"), theme.DeleteIcon(), func() {
		n.s.change(func(ctx context.Context) error { return n.s.env.App.Network().Untrust(ctx, c) }, func(why string) string {
			return lang.L("The certificate was not removed. {{.Why}}", map[string]any{"Why": why})
		})
	})
	return container.NewBorder(nil, nil, widget.NewIcon(theme.FileIcon()),
		container.NewVBox(layout.NewSpacer(), remove, layout.NewSpacer()), text)
}

// CertificateDates says until when a certificate is valid, or that it expired.
func CertificateDates(a *app.App, c app.Certificate) string {
	if a.Network().Expired(c) {
		return lang.L("Expired on {{.Date}}: ask your IT department for the new one.", map[string]any{"Date": app.Date(c.Expires)})
	}
	return lang.L("Valid until {{.Date}}", map[string]any{"Date": app.Date(c.Expires)})
}

// quietNote is a side note that wraps: beside the rail, at 800 pixels, a
// sentence does not fit on one line.
func quietNote(text string) *widget.Label {
	l := screen.Wrapped(text)
	l.Importance = widget.LowImportance
	return l
}
