package client

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testPACEnv answers the helpers without the network: two names known,
// this computer at 192.168.7.9, the time fixed at now.
func testPACEnv(now time.Time) pacEnv {
	return pacEnv{
		now: func() time.Time { return now },
		lookup: func(_ context.Context, host string) ([]netip.Addr, error) {
			switch host {
			case "intranet.example.com":
				return []netip.Addr{netip.MustParseAddr("fd00::1"), netip.MustParseAddr("::ffff:10.1.2.3")}, nil
			case "v6only.example.com":
				return []netip.Addr{netip.MustParseAddr("fd00::2")}, nil
			}
			return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
		},
		addrs: func() []netip.Addr {
			return []netip.Addr{netip.MustParseAddr("192.168.7.9"), netip.MustParseAddr("fd00::9")}
		},
		lookupFor: time.Second,
	}
}

func TestPACHelpersAnswerAsBrowsersDo(t *testing.T) {
	// Wednesday 31 December 2025, 08:30:15 at UTC+10: Tuesday 22:30:15 GMT.
	now := time.Date(2025, 12, 31, 8, 30, 15, 0, time.FixedZone("Acme", 10*3600))
	vm := pacSource("", testPACEnv(now)).newRuntime()
	if _, err := vm.RunString(pacPrelude); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ expr, want string }{
		{`isPlainHostName("www")`, "true"},
		{`isPlainHostName("www.netscape.com")`, "false"},
		{`dnsDomainIs("www.netscape.com", ".netscape.com")`, "true"},
		{`dnsDomainIs("www", ".netscape.com")`, "false"},
		{`dnsDomainIs("www.mcom.com", ".netscape.com")`, "false"},
		{`localHostOrDomainIs("www.netscape.com", "www.netscape.com")`, "true"},
		{`localHostOrDomainIs("www", "www.netscape.com")`, "true"},
		{`localHostOrDomainIs("www.mcom.com", "www.netscape.com")`, "false"},
		{`localHostOrDomainIs("home.netscape.com", "www.netscape.com")`, "false"},
		{`isResolvable("intranet.example.com")`, "true"},
		{`isResolvable("nowhere.example.com")`, "false"},
		{`isResolvable("v6only.example.com")`, "false"}, // IPv4 only, as in browsers
		{`isResolvableEx("v6only.example.com")`, "true"},
		{`dnsResolve("intranet.example.com")`, "10.1.2.3"},
		{`dnsResolve("nowhere.example.com")`, "null"},
		{`dnsResolve("192.0.2.7")`, "192.0.2.7"},
		{`dnsResolveEx("intranet.example.com")`, "fd00::1;10.1.2.3"},
		{`dnsResolveEx("nowhere.example.com")`, ""},
		{`isInNet("10.1.2.3", "10.0.0.0", "255.0.0.0")`, "true"},
		{`isInNet("intranet.example.com", "10.0.0.0", "255.0.0.0")`, "true"},
		{`isInNet("192.168.1.1", "10.0.0.0", "255.0.0.0")`, "false"},
		{`isInNet("nowhere.example.com", "10.0.0.0", "255.0.0.0")`, "false"},
		{`isInNet("10.1.2.3", "10.0.0.0", "255.0.0")`, "false"},
		{`isInNet("10.1.2.3", "010.001.002.003", "255.255.255.255")`, "true"},
		{`isInNet("10.1.2.3", "10.1.2.3", "255.255.256.255")`, "false"},
		{`isInNetEx("10.1.2.3", "10.0.0.0/8")`, "true"},
		{`isInNetEx("fd00::1", "fd00::/8")`, "true"},
		{`isInNetEx("intranet.example.com", "10.0.0.0/8")`, "false"},
		{`convert_addr("104.16.41.2")`, "1745889538"},
		{`convert_addr("255.255.255.255")`, "-1"},
		{`myIpAddress()`, "192.168.7.9"},
		{`myIpAddressEx()`, "192.168.7.9;fd00::9"},
		{`dnsDomainLevels("www")`, "0"},
		{`dnsDomainLevels("www.netscape.com")`, "2"},
		{`shExpMatch("http://home.netscape.com/people/ari/index.html", "*/ari/*")`, "true"},
		{`shExpMatch("http://home.netscape.com/people/montulli/index.html", "*/ari/*")`, "false"},
		{`shExpMatch("x.example.com", "*.example.com")`, "true"},
		{`shExpMatch("example.com", "*.example.com")`, "false"},
		{`shExpMatch("a.b", "a?b")`, "true"},
		{`shExpMatch("ab", "a?b")`, "false"},
		{`shExpMatch("a(b]c", "a(b]c")`, "true"}, // no other signs than * and ?
		{`shExpMatch("abcabd", "*ab?")`, "true"},
		{`shExpMatch("abcab", "a*b*b")`, "true"},
		{`shExpMatch("ab", "a*b*b")`, "false"},
		{`shExpMatch("ünï.example", "??ï*")`, "true"},
		{`weekdayRange("WED")`, "true"},
		{`weekdayRange("TUE")`, "false"},
		{`weekdayRange("TUE", "GMT")`, "true"},
		{`weekdayRange("MON", "FRI")`, "true"},
		{`weekdayRange("THU", "TUE")`, "false"},
		{`weekdayRange("SAT", "WED")`, "true"},
		{`weekdayRange("XYZ")`, "false"},
		{`weekdayRange()`, "false"},
		{`dateRange(31)`, "true"},
		{`dateRange(30)`, "false"},
		{`dateRange(30, "GMT")`, "true"},
		{`dateRange("DEC")`, "true"},
		{`dateRange(2025)`, "true"},
		{`dateRange(20, 31)`, "true"},
		{`dateRange(1, 15)`, "false"},
		{`dateRange("JAN", "MAR")`, "false"},
		{`dateRange("NOV", "JAN")`, "true"},
		{`dateRange(2024, 2025)`, "true"},
		{`dateRange(2026, 2027)`, "false"},
		{`dateRange(24, "DEC")`, "false"},
		{`dateRange(31, "DEC")`, "true"},
		{`dateRange(31, "DEC", 2025)`, "true"},
		{`dateRange(1, "DEC", 31, "DEC")`, "true"},
		{`dateRange(1, "JAN", 15, "AUG")`, "false"},
		{`dateRange(15, "DEC", 15, "JAN")`, "true"},
		{`dateRange("OCT", 2025, "MAR", 2026)`, "true"},
		{`dateRange("OCT", 2024, "MAR", 2025)`, "false"},
		{`dateRange(1, "DEC", 2025, 31, "DEC", 2025)`, "true"},
		{`dateRange(1, "JAN", 2026, 5, "JAN", 2026)`, "false"},
		{`dateRange("bogus")`, "false"},
		{`dateRange()`, "false"},
		{`timeRange(8)`, "true"},
		{`timeRange(9)`, "false"},
		{`timeRange(22, "GMT")`, "true"},
		{`timeRange(8, 9)`, "true"},
		{`timeRange(9, 17)`, "false"},
		{`timeRange(22, 6)`, "false"},
		{`timeRange(22, 8)`, "true"},
		{`timeRange(8, 30, 8, 31)`, "true"},
		{`timeRange(8, 31, 9, 0)`, "false"},
		{`timeRange(8, 30, 15, 8, 30, 15)`, "true"},
		{`timeRange(8, 30, 16, 9, 0, 0)`, "false"},
		{`timeRange(1, 2, 3)`, "false"},
		{`alert("seen"), "quiet"`, "quiet"},
	} {
		v, err := vm.RunString(c.expr)
		if err != nil || v.String() != c.want {
			t.Errorf("%s = %v (%v), want %s", c.expr, v, err, c.want)
		}
	}
}

func TestPACAnswersAreRead(t *testing.T) {
	for answer, want := range map[string]string{
		"DIRECT":                                "",
		"PROXY proxy.example.com:8080; DIRECT":  "http://proxy.example.com:8080",
		"  proxy   proxy.example.com:3128  ;":   "http://proxy.example.com:3128",
		"HTTPS secure.example.com:443":          "https://secure.example.com:443",
		"SOCKS socks.example.com:1080":          "socks5://socks.example.com:1080",
		"SOCKS5 socks.example.com:1080; DIRECT": "socks5://socks.example.com:1080",
		"QUIC q.example.com:443; PROXY p:80":    "http://p:80",
		"PROXY [fd00::1]:3128":                  "http://[fd00::1]:3128",
		"PROXY proxy.example.com":               "http://proxy.example.com",
		"PROXY bad:99999; DIRECT":               "",
	} {
		p, err := parsePACAnswer(answer)
		if err != nil || (p == nil) != (want == "") || (p != nil && p.String() != want) {
			t.Errorf("%q: %v (%v), want %q", answer, p, err, want)
		}
	}
	for _, garbage := range []string{"", " ; ", "hello", "PROXY", "PROXY a:1 b:2", "PROXY user@host:1", "PROXY host:x", "PROXY :8080", "SOCKS4 s:1080", "PROXY h/p:1", "DIRECT now"} {
		if p, err := parsePACAnswer(garbage); !errors.Is(err, ErrProxyScript) {
			t.Errorf("%q: %v (%v), want ErrProxyScript", garbage, p, err)
		}
	}
}

// A secure address reaches the script as its scheme and host alone: the
// path and query are the user's, as in Chrome.
func TestThePACScriptSeesNoPathOfASecureAddress(t *testing.T) {
	s := pacSource(`function FindProxyForURL(url, host) {
		if (url == "https://api.example.com:8443/" && host == "api.example.com") return "PROXY secure-seen:1";
		if (url == "http://intranet.example.com/wiki/page?q=1" && host == "intranet.example.com") return "PROXY plain-seen:1";
		return "PROXY wrong:1";
	}`, testPACEnv(time.Now()))
	for raw, want := range map[string]string{
		"https://API.example.com:8443/v1/agents?token=secret#frag": "secure-seen:1",
		"http://user:pw@intranet.example.com/wiki/page?q=1#top":    "plain-seen:1",
	} {
		u, _ := url.Parse(raw)
		if p, err := s.proxyFor(u); err != nil || p == nil || p.Host != want {
			t.Errorf("%s went through %v (%v), want %s", raw, p, err, want)
		}
	}
}

// Scripts that cannot be used fail the call, saying so; a script looping
// for one host is interrupted, and still answers for the others.
func TestABrokenPACScriptIsSaidSo(t *testing.T) {
	api := &url.URL{Scheme: "https", Host: "api.example.com"}
	for name, src := range map[string]string{
		"does not compile":        "function FindProxyForURL(url, host) { return",
		"has no FindProxyForURL":  "var proxy = 'PROXY p:1';",
		"throws":                  "function FindProxyForURL(url, host) { throw new Error('no') }",
		"answers no text":         "function FindProxyForURL(url, host) { return 42 }",
		"answers no proxy":        "function FindProxyForURL(url, host) { return 'PROXIES p:1' }",
		"loops":                   "function FindProxyForURL(url, host) { for (;;) {} }",
		"loops at start":          "while (true) {}",
		"calls itself":            "function FindProxyForURL(url, host) { return FindProxyForURL(url, host) }",
		"nests too deep":          strings.Repeat("(", pacMaxBrackets+1),
		"throws what cannot show": "function FindProxyForURL() { throw {toString: function () { for (;;) {} }} }",
	} {
		p, err := pacSource(src, testPACEnv(time.Now())).proxyFor(api)
		if !errors.Is(err, ErrProxyScript) || p != nil {
			t.Errorf("a script that %s: %v (%v)", name, p, err)
		}
	}
	s := pacSource(`function FindProxyForURL(url, host) {
		if (host == "loop.example.com") for (;;) {}
		return "PROXY proxy.example.com:3128";
	}`, testPACEnv(time.Now()))
	if _, err := s.proxyFor(&url.URL{Scheme: "https", Host: "loop.example.com"}); !errors.Is(err, ErrProxyScript) {
		t.Fatalf("a looping host: %v", err)
	}
	if p, err := s.proxyFor(api); err != nil || p == nil || p.Host != "proxy.example.com:3128" {
		t.Fatalf("after a loop: %v (%v)", p, err)
	}
}

// A question stuck where the engine cannot interrupt it (here a name
// lookup that never ends) is given up, and the script is not asked again.
func TestAPACScriptStuckOutOfReachIsGivenUp(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	env := testPACEnv(time.Now())
	env.lookup = func(context.Context, string) ([]netip.Addr, error) { <-release; return nil, errors.New("released") }
	s := pacSource(`function FindProxyForURL(url, host) { dnsResolve(host); return "DIRECT" }`, env)
	s.runFor, s.giveUpAfter = 10*time.Millisecond, 50*time.Millisecond
	for _, host := range []string{"api.example.com", "other.example.com"} {
		if _, err := s.proxyFor(&url.URL{Scheme: "https", Host: host}); !errors.Is(err, ErrProxyScript) {
			t.Fatalf("%s: %v", host, err)
		}
	}
}

// A script that could not be read is fetched again by a later call: the
// network may have come up since.
func TestAPACScriptThatCouldNotBeReadIsFetchedAgain(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "proxy.pac")
	s := newPACScript("file://"+filepath.ToSlash(file), nil)
	api := &url.URL{Scheme: "https", Host: "api.example.com"}
	if _, err := s.proxyFor(api); !errors.Is(err, ErrProxyScript) || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("no file yet: %v", err)
	}
	if err := os.WriteFile(file, []byte(`function FindProxyForURL(u, h) { return "PROXY proxy.example.com:3128" }`), 0o600); err != nil {
		t.Fatal(err)
	}
	s.loadMu.Lock()
	s.failedAt = s.failedAt.Add(-pacRetryAfter)
	s.loadMu.Unlock()
	if p, err := s.proxyFor(api); err != nil || p == nil || p.Host != "proxy.example.com:3128" {
		t.Fatalf("once written: %v (%v)", p, err)
	}
}

func TestAPACScriptTooLargeIsRefused(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("function FindProxyForURL(u, h) { return 'DIRECT' }\n//"))
		_, _ = w.Write([]byte(strings.Repeat("x", pacMaxSize)))
	}))
	t.Cleanup(srv.Close)
	if _, err := fetchPAC(srv.URL, nil); !errors.Is(err, ErrProxyScript) || !strings.Contains(err.Error(), "larger") {
		t.Fatalf("want too large, got %v", err)
	}
}

var pacSeeds = []string{
	`function FindProxyForURL(url, host) { return "DIRECT"; }`,
	`function FindProxyForURL(url, host) {
		if (isPlainHostName(host) || dnsDomainIs(host, ".corp.example.com")) return "DIRECT";
		if (isInNet(dnsResolve(host), "10.0.0.0", "255.0.0.0")) return "DIRECT";
		if (shExpMatch(url, "https://*.example.com/*") && weekdayRange("MON", "FRI") && timeRange(8, 18)) return "PROXY a.example.com:8080; DIRECT";
		if (dateRange("DEC", "JAN") || localHostOrDomainIs(host, "www.example.com")) return "HTTPS b.example.com:443";
		return "SOCKS5 c.example.com:1080; PROXY d:80";
	}`,
	`function FindProxyForURLEx(url, host) { return isInNetEx(myIpAddressEx(), "fd00::/8") ? "PROXY [fd00::1]:3128" : "DIRECT"; }`,
	`var n = 0; function FindProxyForURL(url, host) { n++; return n % 2 ? "PROXY p:" + n : dnsDomainLevels(host) + ""; }`,
	`function FindProxyForURL(url, host) { while (true) {} }`,
	`function FindProxyForURL(url, host) { return convert_addr(host) > 0 ? "PROXY " + host : null; }`,
}

// FuzzPAC runs any script for any address: it must answer or fail with
// ErrProxyScript, never panic nor hang.
func FuzzPAC(f *testing.F) {
	for _, s := range pacSeeds {
		f.Add(s, "https://api.example.com/v1/agents")
		f.Add(s, "http://intranet/wiki?q=1")
	}
	f.Add("(((", "https://[::1]:8/")
	env := testPACEnv(time.Date(2025, 12, 31, 8, 30, 15, 0, time.UTC))
	f.Fuzz(func(t *testing.T, script, raw string) {
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" {
			u = &url.URL{Scheme: "https", Host: "api.example.com", Path: raw}
		}
		s := pacSource(script, env)
		s.runFor, s.giveUpAfter, s.compileFor = 10*time.Millisecond, time.Second, 5*time.Second
		p, err := s.proxyFor(u)
		if err != nil && !errors.Is(err, ErrProxyScript) {
			t.Fatalf("%v", err)
		}
		if p != nil && (p.Hostname() == "" || (p.Scheme != "http" && p.Scheme != "https" && p.Scheme != "socks5")) {
			t.Fatalf("proxy %v", p)
		}
	})
}

// A script whose compiling runs past its time is not fetched again: the
// engine cannot be stopped, and each try would leave another at work.
func TestAPACScriptTooSlowToCompileIsNotTriedAgain(t *testing.T) {
	var b strings.Builder
	b.WriteString("function FindProxyForURL(url, host) { if (false")
	for i := range 5000 {
		fmt.Fprintf(&b, ` || shExpMatch(host, "*.d%d.example.com")`, i)
	}
	b.WriteString(`) return "DIRECT"; return "PROXY p:1" }`)
	fetched := 0
	s := pacSource("", testPACEnv(time.Now()))
	s.fetch = func() (string, error) { fetched++; return b.String(), nil }
	s.compileFor = time.Millisecond
	api := &url.URL{Scheme: "https", Host: "api.example.com"}
	for range 2 {
		if _, err := s.proxyFor(api); !errors.Is(err, ErrProxyScript) {
			t.Fatalf("want the script unusable, got %v", err)
		}
		s.loadMu.Lock()
		s.failedAt = s.failedAt.Add(-pacRetryAfter)
		s.loadMu.Unlock()
	}
	if fetched != 1 {
		t.Fatalf("fetched %d times", fetched)
	}
}

// officePAC is a company's script as IT departments write them: plain
// names and the intranet direct, the rest through one of two proxies.
const officePAC = `function FindProxyForURL(url, host) {
	if (isPlainHostName(host) || dnsDomainIs(host, ".acme.local") || shExpMatch(host, "*.intranet.acme.example")) return "DIRECT";
	if (isInNet(dnsResolve(host), "10.0.0.0", "255.0.0.0") || isInNet(dnsResolve(host), "192.168.0.0", "255.255.0.0")) return "DIRECT";
	if (shExpMatch(url, "https://*.eu.acme.example/*")) return "PROXY proxy-eu.acme.local:3128; DIRECT";
	return "PROXY proxy.acme.local:3128; PROXY proxy2.acme.local:3128; DIRECT";
}`

// BenchmarkFindProxy: the cost of finding a call's proxy, as a company's
// script says (a new host each time, and the same host again) against a
// proxy set by hand (the baseline).
func BenchmarkFindProxy(b *testing.B) {
	env := pacEnv{now: time.Now, addrs: func() []netip.Addr { return []netip.Addr{netip.MustParseAddr("10.1.2.3")} }, lookupFor: time.Second,
		lookup: func(context.Context, string) ([]netip.Addr, error) {
			return []netip.Addr{netip.MustParseAddr("203.0.113.7")}, nil
		}}
	b.Run("manual", func(b *testing.B) {
		n := Network{Proxy: ProxyManual, ProxyURL: "http://proxy.acme.local:3128"}
		u := &url.URL{Scheme: "https", Host: "agents.acme.example", Path: "/api/v1/agents"}
		for b.Loop() {
			if p, err := n.ProxyFor(u); err != nil || p == nil {
				b.Fatal(p, err)
			}
		}
	})
	b.Run("script-new-host", func(b *testing.B) {
		s := pacSource(officePAC, env)
		i := 0
		for b.Loop() {
			i++
			u := &url.URL{Scheme: "https", Host: fmt.Sprintf("h%d.agents.acme.example", i), Path: "/api/v1/agents"}
			if p, err := s.proxyFor(u); err != nil || p == nil {
				b.Fatal(p, err)
			}
		}
	})
	b.Run("script-same-host", func(b *testing.B) {
		s := pacSource(officePAC, env)
		u := &url.URL{Scheme: "https", Host: "agents.acme.example", Path: "/api/v1/agents"}
		for b.Loop() {
			if p, err := s.proxyFor(u); err != nil || p == nil {
				b.Fatal(p, err)
			}
		}
	})
}
