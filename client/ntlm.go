package client

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/Azure/go-ntlmssp"
)

// Windows company proxies often sign users in with NTLM, which takes two
// steps on one connection; Go's transport sends one Proxy-Authorization per
// CONNECT, so such tunnels are opened here, ahead of the transport.

const (
	// ntlmMaxAnswer bounds one answer of the proxy while signing in, header
	// and body, so that a broken proxy cannot fill memory.
	ntlmMaxAnswer = 128 << 10
	// ntlmMaxBody bounds the body of a 407 read to keep its connection.
	ntlmMaxBody = 64 << 10
	// ntlmTimeout bounds a sign-in whose context has no deadline, as Go's
	// transport bounds its own CONNECT.
	ntlmTimeout = time.Minute
)

// errNTLMClosed means the proxy ended the connection between the two steps;
// NTLM signs in a connection, not a request, so a new connection would have
// to start over and would meet the same end.
var errNTLMClosed = errors.New("agentdesk: the proxy closed the connection in the middle of the NTLM sign-in (NTLM needs both steps on one connection; a proxy that closes it cannot be signed in to this way)")

// errNTLMAnswerTooLarge means the proxy's answer went past ntlmMaxAnswer.
var errNTLMAnswerTooLarge = errors.New("agentdesk: the proxy's answer to the sign-in is too large")

// tunnelNTLM opens a tunnel to target (host:port) through proxy, signing in
// as user with scheme ("NTLM" or "Negotiate" carrying NTLM): a negotiate
// message, the proxy's 407 challenge, then the answer, on one connection.
// dial reaches the proxy; proxyTLS (may be nil) is for an https proxy. The
// connection returned carries the tunnel; a refused password is a
// *ProxyAuthError with Refused set. Every read is bounded in size and by
// ctx's deadline (a minute when it has none).
func tunnelNTLM(ctx context.Context, dial func(ctx context.Context, network, addr string) (net.Conn, error), proxy *url.URL, proxyTLS *tls.Config, target string, user *url.Userinfo, scheme string) (net.Conn, error) {
	scheme, ok := ntlmScheme(scheme)
	if !ok {
		return nil, fmt.Errorf("agentdesk: %q is not an NTLM sign-in", scheme)
	}
	if err := checkTarget(target); err != nil {
		return nil, err
	}
	if user == nil || user.Username() == "" {
		return nil, &ProxyAuthError{Proxy: proxy.Host, Schemes: []string{scheme}}
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, ntlmTimeout)
		defer cancel()
	}
	conn, err := dialProxy(ctx, dial, proxy, proxyTLS)
	if err != nil {
		return nil, err
	}
	deadline, _ := ctx.Deadline()
	_ = conn.SetDeadline(deadline)
	// A cancelled context ends the reads and writes under way.
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	t := &ntlmTunnel{conn: conn, proxy: proxy.Host, target: target, scheme: scheme}
	t.br = bufio.NewReader(&t.budget)
	t.budget.r = conn
	tunnel, err := t.signIn(user)
	if !stop() && err == nil {
		err = ctx.Err()
	}
	if err != nil {
		conn.Close()
		if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
			err = fmt.Errorf("agentdesk: signing in to the proxy %s: %w (%w)", proxy.Host, ctx.Err(), err)
		}
		return nil, err
	}
	_ = conn.SetDeadline(time.Time{})
	return tunnel, nil
}

// dialProxy connects to proxy, over TLS for an https one. Its failures are
// "proxyconnect" errors, as the transport's own, so IsProxyUnreachable
// still tells them.
func dialProxy(ctx context.Context, dial func(ctx context.Context, network, addr string) (net.Conn, error), proxy *url.URL, proxyTLS *tls.Config) (net.Conn, error) {
	addr := proxy.Host
	if proxy.Port() == "" {
		port := "80"
		if proxy.Scheme == "https" {
			port = "443"
		}
		addr = net.JoinHostPort(proxy.Hostname(), port)
	}
	conn, err := dial(ctx, "tcp", addr)
	if err != nil {
		return nil, &net.OpError{Op: "proxyconnect", Net: "tcp", Err: err}
	}
	if proxy.Scheme != "https" {
		return conn, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if proxyTLS != nil {
		cfg = proxyTLS.Clone()
	}
	if cfg.ServerName == "" {
		cfg.ServerName = proxy.Hostname()
	}
	cfg.NextProtos = nil // the transport's may offer h2; CONNECT here is HTTP/1.1
	tc := tls.Client(conn, cfg)
	if err := tc.HandshakeContext(ctx); err != nil {
		conn.Close()
		return nil, &net.OpError{Op: "proxyconnect", Net: "tcp", Err: err}
	}
	return tc, nil
}

// checkTarget refuses a target that is not host:port, or that could end the
// CONNECT line and write headers of its own.
func checkTarget(target string) error {
	if _, port, err := net.SplitHostPort(target); err != nil || port == "" || strings.ContainsFunc(target, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return fmt.Errorf("agentdesk: %q is no address to tunnel to", target)
	}
	return nil
}

// ntlmTunnel is one sign-in under way.
type ntlmTunnel struct {
	conn                  net.Conn
	br                    *bufio.Reader
	budget                budgetReader
	proxy, target, scheme string
}

func (t *ntlmTunnel) signIn(user *url.Userinfo) (net.Conn, error) {
	negotiate, err := ntlmssp.NewNegotiateMessage("", "")
	if err != nil {
		return nil, err
	}
	res, err := t.connect(negotiate)
	if err != nil {
		return nil, err
	}
	switch {
	case res.StatusCode/100 == 2: // signed in already: RFC 4559 allows it
		return t.tunnel(), nil
	case res.StatusCode != http.StatusProxyAuthRequired:
		return nil, t.statusError(res)
	}
	offered := res.Header.Values("Proxy-Authenticate")
	challenge, found := ntlmToken(offered, t.scheme)
	if !found {
		if _, ok := offersNTLM(offered); !ok {
			// It asks for another sign-in (Basic, say): the caller may offer it.
			return nil, &ProxyAuthError{Proxy: t.proxy, Schemes: schemeNames(offered)}
		}
		return nil, fmt.Errorf("agentdesk: the proxy %s sent no %s challenge to answer", t.proxy, t.scheme)
	}
	if closing(res) {
		return nil, errNTLMClosed
	}
	password, _ := user.Password()
	// The user name may be DOMAIN\user or user@domain: the message takes both.
	authenticate, err := ntlmssp.NewAuthenticateMessage(challenge, user.Username(), password, nil)
	if err != nil {
		// The proxy's Negotiate may want Kerberos only, wrapped as SPNEGO.
		return nil, fmt.Errorf("agentdesk: the proxy %s sent a %s challenge Agent Desk cannot answer: %w", t.proxy, t.scheme, err)
	}
	res, err = t.connect(authenticate)
	if err != nil {
		if ended(err) {
			return nil, errNTLMClosed
		}
		return nil, err
	}
	switch {
	case res.StatusCode/100 == 2:
		return t.tunnel(), nil
	case res.StatusCode == http.StatusProxyAuthRequired:
		schemes := schemeNames(res.Header.Values("Proxy-Authenticate"))
		if len(schemes) == 0 {
			schemes = []string{t.scheme}
		}
		return nil, &ProxyAuthError{Proxy: t.proxy, Schemes: schemes, Refused: true}
	}
	return nil, t.statusError(res)
}

// connect sends a CONNECT carrying token and reads the answer; a 407's body
// is read off so that the connection can carry the next step.
func (t *ntlmTunnel) connect(token []byte) (*http.Response, error) {
	req := "CONNECT " + t.target + " HTTP/1.1\r\nHost: " + t.target +
		"\r\nUser-Agent: agentdesk-go/" + Version +
		"\r\nProxy-Authorization: " + t.scheme + " " + base64.StdEncoding.EncodeToString(token) +
		"\r\nProxy-Connection: Keep-Alive\r\n\r\n"
	if _, err := io.WriteString(t.conn, req); err != nil {
		return nil, fmt.Errorf("agentdesk: the proxy %s: %w", t.proxy, err)
	}
	t.budget.n = ntlmMaxAnswer
	res, err := http.ReadResponse(t.br, &http.Request{Method: http.MethodConnect})
	if err != nil {
		return nil, t.readError(err)
	}
	if res.StatusCode/100 == 2 || closing(res) {
		// A tunnel follows, or the connection ends: no body to read off.
		return res, nil
	}
	n, err := io.Copy(io.Discard, io.LimitReader(res.Body, ntlmMaxBody+1))
	res.Body.Close()
	if n > ntlmMaxBody {
		return nil, errNTLMAnswerTooLarge
	}
	if err != nil {
		return nil, t.readError(err)
	}
	return res, nil
}

func (t *ntlmTunnel) readError(err error) error {
	if errors.Is(err, errNTLMAnswerTooLarge) {
		return errNTLMAnswerTooLarge
	}
	return fmt.Errorf("agentdesk: reading the proxy %s's answer: %w", t.proxy, err)
}

func (t *ntlmTunnel) statusError(res *http.Response) error {
	return fmt.Errorf("agentdesk: the proxy %s answered %q to the tunnel to %s", t.proxy, res.Status, t.target)
}

// tunnel is the connection past the proxy's 2xx, with what the proxy
// already sent of the tunnel read first.
func (t *ntlmTunnel) tunnel() net.Conn {
	n := t.br.Buffered()
	if n == 0 {
		return t.conn
	}
	early, _ := t.br.Peek(n)
	return &tunnelConn{Conn: t.conn, r: io.MultiReader(bytes.NewReader(bytes.Clone(early)), t.conn)}
}

// tunnelConn reads early bytes before its connection's own.
type tunnelConn struct {
	net.Conn
	r io.Reader
}

func (c *tunnelConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// budgetReader reads at most n bytes, then fails.
type budgetReader struct {
	r io.Reader
	n int64
}

func (b *budgetReader) Read(p []byte) (int, error) {
	if b.n <= 0 {
		return 0, errNTLMAnswerTooLarge
	}
	if int64(len(p)) > b.n {
		p = p[:b.n]
	}
	n, err := b.r.Read(p)
	b.n -= int64(n)
	return n, err
}

// closing reports a 407 after which the proxy ends the connection, so that
// the second step could not follow on it.
func closing(res *http.Response) bool {
	for _, name := range []string{"Connection", "Proxy-Connection"} {
		for _, v := range res.Header.Values(name) {
			for tok := range strings.SplitSeq(v, ",") {
				if strings.EqualFold(strings.TrimSpace(tok), "close") {
					return true
				}
			}
		}
	}
	// A body without length or chunks lasts until the connection ends.
	return res.ContentLength < 0 && !chunked(res)
}

func chunked(res *http.Response) bool {
	return len(res.TransferEncoding) > 0 && res.TransferEncoding[0] == "chunked"
}

// ended reports a connection the proxy closed (or reset) under a step.
func ended(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// offersNTLM picks the NTLM sign-in among a 407's Proxy-Authenticate
// values: "NTLM" where offered, else "Negotiate". Agent Desk only makes
// NTLM tokens: under "NTLM" they are what the proxy expects, while a proxy
// offering "Negotiate" may want Kerberos only (Squid's Kerberos helper
// does); Windows proxies take NTLM under either, as browsers rely on.
func offersNTLM(schemes []string) (scheme string, ok bool) {
	for _, c := range parseChallenges(schemes) {
		switch {
		case strings.EqualFold(c.scheme, "NTLM"):
			return "NTLM", true
		case strings.EqualFold(c.scheme, "Negotiate"):
			scheme, ok = "Negotiate", true
		}
	}
	return scheme, ok
}

// ntlmScheme is scheme spelt as proxies expect, if it is NTLM's.
func ntlmScheme(scheme string) (string, bool) {
	switch {
	case strings.EqualFold(scheme, "NTLM"):
		return "NTLM", true
	case strings.EqualFold(scheme, "Negotiate"):
		return "Negotiate", true
	}
	return scheme, false
}

// ntlmToken is the decoded token the proxy sent under scheme.
func ntlmToken(values []string, scheme string) ([]byte, bool) {
	for _, c := range parseChallenges(values) {
		if !strings.EqualFold(c.scheme, scheme) || c.rest == "" || strings.Contains(c.rest, " ") {
			continue
		}
		if b, err := base64.StdEncoding.DecodeString(c.rest); err == nil && len(b) > 0 {
			return b, true
		}
	}
	return nil, false
}

// schemeNames are the challenges offered, with NTLM's tokens left out: they
// mean nothing to a person and are not to be repeated.
func schemeNames(values []string) []string {
	var out []string
	for _, c := range parseChallenges(values) {
		if _, ntlm := ntlmScheme(c.scheme); ntlm || c.rest == "" {
			out = append(out, c.scheme)
		} else {
			out = append(out, c.scheme+" "+c.rest)
		}
	}
	return out
}

// challenge is one challenge of a Proxy-Authenticate value: its scheme and
// what follows (a token, or parameters).
type challenge struct{ scheme, rest string }

// parseChallenges splits Proxy-Authenticate values into challenges: one
// value may hold several, separated by commas, as may the parameters of
// one (RFC 9110 §11.6.1), and quoted strings may hold commas.
func parseChallenges(values []string) []challenge {
	var out []challenge
	for _, v := range values {
		for _, item := range splitOutsideQuotes(v) {
			item = strings.TrimSpace(item)
			if item == "" {
				continue
			}
			first, rest, _ := strings.Cut(item, " ")
			rest = strings.TrimSpace(rest)
			if strings.Contains(first, "=") || strings.HasPrefix(rest, "=") {
				// A parameter of the challenge before.
				if len(out) > 0 {
					out[len(out)-1].rest += ", " + item
				}
				continue
			}
			out = append(out, challenge{scheme: first, rest: rest})
		}
	}
	return out
}

// splitOutsideQuotes splits s at commas outside quoted strings.
func splitOutsideQuotes(s string) []string {
	var out []string
	quoted, escaped, start := false, false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case escaped:
			escaped = false
		case quoted && c == '\\':
			escaped = true
		case c == '"':
			quoted = !quoted
		case c == ',' && !quoted:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
