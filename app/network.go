package app

import (
	"context"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/storage"
)

// ProxyAsk is a proxy's request for a sign-in, for the window to ask the
// user once: Seq grows with each request worth asking about.
type ProxyAsk struct {
	Proxy string // host:port
	// Refused: the user name and password kept were refused.
	Refused bool
	// Basic: the proxy takes a user name and password Agent Desk can send.
	Basic bool
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
	if p := a.policy.Proxy; p != nil {
		n.Proxy, n.ProxyURL = map[string]string{storage.ProxyNone: client.ProxyNone, storage.ProxyManual: client.ProxyManual}[p.Mode], p.URL
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
// cannot answer here (no Basic) is published too, for the window to say so.
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
		return ProxyAsk{Proxy: e.Proxy, Refused: e.Refused, Basic: e.OffersBasic(), User: user, Seq: old.Seq + 1}
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
