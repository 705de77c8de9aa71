package settings

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/internal/proxytest"
	"github.com/agentdesk/agentdesk/storage"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
	"github.com/agentdesk/agentdesk/views/screen"
)

// companyCertificate is a file holding the company's authority, as IT hands it out.
func companyCertificate(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "acme-inspection.cer")
	if err := os.WriteFile(path, proxytest.CA(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Network settings after each thing a user does: a proxy picked, a wrong
// address refused and the error cleared, back to the computer's settings;
// a company certificate trusted for the account in use, then removed.
func TestNetworkSettingsAfterEachAction(t *testing.T) {
	s, a, wait := newScreen(t, apptest.NewKeyring())
	n := s.network
	if n.mode.Selected != "Use the computer's settings (recommended)" || n.addrRow.Visible() {
		t.Fatalf("first shown: %q, address shown %v", n.mode.Selected, n.addrRow.Visible())
	}
	if !n.trust.Disabled() || !strings.Contains(kittest.Labels(n.certs), "The demo runs on this computer") {
		t.Fatalf("the demo takes no certificates: %s", kittest.Labels(n.certs))
	}

	test.Tap(n.test)
	if !strings.Contains(n.result.Text, "never go through a proxy") {
		t.Fatalf("testing the demo's network: %q", n.result.Text)
	}
	choose(s, n.mode, "Through this proxy")
	if n.result.Visible() {
		t.Fatal("a test result stays shown after the setting changed")
	}
	if !n.addrRow.Visible() || n.address.Text != "" || a.Settings().Proxy.Mode != "" {
		t.Fatalf("picking a proxy asks for its address first: shown %v, %q, kept %+v", n.addrRow.Visible(), n.address.Text, a.Settings().Proxy)
	}
	test.Type(n.address, "ftp://proxy.acme.example")
	test.Tap(n.use)
	wait("a wrong address refused", func() bool {
		return strings.Contains(s.errText.Text, "proxy address set for this computer cannot be used")
	})
	if a.Settings().Proxy.Mode != "" || n.mode.Selected != "Through this proxy" || !n.addrRow.Visible() || n.address.Text != "ftp://proxy.acme.example" {
		t.Fatalf("a refused address was kept (%+v), or the choice was lost: %q, %v, %q", a.Settings().Proxy, n.mode.Selected, n.addrRow.Visible(), n.address.Text)
	}
	n.address.SetText("http://proxy.acme.example:3128")
	test.Tap(n.use)
	wait("the proxy kept and the error cleared", func() bool {
		return !s.errText.Visible() && a.Settings().Proxy == storage.ProxySetting{Mode: storage.ProxyManual, URL: "http://proxy.acme.example:3128"}
	})
	if n.mode.Selected != "Through this proxy" || n.address.Text != "http://proxy.acme.example:3128" || !n.addrRow.Visible() {
		t.Fatalf("shown again: %q %q %v", n.mode.Selected, n.address.Text, n.addrRow.Visible())
	}
	choose(s, n.mode, "Use the computer's settings (recommended)")
	wait("back to the computer's settings", func() bool {
		return a.Settings().Proxy.Mode == storage.ProxySystem && !n.addrRow.Visible()
	})

	srv, _ := demoservice.NewTestService(t, demoservice.Options{APIKey: "k"})
	ctx := context.Background()
	saved, err := a.Accounts().Save(ctx, app.Account{Name: "Office", BaseURL: srv.URL}, "k")
	if err == nil {
		err = a.Activate(ctx, saved.ID)
	}
	if err != nil {
		t.Fatal(err)
	}
	test.Tap(n.test)
	wait("the account's connection tested", func() bool { return strings.HasPrefix(n.result.Text, "Connected.") && !n.test.Disabled() })
	wait("no certificates yet", func() bool { return !n.trust.Disabled() && strings.TrimSpace(kittest.Labels(n.certs)) == "None." })
	c, err := a.Network().ReadCertificate(companyCertificate(t))
	if err != nil {
		t.Fatal(err)
	}
	s.change(func(ctx context.Context) error { return a.Network().Trust(ctx, c) }, certificateFailed)
	wait("the certificate listed with its name and date", func() bool {
		l := kittest.Labels(n.certs)
		return strings.Contains(l, c.Name) && strings.Contains(l, "Valid until "+app.Date(c.Expires))
	})
	test.Tap(kittest.FindButton(n.certs, "Remove"))
	wait("the certificate removed", func() bool {
		return strings.TrimSpace(kittest.Labels(n.certs)) == "None." && len(a.Account().Certificates) == 0
	})
}

// A proxy set by the organisation shows as such and cannot be changed.
func TestALockedProxyShowsAsSetByTheOrganisation(t *testing.T) {
	test.NewTempApp(t)
	kit.UseQueue(t)
	path := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(path, []byte(`{"proxy": {"mode": "manual", "url": "http://proxy.acme.example:3128", "locked": true}, "certificates": ["`+companyCertificate(t)+`"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	a := openWithPolicy(t, path)
	s := New(screen.Env{App: a}).(*Screen)
	n := s.network
	if !n.mode.Disabled() || !n.address.Disabled() || !n.modeNote.Visible() || n.address.Text != "http://proxy.acme.example:3128" || n.mode.Selected != "Through this proxy" {
		t.Fatalf("locked: %v %v %v %q %q", n.mode.Disabled(), n.address.Disabled(), n.modeNote.Visible(), n.address.Text, n.mode.Selected)
	}
	if l := kittest.Labels(n.certs); !strings.Contains(l, "goproxy.github.io") || !strings.Contains(l, "Set by your organisation, for every account.") || kittest.FindButton(n.certs, "Remove") != nil {
		t.Fatalf("the organisation's certificate: %s", l)
	}
}

// Behind a network that inspects secure connections, Test connection says
// so and offers to trust the company's certificate; once added, the
// connection works and the account is saved trusting it.
func TestTheAccountFormOffersToTrustTheCompanysCertificate(t *testing.T) {
	s, a, wait := newScreen(t, apptest.NewKeyring())
	svc := demoservice.New(demoservice.Options{APIKey: "k"})
	srv := httptest.NewTLSServer(svc)
	t.Cleanup(func() { srv.Close(); _ = svc.Close() })
	proxy := proxytest.NewInspecting(srv.Certificate())
	t.Cleanup(proxy.Close)
	if err := a.Network().SetProxy(context.Background(), storage.ProxySetting{Mode: storage.ProxyManual, URL: proxy.URL}); err != nil {
		t.Fatal(err)
	}

	s.editAccount(app.Account{})
	f := s.form
	done := formDone(f, wait)
	f.BaseURL.SetText(proxytest.Named(srv))
	f.Key.SetText("k")
	if f.certs.Visible() {
		t.Fatal("the certificates show before any network needs one")
	}
	f.TestConnection()
	done(t)
	if !strings.Contains(f.Result.Text, "did not send your key") || !f.certs.Visible() || kittest.FindButton(f.certs, "Trust a certificate from my company…") == nil {
		t.Fatalf("an inspecting network: %q; offered %v", f.Result.Text, f.certs.Visible())
	}
	c, err := a.Network().ReadCertificate(companyCertificate(t))
	if err != nil {
		t.Fatal(err)
	}
	f.AddCertificate(c)
	f.TestConnection()
	done(t)
	if !strings.HasPrefix(f.Result.Text, "Connected.") || !strings.Contains(kittest.Labels(f.certs), "Trusts "+c.Name) {
		t.Fatalf("trusting the company's certificate: %q; %s", f.Result.Text, kittest.Labels(f.certs))
	}
	test.Tap(s.save)
	done(t)
	if got := a.Account().Certificates; len(got) != 1 || got[0].PEM != c.PEM {
		t.Fatalf("the account saved trusts %+v", got)
	}
}

// TestNetworkSettingsLayOut: the network settings with a proxy address
// and a certificate, and the form offering one, in each language and
// size: nothing drawn over anything, nothing cut.
func TestNetworkSettingsLayOut(t *testing.T) {
	kittest.EachLanguage(t, apptest.Speak, func(t *testing.T, size fyne.Size) {
		test.NewTempApp(t)
		q := kit.UseQueue(t)
		a := openApp(t, apptest.NewKeyring())
		ctx := context.Background()
		if err := a.UpdateSettings(ctx, func(st *app.Settings) { st.ShowAdvanced = true }); err != nil {
			t.Fatal(err)
		}
		s := New(screen.Env{App: a}).(*Screen)
		w := test.NewTempWindow(t, widget.NewLabel(""))
		s.env.Window = w
		w.SetContent(container.NewStack(s.Content(), kit.NewLayer(w.Canvas())))
		w.Resize(size)
		frames := kittest.NewFrames(w.Canvas())
		kittest.Look(t, frames, q, w, "the network settings of the demo")
		srv, _ := demoservice.NewTestService(t, demoservice.Options{APIKey: "k"})
		c, err := a.Network().ReadCertificate(companyCertificate(t))
		if err != nil {
			t.Fatal(err)
		}
		saved, err := a.Accounts().Save(ctx, app.Account{Name: "Office", BaseURL: srv.URL, Certificates: []storage.Certificate{c}}, "k")
		if err == nil {
			err = a.Activate(ctx, saved.ID)
		}
		if err == nil {
			err = a.Network().SetProxy(ctx, storage.ProxySetting{Mode: storage.ProxyPAC, URL: "http://wpad.acme.example/" + strings.Repeat("long-path/", 20) + "proxy.pac"})
		}
		if err != nil {
			t.Fatal(err)
		}
		kittest.Look(t, frames, q, w, "the network settings")
		s.editAccount(a.Account())
		s.form.showCertificates(true)
		kittest.Look(t, frames, q, w, "the account form trusting a certificate")
	})
}
