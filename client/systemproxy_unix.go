//go:build !windows && !darwin

package client

import (
	"bufio"
	"bytes"
	"context"
	"crypto/x509"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/http/httpproxy"
)

// On Linux and the BSDs there is no one system setting: programs read the
// HTTPS_PROXY family of variables, and desktops keep their own (GNOME in
// gsettings, KDE in kioslaverc), which browsers follow.

// newSystemProxy finds the system's proxy for one client: the variables
// first, else the desktop's settings, read at the first call that needs
// them and kept.
func newSystemProxy(roots *x509.CertPool) func(*url.URL) (*url.URL, error) {
	return systemProxyFrom(desktopReaders{gsettings: gsettings, readFile: os.ReadFile, kdeFiles: kdeFiles()}, roots)
}

// desktopReaders are where the desktop's settings come from.
type desktopReaders struct {
	gsettings func(schema, key string) string
	readFile  func(name string) ([]byte, error)
	kdeFiles  []string // kioslaverc, the system's first and the user's last
}

func systemProxyFrom(r desktopReaders, roots *x509.CertPool) func(*url.URL) (*url.URL, error) {
	desktop := sync.OnceValue(func() func(*url.URL) (*url.URL, error) { return desktopProxy(r).finder(roots) })
	return func(u *url.URL) (*url.URL, error) { return systemProxy(u, httpproxy.FromEnvironment(), desktop) }
}

// systemProxy resolves u with env, else with the desktop's finder (nil: none).
func systemProxy(u *url.URL, env *httpproxy.Config, desktop func() func(*url.URL) (*url.URL, error)) (*url.URL, error) {
	if env.HTTPProxy != "" || env.HTTPSProxy != "" {
		return env.ProxyFunc()(u)
	}
	if find := desktop(); find != nil {
		return find(u)
	}
	return nil, nil
}

// desktopSetting is what the desktop's settings say: a proxy set by hand
// (manual), a proxy script's address (pac), or neither.
type desktopSetting struct {
	manual *httpproxy.Config
	// only: manual.NoProxy lists the hosts that do go through the proxy
	// (KDE's "use proxy settings only for addresses in the list").
	only bool
	pac  string
}

// desktopProxy reads GNOME's proxy settings where they set one, else KDE's.
func desktopProxy(r desktopReaders) desktopSetting {
	if d, ok := gnomeSetting(r.gsettings); ok {
		return d
	}
	return kdeSetting(r.readFile, r.kdeFiles)
}

// finder finds a request's proxy as d says (nil: none).
func (d desktopSetting) finder(roots *x509.CertPool) func(*url.URL) (*url.URL, error) {
	switch {
	case d.pac != "":
		return newPACScript(d.pac, roots).proxyFor
	case d.manual == nil:
		return nil
	}
	every := (&httpproxy.Config{HTTPProxy: d.manual.HTTPProxy, HTTPSProxy: d.manual.HTTPSProxy}).ProxyFunc()
	// Listed hosts are those the list would keep from a proxy.
	unlisted := (&httpproxy.Config{HTTPProxy: "http://x", HTTPSProxy: "http://x", NoProxy: d.manual.NoProxy}).ProxyFunc()
	return func(u *url.URL) (*url.URL, error) {
		if p, _ := unlisted(u); (p == nil) != d.only {
			return nil, nil
		}
		p, err := every(u)
		if p != nil {
			cp := *p // the config's own, which the caller may change
			p = &cp
		}
		return p, err
	}
}

// gnomeSetting reads GNOME's proxy settings; false when they set none
// Agent Desk can use (mode "none", or "auto" without a script's address:
// automatic detection, WPAD, is not guessed at).
func gnomeSetting(get func(schema, key string) string) (desktopSetting, bool) {
	switch get("org.gnome.system.proxy", "mode") {
	case "manual":
		if c := gnomeProxy(get); c != nil {
			return desktopSetting{manual: c}, true
		}
	case "auto":
		if pac := strings.TrimSpace(get("org.gnome.system.proxy", "autoconfig-url")); pac != "" {
			return desktopSetting{pac: pac}, true
		}
	}
	return desktopSetting{}, false
}

// gsettings reads one key of org.gnome.system.proxy (and its children).
func gsettings(schema, key string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "gsettings", "get", schema, key).Output()
	if err != nil {
		return ""
	}
	return strings.Trim(strings.TrimSpace(string(out)), "'")
}

// kdeFiles are the kioslaverc files KDE reads, least important first:
// $XDG_CONFIG_DIRS (/etc/xdg), where a company sets them for everyone,
// then $XDG_CONFIG_HOME (~/.config), the user's.
func kdeFiles() []string {
	var files []string
	dirs := os.Getenv("XDG_CONFIG_DIRS")
	if dirs == "" {
		dirs = "/etc/xdg"
	}
	for _, d := range slices.Backward(filepath.SplitList(dirs)) {
		if filepath.IsAbs(d) {
			files = append(files, filepath.Join(d, "kioslaverc"))
		}
	}
	home := os.Getenv("XDG_CONFIG_HOME")
	if home == "" || !filepath.IsAbs(home) {
		if h, err := os.UserHomeDir(); err == nil {
			home = filepath.Join(h, ".config")
		}
	}
	if home != "" {
		files = append(files, filepath.Join(home, "kioslaverc"))
	}
	return files
}

// kdeSetting reads the [Proxy Settings] of KDE's kioslaverc files, a later
// file's keys over an earlier's. ProxyType 1 is a proxy set by hand, 2 a
// script; 4 (the variables) was read before, and 0 and 3 (none; automatic
// detection, which is not guessed at) set none.
func kdeSetting(read func(string) ([]byte, error), files []string) desktopSetting {
	keys := map[string]string{}
	for _, f := range files {
		if b, err := read(f); err == nil {
			iniSection(b, "Proxy Settings", keys)
		}
	}
	switch strings.TrimSpace(keys["ProxyType"]) {
	case "1":
		c := &httpproxy.Config{HTTPProxy: kdeAddress(keys["httpProxy"]), HTTPSProxy: kdeAddress(keys["httpsProxy"])}
		if c.HTTPSProxy == "" {
			c.HTTPSProxy = c.HTTPProxy // as GNOME's are read
		}
		if c.HTTPSProxy == "" {
			return desktopSetting{}
		}
		c.NoProxy = strings.Join(strings.FieldsFunc(keys["NoProxyFor"], func(r rune) bool { return r == ',' || r == ' ' }), ",")
		return desktopSetting{manual: c, only: keys["ReversedException"] == "true"}
	case "2":
		return desktopSetting{pac: strings.TrimSpace(keys["Proxy Config Script"])}
	}
	return desktopSetting{}
}

// kdeAddress reads a proxy as KDE writes it: "http://host:port", or with a
// space before the port ("http://host 8080"), as older versions do.
func kdeAddress(v string) string {
	f := strings.Fields(v)
	switch len(f) {
	case 0:
		return ""
	case 2:
		if port, err := strconv.Atoi(f[1]); err != nil || port <= 0 {
			return ""
		}
		v = f[0] + ":" + f[1]
	case 1:
		v = f[0]
	default:
		return ""
	}
	if !strings.Contains(v, "://") {
		v = "http://" + v
	}
	return v
}

// iniSection adds the keys of section in a KDE config file to keys. A key
// may carry flags ("key[$e]"); "\s" at a value's start is a space.
func iniSection(b []byte, section string, keys map[string]string) {
	in := false
	for s := bufio.NewScanner(bytes.NewReader(b)); s.Scan(); {
		line := strings.TrimSpace(s.Text())
		switch {
		case line == "" || line[0] == '#':
		case line[0] == '[':
			in = line == "["+section+"]"
		case in:
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				continue
			}
			k = strings.TrimSpace(k)
			if i := strings.Index(k, "[$"); i > 0 && strings.HasSuffix(k, "]") {
				k = strings.TrimSpace(k[:i])
			}
			v = strings.TrimSpace(v)
			if strings.HasPrefix(v, `\s`) {
				v = " " + v[2:]
			}
			keys[k] = v
		}
	}
}
