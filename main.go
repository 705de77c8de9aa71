// Command agentdesk is Agent Desk, a desktop app for running the AI agents
// of an Agent Execution Service account.
//
//	agentdesk                     open the window (the built-in demo when no account is set up)
//	agentdesk --serve-demo ADDR   run only the built-in service on ADDR, for trying the API with curl
//	    --demo-api real|spec      the reading it follows: the deployed service (default) or the interface as first described
//	    --demo-seed standard|odd  its agents: the usual ones (default), or those followed by odd ones (long, CJK,
//	                              right-to-left, emoji and HTML titles, every question type, inactive, private)
//	    --demo-faults JSON        make it misbehave from the start, for trying Agent Desk against a faulty server:
//	                              demoservice.Faults as JSON, e.g. '{"MalformedEventAt":3}' or '{"HTML500":2}'
package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"sync"
	"syscall"
	"time"

	fyneapp "fyne.io/fyne/v2/app"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
	"github.com/agentdesk/agentdesk/views"
	"github.com/agentdesk/agentdesk/views/displaylost"
	"github.com/agentdesk/agentdesk/views/kit/richtext"
)

// startupGCPercent is the collector's target while the window opens.
const startupGCPercent = 400

// demoPace is how fast the demo streams: like a real model, not boring.
const demoPace = 25 * time.Millisecond

// version is FyneApp.toml's, set by make (-ldflags -X main.version=…):
// Fyne's metadata says 0.0.1 unless its own tool built the program.
var version string

func main() {
	serveDemo := flag.String("serve-demo", "", "run only the built-in service on `ADDR` (for example 127.0.0.1:8787)")
	demoAPI := flag.String("demo-api", demoservice.APIReal, "the reading the built-in demo follows (in the window and with --serve-demo): `real` (the deployed service) or spec (the interface as first described)")
	demoSeed := flag.String("demo-seed", demoservice.SeedStandard, "the agents the built-in demo holds (in the window and with --serve-demo): `standard`, or odd (the usual agents followed by odd ones, for trying layouts and forms)")
	demoLanguage := flag.String("demo-language", "en", "the language the built-in demo's agents and replies speak with --serve-demo: `en`, pt-BR or es (in the window it speaks Agent Desk's)")
	demoFaults := flag.String("demo-faults", "", "make the built-in demo misbehave from the start (in the window and with --serve-demo): its faults as `JSON`, for example '{\"MalformedEventAt\":3}'")
	statsEvery := flag.Duration("stats-every", 0, "write the Go heap in use and the goroutines to standard error every `DURATION` (for example 1m), to watch memory over a day")
	statsProfiles := flag.String("stats-profiles", "", "with --stats-every, also write the Go heap's profile at each reading to `DIR` (heap-1.pb.gz, heap-2.pb.gz, …), to find what grows")
	flag.Parse()
	var faults demoservice.Faults
	if *demoFaults != "" {
		if err := json.Unmarshal([]byte(*demoFaults), &faults); err != nil {
			fmt.Fprintf(os.Stderr, "agentdesk: --demo-faults: %v\n", err)
			os.Exit(2)
		}
	}

	if err := demoservice.SetDefaultSeed(*demoSeed); err != nil {
		fmt.Fprintf(os.Stderr, "agentdesk: --demo-seed %q: want standard or odd\n", *demoSeed)
		os.Exit(2)
	}

	if *demoAPI != demoservice.APIReal && *demoAPI != demoservice.APISpec {
		fmt.Fprintf(os.Stderr, "agentdesk: --demo-api %q: want real or spec\n", *demoAPI)
		os.Exit(2)
	}

	if *serveDemo != "" {
		if err := runDemoService(*serveDemo, *demoAPI, *demoSeed, *demoLanguage, faults); err != nil {
			fmt.Fprintln(os.Stderr, "agentdesk:", err)
			os.Exit(1)
		}
		return
	}

	// Start-up garbage (font tables) is dead a moment later; collecting it
	// before the first frame only delays that frame.
	gc := debug.SetGCPercent(startupGCPercent)
	fa := fyneapp.NewWithID("com.agentdesk.app")
	// Fyne keeps one OnStarted callback per app: this is it. After the first
	// frame, return start-up garbage to the system at once.
	fa.Lifecycle().SetOnStarted(func() {
		debug.SetGCPercent(gc)
		time.AfterFunc(2*time.Second, debug.FreeOSMemory)
	})
	fonts := views.Preload() // the fonts load while the app opens its storage
	startDemo := func(key string) (app.DemoServer, error) {
		// The demo speaks as Agent Desk does: staff train on it in their language.
		return demoservice.Listen("127.0.0.1:0", demoservice.Options{APIKey: key, Pace: demoPace, API: *demoAPI, Faults: faults, Language: app.LanguageInUse()})
	}
	a, err := app.Open(context.Background(), app.Config{Paths: storage.DefaultPaths(), StartDemo: startDemo, Version: cmp.Or(version, fa.Metadata().Version), PlainText: richtext.ReplyText, Speak: true, PolicyFile: storage.DefaultPolicyFile(runtime.GOOS), PolicyRegistry: policyRegistry(runtime.GOOS)})
	if err != nil {
		fmt.Fprintln(os.Stderr, "agentdesk:", err)
		os.Exit(1)
	}
	win := views.NewMainWindow(fa, a, fonts, endPromptly(a))
	if *statsEvery > 0 {
		go writeStats(os.Stderr, *statsEvery, *statsProfiles)
	}
	win.ShowAndRun()
	closeWithin(a, closeLimit)
	if views.RestartAsked() {
		startAgain()
	}
}

// startAgain restarts Agent Desk with the same arguments and environment,
// once: the end of main and the close watchdog may both come to it.
func startAgain() { startedAgain.Do(start) }

var startedAgain sync.Once

func start() {
	exe, err := os.Executable()
	if err == nil {
		cmd := exec.Command(exe, os.Args[1:]...)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		err = cmd.Start()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "agentdesk: could not start again; start Agent Desk yourself:", err)
	}
}

// closeLimit bounds the wait for background work after the window closes:
// typed text is saved first, and a lingering process would block the next
// update or install (the Windows setup ends one after 15 s). With the
// window loop's own end, closing takes under endLimit.
const closeLimit = 1500 * time.Millisecond

// endLimit is how long after SIGTERM, Ctrl+C or the window's close the
// program ends, whatever the window loop is doing.
const endLimit = 2 * time.Second

// endPromptly saves what was typed at once when the program is asked to
// end, or when its display goes away, and ends it within endLimit. Fyne's
// own handler of the signal asks the window loop to quit, and closing
// follows; this does not wait for a loop that may be stuck. It returns
// what the window calls once it closed (drafts written): the same limit,
// after which Agent Desk ends as if it had closed (starting again if the
// user asked to).
func endPromptly(a *app.App) (closed func()) {
	save := func() {
		saved := make(chan struct{})
		go func() {
			if err := a.FlushDrafts(); err != nil {
				fmt.Fprintln(os.Stderr, "agentdesk: a draft could not be saved:", app.Describe(err))
			}
			close(saved)
		}()
		select {
		case <-saved:
		case <-time.After(endLimit):
		}
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		time.AfterFunc(endLimit, func() {
			fmt.Fprintf(os.Stderr, "agentdesk: did not close within %v of being asked; ending now, drafts saved\n", endLimit)
			os.Exit(1)
		})
		save()
	}()
	displaylost.OnLost(save)
	return func() {
		time.AfterFunc(endLimit, func() {
			fmt.Fprintf(os.Stderr, "agentdesk: the window closed but the program did not end within %v; ending now, drafts saved\n", endLimit)
			if views.RestartAsked() {
				startAgain()
			}
			os.Exit(0)
		})
	}
}

func closeWithin(a *app.App, limit time.Duration) {
	done := make(chan struct{})
	go func() {
		_ = a.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(limit):
		fmt.Fprintf(os.Stderr, "agentdesk: background work did not end within %v of closing; quitting without it\n", limit)
	}
}

// writeStats writes a line of the program's memory every period, for the
// soak (make soak) to read beside the RSS.
func writeStats(w io.Writer, period time.Duration, profiles string) {
	// The live heap is as the last collection found it: nothing is collected for the reading.
	read := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
	n := 0
	for range time.Tick(period) {
		n++
		metrics.Read(read)
		profile := ""
		if profiles != "" {
			profile = writeHeapProfile(filepath.Join(profiles, fmt.Sprintf("heap-%d.pb.gz", n)))
		}
		fmt.Fprintf(w, "agentdesk-stats heap_inuse_mb=%.1f heap_live_mb=%.1f goroutines=%d%s\n",
			float64(read[0].Value.Uint64())/(1<<20), float64(read[1].Value.Uint64())/(1<<20), runtime.NumGoroutine(), profile)
	}
}

// writeHeapProfile writes the heap's profile (as of the last collection) to
// path: " profile=PATH" for the stats line, or why it could not.
func writeHeapProfile(path string) string {
	f, err := os.Create(path)
	if err == nil {
		err = pprof.WriteHeapProfile(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Sprintf(" profile_error=%q", err.Error())
	}
	return " profile=" + path
}

// runDemoService serves the built-in service until interrupted, printing what
// curl needs; the real reading is paced like the deployed service.
func runDemoService(addr, api, seed, language string, faults demoservice.Faults) error {
	key := cmp.Or(os.Getenv("AGENTDESK_DEMO_KEY"), defaultDemoKey)
	addr, err := demoListenAddr(addr, key)
	if err != nil {
		return err
	}
	opts := demoservice.Options{API: api, APIKey: key, Pace: demoPace, Seed: seed, Faults: faults, Language: language}
	var reading string
	switch api {
	case demoservice.APIReal:
		opts.RatePerSecond, opts.Burst = 1, 10
		reading = "real (the deployed service; paced at 1 request/s per key, bursts of 10)"
	case demoservice.APISpec:
		reading = "spec (the interface as first described)"
	}
	srv, err := demoservice.Listen(addr, opts)
	if err != nil {
		return err
	}
	defer srv.Close()
	agents := "standard"
	if seed == demoservice.SeedOdd {
		agents = fmt.Sprintf("odd (the usual agents, then odd ones from id %d)", demoservice.OddFirstID)
	}
	fmt.Printf("Agent Desk demo service\n  base URL: %s\n  API key:  %s\n  reading:  %s\n  agents:   %s\n\nTry: curl -H 'Authorization: Bearer %s' %s/agents\nStop with Ctrl+C.\n",
		srv.URL(), key, reading, agents, key, srv.URL())
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	return nil
}

// defaultDemoKey is known to anyone, so only this computer may use it.
const defaultDemoKey = "demo"

// demoListenAddr: a hostless address is this computer only; another host may
// listen only with the user's own AGENTDESK_DEMO_KEY, never the default.
func demoListenAddr(addr, key string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--serve-demo %q: want HOST:PORT, for example 127.0.0.1:8787", addr)
	}
	if host == "" || host == "localhost" {
		return net.JoinHostPort("127.0.0.1", port), nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return addr, nil
	}
	if key == defaultDemoKey {
		return "", fmt.Errorf("--serve-demo %s would let other computers in with the well-known key %q: set AGENTDESK_DEMO_KEY to a key of your own, or listen on 127.0.0.1", addr, defaultDemoKey)
	}
	return addr, nil
}

// policyRegistry is where Windows keeps the organisation's policy, read
// before its file.
func policyRegistry(goos string) string {
	if goos == "windows" {
		return storage.PolicyRegistryKey
	}
	return ""
}
