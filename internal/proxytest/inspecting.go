package proxytest

import (
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"net/http/httptest"

	"github.com/elazarl/goproxy"
)

// NewInspecting starts a proxy that inspects secure connections, as some
// company networks do: it opens each with a certificate of its own
// authority (CA), trusting upstream's behind it, and notes the requests it
// read inside (Seen) and the connections it opened (Tunnels).
func NewInspecting(upstream *x509.Certificate) *Proxy {
	p := &Proxy{}
	gp := goproxy.NewProxyHttpServer()
	roots := x509.NewCertPool()
	roots.AddCert(upstream)
	gp.Tr = &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}, DialContext: Dial}
	gp.OnRequest().HandleConnectFunc(func(host string, _ *goproxy.ProxyCtx) (*goproxy.ConnectAction, string) {
		p.mu.Lock()
		p.tunnels++
		p.mu.Unlock()
		return goproxy.MitmConnect, host
	})
	gp.OnRequest().DoFunc(func(r *http.Request, _ *goproxy.ProxyCtx) (*http.Request, *http.Response) {
		p.saw(r)
		return r, nil
	})
	p.Server = httptest.NewServer(gp)
	return p
}

// CA is the authority an inspecting proxy signs with, as IT hands it out (PEM).
func CA() []byte { return goproxy.CA_CERT }
