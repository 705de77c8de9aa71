package client

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// Company networks often name their proxy with a proxy auto-config script
// (PAC): JavaScript whose FindProxyForURL(url, host) answers, for each
// address, which proxy to go through. Agent Desk runs it as browsers do.

// ErrProxyScript means the network's proxy setup script (PAC) could not be
// read, or has a mistake: it does not compile, throws, runs without end or
// answers something that names no proxy.
var ErrProxyScript = errors.New("agentdesk: the network's proxy script cannot be used")

const (
	// pacMaxSize bounds the script: real ones are a few kilobytes.
	pacMaxSize = 1 << 20
	// pacFetchFor bounds the script's download.
	pacFetchFor = 10 * time.Second
	// pacRetryAfter is how long a script that could not be read stays so
	// before the next call tries again (the network may have come up).
	pacRetryAfter = 5 * time.Second
	// pacRunFor bounds the JavaScript of one question, so that a looping
	// script fails the call rather than hang it.
	pacRunFor = time.Second
	// pacGiveUpAfter bounds one question even inside the engine's own code
	// (which pacRunFor cannot interrupt) or a name lookup: the runtime is
	// then abandoned and the script no longer used.
	pacGiveUpAfter = 5 * time.Second
	// pacCompileFor bounds compiling the script, which for a large one
	// (a megabyte of hosts in one condition) takes seconds; past it the
	// script is not used.
	pacCompileFor = 30 * time.Second
	// pacLookupFor bounds one name lookup of the script's helpers.
	pacLookupFor = 2 * time.Second
	// pacMaxBrackets refuses a script nested deeper than the engine's
	// parser can take: it recurses on each bracket, and past a few hundred
	// thousand the program's stack runs out, which cannot be recovered.
	pacMaxBrackets = 100_000
	// pacMaxCalls bounds the script's call depth: a script calling itself
	// without end fails instead of filling memory.
	pacMaxCalls = 1000
)

// pacScript finds the proxy of each address with one script, fetched at
// the first question and kept, and one JavaScript runtime, which is not
// safe for concurrent use: questions take turns.
type pacScript struct {
	fetch func() (string, error)
	env   pacEnv
	// runFor and giveUpAfter bound each question, compileFor the script's
	// compiling (pacRunFor, pacGiveUpAfter, pacCompileFor).
	runFor, giveUpAfter, compileFor time.Duration

	loadMu   sync.Mutex
	prog     *goja.Program
	loadErr  error
	failedAt time.Time
	gaveUp   bool // compiling never ended: the script is not fetched again

	mu    sync.Mutex
	vm    *goja.Runtime
	find  goja.Callable // the script's FindProxyForURL(Ex), nil until it ran
	stuck bool          // a question never ended: the script is not asked again

	cache proxyCache
}

// newPACScript is the script at address (http(s)://, file:// or a path),
// fetched directly, trusting roots (nil: the system's).
func newPACScript(address string, roots *x509.CertPool) *pacScript {
	s := pacSource("", systemPACEnv())
	s.fetch = func() (string, error) { return fetchPAC(address, roots) }
	return s
}

// pacSource is a script given as its text, with env for its helpers.
func pacSource(src string, env pacEnv) *pacScript {
	return &pacScript{
		fetch:       func() (string, error) { return src, nil },
		env:         env,
		runFor:      pacRunFor,
		giveUpAfter: pacGiveUpAfter,
		compileFor:  pacCompileFor,
	}
}

// proxyFor is the proxy the script names for u (nil: DIRECT).
func (s *pacScript) proxyFor(u *url.URL) (*url.URL, error) {
	prog, err := s.program()
	if err != nil {
		return nil, err
	}
	target := scriptURL(u)
	return s.cache.find(target.String(), func() (*url.URL, error) {
		answer, err := s.run(prog, target.String(), target.Hostname())
		if err != nil {
			return nil, err
		}
		return parsePACAnswer(answer)
	})
}

// program is the script, fetched and compiled at the first question; one
// that could not be read is fetched again by a question pacRetryAfter later.
func (s *pacScript) program() (*goja.Program, error) {
	s.loadMu.Lock()
	defer s.loadMu.Unlock()
	if s.prog != nil {
		return s.prog, nil
	}
	if s.loadErr != nil && (s.gaveUp || time.Since(s.failedAt) < pacRetryAfter) {
		return nil, s.loadErr
	}
	src, err := s.fetch()
	if err == nil {
		s.prog, err = compilePAC(src, s.compileFor)
	}
	s.loadErr, s.failedAt, s.gaveUp = err, time.Now(), errors.Is(err, errCompileGaveUp)
	return s.prog, err
}

// scriptURL is what a script is told of u, as Chrome tells it: of a secure
// address only its scheme and host, for its path and query are the user's
// business; of others all but the user name and fragment.
func scriptURL(u *url.URL) *url.URL {
	host := strings.ToLower(u.Host)
	if u.Scheme == "https" || u.Scheme == "wss" {
		return &url.URL{Scheme: u.Scheme, Host: host, Path: "/"}
	}
	c := *u
	c.Host, c.User, c.Fragment, c.RawFragment = host, nil, "", ""
	return &c
}

// fetchPAC reads the script at address: a web address is fetched
// directly, never through a proxy (the script is what names it).
func fetchPAC(address string, roots *x509.CertPool) (string, error) {
	address = strings.TrimSpace(address)
	if address == "" {
		return "", fmt.Errorf("%w: no address is set for it", ErrProxyScript)
	}
	u, err := url.Parse(address)
	shown := address
	if err == nil {
		shown = u.Redacted()
	}
	var src string
	switch {
	case err == nil && (u.Scheme == "http" || u.Scheme == "https"):
		src, err = getPAC(u, roots)
	case err == nil && u.Scheme == "file":
		src, err = readPACFile(filePath(u))
	case !strings.Contains(address, "://"):
		src, err = readPACFile(address)
	default:
		err = errors.New("it is neither a web address nor a file")
	}
	if err != nil {
		return "", fmt.Errorf("%w: %s: %w", ErrProxyScript, shown, err)
	}
	return src, nil
}

func getPAC(u *url.URL, roots *x509.CertPool) (string, error) {
	t := &http.Transport{
		Proxy:               nil,
		DialContext:         (&net.Dialer{Timeout: pacFetchFor}).DialContext,
		TLSClientConfig:     &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout: pacFetchFor,
	}
	defer t.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(context.Background(), pacFetchFor)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", err
	}
	res, err := (&http.Client{Transport: t}).Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return "", fmt.Errorf("the server answered %s", res.Status)
	}
	return readPAC(res.Body)
}

func readPACFile(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return readPAC(f)
}

func readPAC(r io.Reader) (string, error) {
	b, err := io.ReadAll(io.LimitReader(r, pacMaxSize+1))
	if err != nil {
		return "", err
	}
	if len(b) > pacMaxSize {
		return "", fmt.Errorf("it is larger than %d bytes", pacMaxSize)
	}
	return string(b), nil
}

// filePath is the file a file:// address names (file:///C:/x.pac on
// Windows is C:/x.pac; file://server/x.pac a share there).
func filePath(u *url.URL) string {
	p := u.Path
	if runtime.GOOS == "windows" && len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:]
	}
	if u.Host != "" && !strings.EqualFold(u.Host, "localhost") {
		p = "//" + u.Host + p
	}
	return filepath.FromSlash(p)
}

// errCompileGaveUp means compiling ran past its time (and runs on: the
// engine cannot be stopped).
var errCompileGaveUp = errors.New("it takes too long to read")

// compilePAC compiles src, refusing what would take the engine down or
// tie it up: too deep a nesting, or more than giveUpAfter of compiling.
func compilePAC(src string, giveUpAfter time.Duration) (*goja.Program, error) {
	src = strings.TrimPrefix(src, "\ufeff")
	if n := strings.Count(src, "(") + strings.Count(src, "[") + strings.Count(src, "{"); n > pacMaxBrackets {
		return nil, fmt.Errorf("%w: it has %d brackets, more than %d", ErrProxyScript, n, pacMaxBrackets)
	}
	type compiled struct {
		prog *goja.Program
		err  error
	}
	done := make(chan compiled, 1)
	go func() {
		var c compiled
		defer func() {
			if x := recover(); x != nil {
				c = compiled{err: fmt.Errorf("the script engine failed: %v", x)}
			}
			done <- c
		}()
		c.prog, c.err = goja.Compile("proxy.pac", src, false)
	}()
	giveUp := time.NewTimer(giveUpAfter)
	defer giveUp.Stop()
	select {
	case c := <-done:
		if c.err != nil {
			return nil, fmt.Errorf("%w: %s", ErrProxyScript, clip(c.err.Error()))
		}
		return c.prog, nil
	case <-giveUp.C:
		return nil, fmt.Errorf("%w: %w", ErrProxyScript, errCompileGaveUp)
	}
}

// pacPrelude are the helpers written in JavaScript, as in browsers.
const pacPrelude = `function convert_addr(ipchars) {
	var bytes = ipchars.split('.');
	return ((bytes[0] & 0xff) << 24) | ((bytes[1] & 0xff) << 16) | ((bytes[2] & 0xff) << 8) | (bytes[3] & 0xff);
}`

// errRanTooLong interrupts a script that ran past its time.
var errRanTooLong = errors.New("it ran for too long")

// run asks the script for target's proxy. JavaScript running past runFor
// is interrupted; a question still not done after giveUpAfter (stuck in
// the engine's own code, which cannot be interrupted) is abandoned, with
// its runtime, and the script is not asked again.
func (s *pacScript) run(prog *goja.Program, target, host string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stuck {
		return "", fmt.Errorf("%w: it ran without end", ErrProxyScript)
	}
	if s.vm == nil {
		s.vm, s.find = s.newRuntime(), nil
	}
	vm := s.vm
	type result struct {
		answer string
		find   goja.Callable
		err    error
		broken bool // the runtime is not to be used again
	}
	done := make(chan result, 1)
	fired := make(chan struct{})
	interrupt := time.AfterFunc(s.runFor, func() { vm.Interrupt(errRanTooLong); close(fired) })
	go func(find goja.Callable) {
		var r result
		defer func() {
			if x := recover(); x != nil {
				r = result{err: fmt.Errorf("%w: the script engine failed: %s", ErrProxyScript, clip(fmt.Sprint(x))), broken: true}
			}
			if !interrupt.Stop() {
				<-fired // an Interrupt under way ends before it is cleared
			}
			vm.ClearInterrupt()
			done <- r
		}()
		if find == nil {
			if find, r.err = startPAC(vm, prog); r.err != nil {
				r.broken = true
				return
			}
			r.find = find
		}
		r.answer, r.err = askPAC(vm, find, target, host)
	}(s.find)
	giveUp := time.NewTimer(s.giveUpAfter)
	defer giveUp.Stop()
	select {
	case r := <-done:
		if r.find != nil {
			s.find = r.find
		}
		if r.broken {
			s.vm, s.find = nil, nil
		}
		return r.answer, r.err
	case <-giveUp.C:
		s.vm, s.find, s.stuck = nil, nil, true
		return "", fmt.Errorf("%w: it ran without end", ErrProxyScript)
	}
}

// newRuntime is a runtime with the helpers a script may call.
func (s *pacScript) newRuntime() *goja.Runtime {
	vm := goja.New()
	vm.SetMaxCallStackSize(pacMaxCalls)
	s.env.install(vm)
	return vm
}

// startPAC runs the script's own code and finds its FindProxyForURLEx
// (preferred, as in Chrome) or FindProxyForURL.
func startPAC(vm *goja.Runtime, prog *goja.Program) (goja.Callable, error) {
	if _, err := vm.RunString(pacPrelude); err != nil {
		return nil, scriptError(err)
	}
	if _, err := vm.RunProgram(prog); err != nil {
		return nil, scriptError(err)
	}
	for _, name := range []string{"FindProxyForURLEx", "FindProxyForURL"} {
		if find, ok := goja.AssertFunction(vm.Get(name)); ok {
			return find, nil
		}
	}
	return nil, fmt.Errorf("%w: it has no FindProxyForURL function", ErrProxyScript)
}

func askPAC(vm *goja.Runtime, find goja.Callable, target, host string) (string, error) {
	v, err := find(goja.Undefined(), vm.ToValue(target), vm.ToValue(host))
	if err != nil {
		return "", scriptError(err)
	}
	answer, ok := v.Export().(string)
	if !ok {
		return "", fmt.Errorf("%w: FindProxyForURL answered no text", ErrProxyScript)
	}
	return answer, nil
}

func scriptError(err error) error {
	if ie, ok := errors.AsType[*goja.InterruptedError](err); ok && ie.Value() == errRanTooLong {
		return fmt.Errorf("%w: %v", ErrProxyScript, errRanTooLong)
	}
	return fmt.Errorf("%w: %s", ErrProxyScript, clip(err.Error()))
}

// clip shortens what a script said for an error message.
func clip(s string) string {
	const most = 200
	if len(s) <= most {
		return s
	}
	i := most
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// parsePACAnswer reads a script's answer, such as "PROXY a:8080; DIRECT":
// the first entry Agent Desk can use is the proxy (nil for DIRECT); the
// transport tries one, so later ones are not fallen back to.
func parsePACAnswer(answer string) (*url.URL, error) {
	for entry := range strings.SplitSeq(answer, ";") {
		f := strings.Fields(entry)
		if len(f) == 0 {
			continue
		}
		var scheme string
		switch strings.ToUpper(f[0]) {
		case "DIRECT":
			if len(f) == 1 {
				return nil, nil
			}
			continue
		case "PROXY", "HTTP":
			scheme = "http"
		case "HTTPS":
			scheme = "https"
		case "SOCKS", "SOCKS5":
			scheme = "socks5"
		default: // QUIC, SOCKS4 and the unknown: not spoken here
			continue
		}
		if len(f) != 2 || strings.ContainsAny(f[1], "/@?#\\%") {
			continue
		}
		u, err := url.Parse(scheme + "://" + f[1])
		if err != nil || u.Hostname() == "" {
			continue
		}
		if p := u.Port(); p != "" {
			if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
				continue
			}
		}
		return u, nil
	}
	return nil, fmt.Errorf("%w: it answered %q, which names no proxy", ErrProxyScript, clip(answer))
}

// proxyCache keeps the proxy found for an address a short while, so the
// script (or the system's resolver) is asked once per host, not per
// request; a failure is kept a few seconds, so that a broken script does
// not hold each request of a burst in turn.
type proxyCache struct {
	mu sync.Mutex
	m  map[string]cachedProxy
}

type cachedProxy struct {
	proxy *url.URL
	err   error
	until time.Time
}

const (
	proxyCacheFor     = 30 * time.Second
	proxyCacheFailFor = 5 * time.Second
	proxyCacheSize    = 256
)

// find is key's proxy, from resolve unless kept; a copy, which the caller
// may change.
func (c *proxyCache) find(key string, resolve func() (*url.URL, error)) (*url.URL, error) {
	c.mu.Lock()
	e, ok := c.m[key]
	c.mu.Unlock()
	if !ok || time.Now().After(e.until) {
		e.proxy, e.err = resolve()
		e.until = time.Now().Add(proxyCacheFor)
		if e.err != nil {
			e.until = time.Now().Add(proxyCacheFailFor)
		}
		c.mu.Lock()
		if c.m == nil || len(c.m) >= proxyCacheSize {
			c.m = map[string]cachedProxy{}
		}
		c.m[key] = e
		c.mu.Unlock()
	}
	if e.proxy == nil {
		return nil, e.err
	}
	p := *e.proxy
	return &p, e.err
}

// pacEnv is what a script's helpers ask of this computer: the time, names
// looked up, its own addresses.
type pacEnv struct {
	now       func() time.Time
	lookup    func(ctx context.Context, host string) ([]netip.Addr, error)
	addrs     func() []netip.Addr // this computer's, the one its traffic leaves by first
	lookupFor time.Duration
}

func systemPACEnv() pacEnv {
	return pacEnv{
		now: time.Now,
		lookup: func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		},
		addrs:     localAddrs,
		lookupFor: pacLookupFor,
	}
}

// localAddrs are this computer's addresses, as Chrome finds them: the
// source of a route to a public address first (a UDP "connection" sends
// nothing), else those of its interfaces.
func localAddrs() []netip.Addr {
	var out []netip.Addr
	for _, probe := range [][2]string{{"udp4", "8.8.8.8:80"}, {"udp6", "[2001:4860:4860::8888]:80"}} {
		c, err := net.Dial(probe[0], probe[1])
		if err != nil {
			continue
		}
		if a, ok := c.LocalAddr().(*net.UDPAddr); ok {
			if ip, ok := netip.AddrFromSlice(a.IP); ok {
				out = append(out, ip.Unmap())
			}
		}
		c.Close()
	}
	if len(out) > 0 {
		return out
	}
	ifAddrs, _ := net.InterfaceAddrs()
	for _, a := range ifAddrs {
		if p, err := netip.ParsePrefix(a.String()); err == nil && !p.Addr().IsLoopback() && !p.Addr().IsLinkLocalUnicast() {
			out = append(out, p.Addr().Unmap())
		}
	}
	return out
}

// install gives vm the standard PAC helpers (Netscape's, with Microsoft's
// IPv6 "Ex" ones as Chrome has them).
func (e pacEnv) install(vm *goja.Runtime) {
	set := func(name string, f func(args []string) any) {
		_ = vm.Set(name, func(call goja.FunctionCall) goja.Value {
			args := make([]string, len(call.Arguments))
			for i, a := range call.Arguments {
				args[i] = a.String()
			}
			return vm.ToValue(f(args))
		})
	}
	arg := func(args []string, i int) string {
		if i < len(args) {
			return args[i]
		}
		return "undefined"
	}
	set("isPlainHostName", func(a []string) any { return !strings.Contains(arg(a, 0), ".") })
	set("dnsDomainIs", func(a []string) any { return strings.HasSuffix(arg(a, 0), arg(a, 1)) })
	set("localHostOrDomainIs", func(a []string) any {
		host, hostdom := arg(a, 0), arg(a, 1)
		return host == hostdom || strings.HasPrefix(hostdom, host+".")
	})
	set("isResolvable", func(a []string) any { _, ok := e.dnsResolve(arg(a, 0)); return ok })
	set("isResolvableEx", func(a []string) any { return len(e.resolve(arg(a, 0))) > 0 })
	set("dnsResolve", func(a []string) any {
		if ip, ok := e.dnsResolve(arg(a, 0)); ok {
			return ip
		}
		return nil
	})
	set("dnsResolveEx", func(a []string) any { return joinAddrs(e.resolve(arg(a, 0))) })
	set("myIpAddress", func([]string) any { return e.myIPAddress() })
	set("myIpAddressEx", func([]string) any { return joinAddrs(e.addrs()) })
	set("isInNet", func(a []string) any { return e.isInNet(arg(a, 0), arg(a, 1), arg(a, 2)) })
	set("isInNetEx", func(a []string) any { return isInNetEx(arg(a, 0), arg(a, 1)) })
	set("dnsDomainLevels", func(a []string) any { return strings.Count(arg(a, 0), ".") })
	set("shExpMatch", func(a []string) any { return shExpMatch(arg(a, 0), arg(a, 1)) })
	set("weekdayRange", func(a []string) any { return e.weekdayRange(a) })
	set("dateRange", func(a []string) any { return e.dateRange(a) })
	set("timeRange", func(a []string) any { return e.timeRange(a) })
	set("alert", func([]string) any { return nil })
}

// resolve looks host up, within lookupFor; an address is itself.
func (e pacEnv) resolve(host string) []netip.Addr {
	if ip, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{ip.Unmap()}
	}
	if host == "" || len(host) > 253 {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), e.lookupFor)
	defer cancel()
	ips, err := e.lookup(ctx, host)
	if err != nil {
		return nil
	}
	for i := range ips {
		ips[i] = ips[i].Unmap()
	}
	return ips
}

// dnsResolve is host's first IPv4 address, as dnsResolve answers.
func (e pacEnv) dnsResolve(host string) (string, bool) {
	for _, ip := range e.resolve(host) {
		if ip.Is4() {
			return ip.String(), true
		}
	}
	return "", false
}

func (e pacEnv) myIPAddress() string {
	for _, ip := range e.addrs() {
		if ip.Is4() {
			return ip.String()
		}
	}
	return "127.0.0.1"
}

func joinAddrs(ips []netip.Addr) string {
	s := make([]string, len(ips))
	for i, ip := range ips {
		s[i] = ip.String()
	}
	return strings.Join(s, ";")
}

// isInNet reports host (an address, or a name looked up) inside pattern
// under mask, both dotted IPv4.
func (e pacEnv) isInNet(host, pattern, mask string) bool {
	pat, ok1 := parseIPv4(pattern)
	m, ok2 := parseIPv4(mask)
	if !ok1 || !ok2 {
		return false
	}
	ip, ok := parseIPv4(host)
	if !ok {
		s, found := e.dnsResolve(host)
		if !found {
			return false
		}
		ip, _ = parseIPv4(s)
	}
	return ip&m == pat&m
}

// parseIPv4 reads a dotted quad as the standard helpers accept it
// (leading zeros too).
func parseIPv4(s string) (uint32, bool) {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return 0, false
	}
	var v uint32
	for _, p := range parts {
		if len(p) < 1 || len(p) > 3 || strings.Trim(p, "0123456789") != "" {
			return 0, false
		}
		n, _ := strconv.Atoi(p)
		if n > 255 {
			return 0, false
		}
		v = v<<8 | uint32(n)
	}
	return v, true
}

// isInNetEx reports the address ip inside prefix, such as 10.0.0.0/8 or
// fd00::/8; no name is looked up, as in Chrome.
func isInNetEx(ip, prefix string) bool {
	a, err := netip.ParseAddr(ip)
	p, err2 := netip.ParsePrefix(prefix)
	return err == nil && err2 == nil && p.Contains(a.Unmap())
}

// shExpMatch matches s against a shell expression: * any run of
// characters, ? one character, everything else itself.
func shExpMatch(str, pattern string) bool {
	s := []rune(str)
	segs := strings.Split(pattern, "*")
	head := []rune(segs[0])
	if len(segs) == 1 {
		return len(s) == len(head) && runesMatch(s, head)
	}
	if len(s) < len(head) || !runesMatch(s[:len(head)], head) {
		return false
	}
	s = s[len(head):]
	tail := []rune(segs[len(segs)-1])
	if len(s) < len(tail) || !runesMatch(s[len(s)-len(tail):], tail) {
		return false
	}
	s = s[:len(s)-len(tail)]
	// Between the fixed ends each part is found at its leftmost place.
	for _, seg := range segs[1 : len(segs)-1] {
		p := []rune(seg)
		i := 0
		for ; i+len(p) <= len(s) && !runesMatch(s[i:i+len(p)], p); i++ {
		}
		if i+len(p) > len(s) {
			return false
		}
		s = s[i+len(p):]
	}
	return true
}

// runesMatch compares s to p of the same length, ? matching any rune.
func runesMatch(s, p []rune) bool {
	for i, r := range p {
		if r != '?' && r != s[i] {
			return false
		}
	}
	return true
}

// clock is the time for the date helpers: local, or UTC when the last
// argument is "GMT" (which it drops).
func (e pacEnv) clock(args []string) (time.Time, []string) {
	now := e.now()
	if n := len(args); n > 0 && strings.EqualFold(args[n-1], "GMT") {
		return now.UTC(), args[:n-1]
	}
	return now, args
}

var weekdays = map[string]int{"SUN": 0, "MON": 1, "TUE": 2, "WED": 3, "THU": 4, "FRI": 5, "SAT": 6}

var months = map[string]int{"JAN": 1, "FEB": 2, "MAR": 3, "APR": 4, "MAY": 5, "JUN": 6, "JUL": 7, "AUG": 8, "SEP": 9, "OCT": 10, "NOV": 11, "DEC": 12}

// weekdayRange(wd1[, wd2][, "GMT"]): today is wd1, or between wd1 and wd2
// (FRI to MON goes over the weekend).
func (e pacEnv) weekdayRange(args []string) bool {
	now, args := e.clock(args)
	if len(args) < 1 || len(args) > 2 {
		return false
	}
	d1, ok1 := weekdays[strings.ToUpper(args[0])]
	d2, ok2 := d1, true
	if len(args) == 2 {
		d2, ok2 = weekdays[strings.ToUpper(args[1])]
	}
	if !ok1 || !ok2 {
		return false
	}
	return inRange(int(now.Weekday()), d1, d2)
}

// inRange reports lo <= v <= hi, going round (hi < lo: from lo on, or up to hi).
func inRange(v, lo, hi int) bool {
	if lo <= hi {
		return lo <= v && v <= hi
	}
	return v >= lo || v <= hi
}

// timeRange(hour), (h1, h2), (h1, m1, h2, m2) or (h1, m1, s1, h2, m2, s2),
// then "GMT" or not: the ends are inside, and 22 to 6 goes over midnight.
func (e pacEnv) timeRange(args []string) bool {
	now, args := e.clock(args)
	n := make([]int, len(args))
	for i, a := range args {
		v, err := strconv.Atoi(strings.TrimSpace(a))
		if err != nil {
			return false
		}
		n[i] = v
	}
	t := now.Hour()*3600 + now.Minute()*60 + now.Second()
	switch len(n) {
	case 1:
		return now.Hour() == n[0]
	case 2:
		return inRange(t, n[0]*3600, n[1]*3600+3599)
	case 4:
		return inRange(t, n[0]*3600+n[1]*60, n[2]*3600+n[3]*60+59)
	case 6:
		return inRange(t, n[0]*3600+n[1]*60+n[2], n[3]*3600+n[4]*60+n[5])
	}
	return false
}

// date is a day, a month, a year, or some of them (0 where not given).
type date struct{ day, month, year int }

// parseDate reads dateRange's arguments: month names, days (1 to 31) and
// years (beyond), each at most once.
func parseDate(args []string) (date, bool) {
	var d date
	for _, a := range args {
		if m, ok := months[strings.ToUpper(a)]; ok && d.month == 0 {
			d.month = m
			continue
		}
		v, err := strconv.Atoi(strings.TrimSpace(a))
		switch {
		case err != nil || v < 1:
			return d, false
		case v <= 31 && d.day == 0:
			d.day = v
		case v > 31 && d.year == 0:
			d.year = v
		default:
			return d, false
		}
	}
	return d, true
}

// same reports a and b giving the same of day, month and year.
func (d date) same(o date) bool {
	return (d.day == 0) == (o.day == 0) && (d.month == 0) == (o.month == 0) && (d.year == 0) == (o.year == 0)
}

// key orders dates of the same kind; now is cut to d's kind.
func (d date) key() int { return d.year*10000 + d.month*100 + d.day }

func (d date) cut(now time.Time) date {
	c := date{}
	if d.day != 0 {
		c.day = now.Day()
	}
	if d.month != 0 {
		c.month = int(now.Month())
	}
	if d.year != 0 {
		c.year = now.Year()
	}
	return c
}

// dateRange(day | month | year), a date such as (24, "DEC") or
// (1, "JUN", 1995), or a range: (d1, d2), (m1, m2), (y1, y2), (d1, m1,
// d2, m2), (m1, y1, m2, y2), (d1, m1, y1, d2, m2, y2); then "GMT" or not.
// The ends are inside; without years a range may go round the year
// ("DEC", "FEB").
func (e pacEnv) dateRange(args []string) bool {
	now, args := e.clock(args)
	n := len(args)
	if n == 0 || n > 6 {
		return false
	}
	if n%2 == 0 {
		lo, ok1 := parseDate(args[:n/2])
		hi, ok2 := parseDate(args[n/2:])
		if ok1 && ok2 && lo.same(hi) {
			v := lo.cut(now).key()
			if lo.year == 0 {
				return inRange(v, lo.key(), hi.key())
			}
			return lo.key() <= v && v <= hi.key()
		}
		if n != 2 {
			return false
		}
	}
	if n > 3 {
		return false
	}
	d, ok := parseDate(args)
	return ok && d.cut(now) == d
}
