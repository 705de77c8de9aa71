package client

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/http/httpproxy"
)

// How calls find their proxy (Network.Proxy).
const (
	// ProxySystem follows the system's settings (the default).
	ProxySystem = ""
	// ProxyNone goes straight to the service.
	ProxyNone = "none"
	// ProxyManual goes through Network.ProxyURL.
	ProxyManual = "manual"
	// ProxyPAC goes where the proxy script (PAC) at Network.PACURL says,
	// asked for each host as browsers ask it.
	ProxyPAC = "pac"
)

// Network says how calls leave the computer inside a company network:
// through which proxy, trusting which authorities besides the system's.
type Network struct {
	Proxy    string // ProxySystem, ProxyNone, ProxyManual or ProxyPAC
	ProxyURL string // ProxyManual's address, such as http://proxy.example.com:8080
	// PACURL is ProxyPAC's script: an http:// or https:// address (fetched
	// directly, never through a proxy), a file:// one or a path.
	PACURL string
	// Certificates are authorities trusted besides the system's, each PEM
	// or DER: a company's that inspects secure connections, say.
	Certificates [][]byte
	// System finds the system's proxy for a request (nil: SystemProxy).
	System func(*url.URL) (*url.URL, error)
	// SignIn is the user name and password kept for a proxy (host:port),
	// nil when none; sent to that proxy only, as Basic.
	SignIn func(proxy string) *url.Userinfo
	// OnProxyAuth hears each time a proxy asks for a sign-in.
	OnProxyAuth func(*ProxyAuthError)

	// pac is PACURL's script for one client (HTTPClient): fetched at its
	// first call and kept, rather than fetched for each request.
	pac *pacScript
}

// ProxyFor is the proxy a request to u goes through (nil: none), with the
// sign-in kept for it.
func (n Network) ProxyFor(u *url.URL) (*url.URL, error) {
	p, err := n.proxyFor(u)
	if p != nil && n.SignIn != nil {
		if user := n.SignIn(p.Host); user != nil {
			p.User = user
		}
	}
	return p, err
}

func (n Network) proxyFor(u *url.URL) (*url.URL, error) {
	if OnThisComputer(u.Hostname()) {
		return nil, nil // the built-in service, or one of the user's own: as browsers do
	}
	switch n.Proxy {
	case ProxyNone:
		return nil, nil
	case ProxyManual:
		return manualProxy(n.ProxyURL)
	case ProxyPAC:
		if n.pac == nil { // a question outside a client: the script is fetched for it
			return newPACScript(n.PACURL, nil).proxyFor(u)
		}
		return n.pac.proxyFor(u)
	}
	if n.System != nil {
		return n.System(u)
	}
	return SystemProxy(u)
}

// OnThisComputer reports localhost, 127.0.0.0/8 or ::1.
func OnThisComputer(host string) bool {
	if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// ErrProxyAddress means a proxy address that cannot be used.
var ErrProxyAddress = errors.New("agentdesk: the proxy address cannot be used")

func manualProxy(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw != "" && !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "socks5") {
		return nil, fmt.Errorf("%w: %q", ErrProxyAddress, raw)
	}
	return u, nil
}

// Roots are the system's authorities with n's certificates added.
func (n Network) Roots() (*x509.CertPool, error) {
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	for _, c := range n.Certificates {
		certs, err := ParseCertificates(c)
		if err != nil {
			return nil, err
		}
		for _, cert := range certs {
			pool.AddCert(cert)
		}
	}
	return pool, nil
}

// ErrNotACertificate means a file holds no certificate Agent Desk can read.
var ErrNotACertificate = errors.New("agentdesk: the file holds no certificate")

// ParseCertificates reads the certificates of a PEM or DER file.
func ParseCertificates(b []byte) ([]*x509.Certificate, error) {
	var out []*x509.Certificate
	for rest := b; ; {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			continue
		}
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrNotACertificate, err)
		}
		out = append(out, cert)
	}
	if len(out) > 0 {
		return out, nil
	}
	certs, err := x509.ParseCertificates(bytes.TrimSpace(b))
	if err != nil || len(certs) == 0 {
		return nil, ErrNotACertificate
	}
	return certs, nil
}

// HTTPClient is a client for calls made through n; like the default one it
// has no overall timeout (a blocking run waits 100 s, a stream as long as
// its reply). When a certificate cannot be read, every call fails saying so.
func (n Network) HTTPClient() *http.Client {
	roots, err := n.Roots()
	if err != nil {
		return &http.Client{Transport: failing{err}}
	}
	if n.System == nil {
		// The system's settings are read once, at the first call that needs
		// them: a program's run or a script's download each request would
		// cost milliseconds or more.
		n.System = newSystemProxy(roots)
	}
	if n.Proxy == ProxyPAC {
		n.pac = newPACScript(n.PACURL, roots)
	}
	nt := &networkTransport{n: n, routes: map[string]*ntlmRoute{}}
	t := defaultHTTPClient.Transport.(*http.Transport).Clone()
	t.Proxy = func(r *http.Request) (*url.URL, error) {
		p, err := n.ProxyFor(r.URL)
		if p != nil && nt.route(p.Host) != nil {
			p.User = nil // a proxy that signs in with NTLM never gets the password as Basic
		}
		return p, err
	}
	t.TLSClientConfig = &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	t.OnProxyConnectResponse = func(_ context.Context, proxy *url.URL, req *http.Request, res *http.Response) error {
		if res.StatusCode != http.StatusProxyAuthRequired {
			return nil
		}
		sent := req.Header.Get("Proxy-Authorization")
		e := &ProxyAuthError{Proxy: proxy.Host, Schemes: res.Header.Values("Proxy-Authenticate"), Refused: sent != ""}
		if scheme, ok := offersNTLM(e.Schemes); ok {
			nt.learn(proxy, scheme)
			e.Refused = false // Basic sent to a proxy that wants NTLM says nothing of the password
			if n.SignIn != nil && n.SignIn(proxy.Host) != nil {
				return e // RoundTrip sends the call again through an NTLM tunnel
			}
		}
		// A call sent before the sign-in changed says nothing of the new one.
		if n.OnProxyAuth != nil && (n.SignIn == nil || basicAuth(n.SignIn(proxy.Host)) == sent) {
			n.OnProxyAuth(e)
		}
		return e
	}
	nt.plain = t
	return &http.Client{Transport: nt}
}

// ProxyUsed is the proxy hc sends a call to u through (nil for none, or when
// hc is not a Network's HTTPClient), as Test connection tells it.
func ProxyUsed(hc *http.Client, u *url.URL) (*url.URL, error) {
	nt, ok := hc.Transport.(*networkTransport)
	if !ok {
		return nil, nil
	}
	p, err := nt.n.proxyFor(u)
	return p, err
}

// networkTransport sends calls as a Network says: through Go's transport,
// which signs in to proxies with Basic, or, for a proxy that asked for NTLM
// (or Negotiate), through tunnels it signs in to itself (tunnelNTLM).
type networkTransport struct {
	n     Network
	plain *http.Transport
	mu    sync.Mutex
	// routes are the proxies known to sign in with NTLM, by host:port.
	routes map[string]*ntlmRoute
}

// ntlmRoute is a proxy that signs in with NTLM, with the transport whose
// connections are tunnels through it (signed in once each, then pooled).
type ntlmRoute struct {
	scheme string
	t      *http.Transport
}

func (nt *networkTransport) route(proxy string) *ntlmRoute {
	nt.mu.Lock()
	defer nt.mu.Unlock()
	return nt.routes[proxy]
}

// learn keeps that proxy signs in with scheme, from the next call on.
func (nt *networkTransport) learn(proxy *url.URL, scheme string) {
	nt.mu.Lock()
	defer nt.mu.Unlock()
	if nt.routes[proxy.Host] != nil {
		return
	}
	p := *proxy
	p.User = nil
	t := nt.plain.Clone()
	t.Proxy = nil
	t.OnProxyConnectResponse = nil
	dial := (&net.Dialer{Timeout: 15 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	n := nt.n
	t.DialContext = func(ctx context.Context, _, addr string) (net.Conn, error) {
		var user *url.Userinfo
		if n.SignIn != nil {
			user = n.SignIn(p.Host)
		}
		if user == nil {
			e := &ProxyAuthError{Proxy: p.Host, Schemes: []string{scheme}}
			if n.OnProxyAuth != nil {
				n.OnProxyAuth(e)
			}
			return nil, e
		}
		conn, err := tunnelNTLM(ctx, dial, &p, nt.plain.TLSClientConfig, addr, user, scheme)
		if e, ok := errors.AsType[*ProxyAuthError](err); ok && n.OnProxyAuth != nil && sameUser(n.SignIn(p.Host), user) {
			n.OnProxyAuth(e) // a sign-in given since says nothing of this one
		}
		return conn, err
	}
	nt.routes[p.Host] = &ntlmRoute{scheme: scheme, t: t}
}

// sameUser reports the same user name and password.
func sameUser(a, b *url.Userinfo) bool { return basicAuth(a) == basicAuth(b) }

// RoundTrip sends r through an NTLM tunnel when its proxy asked for one;
// a call refused at the proxy before reaching the service goes once more
// that way, as nothing of it was sent on.
func (nt *networkTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if t := nt.tunnelled(r); t != nil {
		return t.RoundTrip(r)
	}
	res, err := nt.plain.RoundTrip(r)
	if _, ok := errors.AsType[*ProxyAuthError](err); !ok || r.URL.Scheme != "https" {
		return res, err
	}
	t := nt.tunnelled(r)
	if t == nil || nt.n.SignIn == nil {
		return res, err
	}
	again, rerr := rewound(r)
	if rerr != nil {
		return res, err
	}
	return t.RoundTrip(again)
}

// tunnelled is the transport of r's proxy when that proxy signs in with
// NTLM; nil for the plain one. Only secure calls go through tunnels.
func (nt *networkTransport) tunnelled(r *http.Request) *http.Transport {
	nt.mu.Lock()
	none := len(nt.routes) == 0
	nt.mu.Unlock()
	if none || r.URL.Scheme != "https" {
		return nil
	}
	p, err := nt.n.proxyFor(r.URL)
	if err != nil || p == nil || (p.Scheme != "http" && p.Scheme != "https") {
		return nil
	}
	if route := nt.route(p.Host); route != nil {
		return route.t
	}
	return nil
}

// rewound is r to send again, its body read again from the start.
func rewound(r *http.Request) (*http.Request, error) {
	again := r.Clone(r.Context())
	if r.Body == nil || r.Body == http.NoBody {
		return again, nil
	}
	if r.GetBody == nil {
		return nil, errors.New("agentdesk: the request's body cannot be read again")
	}
	body, err := r.GetBody()
	if err != nil {
		return nil, err
	}
	again.Body = body
	return again, nil
}

// CloseIdleConnections closes the idle connections of every transport.
func (nt *networkTransport) CloseIdleConnections() {
	nt.plain.CloseIdleConnections()
	nt.mu.Lock()
	defer nt.mu.Unlock()
	for _, r := range nt.routes {
		r.t.CloseIdleConnections()
	}
}

// basicAuth is the Proxy-Authorization a sign-in sends ("" for none).
func basicAuth(u *url.Userinfo) string {
	if u == nil {
		return ""
	}
	password, _ := u.Password()
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(u.Username()+":"+password))
}

// ProxyAuthError means the proxy asks for a sign-in (407) before it lets a
// call through; Schemes are what it offers (Basic, NTLM, Negotiate…).
type ProxyAuthError struct {
	Proxy   string
	Schemes []string
	// Refused: a user name and password were sent, and the proxy said no.
	Refused bool
}

func (e *ProxyAuthError) Error() string {
	if e.Refused {
		return fmt.Sprintf("the proxy %s refused the sign-in (%s)", e.Proxy, strings.Join(e.Schemes, ", "))
	}
	return fmt.Sprintf("the proxy %s asks for a sign-in (%s)", e.Proxy, strings.Join(e.Schemes, ", "))
}

// CanSignIn reports a proxy that takes a user name and password Agent Desk
// can send: as Basic, or through NTLM (Negotiate carrying NTLM too).
func (e *ProxyAuthError) CanSignIn() bool {
	_, ntlm := offersNTLM(e.Schemes)
	return ntlm || e.OffersBasic()
}

// OffersBasic reports whether the proxy takes a user name and password as Basic.
func (e *ProxyAuthError) OffersBasic() bool {
	for _, s := range e.Schemes {
		if strings.EqualFold(strings.Fields(s + " x")[0], "Basic") {
			return true
		}
	}
	return len(e.Schemes) == 0
}

// IsProxyAuthRequired reports a proxy asking for a sign-in, in a tunnel or
// answering a plain request.
func IsProxyAuthRequired(err error) bool {
	_, ok := errors.AsType[*ProxyAuthError](err)
	return ok || StatusCode(err) == http.StatusProxyAuthRequired
}

// IsProxyUnreachable reports a proxy that could not be reached: nothing
// went to the service.
func IsProxyUnreachable(err error) bool {
	op, ok := errors.AsType[*net.OpError](err)
	return ok && op.Op == "proxyconnect" && !badCertificate(err)
}

// IsUnknownAuthority reports a secure connection whose certificate no
// trusted authority signed: often a network that inspects secure
// connections with its company's authority.
func IsUnknownAuthority(err error) bool {
	_, ok := errors.AsType[x509.UnknownAuthorityError](err)
	return ok
}

// IsCertificateExpired reports a certificate past its date (or not yet valid).
func IsCertificateExpired(err error) bool {
	e, ok := errors.AsType[x509.CertificateInvalidError](err)
	return ok && e.Reason == x509.Expired
}

// WithNetwork sends the calls through n (see Network.HTTPClient).
func WithNetwork(n Network) Option { return WithHTTPClient(n.HTTPClient()) }

// failing answers every request with err.
type failing struct{ err error }

func (f failing) RoundTrip(*http.Request) (*http.Response, error) { return nil, f.err }

// SystemProxy is the proxy the system's settings give a request to u: the
// HTTPS_PROXY family of variables first, else on Linux the desktop's
// (GNOME's, then KDE's: a proxy set by hand or a proxy script), read
// afresh, and on Windows and macOS the system's own resolver.
func SystemProxy(u *url.URL) (*url.URL, error) { return newSystemProxy(nil)(u) }

// gnomeProxy reads GNOME's manual proxy through get(schema, key).
func gnomeProxy(get func(schema, key string) string) *httpproxy.Config {
	const base = "org.gnome.system.proxy"
	if get(base, "mode") != "manual" {
		return nil
	}
	hostPort := func(kind string) string {
		host, port := get(base+"."+kind, "host"), get(base+"."+kind, "port")
		if host == "" || port == "" || port == "0" {
			return ""
		}
		return "http://" + net.JoinHostPort(host, port)
	}
	c := &httpproxy.Config{HTTPProxy: hostPort("http"), HTTPSProxy: hostPort("https")}
	if c.HTTPSProxy == "" {
		c.HTTPSProxy = c.HTTPProxy
	}
	if c.HTTPProxy == "" && c.HTTPSProxy == "" {
		return nil
	}
	// ignore-hosts is a list such as ['localhost', '127.0.0.0/8', '::1'].
	ignore := strings.Trim(get(base, "ignore-hosts"), "[]")
	var hosts []string
	for s := bufio.NewScanner(strings.NewReader(strings.ReplaceAll(ignore, ",", "\n"))); s.Scan(); {
		if h := strings.Trim(strings.TrimSpace(s.Text()), "'"); h != "" {
			hosts = append(hosts, h)
		}
	}
	c.NoProxy = strings.Join(hosts, ",")
	return c
}
