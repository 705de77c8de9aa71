package app

import (
	"context"
	"crypto/sha256"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/clock"
	"github.com/agentdesk/agentdesk/storage"
)

// ProxyAsk is a proxy's request for a sign-in, for the window to ask the
// user once: Seq grows with each request worth asking about.
type ProxyAsk struct {
	Proxy string // host:port
	// Refused: the user name and password kept were refused.
	Refused bool
	// CanSignIn: the proxy takes a user name and password Agent Desk can
	// send (Basic or NTLM); Windows: as a Windows sign-in (NTLM).
	CanSignIn, Windows bool
	// User is the user name kept for this proxy, if any, to correct.
	User string
	Seq  int
}

// Network is how Agent Desk reaches the service from this computer: the
// proxy's sign-in, kept like the API key (App.Network).
type Network struct{ a *App }

func (a *App) Network() *Network { return &Network{a} }

// proxyNet holds the sign-ins read or given this session, by proxy host.
type proxyNet struct {
	mu    sync.Mutex
	users map[string]*url.Userinfo // nil entry: looked up, none kept
	// waiting are the proxies asked about and not answered since: one
	// question at a time, and none again after Cancel this session.
	waiting map[string]bool
	asked   *live.State[ProxyAsk]
}

// networkSettings are how calls leave this computer: Config.Network, with
// the organisation's proxy and authorities (Policy) over it, and the
// proxy's sign-in kept here.
func (a *App) networkSettings() client.Network {
	n := a.cfg.Network
	switch p := a.Settings().Proxy; p.Mode {
	case storage.ProxyNone:
		n.Proxy = client.ProxyNone
	case storage.ProxyManual:
		n.Proxy, n.ProxyURL = client.ProxyManual, p.URL
	case storage.ProxyPAC:
		n.Proxy, n.PACURL = client.ProxyPAC, p.URL
	case storage.ProxySystem:
		n.Proxy = client.ProxySystem
	}
	for _, path := range a.policy.Certificates {
		// One that cannot be read is passed on as it is: every call then
		// says the certificate is unreadable, rather than go without it.
		b, _ := os.ReadFile(path)
		n.Certificates = append(n.Certificates, b)
	}
	n.SignIn, n.OnProxyAuth = a.signIn, a.proxyAsked
	return n
}

// nets are the HTTP clients built for the network settings in force, one
// for each set of certificates an account trusts.
type nets struct {
	mu      sync.Mutex
	clients map[string]*http.Client
}

// httpClient reaches the service as the network settings say, trusting
// certs besides the system's authorities.
func (a *App) httpClient(certs []storage.Certificate) *http.Client {
	h := sha256.New()
	for _, c := range certs {
		h.Write([]byte(c.PEM))
		h.Write([]byte{0})
	}
	key := string(h.Sum(nil))
	a.nets.mu.Lock()
	defer a.nets.mu.Unlock()
	if hc := a.nets.clients[key]; hc != nil {
		return hc
	}
	n := a.networkSettings()
	for _, c := range certs {
		n.Certificates = append(n.Certificates, []byte(c.PEM))
	}
	hc := n.HTTPClient()
	a.nets.clients[key] = hc
	return hc
}

// reset closes the clients built so far: the next call builds its own with
// the settings then in force.
func (n *nets) reset() {
	n.mu.Lock()
	defer n.mu.Unlock()
	for key, hc := range n.clients {
		hc.CloseIdleConnections()
		delete(n.clients, key)
	}
}

// secretName is the proxy's entry among the kept secrets.
func secretName(proxy string) string { return "proxy " + proxy }

// signIn is the sign-in kept for proxy, read once from the keyring (or the
// keys file) and then from memory.
func (a *App) signIn(proxy string) *url.Userinfo {
	n := &a.proxies
	n.mu.Lock()
	user, known := n.users[proxy]
	n.mu.Unlock()
	if known {
		return user
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if kept, _, err := a.secrets.Get(ctx, secretName(proxy)); err == nil {
		if name, password, ok := strings.Cut(kept, "\n"); ok {
			user = url.UserPassword(name, password)
		}
	}
	n.mu.Lock()
	n.users[proxy] = user
	n.mu.Unlock()
	return user
}

// proxyAsked publishes a proxy's request for a sign-in; one the user
// cannot answer here (Kerberos alone) is published too, for the window to say so.
func (a *App) proxyAsked(e *client.ProxyAuthError) {
	n := &a.proxies
	n.mu.Lock()
	waiting := n.waiting[e.Proxy]
	n.waiting[e.Proxy] = true
	user := ""
	if kept := n.users[e.Proxy]; kept != nil {
		user = kept.Username()
	}
	n.mu.Unlock()
	if waiting {
		return
	}
	n.asked.Update(func(old ProxyAsk) ProxyAsk {
		return ProxyAsk{Proxy: e.Proxy, Refused: e.Refused, CanSignIn: e.CanSignIn(), Windows: e.CanSignIn() && !e.OffersBasic(), User: user, Seq: old.Seq + 1}
	})
}

// Asked is the latest proxy's request for a sign-in.
func (n *Network) Asked() live.Observable[ProxyAsk] { return n.a.proxies.asked }

// SignIn keeps a user name and password for proxy, in the keyring like the
// key (else the 0600 keys file), and uses them from the next call on.
func (n *Network) SignIn(ctx context.Context, proxy, user, password string) error {
	a := n.a
	if _, err := a.secrets.Set(ctx, secretName(proxy), user+"\n"+password); err != nil {
		return err
	}
	a.proxies.mu.Lock()
	a.proxies.users[proxy] = url.UserPassword(user, password)
	delete(a.proxies.waiting, proxy)
	a.proxies.mu.Unlock()
	return nil
}

// Proxy is how calls leave this computer, and whether the organisation set it.
func (n *Network) Proxy() (p storage.ProxySetting, locked bool) {
	pol := n.a.policy.Proxy
	return n.a.Settings().Proxy, pol != nil && pol.Locked
}

// SetProxy keeps how calls leave this computer, for every account, and
// reconnects the account in use that way. An address that cannot be used is
// refused, and the setting stays as it was.
func (n *Network) SetProxy(ctx context.Context, p storage.ProxySetting) error {
	a := n.a
	p.URL = strings.TrimSpace(p.URL)
	switch p.Mode {
	case storage.ProxyManual:
		if _, err := (client.Network{Proxy: client.ProxyManual, ProxyURL: p.URL}).ProxyFor(&url.URL{Scheme: "https", Host: "example.com"}); err != nil {
			return err
		}
	case storage.ProxyPAC:
		if err := checkPACURL(p.URL); err != nil {
			return err
		}
	default:
		p.URL = ""
	}
	if err := a.UpdateSettings(ctx, func(s *storage.Settings) { s.Proxy = p }); err != nil {
		return err
	}
	a.nets.reset()
	return a.Activate(ctx, a.AccountID())
}

// maxCertificateBytes bounds a certificate file: a company's chain is a few
// kilobytes.
const maxCertificateBytes = 1 << 20

// errDemoCertificates is why the demo, on this computer, takes no certificates.
var errDemoCertificates = say(func() string { return lang.L("the demo runs on this computer and needs no certificates") })

// ReadCertificate reads a company's certificate file (PEM or DER), named
// as its owner calls it, for Trust.
func (n *Network) ReadCertificate(path string) (storage.Certificate, error) {
	f, err := os.Open(path)
	if err != nil {
		return storage.Certificate{}, err
	}
	defer func() { _ = f.Close() }()
	data, err := io.ReadAll(io.LimitReader(f, maxCertificateBytes+1))
	if err != nil {
		return storage.Certificate{}, err
	}
	if len(data) > maxCertificateBytes {
		return storage.Certificate{}, client.ErrNotACertificate
	}
	certs, err := client.ParseCertificates(data)
	if err != nil {
		return storage.Certificate{}, err
	}
	var b strings.Builder
	for _, c := range certs {
		_ = pem.Encode(&b, &pem.Block{Type: "CERTIFICATE", Bytes: c.Raw})
	}
	first := certs[0]
	name := first.Subject.CommonName
	if name == "" && len(first.Subject.Organization) > 0 {
		name = first.Subject.Organization[0]
	}
	if name == "" {
		name = first.Subject.String()
	}
	return storage.Certificate{Name: name, Expires: first.NotAfter, PEM: b.String()}, nil
}

// OrganisationCertificates are the certificates the organisation's policy
// trusts for every account, as they read now (one unreadable is left out:
// calls say so themselves).
func (n *Network) OrganisationCertificates() []storage.Certificate {
	var out []storage.Certificate
	for _, path := range n.a.policy.Certificates {
		if c, err := n.ReadCertificate(path); err == nil {
			out = append(out, c)
		}
	}
	return out
}

// Trust adds a company's certificate to those the account in use trusts,
// and reconnects with it.
func (n *Network) Trust(ctx context.Context, c storage.Certificate) error {
	return n.a.Accounts().changeActive(ctx, errDemoCertificates, func(acct *storage.Account) {
		acct.Certificates = append(slices.DeleteFunc(slices.Clone(acct.Certificates), func(x storage.Certificate) bool { return x.PEM == c.PEM }), c)
	})
}

// Untrust removes a certificate the account in use trusted.
func (n *Network) Untrust(ctx context.Context, c storage.Certificate) error {
	return n.a.Accounts().changeActive(ctx, errDemoCertificates, func(acct *storage.Account) {
		acct.Certificates = slices.DeleteFunc(slices.Clone(acct.Certificates), func(x storage.Certificate) bool { return x.PEM == c.PEM })
	})
}

// checkPACURL refuses a proxy script's address that is neither a web
// address nor a file on this computer.
func checkPACURL(raw string) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil || raw == "":
	case (u.Scheme == "http" || u.Scheme == "https") && u.Hostname() != "":
		return nil
	case u.Scheme == "file" && u.Path != "", u.Scheme == "" && filepath.IsAbs(raw):
		return nil
	}
	return fmt.Errorf("%w: %q", client.ErrProxyAddress, raw)
}

// Expired tells a certificate past its date, which no longer helps.
func (n *Network) Expired(c storage.Certificate) bool {
	return !c.Expires.After(clock.Or(n.a.cfg.Clock).Now())
}

// The network settings as kept, for the screens.
type (
	ProxySetting = storage.ProxySetting
	Certificate  = storage.Certificate
)

// Proxy modes (ProxySetting.Mode).
const (
	ProxySystem = storage.ProxySystem
	ProxyNone   = storage.ProxyNone
	ProxyManual = storage.ProxyManual
	ProxyPAC    = storage.ProxyPAC
)
