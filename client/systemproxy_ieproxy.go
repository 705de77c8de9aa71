//go:build windows || darwin

package client

import (
	"crypto/x509"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/mattn/go-ieproxy"
)

// newSystemProxy finds the system's proxy for one client as the system
// itself does, through ieproxy: the HTTPS_PROXY family of variables when
// set, else the system's settings (Windows' Internet Options, macOS's
// Network settings), where a proxy script or automatic detection (WPAD) is
// run by the system's own resolver (WinHTTP, CFNetwork). Those settings
// are read at the first call (ieproxy keeps them for the program's life);
// each host's answer is kept a short while, for the system may fetch the
// script again for each question.
func newSystemProxy(*x509.CertPool) func(*url.URL) (*url.URL, error) {
	find := sync.OnceValue(ieproxy.GetProxyFunc)
	var cache proxyCache
	return func(u *url.URL) (*url.URL, error) {
		target := scriptURL(u) // a secure address's path and query stay private
		return cache.find(target.String(), func() (*url.URL, error) {
			p, err := find()(&http.Request{URL: target, Header: http.Header{}})
			if err != nil || p == nil || p.Scheme != "" {
				return p, err
			}
			// A script's answer comes as host:port alone (WinHTTP may list
			// more, the first being the one to use).
			if f := strings.Fields(p.Host); len(f) > 0 {
				return manualProxy(f[0])
			}
			return nil, nil
		})
	}
}
