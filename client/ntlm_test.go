package client

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/proxytest"
)

const (
	ntlmTestKey      = "sk-test-ntlm-4b2e81d0"
	ntlmTestPassword = "Winter2024!"
)

// keyService is a TLS service that notes the Authorization of each call.
func keyService(t *testing.T) (*httptest.Server, func() []string) {
	t.Helper()
	var mu sync.Mutex
	var keys []string
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		keys = append(keys, r.Header.Get("Authorization"))
		mu.Unlock()
		_, _ = io.WriteString(w, `{"data":[]}`)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(keys)
	}
}

// ntlmTransport tunnels every call through proxy with tunnelNTLM, trusting srv.
func ntlmTransport(t *testing.T, proxy *url.URL, proxyTLS *tls.Config, srv *httptest.Server, user *url.Userinfo, scheme string) *http.Transport {
	t.Helper()
	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())
	var d net.Dialer
	tr := &http.Transport{
		DialContext: func(ctx context.Context, _, addr string) (net.Conn, error) {
			return tunnelNTLM(ctx, d.DialContext, proxy, proxyTLS, addr, user, scheme)
		},
		TLSClientConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12},
	}
	t.Cleanup(tr.CloseIdleConnections)
	return tr
}

func getWithKey(tr http.RoundTripper, target string) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodGet, target+"/agents", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+ntlmTestKey)
	res, err := tr.RoundTrip(req)
	if err == nil {
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
	return res, err
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// The sign-in goes through, in each way a user name is written and under
// either scheme; the key reaches the service, never the proxy.
func TestNTLMTunnelCarriesTheKeyPastTheProxy(t *testing.T) {
	for _, tc := range []struct{ user, scheme string }{
		{"alice", "NTLM"},
		{`CORP\alice`, "NTLM"},
		{`corp\ALICE`, "Negotiate"},
		{"alice@CORP", "Negotiate"},
	} {
		t.Run(tc.scheme+" "+tc.user, func(t *testing.T) {
			srv, keys := keyService(t)
			proxy := proxytest.NewNTLM("CORP", "alice", ntlmTestPassword)
			t.Cleanup(proxy.Close)
			tr := ntlmTransport(t, mustURL(t, proxy.URL), nil, srv, url.UserPassword(tc.user, ntlmTestPassword), tc.scheme)
			for range 2 { // the second call keeps the tunnel
				res, err := getWithKey(tr, proxytest.Named(srv))
				if err != nil {
					t.Fatal(err)
				}
				if res.StatusCode != http.StatusOK {
					t.Fatalf("status %d", res.StatusCode)
				}
			}
			if got := keys(); len(got) != 2 || got[0] != "Bearer "+ntlmTestKey {
				t.Fatalf("the service saw %q", got)
			}
			seen := proxy.Seen()
			if strings.Contains(seen, ntlmTestKey) || strings.Contains(seen, "/agents") || strings.Contains(seen, ntlmTestPassword) {
				t.Fatalf("the proxy saw:\n%s", seen)
			}
			if n := strings.Count(seen, "CONNECT example.com:"); n != 2 || proxy.Tunnels() != 1 {
				t.Fatalf("want one sign-in of two steps and one tunnel, the proxy saw %d tunnels of:\n%s", proxy.Tunnels(), seen)
			}
		})
	}
}

// An https proxy is reached over TLS, trusting what the transport trusts.
func TestNTLMThroughAnHTTPSProxy(t *testing.T) {
	srv, keys := keyService(t)
	proxy := proxytest.NewNTLMTLS("CORP", "alice", ntlmTestPassword)
	t.Cleanup(proxy.Close)
	roots := x509.NewCertPool()
	roots.AddCert(proxy.Certificate())
	tr := ntlmTransport(t, mustURL(t, proxy.URL), &tls.Config{RootCAs: roots, NextProtos: []string{"h2", "http/1.1"}}, srv, url.UserPassword(`CORP\alice`, ntlmTestPassword), "NTLM")
	if _, err := getWithKey(tr, proxytest.Named(srv)); err != nil {
		t.Fatal(err)
	}
	if len(keys()) != 1 || proxy.Tunnels() != 1 {
		t.Fatalf("service saw %q, proxy opened %d tunnels", keys(), proxy.Tunnels())
	}
	// Not trusting the proxy's certificate stops before any sign-in.
	tr = ntlmTransport(t, mustURL(t, proxy.URL), nil, srv, url.UserPassword(`CORP\alice`, ntlmTestPassword), "NTLM")
	_, err := getWithKey(tr, proxytest.Named(srv))
	if op, ok := errors.AsType[*net.OpError](err); !IsUnknownAuthority(err) || !ok || op.Op != "proxyconnect" {
		t.Fatalf("want an unknown authority at the proxy, got %v", err)
	}
}

// A wrong password is the proxy refusing the sign-in, said without it.
func TestNTLMWrongPasswordIsRefused(t *testing.T) {
	srv, keys := keyService(t)
	proxy := proxytest.NewNTLM("CORP", "alice", ntlmTestPassword)
	t.Cleanup(proxy.Close)
	for _, user := range []*url.Userinfo{url.UserPassword(`CORP\alice`, "Summer2024!"), url.UserPassword(`CORP\bob`, ntlmTestPassword)} {
		tr := ntlmTransport(t, mustURL(t, proxy.URL), nil, srv, user, "NTLM")
		_, err := getWithKey(tr, proxytest.Named(srv))
		e, ok := errors.AsType[*ProxyAuthError](err)
		if !ok || !e.Refused || e.Proxy != proxy.Host() || !slices.Contains(e.Schemes, "NTLM") || !IsProxyAuthRequired(err) {
			t.Fatalf("want a refused sign-in, got %#v", err)
		}
		if strings.Contains(err.Error(), "Summer2024!") || strings.Contains(err.Error(), ntlmTestPassword) {
			t.Fatalf("the error holds the password: %v", err)
		}
	}
	if proxy.Tunnels() != 0 || len(keys()) != 0 {
		t.Fatalf("refused, yet %d tunnels and calls %q", proxy.Tunnels(), keys())
	}
}

// A proxy that takes no NTLM (Basic only) asks for its own sign-in.
func TestNTLMProxyThatOffersBasicOnly(t *testing.T) {
	proxy := proxytest.New("alice", ntlmTestPassword)
	t.Cleanup(proxy.Close)
	var d net.Dialer
	_, err := tunnelNTLM(context.Background(), d.DialContext, mustURL(t, proxy.URL), nil, "example.com:443", url.UserPassword("alice", ntlmTestPassword), "NTLM")
	e, ok := errors.AsType[*ProxyAuthError](err)
	if !ok || e.Refused || !e.OffersBasic() {
		t.Fatalf("want a Basic sign-in asked for, got %#v", err)
	}
}

// fakeProxy answers each connection on loopback with answer, and ends them
// all when the test does.
func fakeProxy(t *testing.T, answer func(c net.Conn, br *bufio.Reader)) *url.URL {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		conns []net.Conn
	)
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Go(func() {
				defer c.Close()
				answer(c, bufio.NewReader(c))
			})
		}
	})
	return &url.URL{Scheme: "http", Host: ln.Addr().String()}
}

// challengeAnswer is a proxy's 407 to the first step, with extra headers.
func challengeAnswer(extra string) string {
	token := base64.StdEncoding.EncodeToString(proxytest.NTLMChallenge("CORP", [8]byte{1, 2, 3, 4, 5, 6, 7, 8}))
	return "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: NTLM " + token + "\r\n" + extra + "Content-Length: 5\r\n\r\nSign!"
}

func tunnelThrough(t *testing.T, proxy *url.URL) (net.Conn, error) {
	t.Helper()
	// A deadline the tests never meet unless something hangs.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var d net.Dialer
	return tunnelNTLM(ctx, d.DialContext, proxy, nil, "example.com:443", url.UserPassword(`CORP\alice`, ntlmTestPassword), "NTLM")
}

// NTLM signs in a connection: a proxy that ends it after the challenge,
// saying so or not, cannot be signed in to, and is said so at once.
func TestNTLMProxyThatClosesAfterTheChallenge(t *testing.T) {
	for name, extra := range map[string]string{"saying so": "Connection: close\r\n", "silently": "", "HTTP/1.0": "Proxy-Connection: close\r\n"} {
		t.Run(name, func(t *testing.T) {
			proxy := fakeProxy(t, func(c net.Conn, br *bufio.Reader) {
				if _, err := http.ReadRequest(br); err == nil {
					_, _ = io.WriteString(c, challengeAnswer(extra))
				}
			})
			_, err := tunnelThrough(t, proxy)
			if !errors.Is(err, errNTLMClosed) || !strings.Contains(err.Error(), "one connection") {
				t.Fatalf("want the connection said closed, got %v", err)
			}
		})
	}
}

// A proxy's answer is read up to a bound, header or body.
func TestNTLMProxyWithAHugeAnswer(t *testing.T) {
	for name, answer := range map[string]func(io.Writer) error{
		"header": func(w io.Writer) error {
			if _, err := io.WriteString(w, "HTTP/1.1 407 Proxy Authentication Required\r\n"); err != nil {
				return err
			}
			for {
				if _, err := io.WriteString(w, "X-Padding: "+strings.Repeat("a", 1000)+"\r\n"); err != nil {
					return err
				}
			}
		},
		"header line": func(w io.Writer) error {
			for {
				if _, err := io.WriteString(w, strings.Repeat("HTTP/1.1 ", 1000)); err != nil {
					return err
				}
			}
		},
		"body": func(w io.Writer) error {
			if _, err := io.WriteString(w, challengeAnswer("")[:strings.Index(challengeAnswer(""), "Content-Length")]+"Content-Length: 100000000\r\n\r\n"); err != nil {
				return err
			}
			for {
				if _, err := w.Write(make([]byte, 4096)); err != nil {
					return err
				}
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			proxy := fakeProxy(t, func(c net.Conn, br *bufio.Reader) {
				if _, err := http.ReadRequest(br); err == nil {
					_ = answer(c)
				}
			})
			_, err := tunnelThrough(t, proxy)
			if !errors.Is(err, errNTLMAnswerTooLarge) {
				t.Fatalf("want the answer too large, got %v", err)
			}
		})
	}
}

// Another status is said as the proxy's answer.
func TestNTLMProxyAnsweringAnotherStatus(t *testing.T) {
	for _, second := range []bool{false, true} {
		proxy := fakeProxy(t, func(c net.Conn, br *bufio.Reader) {
			if _, err := http.ReadRequest(br); err != nil {
				return
			}
			if second {
				_, _ = io.WriteString(c, challengeAnswer(""))
				if _, err := http.ReadRequest(br); err != nil {
					return
				}
			}
			_, _ = io.WriteString(c, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
		})
		_, err := tunnelThrough(t, proxy)
		if _, auth := errors.AsType[*ProxyAuthError](err); err == nil || auth || !strings.Contains(err.Error(), "502 Bad Gateway") {
			t.Fatalf("want the proxy's 502 said, got %v", err)
		}
	}
}

// What the proxy sends past its 200 in the same packet is the tunnel's
// first bytes, not lost with the answer.
func TestNTLMTunnelKeepsBytesSentWithTheAnswer(t *testing.T) {
	var mu sync.Mutex
	var requests []*http.Request
	proxy := fakeProxy(t, func(c net.Conn, br *bufio.Reader) {
		for _, answer := range []string{challengeAnswer(""), "HTTP/1.1 200 Connection established\r\n\r\nhello from the service"} {
			req, err := http.ReadRequest(br)
			if err != nil {
				return
			}
			mu.Lock()
			requests = append(requests, req)
			mu.Unlock()
			_, _ = io.WriteString(c, answer)
		}
		_, _ = io.Copy(io.Discard, br)
	})
	conn, err := tunnelThrough(t, proxy)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	got := make([]byte, len("hello from the service"))
	if _, err := io.ReadFull(conn, got); err != nil || string(got) != "hello from the service" {
		t.Fatalf("read %q, %v", got, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(requests) != 2 {
		t.Fatalf("%d requests", len(requests))
	}
	for i, r := range requests {
		auth := r.Header.Get("Proxy-Authorization")
		if r.Method != http.MethodConnect || r.Host != "example.com:443" || !strings.HasPrefix(auth, "NTLM TlRMTVNTUA") {
			t.Fatalf("request %d: %s %s %q", i, r.Method, r.Host, auth)
		}
	}
}

// A proxy that never answers holds the sign-in only as long as its context.
func TestNTLMStopsWithItsContext(t *testing.T) {
	asked := make(chan struct{})
	proxy := fakeProxy(t, func(c net.Conn, br *bufio.Reader) {
		if _, err := http.ReadRequest(br); err == nil {
			close(asked)
			_, _ = io.Copy(io.Discard, br)
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var d net.Dialer
	go func() {
		_, err := tunnelNTLM(ctx, d.DialContext, proxy, nil, "example.com:443", url.UserPassword("alice", ntlmTestPassword), "NTLM")
		done <- err
	}()
	<-asked
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("want the sign-in cancelled, got %v", err)
	}
}

// Nothing is dialled for a target that would write its own headers, a
// scheme that is not NTLM's, or no user.
func TestNTLMRefusesWhatItCannotSend(t *testing.T) {
	dial := func(context.Context, string, string) (net.Conn, error) {
		t.Fatal("dialled")
		return nil, nil
	}
	proxy := &url.URL{Scheme: "http", Host: "proxy.example.com:8080"}
	alice := url.UserPassword("alice", ntlmTestPassword)
	for _, tc := range []struct {
		target, scheme string
		user           *url.Userinfo
	}{
		{"example.com:443\r\nX-Evil: 1", "NTLM", alice},
		{"example.com", "NTLM", alice},
		{"example.com:443", "Basic", alice},
		{"example.com:443", "Kerberos", alice},
		{"example.com:443", "NTLM", nil},
		{"example.com:443", "Negotiate", url.User("")},
	} {
		if _, err := tunnelNTLM(context.Background(), dial, proxy, nil, tc.target, tc.user, tc.scheme); err == nil {
			t.Fatalf("%q %q: no error", tc.target, tc.scheme)
		}
	}
}

func TestOffersNTLM(t *testing.T) {
	for _, tc := range []struct {
		values []string
		want   string
	}{
		{[]string{"NTLM"}, "NTLM"},
		{[]string{"Negotiate"}, "Negotiate"},
		{[]string{"Negotiate", "NTLM", `Basic realm="Corp"`}, "NTLM"},
		{[]string{`Negotiate, NTLM, Basic realm="Corp"`}, "NTLM"},
		{[]string{`Basic realm="Corp, NTLM inside", charset="UTF-8"`, "negotiate"}, "Negotiate"},
		{[]string{`Basic realm="a, NTLM b"`}, ""},
		{[]string{"ntlm TlRMTVNTUAACAAAA"}, "NTLM"},
		{[]string{`Bearer realm="x", error = "NTLM"`}, ""},
		{[]string{"Kerberos", "Basic"}, ""},
		{nil, ""},
	} {
		got, ok := offersNTLM(tc.values)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("offersNTLM(%q) = %q, %v; want %q", tc.values, got, ok, tc.want)
		}
	}
}

// FuzzNTLMChallenge answers the sign-in's first step with arbitrary bytes
// (and its second, if it comes, with a 200): nothing may panic or hang, and
// no error may hold the password.
func FuzzNTLMChallenge(f *testing.F) {
	challenge := challengeAnswer("")
	token := base64.StdEncoding.EncodeToString(proxytest.NTLMChallenge("CORP", [8]byte{}))
	for _, s := range []string{
		challenge,
		challengeAnswer("Connection: close\r\n"),
		"HTTP/1.1 200 Connection established\r\n\r\n",
		"HTTP/1.1 200 OK\r\n\r\nearly bytes",
		"HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: NTLM " + token + "\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nSign!\r\n0\r\n\r\n",
		"HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: NTLM " + token[:len(token)/2] + "\r\nContent-Length: 0\r\n\r\n",
		"HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: NTLM TlRMTVNTUAACAAAAAAAAAAAAAAA=\r\nContent-Length: 0\r\n\r\n",
		"HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Negotiate oYIBBjCCAQKgAwoBAaEMBgorBgEEAYI3AgIK\r\nContent-Length: 0\r\n\r\n",
		"HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"Corp\"\r\n\r\n",
		"HTTP/1.0 407 Proxy Authentication Required\r\nProxy-Authenticate: NTLM " + token + "\r\n\r\n",
		"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 3\r\n\r\nbad",
		"HTTP/1.1 407 x\r\nContent-Length: -1\r\n\r\n",
		"\r\n\r\n",
	} {
		f.Add([]byte(s))
	}
	proxy := &url.URL{Scheme: "http", Host: "proxy.example.com:8080"}
	f.Fuzz(func(t *testing.T, answer []byte) {
		c := &scriptedProxy{answers: [][]byte{answer, []byte("HTTP/1.1 200 Connection established\r\n\r\n")}}
		dial := func(context.Context, string, string) (net.Conn, error) { return c, nil }
		conn, err := tunnelNTLM(context.Background(), dial, proxy, nil, "example.com:443", url.UserPassword(`CORP\alice`, ntlmTestPassword), "NTLM")
		if err != nil {
			if strings.Contains(err.Error(), ntlmTestPassword) {
				t.Fatalf("error: %v", err)
			}
			return
		}
		conn.Close()
	})
}

// scriptedProxy is a connection to a proxy that answers the n-th request
// written with answers[n], then ends: a read past what it answered is EOF,
// as when a proxy closes, so nothing waits.
type scriptedProxy struct {
	mu      sync.Mutex
	answers [][]byte
	pending []byte
	asked   int
	written []byte
}

func (c *scriptedProxy) Read(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.pending) == 0 {
		if c.asked == 0 || len(c.answers) == 0 {
			return 0, io.EOF
		}
		c.pending, c.answers = c.answers[0], c.answers[1:]
		c.asked--
		if len(c.pending) == 0 {
			return 0, io.EOF
		}
	}
	n := copy(p, c.pending)
	c.pending = c.pending[n:]
	return n, nil
}

func (c *scriptedProxy) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.written = append(c.written, p...)
	// One request per write, whole, as tunnelNTLM writes them.
	if strings.HasSuffix(string(c.written), "\r\n\r\n") {
		c.asked++
		c.written = nil
	}
	return len(p), nil
}

func (c *scriptedProxy) Close() error                     { return nil }
func (c *scriptedProxy) LocalAddr() net.Addr              { return &net.TCPAddr{} }
func (c *scriptedProxy) RemoteAddr() net.Addr             { return &net.TCPAddr{} }
func (c *scriptedProxy) SetDeadline(time.Time) error      { return nil }
func (c *scriptedProxy) SetReadDeadline(time.Time) error  { return nil }
func (c *scriptedProxy) SetWriteDeadline(time.Time) error { return nil }
