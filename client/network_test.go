package client_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elazarl/goproxy"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/internal/proxytest"
)

// companyProxy is a forward proxy as a company runs one; with inspect it
// opens secure connections with its own authority (goproxy's test CA).
type companyProxy struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string // what the proxy could read: CONNECT lines and requests with their key, if any
}

func (p *companyProxy) saw(s string) {
	p.mu.Lock()
	p.seen = append(p.seen, s)
	p.mu.Unlock()
}

func (p *companyProxy) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.seen, "\n")
}

func newCompanyProxy(t *testing.T, service *httptest.Server, inspect bool) *companyProxy {
	t.Helper()
	p := &companyProxy{}
	gp := goproxy.NewProxyHttpServer()
	upstream := x509.NewCertPool()
	upstream.AddCert(service.Certificate())
	gp.Tr = &http.Transport{TLSClientConfig: &tls.Config{RootCAs: upstream}, DialContext: proxytest.Dial}
	gp.OnRequest().HandleConnectFunc(func(host string, ctx *goproxy.ProxyCtx) (*goproxy.ConnectAction, string) {
		p.saw("CONNECT " + host + " " + ctx.Req.Header.Get("Authorization") + ctx.Req.Header.Get("Proxy-Authorization"))
		if inspect {
			return goproxy.MitmConnect, host
		}
		return goproxy.OkConnect, host
	})
	gp.OnRequest().DoFunc(func(r *http.Request, _ *goproxy.ProxyCtx) (*http.Request, *http.Response) {
		p.saw(r.Method + " " + r.URL.Path + " " + r.Header.Get("Authorization"))
		return r, nil
	})
	p.Server = httptest.NewServer(gp)
	t.Cleanup(p.Close)
	return p
}

// secureService is the built-in service over TLS, and its certificate as PEM.
func secureService(t *testing.T) (*httptest.Server, []byte) {
	t.Helper()
	svc := demoservice.New(demoservice.Options{APIKey: testKey})
	srv := httptest.NewTLSServer(svc)
	t.Cleanup(func() { srv.Close(); _ = svc.Close() })
	return srv, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
}

func throughProxy(url string, n client.Network) *client.Client {
	return client.New(fastOptions(url, testKey, client.WithNetwork(n), client.WithMaxRetries(0))...)
}

// Through a company's proxy, calls go in a tunnel: the proxy learns the
// host, never the key.
func TestCallsGoThroughAProxyThatNeverSeesTheKey(t *testing.T) {
	srv, cert := secureService(t)
	proxy := newCompanyProxy(t, srv, false)
	c := throughProxy(proxytest.Named(srv), client.Network{Proxy: client.ProxyManual, ProxyURL: proxy.URL, Certificates: [][]byte{cert}})
	if _, err := c.ListAgents(context.Background(), client.ListAgentsParams{}); err != nil {
		t.Fatal(err)
	}
	seen := proxy.log()
	if !strings.HasPrefix(seen, "CONNECT "+strings.TrimPrefix(proxytest.Named(srv), "https://")) || strings.Contains(seen, testKey) || strings.Contains(seen, "/agents") {
		t.Fatalf("the proxy saw:\n%s", seen)
	}
}

// A proxy that inspects secure connections shows its own authority: calls
// are refused, saying so, before the key goes; once the company's
// authority is trusted they work.
func TestAnInspectingProxyIsRefusedUntilItsAuthorityIsTrusted(t *testing.T) {
	srv, _ := secureService(t)
	proxy := newCompanyProxy(t, srv, true)
	n := client.Network{Proxy: client.ProxyManual, ProxyURL: proxy.URL}
	_, err := throughProxy(proxytest.Named(srv), n).ListAgents(context.Background(), client.ListAgentsParams{})
	if !client.IsUnknownAuthority(err) || !client.IsTLS(err) {
		t.Fatalf("want an unknown authority, got %v", err)
	}
	if seen := proxy.log(); strings.Contains(seen, testKey) || strings.Contains(seen, "/agents") {
		t.Fatalf("before its authority is trusted the proxy saw:\n%s", seen)
	}
	n.Certificates = [][]byte{goproxy.CA_CERT}
	if _, err := throughProxy(proxytest.Named(srv), n).ListAgents(context.Background(), client.ListAgentsParams{}); err != nil {
		t.Fatalf("with the company's authority trusted: %v", err)
	}
}

// A proxy that cannot be reached is said as such, not as the service.
func TestAProxyThatCannotBeReachedIsSaidSo(t *testing.T) {
	srv, cert := secureService(t)
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	_, err := throughProxy(proxytest.Named(srv), client.Network{Proxy: client.ProxyManual, ProxyURL: gone.URL, Certificates: [][]byte{cert}}).
		ListAgents(context.Background(), client.ListAgentsParams{})
	if !client.IsProxyUnreachable(err) {
		t.Fatalf("want the proxy unreachable, got %v", err)
	}
	_, err = throughProxy(proxytest.Named(srv), client.Network{Proxy: client.ProxyManual, ProxyURL: "http://:0"}).ListAgents(context.Background(), client.ListAgentsParams{})
	if !errors.Is(err, client.ErrProxyAddress) {
		t.Fatalf("want a bad proxy address, got %v", err)
	}
}

// The system's proxy is asked for each request; "no proxy" asks nothing.
func TestTheSystemsProxyIsAskedPerRequest(t *testing.T) {
	srv, cert := secureService(t)
	proxy := newCompanyProxy(t, srv, false)
	var asked []string
	system := func(u *url.URL) (*url.URL, error) {
		asked = append(asked, u.Host)
		return url.Parse(proxy.URL)
	}
	c := throughProxy(proxytest.Named(srv), client.Network{System: system, Certificates: [][]byte{cert}})
	if _, err := c.ListAgents(context.Background(), client.ListAgentsParams{}); err != nil {
		t.Fatal(err)
	}
	if len(asked) == 0 || asked[0] != strings.TrimPrefix(proxytest.Named(srv), "https://") || !strings.Contains(proxy.log(), "CONNECT") {
		t.Fatalf("asked %q; the proxy saw %q", asked, proxy.log())
	}
	n := client.Network{Proxy: client.ProxyNone, System: system, Certificates: [][]byte{cert}}
	asked = nil
	if p, _ := n.ProxyFor(&url.URL{Scheme: "https", Host: "api.example.com"}); p != nil || asked != nil {
		t.Fatalf("no proxy: %v, asked %q", p, asked)
	}
}

func TestCertificatesAreReadAsPEMOrDER(t *testing.T) {
	srv, cert := secureService(t)
	for name, b := range map[string][]byte{"pem": cert, "der": srv.Certificate().Raw, "pem with text around": append(append([]byte("Company CA\n"), cert...), "\n"...)} {
		certs, err := client.ParseCertificates(b)
		if err != nil || len(certs) != 1 || !certs[0].Equal(srv.Certificate()) {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, junk := range [][]byte{nil, []byte("not a certificate"), []byte("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")} {
		if _, err := client.ParseCertificates(junk); !errors.Is(err, client.ErrNotACertificate) {
			t.Errorf("%q: %v", junk, err)
		}
	}
}

func FuzzParseCertificates(f *testing.F) {
	f.Add(goproxy.CA_CERT)
	f.Add([]byte("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"))
	block, _ := pem.Decode(goproxy.CA_CERT)
	f.Add(block.Bytes)
	f.Fuzz(func(t *testing.T, b []byte) {
		certs, err := client.ParseCertificates(b)
		if (err == nil) != (len(certs) > 0) {
			t.Fatalf("%d certificates and %v", len(certs), err)
		}
	})
}

// A proxy that asks for a sign-in is said as such, with what it offers.
func TestAProxyAskingForASignInIsSaidSo(t *testing.T) {
	srv, cert := secureService(t)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Proxy-Authenticate", `Basic realm="Acme"`)
		w.Header().Add("Proxy-Authenticate", "NTLM")
		w.WriteHeader(http.StatusProxyAuthRequired)
	}))
	t.Cleanup(proxy.Close)
	_, err := throughProxy(proxytest.Named(srv), client.Network{Proxy: client.ProxyManual, ProxyURL: proxy.URL, Certificates: [][]byte{cert}}).
		ListAgents(context.Background(), client.ListAgentsParams{})
	var auth *client.ProxyAuthError
	if !client.IsProxyAuthRequired(err) || !errors.As(err, &auth) || len(auth.Schemes) != 2 || strings.Contains(err.Error(), testKey) {
		t.Fatalf("want the proxy's sign-in asked for, got %v", err)
	}
}

// GNOME's manual proxy is read from its settings, hosts to skip included.
func TestGNOMEsProxySettingsAreRead(t *testing.T) {
	settings := map[string]string{
		"org.gnome.system.proxy mode":         "'manual'",
		"org.gnome.system.proxy ignore-hosts": "['localhost', '*.internal.example.com']",
		"org.gnome.system.proxy.https host":   "'proxy.example.com'",
		"org.gnome.system.proxy.https port":   "3128",
		"org.gnome.system.proxy.http host":    "''",
		"org.gnome.system.proxy.http port":    "0",
	}
	get := func(schema, key string) string { return strings.Trim(settings[schema+" "+key], "'") }
	c := client.GNOMEProxy(get)
	if c == nil || c.HTTPSProxy != "http://proxy.example.com:3128" || !strings.Contains(c.NoProxy, "*.internal.example.com") {
		t.Fatalf("read %+v", c)
	}
	settings["org.gnome.system.proxy mode"] = "'none'"
	if c := client.GNOMEProxy(get); c != nil {
		t.Fatalf("no proxy set, read %+v", c)
	}
}

// Calls for this computer (the built-in service, say) never go through a
// proxy, as in browsers; others go through the one chosen.
func TestCallsForThisComputerSkipTheProxy(t *testing.T) {
	n := client.Network{Proxy: client.ProxyManual, ProxyURL: "proxy.example.com:3128"}
	for _, host := range []string{"127.0.0.1:8787", "localhost:8787", "[::1]:8787", "127.8.9.1"} {
		if p, err := n.ProxyFor(&url.URL{Scheme: "http", Host: host}); p != nil || err != nil {
			t.Errorf("%s goes through %v (%v)", host, p, err)
		}
	}
	if p, err := n.ProxyFor(&url.URL{Scheme: "https", Host: "api.tess.im"}); err != nil || p == nil || p.Host != "proxy.example.com:3128" {
		t.Fatalf("the service goes through %v (%v)", p, err)
	}
}

// namedService is the built-in service over TLS with a certificate for
// names (all on loopback: proxytest's proxies take any name there), and
// that certificate as PEM.
func namedService(t *testing.T, names ...string) (*httptest.Server, []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: names[0]},
		DNSNames:              names,
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	svc := demoservice.New(demoservice.Options{APIKey: testKey})
	srv := httptest.NewUnstartedServer(svc)
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
	srv.StartTLS()
	t.Cleanup(func() { srv.Close(); _ = svc.Close() })
	return srv, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

// servedScript serves a proxy script on loopback, counting its downloads.
func servedScript(t *testing.T, script string) (string, *atomic.Int32) {
	t.Helper()
	var fetched atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetched.Add(1)
		w.Header().Set("Content-Type", "application/x-ns-proxy-autoconfig")
		_, _ = w.Write([]byte(script))
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/proxy.pac", &fetched
}

// A PAC script served on loopback chooses the proxy per host: each host's
// calls go through the proxy it names, in a tunnel that never shows the
// key; a host it sends DIRECT goes straight; the script is fetched once
// for the client, and never sees a path.
func TestAPACScriptServedOnLoopbackChoosesTheProxyPerHost(t *testing.T) {
	srv, cert := namedService(t, "a.example.com", "b.example.com")
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	first, second := proxytest.New("", ""), proxytest.New("", "")
	t.Cleanup(first.Close)
	t.Cleanup(second.Close)
	script, fetched := servedScript(t, fmt.Sprintf(`function FindProxyForURL(url, host) {
		if (url.indexOf("/agents") >= 0) return "PROXY leaked.invalid:1";
		if (host == "a.example.com") return "PROXY %s";
		if (shExpMatch(url, "https://b.example.com:*/") && dnsDomainIs(host, ".example.com")) return "PROXY %s; DIRECT";
		return "DIRECT";
	}`, first.Host(), second.Host()))
	n := client.Network{Proxy: client.ProxyPAC, PACURL: script, Certificates: [][]byte{cert}}
	hc := n.HTTPClient()
	for _, host := range []string{"a.example.com", "b.example.com", "a.example.com"} {
		c := client.New(fastOptions(fmt.Sprintf("https://%s:%d", host, port), testKey, client.WithHTTPClient(hc), client.WithMaxRetries(0))...)
		if _, err := c.ListAgents(context.Background(), client.ListAgentsParams{}); err != nil {
			t.Fatalf("%s: %v", host, err)
		}
	}
	a, b := first.Seen(), second.Seen()
	if !strings.Contains(a, fmt.Sprintf("CONNECT a.example.com:%d", port)) || strings.Contains(a, "b.example.com") {
		t.Errorf("the first proxy saw:\n%s", a)
	}
	if !strings.Contains(b, fmt.Sprintf("CONNECT b.example.com:%d", port)) || strings.Contains(b, "a.example.com") {
		t.Errorf("the second proxy saw:\n%s", b)
	}
	if strings.Contains(a+b, testKey) || strings.Contains(a+b, "/agents") {
		t.Errorf("a proxy saw the key or a path:\n%s\n%s", a, b)
	}
	if got := fetched.Load(); got != 1 {
		t.Errorf("the script was fetched %d times", got)
	}
	if p, err := n.ProxyFor(&url.URL{Scheme: "https", Host: "direct.example.org", Path: "/agents"}); p != nil || err != nil {
		t.Errorf("a DIRECT host goes through %v (%v)", p, err)
	}
	if p, err := n.ProxyFor(&url.URL{Scheme: "http", Host: "127.0.0.1:8787"}); p != nil || err != nil {
		t.Errorf("this computer goes through %v (%v)", p, err)
	}
}

// A proxy script that cannot be fetched or used fails the call, saying so,
// and nothing goes to the service; a looping one is interrupted.
func TestAPACScriptThatCannotBeUsedIsSaidSo(t *testing.T) {
	srv, cert := secureService(t)
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	notFound := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(notFound.Close)
	broken, _ := servedScript(t, "function FindProxyForURL(url, host) { return")
	looping, _ := servedScript(t, "function FindProxyForURL(url, host) { for (;;) {} }")
	garbage, _ := servedScript(t, "function FindProxyForURL(url, host) { return 'go left' }")
	for name, address := range map[string]string{
		"unreachable": gone.URL + "/proxy.pac",
		"not found":   notFound.URL + "/proxy.pac",
		"no file":     t.TempDir() + "/proxy.pac",
		"not set":     "",
		"broken":      broken,
		"looping":     looping,
		"garbage":     garbage,
	} {
		_, err := throughProxy(proxytest.Named(srv), client.Network{Proxy: client.ProxyPAC, PACURL: address, Certificates: [][]byte{cert}}).
			ListAgents(context.Background(), client.ListAgentsParams{})
		if !errors.Is(err, client.ErrProxyScript) || strings.Contains(err.Error(), testKey) {
			t.Errorf("%s: want the script unusable, got %v", name, err)
		}
	}
}

// A proxy that signs in with NTLM is met at the first call, a save: the
// save goes once more through a signed-in tunnel (the proxy refused it
// before it reached the service) and is made once; the proxy never sees
// the key or the password, and later calls reuse the tunnel.
func TestAnNTLMProxyIsSignedInToAndTheFirstSaveIsMadeOnce(t *testing.T) {
	srv, cert := secureService(t)
	proxy := proxytest.NewNTLM("ACME", "maria", "s3cret pass")
	t.Cleanup(proxy.Close)
	var asked []*client.ProxyAuthError
	c := throughProxy(proxytest.Named(srv), client.Network{Proxy: client.ProxyManual, ProxyURL: proxy.URL, Certificates: [][]byte{cert},
		SignIn:      func(string) *url.Userinfo { return url.UserPassword(`ACME\maria`, "s3cret pass") },
		OnProxyAuth: func(e *client.ProxyAuthError) { asked = append(asked, e) }})
	ctx := context.Background()
	if _, err := c.CreateCollection(ctx, "Contracts 2027"); err != nil {
		t.Fatalf("the first save through an NTLM proxy: %v", err)
	}
	page, err := c.ListCollections(ctx, client.ListCollectionsParams{})
	if err != nil {
		t.Fatal(err)
	}
	made := 0
	for _, col := range page.Data {
		if col.Name == "Contracts 2027" {
			made++
		}
	}
	if made != 1 || len(asked) != 0 || proxy.Tunnels() != 1 {
		t.Fatalf("made %d times; asked %d times; %d tunnels", made, len(asked), proxy.Tunnels())
	}
	if seen := proxy.Seen(); strings.Contains(seen, testKey) || strings.Contains(seen, "s3cret") {
		t.Fatalf("the proxy saw:\n%s", seen)
	}
}
