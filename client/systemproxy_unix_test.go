//go:build !windows && !darwin

package client

import (
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

// gnomeSettings answers as gsettings does, counting the questions.
func gnomeSettings(settings map[string]string, asked *atomic.Int32) func(schema, key string) string {
	return func(schema, key string) string {
		if asked != nil {
			asked.Add(1)
		}
		return strings.Trim(settings[schema+" "+key], "'")
	}
}

// kdeFilesOf reads files from a map, as if they were on disk.
func kdeFilesOf(files map[string]string) func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		if s, ok := files[name]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}
}

func proxyOf(t *testing.T, find func(*url.URL) (*url.URL, error), raw string) string {
	t.Helper()
	if find == nil {
		return ""
	}
	u, _ := url.Parse(raw)
	p, err := find(u)
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	if p == nil {
		return ""
	}
	return p.String()
}

// GNOME's "Automatic" mode with a script's address runs that script; with
// none (automatic detection) no proxy is guessed at.
func TestGNOMEsAutomaticModeRunsItsScript(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `function FindProxyForURL(url, host) { return host == "api.example.com" ? "PROXY proxy.example.com:3128" : "DIRECT" }`)
	}))
	t.Cleanup(srv.Close)
	settings := map[string]string{
		"org.gnome.system.proxy mode":           "'auto'",
		"org.gnome.system.proxy autoconfig-url": "'" + srv.URL + "/proxy.pac'",
	}
	r := desktopReaders{gsettings: gnomeSettings(settings, nil), readFile: kdeFilesOf(nil), kdeFiles: []string{"/home/u/.config/kioslaverc"}}
	d := desktopProxy(r)
	if d.pac != srv.URL+"/proxy.pac" {
		t.Fatalf("read %+v", d)
	}
	find := d.finder(nil)
	if got := proxyOf(t, find, "https://api.example.com/v1/agents"); got != "http://proxy.example.com:3128" {
		t.Errorf("the service goes through %q", got)
	}
	if got := proxyOf(t, find, "https://elsewhere.example.org/"); got != "" {
		t.Errorf("a DIRECT host goes through %q", got)
	}
	settings["org.gnome.system.proxy autoconfig-url"] = "''"
	if d := desktopProxy(r); d.pac != "" || d.manual != nil || d.finder(nil) != nil {
		t.Errorf("automatic detection read as %+v", d)
	}
	settings["org.gnome.system.proxy mode"] = "'manual'"
	settings["org.gnome.system.proxy.https host"] = "'proxy.example.com'"
	settings["org.gnome.system.proxy.https port"] = "8080"
	if got := proxyOf(t, desktopProxy(r).finder(nil), "https://api.example.com/"); got != "http://proxy.example.com:8080" {
		t.Errorf("GNOME's manual proxy read as %q", got)
	}
}

// KDE's kioslaverc is read where GNOME sets no proxy: by hand (both ways
// KDE writes an address), a script, or none; the user's file over the
// system's, [Proxy Settings] alone.
func TestKDEsProxySettingsAreRead(t *testing.T) {
	const system, user = "/etc/xdg/kioslaverc", "/home/u/.config/kioslaverc"
	read := func(files map[string]string) desktopSetting {
		none := gnomeSettings(map[string]string{"org.gnome.system.proxy mode": "'none'"}, nil)
		return desktopProxy(desktopReaders{gsettings: none, readFile: kdeFilesOf(files), kdeFiles: []string{system, user}})
	}
	manual := read(map[string]string{user: `[General]
ProxyType=2

[Proxy Settings]
NoProxyFor=localhost,.internal.example.com
ProxyType=1
httpProxy=http://proxy.example.com 8080
httpsProxy=http://secure.example.com:3128
`})
	find := manual.finder(nil)
	for raw, want := range map[string]string{
		"https://api.example.com/":           "http://secure.example.com:3128",
		"http://intranet.example.org/":       "http://proxy.example.com:8080",
		"https://wiki.internal.example.com/": "",
	} {
		if got := proxyOf(t, find, raw); got != want {
			t.Errorf("%s goes through %q, want %q", raw, got, want)
		}
	}
	if got := proxyOf(t, read(map[string]string{user: "[Proxy Settings]\nProxyType=1\nhttpProxy=proxy.example.com 8080\n"}).finder(nil), "https://api.example.com/"); got != "http://proxy.example.com:8080" {
		t.Errorf("an HTTP proxy alone: %q", got)
	}
	only := read(map[string]string{user: "[Proxy Settings]\nProxyType[$e]=1\nhttpsProxy=http://proxy.example.com:3128\nNoProxyFor=.example.com\nReversedException=true\n"})
	if proxyOf(t, only.finder(nil), "https://api.example.com/") == "" || proxyOf(t, only.finder(nil), "https://other.example.org/") != "" {
		t.Errorf("a proxy for the listed hosts only, read as %+v", only)
	}
	script := read(map[string]string{system: "[Proxy Settings]\nProxyType=2\nProxy Config Script=http://wpad.example.com/proxy.pac\n"})
	if script.pac != "http://wpad.example.com/proxy.pac" {
		t.Errorf("the company's script read as %+v", script)
	}
	overridden := read(map[string]string{
		system: "[Proxy Settings]\nProxyType=2\nProxy Config Script=http://wpad.example.com/proxy.pac\n",
		user:   "[Proxy Settings]\nProxyType=0\n",
	})
	if overridden != (desktopSetting{}) {
		t.Errorf("the user's none over the company's script, read as %+v", overridden)
	}
	for _, none := range []string{"", "[Proxy Settings]\nProxyType=0\nhttpsProxy=http://p:1\n", "[Proxy Settings]\nProxyType=3\n", "[Proxy Settings]\nProxyType=4\nhttpsProxy=HTTPS_PROXY\n", "[Proxy Settings]\nProxyType=1\n", "[Proxy Settings]\nProxyType=1\nhttpsProxy=http://p x\n"} {
		if d := read(map[string]string{user: none}); d != (desktopSetting{}) || d.finder(nil) != nil {
			t.Errorf("%q read as %+v", none, d)
		}
	}
}

// The variables win over the desktop, whose settings are read once for a
// client and not at all while the variables are set.
func TestTheSystemsProxyReadsTheDesktopOnce(t *testing.T) {
	for _, v := range []string{"HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "NO_PROXY", "no_proxy"} {
		t.Setenv(v, "")
	}
	var asked atomic.Int32
	settings := map[string]string{
		"org.gnome.system.proxy mode":       "'manual'",
		"org.gnome.system.proxy.https host": "'proxy.example.com'",
		"org.gnome.system.proxy.https port": "3128",
	}
	find := systemProxyFrom(desktopReaders{gsettings: gnomeSettings(settings, &asked), readFile: kdeFilesOf(nil)}, nil)
	t.Setenv("HTTPS_PROXY", "http://env.example.com:8080")
	if got := proxyOf(t, find, "https://api.example.com/"); got != "http://env.example.com:8080" || asked.Load() != 0 {
		t.Fatalf("with the variables set: %q, the desktop asked %d times", got, asked.Load())
	}
	t.Setenv("HTTPS_PROXY", "")
	for range 3 {
		if got := proxyOf(t, find, "https://api.example.com/"); got != "http://proxy.example.com:3128" {
			t.Fatalf("the desktop's proxy: %q", got)
		}
	}
	read := asked.Load()
	proxyOf(t, find, "https://other.example.com/")
	if read == 0 || asked.Load() != read {
		t.Errorf("the desktop was asked %d times, then %d", read, asked.Load())
	}
	p, _ := find(&url.URL{Scheme: "https", Host: "api.example.com"})
	p.User = url.User("changed")
	if got := proxyOf(t, find, "https://api.example.com/"); got != "http://proxy.example.com:3128" {
		t.Errorf("a caller's change stayed: %q", got)
	}
}
