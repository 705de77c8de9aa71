// Package proxytest is a company's forward proxy for tests: it tunnels
// secure connections (CONNECT), can ask for a Basic or NTLM sign-in first,
// and notes what it could read. Agent Desk never sends a call for this
// computer through a proxy, so a test names its loopback service by a name
// (Named), which the proxy takes to loopback. Only tests use it.
package proxytest

import (
	"context"
	"encoding/base64"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
)

// Proxy is a forward proxy on loopback.
type Proxy struct {
	*httptest.Server
	user, password string
	domain         string // NTLM's, with ntlm
	ntlm           bool
	mu             sync.Mutex
	seen           []string
	tunnels        int
}

// New starts a proxy; with a user, a tunnel is opened only for that Basic sign-in.
func New(user, password string) *Proxy {
	p := &Proxy{user: user, password: password}
	p.Server = httptest.NewServer(http.HandlerFunc(p.serve))
	return p
}

// Host is the proxy's host:port.
func (p *Proxy) Host() string { return p.Listener.Addr().String() }

// Seen is every request the proxy could read, a line each, with any
// Authorization or Proxy-Authorization it carried.
func (p *Proxy) Seen() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.seen, "\n")
}

// Tunnels counts the tunnels opened.
func (p *Proxy) Tunnels() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.tunnels
}

// saw notes a request the proxy could read.
func (p *Proxy) saw(r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seen = append(p.seen, strings.TrimSpace(r.Method+" "+r.Host+" "+r.Header.Get("Authorization")+" "+r.Header.Get("Proxy-Authorization")))
}

func (p *Proxy) serve(w http.ResponseWriter, r *http.Request) {
	p.saw(r)
	if r.Method != http.MethodConnect {
		http.Error(w, "this proxy only tunnels", http.StatusMethodNotAllowed)
		return
	}
	if p.ntlm {
		if !p.signedInNTLM(w, r) {
			return
		}
	} else if p.user != "" && r.Header.Get("Proxy-Authorization") != "Basic "+base64.StdEncoding.EncodeToString([]byte(p.user+":"+p.password)) {
		w.Header().Set("Proxy-Authenticate", `Basic realm="Company proxy"`)
		w.WriteHeader(http.StatusProxyAuthRequired)
		return
	}
	upstream, err := Dial(r.Context(), "tcp", r.Host)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		upstream.Close()
		return
	}
	p.mu.Lock()
	p.tunnels++
	p.mu.Unlock()
	_, _ = io.WriteString(conn, "HTTP/1.1 200 Connection established\r\n\r\n")
	go func() { _, _ = io.Copy(upstream, conn); upstream.Close() }()
	_, _ = io.Copy(conn, upstream)
	conn.Close()
}

// Named is srv's address under the name its test certificate also holds
// (example.com), so that calls to it go through a proxy.
func Named(srv *httptest.Server) string {
	u, _ := url.Parse(srv.URL)
	return u.Scheme + "://example.com:" + u.Port()
}

// Dial connects to addr's port on this computer, whatever its host: a
// proxy's way to the services Named names.
func Dial(ctx context.Context, network, addr string) (net.Conn, error) {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	var d net.Dialer
	return d.DialContext(ctx, network, net.JoinHostPort("127.0.0.1", port))
}
