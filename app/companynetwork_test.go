package app_test

import (
	"context"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/internal/proxytest"
	"github.com/agentdesk/agentdesk/storage"
)

// officeService is the service behind the company network, with its key
// and a file of its certificate (not in this computer's store).
func officeService(t *testing.T, key string) (srv *httptest.Server, certFile string) {
	t.Helper()
	svc := demoservice.New(demoservice.Options{APIKey: key})
	srv = httptest.NewTLSServer(svc)
	t.Cleanup(func() { srv.Close(); _ = svc.Close() })
	certFile = filepath.Join(t.TempDir(), "service.crt")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	return srv, certFile
}

// useProxy sets Settings → Network to go through the proxy at address.
func useProxy(t *testing.T, a *app.App, address string) {
	t.Helper()
	if err := a.Network().SetProxy(context.Background(), storage.ProxySetting{Mode: storage.ProxyManual, URL: address}); err != nil {
		t.Fatal(app.Describe(err))
	}
}

// trusting is acct with the certificate in file trusted, as the account
// form's "Trust a certificate from my company…" adds it.
func trusting(t *testing.T, a *app.App, acct storage.Account, file string) storage.Account {
	t.Helper()
	c, err := a.Network().ReadCertificate(file)
	if err != nil {
		t.Fatal(app.Describe(err))
	}
	acct.Certificates = append(acct.Certificates, c)
	return acct
}

// saveAndList saves acct with key as the account in use, then lists its agents.
func saveAndList(t *testing.T, a *app.App, acct storage.Account, key string) {
	t.Helper()
	ctx := context.Background()
	saved, err := a.Accounts().Save(ctx, acct, key)
	if err == nil {
		err = a.Activate(ctx, saved.ID)
	}
	if err == nil {
		_, err = a.Client().ListAgents(ctx, client.ListAgentsParams{})
	}
	if err != nil {
		t.Fatal(app.Describe(err))
	}
}

// Staff set the network up in Settings, in three company networks, each
// through a real proxy: a plain one; one asking for a sign-in, kept for the
// next start; and one inspecting secure connections, refused in plain words
// until the company's certificate is trusted. The key travels inside the
// tunnel: the first two proxies never see it, and the third does only once
// its certificate is trusted, which is what inspecting means.
func TestACompanyNetworkIsSetUpInSettings(t *testing.T) {
	const key = "sk-office-9c1e-4b7d"
	ctx := context.Background()

	t.Run("plain", func(t *testing.T) {
		srv, certFile := officeService(t, key)
		proxy := proxytest.New("", "")
		t.Cleanup(proxy.Close)
		a := apptest.Open(t)
		useProxy(t, a, proxy.URL)
		acct := trusting(t, a, storage.Account{Name: "Office", BaseURL: proxytest.Named(srv)}, certFile)
		res := a.Accounts().Test(ctx, acct, key, false)
		if res.State != app.Connected || !strings.Contains(res.Message, "proxy "+proxy.Host()) {
			t.Fatalf("Test connection: %+v", res)
		}
		saveAndList(t, a, acct, key)
		if proxy.Tunnels() == 0 || strings.Contains(proxy.Seen(), key) {
			t.Fatalf("%d tunnels; the proxy saw:\n%s", proxy.Tunnels(), proxy.Seen())
		}
	})

	t.Run("script", func(t *testing.T) {
		srv, certFile := officeService(t, key)
		proxy := proxytest.New("", "")
		t.Cleanup(proxy.Close)
		script := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			_, _ = fmt.Fprintf(w, `function FindProxyForURL(url, host) { return dnsDomainIs(host, "example.com") ? "PROXY %s" : "DIRECT"; }`, proxy.Host())
		}))
		t.Cleanup(script.Close)
		a := apptest.Open(t)
		if err := a.Network().SetProxy(ctx, storage.ProxySetting{Mode: storage.ProxyPAC, URL: script.URL + "/proxy.pac"}); err != nil {
			t.Fatal(err)
		}
		acct := trusting(t, a, storage.Account{Name: "Office", BaseURL: proxytest.Named(srv)}, certFile)
		if res := a.Accounts().Test(ctx, acct, key, false); res.State != app.Connected || !strings.Contains(res.Message, "proxy "+proxy.Host()) {
			t.Fatalf("Test connection as the script says: %+v", res)
		}
		saveAndList(t, a, acct, key)
		if proxy.Tunnels() == 0 || strings.Contains(proxy.Seen(), key) {
			t.Fatalf("%d tunnels; the proxy saw:\n%s", proxy.Tunnels(), proxy.Seen())
		}
	})

	t.Run("sign-in", func(t *testing.T) {
		srv, certFile := officeService(t, key)
		proxy := proxytest.New(`ACME\maria`, "s3cret pass")
		t.Cleanup(proxy.Close)
		paths, ring := storage.PathsIn(t.TempDir()), apptest.NewKeyring()
		open := func() *app.App {
			return apptest.Open(t, func(c *app.Config) { c.Paths, c.Keyring = paths, ring })
		}
		a := open()
		useProxy(t, a, proxy.URL)
		acct := trusting(t, a, storage.Account{Name: "Office", BaseURL: proxytest.Named(srv)}, certFile)
		res := a.Accounts().Test(ctx, acct, key, false)
		ask, _ := a.Network().Asked().Snapshot()
		if res.State == app.Connected || !strings.Contains(res.Message, "user name and password") || ask.Seq != 1 || !ask.CanSignIn {
			t.Fatalf("a proxy asking for a sign-in: %+v, asked %+v", res, ask)
		}
		if err := a.Network().SignIn(ctx, ask.Proxy, `ACME\maria`, "s3cret pass"); err != nil {
			t.Fatal(err)
		}
		if res := a.Accounts().Test(ctx, acct, key, false); res.State != app.Connected {
			t.Fatalf("signed in: %+v", res)
		}
		saveAndList(t, a, acct, key)
		if err := a.Close(); err != nil {
			t.Fatal(err)
		}

		b := open()
		if p, _ := b.Network().Proxy(); p.Mode != storage.ProxyManual || p.URL != proxy.URL {
			t.Fatalf("the proxy set was not kept: %+v", p)
		}
		tunnels := proxy.Tunnels()
		if _, err := b.Client().ListAgents(ctx, client.ListAgentsParams{}); err != nil || proxy.Tunnels() <= tunnels {
			t.Fatalf("the next start: %v (%d tunnels, was %d)", err, proxy.Tunnels(), tunnels)
		}
		if ask, _ := b.Network().Asked().Snapshot(); ask.Seq != 0 {
			t.Fatalf("the next start asked again: %+v", ask)
		}
		if strings.Contains(proxy.Seen(), key) {
			t.Fatalf("the proxy saw the key:\n%s", proxy.Seen())
		}
	})

	t.Run("windows sign-in", func(t *testing.T) {
		srv, certFile := officeService(t, key)
		proxy := proxytest.NewNTLM("ACME", "maria", "s3cret pass")
		t.Cleanup(proxy.Close)
		paths, ring := storage.PathsIn(t.TempDir()), apptest.NewKeyring()
		open := func() *app.App {
			return apptest.Open(t, func(c *app.Config) { c.Paths, c.Keyring = paths, ring })
		}
		a := open()
		useProxy(t, a, proxy.URL)
		acct := trusting(t, a, storage.Account{Name: "Office", BaseURL: proxytest.Named(srv)}, certFile)
		res := a.Accounts().Test(ctx, acct, key, false)
		ask, _ := a.Network().Asked().Snapshot()
		if res.State == app.Connected || ask.Seq != 1 || !ask.CanSignIn || !ask.Windows {
			t.Fatalf("a proxy asking for a Windows sign-in: %+v, asked %+v", res, ask)
		}
		if err := a.Network().SignIn(ctx, ask.Proxy, `ACME\maria`, "wrong"); err != nil {
			t.Fatal(err)
		}
		res = a.Accounts().Test(ctx, acct, key, false)
		ask, _ = a.Network().Asked().Snapshot()
		if !strings.Contains(res.Message, "refused the user name and password") || !ask.Refused || ask.Seq != 2 || ask.User != `ACME\maria` {
			t.Fatalf("a wrong password: %+v, asked %+v", res, ask)
		}
		if err := a.Network().SignIn(ctx, ask.Proxy, `ACME\maria`, "s3cret pass"); err != nil {
			t.Fatal(err)
		}
		if res := a.Accounts().Test(ctx, acct, key, false); res.State != app.Connected {
			t.Fatalf("signed in: %+v", res)
		}
		saveAndList(t, a, acct, key)
		if err := a.Close(); err != nil {
			t.Fatal(err)
		}

		b := open()
		tunnels := proxy.Tunnels()
		if _, err := b.Client().ListAgents(ctx, client.ListAgentsParams{}); err != nil || proxy.Tunnels() <= tunnels {
			t.Fatalf("the next start: %v (%d tunnels, was %d)", err, proxy.Tunnels(), tunnels)
		}
		if ask, _ := b.Network().Asked().Snapshot(); ask.Seq != 0 {
			t.Fatalf("the next start asked again: %+v", ask)
		}
		if seen := proxy.Seen(); strings.Contains(seen, key) || strings.Contains(seen, "s3cret") {
			t.Fatalf("the proxy saw the key or the password:\n%s", seen)
		}
	})

	t.Run("inspecting", func(t *testing.T) {
		srv, _ := officeService(t, key)
		proxy := proxytest.NewInspecting(srv.Certificate())
		t.Cleanup(proxy.Close)
		a := apptest.Open(t)
		useProxy(t, a, proxy.URL)
		acct := storage.Account{Name: "Office", BaseURL: proxytest.Named(srv)}
		res := a.Accounts().Test(ctx, acct, key, false)
		if res.State != app.TLSProblem || !res.NeedsCertificate || !strings.Contains(res.Message, "Trust a certificate from my company") {
			t.Fatalf("an inspecting network: %+v", res)
		}
		if strings.Contains(proxy.Seen(), key) {
			t.Fatalf("the key went before the network was trusted:\n%s", proxy.Seen())
		}
		company := filepath.Join(t.TempDir(), "acme-inspection.cer")
		if err := os.WriteFile(company, proxytest.CA(), 0o644); err != nil {
			t.Fatal(err)
		}
		acct = trusting(t, a, acct, company)
		if res := a.Accounts().Test(ctx, acct, key, false); res.State != app.Connected {
			t.Fatalf("with the company's certificate trusted: %+v", res)
		}
		saveAndList(t, a, acct, key)
		if !strings.Contains(proxy.Seen(), key) {
			t.Fatal("the inspecting proxy read nothing inside the connections it opened: its silence before proves nothing")
		}
		if got := a.Account().Certificates; len(got) != 1 || got[0].Name == "" || got[0].Expires.IsZero() {
			t.Fatalf("the account keeps %+v", got)
		}
		if err := a.Network().Untrust(ctx, a.Account().Certificates[0]); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Client().ListAgents(ctx, client.ListAgentsParams{}, client.WithMaxRetries(0)); app.Explain(err).Title != "Secure connection not trusted" {
			t.Fatalf("with the certificate removed: %v", err)
		}
	})
}

// A file that holds no certificate is refused in plain words; a proxy
// address that cannot be used is refused and the setting stays.
func TestNetworkSettingsRefuseWhatCannotWork(t *testing.T) {
	a := apptest.Open(t)
	ctx := context.Background()
	notes := filepath.Join(t.TempDir(), "notes.pem")
	if err := os.WriteFile(notes, []byte("-----BEGIN NOTE-----\nhello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Network().ReadCertificate(notes); app.Explain(err).Title != "Not a certificate" {
		t.Errorf("a file without a certificate: %v", err)
	}
	for _, bad := range []storage.ProxySetting{{Mode: storage.ProxyManual, URL: "ftp://proxy"}, {Mode: storage.ProxyManual}, {Mode: storage.ProxyPAC, URL: "proxy.pac"}} {
		if err := a.Network().SetProxy(ctx, bad); app.Explain(err).Title != "Proxy address not usable" {
			t.Errorf("%+v: %v", bad, err)
		}
	}
	if p, _ := a.Network().Proxy(); p.Mode != "" {
		t.Errorf("refused addresses changed the setting to %+v", p)
	}
	if err := a.Network().Trust(ctx, storage.Certificate{Name: "x", PEM: "y"}); err == nil {
		t.Error("the demo took a certificate")
	}
}

// A policy that locks the proxy keeps it: Settings cannot change it.
func TestAPolicyLockedProxyCannotBeChanged(t *testing.T) {
	policy := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(policy, []byte(`{"proxy": {"mode": "pac", "url": "http://wpad.acme.example/proxy.pac", "locked": true}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	a := apptest.Open(t, func(c *app.Config) { c.PolicyFile = policy })
	if p, locked := a.Network().Proxy(); !locked || p.Mode != storage.ProxyPAC || p.URL != "http://wpad.acme.example/proxy.pac" {
		t.Fatalf("the policy's proxy: %+v locked %v", p, locked)
	}
	err := a.Network().SetProxy(context.Background(), storage.ProxySetting{Mode: storage.ProxyNone})
	if !strings.Contains(app.Describe(err), "organisation") {
		t.Fatalf("changing a locked proxy: %v", err)
	}
}
