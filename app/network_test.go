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

// Behind a network that inspects secure connections, every call is refused
// before the key goes and said in plain words (never "turn checking off");
// once the company's authority is trusted, the account works.
func TestANetworkThatInspectsSecureConnectionsIsSaidPlainly(t *testing.T) {
	svc := demoservice.New(demoservice.Options{APIKey: "k"})
	srv := httptest.NewTLSServer(svc)
	t.Cleanup(func() { srv.Close(); _ = svc.Close() })
	proxy := proxytest.NewInspecting(srv.Certificate())
	t.Cleanup(proxy.Close)
	open := func(n client.Network) *app.App {
		return apptest.OnURL(t, proxytest.Named(srv), func(c *app.Config) {
			c.Network = n
			c.ClientOptions = append(c.ClientOptions, client.WithMaxRetries(0))
		})
	}
	n := client.Network{Proxy: client.ProxyManual, ProxyURL: proxy.URL}
	_, err := open(n).Client().ListAgents(context.Background(), client.ListAgentsParams{})
	p := app.Explain(err)
	if p.Title != "Secure connection not trusted" || !strings.Contains(p.Sentence, "ask your IT department for your company's certificate") || !strings.Contains(p.Sentence, "did not send your key") {
		t.Fatalf("an inspecting network reads %+v (%v)", p, err)
	}
	for _, never := range []string{"x509", "unknown authority", "turn off", "insecure"} {
		if strings.Contains(p.Sentence, never) {
			t.Errorf("%q says %q", p.Sentence, never)
		}
	}
	n.Certificates = [][]byte{proxytest.CA()}
	if _, err := open(n).Client().ListAgents(context.Background(), client.ListAgentsParams{}); err != nil {
		t.Fatalf("with the company's authority trusted: %v", app.Describe(err))
	}
}

// A proxy that is gone, or that asks for a sign-in, is named as the
// network's proxy, not as the service.
func TestProxyProblemsAreSaidAsTheProxys(t *testing.T) {
	svc := demoservice.New(demoservice.Options{APIKey: "k"})
	srv := httptest.NewTLSServer(svc)
	t.Cleanup(func() { srv.Close(); _ = svc.Close() })
	cert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	signIn := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Proxy-Authenticate", `Basic realm="Acme"`)
		w.WriteHeader(http.StatusProxyAuthRequired)
	}))
	t.Cleanup(signIn.Close)
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	for proxy, title := range map[string]string{gone.URL: "Proxy not reached", signIn.URL: "Proxy sign-in needed"} {
		a := apptest.OnURL(t, proxytest.Named(srv), func(c *app.Config) {
			c.Network = client.Network{Proxy: client.ProxyManual, ProxyURL: proxy, Certificates: [][]byte{cert}}
			c.ClientOptions = append(c.ClientOptions, client.WithMaxRetries(0))
		})
		_, err := a.Client().ListAgents(context.Background(), client.ListAgentsParams{})
		p := app.Explain(err)
		if p.Title != title || !strings.Contains(p.Sentence, "proxy") {
			t.Errorf("through %s: %+v (%v)", proxy, p, err)
		}
		if res := a.Accounts().Test(context.Background(), storage.Account{BaseURL: proxytest.Named(srv)}, "k", false); res.Message != p.Sentence {
			t.Errorf("Test connection through %s says %q", proxy, res.Message)
		}
	}
}

// Test connection says which proxy the calls went through.
func TestTestConnectionNamesTheProxy(t *testing.T) {
	svc := demoservice.New(demoservice.Options{APIKey: "k"})
	srv := httptest.NewTLSServer(svc)
	t.Cleanup(func() { srv.Close(); _ = svc.Close() })
	cert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	proxy := proxytest.New("", "")
	t.Cleanup(proxy.Close)
	a := apptest.Open(t, func(c *app.Config) {
		c.Network = client.Network{Proxy: client.ProxyManual, ProxyURL: proxy.URL, Certificates: [][]byte{cert}}
	})
	res := a.Accounts().Test(context.Background(), storage.Account{BaseURL: proxytest.Named(srv)}, "k", false)
	if res.State != app.Connected || !strings.Contains(res.Message, "proxy "+proxy.Host()) || proxy.Tunnels() == 0 {
		t.Fatalf("Test connection through a proxy: %+v; %d tunnels", res, proxy.Tunnels())
	}
}

// A proxy that asks for a sign-in is asked about once; the user name and
// password given are kept like the key and used from then on, also at the
// next start; a wrong password is said plainly. The key goes inside the
// tunnel: the proxy never sees it.
func TestAProxySignInIsKeptAndUsedAtTheNextStart(t *testing.T) {
	const key = "sk-company-key-7f3a"
	svc := demoservice.New(demoservice.Options{APIKey: key})
	srv := httptest.NewTLSServer(svc)
	t.Cleanup(func() { srv.Close(); _ = svc.Close() })
	cert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	proxy := proxytest.New("maria", "s3cret pass")
	t.Cleanup(proxy.Close)
	paths, ring := storage.PathsIn(t.TempDir()), apptest.NewKeyring()
	open := func() *app.App {
		return apptest.OnURL(t, proxytest.Named(srv), func(c *app.Config) {
			c.Paths, c.Keyring = paths, ring
			c.Network = client.Network{Proxy: client.ProxyManual, ProxyURL: proxy.URL, Certificates: [][]byte{cert}}
			c.ClientOptions = append(c.ClientOptions, client.WithAPIKey(key), client.WithMaxRetries(0))
		})
	}
	ctx := context.Background()
	a := open()
	list := func(a *app.App) error { _, err := a.Client().ListAgents(ctx, client.ListAgentsParams{}); return err }

	err := list(a)
	ask, _ := a.Network().Asked().Snapshot()
	if p := app.Explain(err); p.Title != "Proxy sign-in needed" || ask.Seq != 1 || ask.Proxy != proxy.Host() || ask.Refused || !ask.CanSignIn {
		t.Fatalf("a proxy asking for a sign-in: %+v, asked %+v", p, ask)
	}
	if err := a.Network().SignIn(ctx, proxy.Host(), "maria", "wrong"); err != nil {
		t.Fatal(err)
	}
	err = list(a)
	ask, _ = a.Network().Asked().Snapshot()
	if p := app.Explain(err); p.Title != "Proxy sign-in refused" || !ask.Refused || ask.Seq != 2 || ask.User != "maria" {
		t.Fatalf("a wrong password: %+v, asked %+v", p, ask)
	}
	if err := a.Network().SignIn(ctx, proxy.Host(), "maria", "s3cret pass"); err != nil {
		t.Fatal(err)
	}
	if err := list(a); err != nil {
		t.Fatalf("signed in: %v", app.Describe(err))
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}

	b := open()
	tunnels := proxy.Tunnels()
	if err := list(b); err != nil || proxy.Tunnels() <= tunnels {
		t.Fatalf("the next start signs in as kept: %v (%d tunnels, was %d)", err, proxy.Tunnels(), tunnels)
	}
	if ask, _ := b.Network().Asked().Snapshot(); ask.Seq != 0 {
		t.Fatalf("the next start asked again: %+v", ask)
	}
	if seen := proxy.Seen(); strings.Contains(seen, key) {
		t.Fatalf("the proxy saw the key:\n%s", seen)
	}
}

// The organisation's policy sets the proxy and the authorities to trust.
func TestThePolicySetsTheProxyAndTheAuthorities(t *testing.T) {
	svc := demoservice.New(demoservice.Options{APIKey: "k"})
	srv := httptest.NewTLSServer(svc)
	t.Cleanup(func() { srv.Close(); _ = svc.Close() })
	proxy := proxytest.New("", "")
	t.Cleanup(proxy.Close)
	dir := t.TempDir()
	certFile := filepath.Join(dir, "company-ca.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	policy := filepath.Join(dir, "policy.json")
	body := fmt.Sprintf(`{"proxy": {"mode": "manual", "url": %q}, "certificates": [%q]}`, proxy.URL, certFile)
	if err := os.WriteFile(policy, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	a := apptest.OnURL(t, proxytest.Named(srv), func(c *app.Config) { c.PolicyFile = policy })
	if _, err := a.Client().ListAgents(context.Background(), client.ListAgentsParams{}); err != nil || proxy.Tunnels() == 0 {
		t.Fatalf("through the organisation's proxy, trusting its authority: %v (%d tunnels)", err, proxy.Tunnels())
	}
}
