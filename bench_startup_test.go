package main

// Benchmarks of the real binary under Xvfb, each beside a minimal Fyne
// window built from the same module (so the same Fyne, Go and flags):
//
//	BenchmarkStartup            process start → first drawn frame of the agents screen,
//	                            on a first start (cold) and on every start after it
//	BenchmarkMemory10000Agents  RSS after the agents list has loaded all 10,000 agents
//	BenchmarkIdleCPU            CPU time used while the agents screen sits untouched
//
// Each reports the app's figure, the minimal window's figure and their ratio
// app/minimal (target ≤ 1.2 for startup and memory; ≤ 1.0 for idle CPU: an
// app nobody touches must cost no more than a bare window). They reuse the
// end-to-end helpers (e2eTools, e2eBuild, launchXvfb) and skip like the
// end-to-end tests when Xvfb or xdotool is missing; they also need
// ImageMagick's import to see the first frame.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
)

// benchWidth and benchHeight are the window size of both programs, so both
// draw the same number of pixels.
const benchWidth, benchHeight = 1180, 760

// minimalSource is the floor the app is measured against: one label in a
// window the size of the app's (benchWidth × benchHeight), so both draw and
// keep the same number of pixels.
const minimalSource = `package main

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/widget"
)

func main() {
	a := app.New()
	w := a.NewWindow("Minimal")
	w.SetContent(widget.NewLabel("hi"))
	w.Resize(fyne.NewSize(1180, 760))
	w.ShowAndRun()
}
`

var (
	minimalOnce sync.Once
	minimalBin  string
	minimalErr  error
)

// benchTools skips when a tool the benchmarks need is missing.
func benchTools(b *testing.B) {
	b.Helper()
	e2eTools(b)
	if _, err := exec.LookPath("import"); err != nil {
		b.Skip("the benchmark needs ImageMagick's import to see the first frame (Debian: apt-get install imagemagick)")
	}
}

// minimalBuild builds the minimal window once per run. Its source goes in a
// "_"-prefixed folder inside the module (ignored by ./... patterns), so the
// build uses the module's go.mod and Fyne; the folder is removed at once.
func minimalBuild(b *testing.B) string {
	b.Helper()
	e2eBuild(b) // the binary goes in its folder, removed by TestMain
	minimalOnce.Do(func() {
		src, err := os.MkdirTemp(".", "_bench_minimal_")
		if err != nil {
			minimalErr = err
			return
		}
		defer os.RemoveAll(src)
		if err = os.WriteFile(filepath.Join(src, "main.go"), []byte(minimalSource), 0o644); err != nil {
			minimalErr = err
			return
		}
		minimalBin = filepath.Join(e2eBuildDir, "minimal")
		cmd := exec.Command("go", "build", "-o", minimalBin, ".")
		cmd.Dir = src
		cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			minimalErr = fmt.Errorf("go build of the minimal window: %v\n%s", err, out)
		}
	})
	if minimalErr != nil {
		b.Fatal(minimalErr)
	}
	return minimalBin
}

var (
	benchDisplayOnce sync.Once
	benchDisplayName string
	benchXvfb        *exec.Cmd // stopped by TestMain
	benchDisplayErr  error
)

// benchDisplay is one virtual display for every benchmark of the run (the
// framework calls a benchmark several times, b.N = 1 then the real N), so
// that starting X servers is not part of what they measure.
func benchDisplay(b *testing.B) string {
	b.Helper()
	benchDisplayOnce.Do(func() {
		benchXvfb, benchDisplayName, benchDisplayErr = launchXvfb()
	})
	if benchDisplayErr != nil {
		b.Fatal(benchDisplayErr)
	}
	return benchDisplayName
}

// benchHome makes fresh XDG folders with settings.json (onboarded, so the
// agents screen shows first) and returns the environment to start in.
func benchHome(b *testing.B, display string, change func(*storage.Settings)) []string {
	b.Helper()
	env, _ := freshHome(b, display, benchWidth, benchHeight, change)
	return env
}

// benchProc is one started program.
type benchProc struct {
	cmd   *exec.Cmd
	env   []string
	start time.Time
	log   *lockedBuffer
	win   string
}

// launch starts bin and notes the moment just before the exec.
func launch(b *testing.B, bin string, env []string) *benchProc {
	b.Helper()
	p := &benchProc{cmd: exec.Command(bin), env: env, log: &lockedBuffer{}}
	p.cmd.Env = env
	p.cmd.Stdout, p.cmd.Stderr = p.log, p.log
	p.start = time.Now()
	if err := p.cmd.Start(); err != nil {
		b.Fatal(err)
	}
	return p
}

// firstFrame waits until a visible window whose title matches name exists
// and its content is drawn (the captured pixels are not all one colour;
// before the first frame the window is uniformly black), and returns the
// time from launch.
func (p *benchProc) firstFrame(b *testing.B, name string) time.Duration {
	b.Helper()
	deadline := p.start.Add(60 * time.Second)
	for p.win == "" {
		out, err := p.run("xdotool", "search", "--onlyvisible", "--name", name)
		if err == nil {
			if f := strings.Fields(string(out)); len(f) > 0 {
				p.win = f[0]
				break
			}
		}
		p.check(b, deadline, "the "+name+" window")
		time.Sleep(10 * time.Millisecond)
	}
	for {
		// Raw RGB, no header: uniform means every pixel equals the first.
		out, err := p.run("import", "-silent", "-window", p.win, "-depth", "8", "rgb:-")
		if err == nil && len(out) >= 6 && !uniform(out) {
			return time.Since(p.start)
		}
		p.check(b, deadline, "the first frame of "+name)
		time.Sleep(10 * time.Millisecond)
	}
}

func uniform(rgb []byte) bool {
	for i := 3; i+2 < len(rgb); i += 3 {
		if rgb[i] != rgb[0] || rgb[i+1] != rgb[1] || rgb[i+2] != rgb[2] {
			return false
		}
	}
	return true
}

func (p *benchProc) run(name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = p.env
	return cmd.Output()
}

func (p *benchProc) check(b *testing.B, deadline time.Time, what string) {
	b.Helper()
	if time.Now().After(deadline) {
		p.stop()
		b.Fatalf("gave up waiting for %s; output:\n%s", what, p.log)
	}
}

// rssMB is the process's resident set (VmRSS) in MiB.
func (p *benchProc) rssMB(b *testing.B) float64 {
	b.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, err := strconv.ParseFloat(f[1], 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb / 1024
		}
	}
	b.Fatal("no VmRSS in /proc status")
	return 0
}

// stop interrupts the program and kills it if it lingers.
func (p *benchProc) stop() {
	if p.cmd.Process == nil || p.cmd.ProcessState != nil {
		return
	}
	stopProcess(p.cmd, os.Interrupt)
}

// BenchmarkStartup measures, for the real binary in demo mode, the time
// from process start until the first drawn frame of the agents screen
// (window visible and its pixels no longer uniform), beside a minimal Fyne
// window measured the same way.
//
// Each program is launched twice in a fresh home: the first launch is the
// first start on a new machine (cold-*: no font index, and Mesa's software
// renderer compiles every shader variant the frame uses, 10–45 ms each);
// the second, in the same home, is every start after it (app-ms,
// minimal-ms, ratio), with those caches filled as a user's are. ns/op is
// the app's second start.
func BenchmarkStartup(b *testing.B) {
	benchTools(b)
	bin := e2eBuild(b)
	minimal := minimalBuild(b)
	display := benchDisplay(b)

	// twice launches a program two times in one fresh home and returns the
	// times to the first frame of the first and the second launch.
	twice := func(bin, name string, timed bool) (first, again time.Duration) {
		env := benchHome(b, display, nil)
		p := launch(b, bin, env)
		first = p.firstFrame(b, name)
		p.stop()
		if timed {
			b.StartTimer()
		}
		p = launch(b, bin, env)
		again = p.firstFrame(b, name)
		b.StopTimer()
		p.stop()
		return first, again
	}

	var appCold, appWarm, minCold, minWarm time.Duration
	b.ResetTimer()
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		cold, warm := twice(bin, "Agent Desk", true)
		appCold, appWarm = appCold+cold, appWarm+warm
		cold, warm = twice(minimal, "^Minimal$", false)
		minCold, minWarm = minCold+cold, minWarm+warm
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
	b.ReportMetric(ms(appWarm), "app-ms")
	b.ReportMetric(ms(minWarm), "minimal-ms")
	b.ReportMetric(ms(appWarm)/ms(minWarm), "ratio")
	b.ReportMetric(ms(appCold), "cold-app-ms")
	b.ReportMetric(ms(minCold), "cold-minimal-ms")
	b.ReportMetric(ms(appCold)/ms(minCold), "cold-ratio")
}

// agentCounter serves the demo service and notes how far the agent list
// was paged.
type agentCounter struct {
	h        http.Handler
	mu       sync.Mutex
	requests int
	served   int // agents handed out so far (highest page × per_page, capped by total)
	total    int
	lastPage time.Time
}

func (c *agentCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet || r.URL.Path != "/agents" || r.URL.Query().Get("q") != "" || r.URL.Query().Get("type") != "" {
		c.h.ServeHTTP(w, r)
		return
	}
	rec := &recorder{ResponseWriter: w}
	c.h.ServeHTTP(rec, r)
	var env struct {
		To    *int `json:"to"`
		Total int  `json:"total"`
	}
	if json.Unmarshal(rec.body.Bytes(), &env) == nil {
		c.mu.Lock()
		c.requests++
		c.total = env.Total
		if env.To != nil && *env.To > c.served {
			c.served = *env.To
		}
		c.lastPage = time.Now()
		c.mu.Unlock()
	}
}

func (c *agentCounter) state() (requests, served, total int, last time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.requests, c.served, c.total, c.lastPage
}

// recorder keeps a copy of the body it passes on.
type recorder struct {
	http.ResponseWriter
	body bytes.Buffer
}

func (r *recorder) Write(p []byte) (int, error) {
	r.body.Write(p)
	return r.ResponseWriter.Write(p)
}

// agentCount is how many agents the benchmark account has.
const agentCount = 10000

// BenchmarkMemory10000Agents measures the RSS of the real binary once its
// agents list has loaded all 10,000 agents of an account (the list pages in
// as its end scrolls into view; the benchmark turns the mouse wheel over it
// until the service has handed out every agent), beside the RSS of a
// minimal Fyne window after its first frame. It also reports the app's RSS
// with only the first page loaded (app-first-page-MB), to tell the cost of
// the 10,000 from the app's floor. ns/op is the time from launch until the
// service has handed out all 10,000.
func BenchmarkMemory10000Agents(b *testing.B) {
	benchTools(b)
	bin := e2eBuild(b)
	minimal := minimalBuild(b)
	display := benchDisplay(b)

	// How many agents the seeded catalogue already puts in the first
	// workspace, so the account has exactly agentCount.
	base := seededAgents(b)

	var appRSS, firstRSS, minRSS float64
	var requests int
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		svc := demoservice.New(demoservice.Options{APIKey: "k", ExtraAgents: agentCount - base})
		counter := &agentCounter{h: svc}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		srv := &http.Server{Handler: counter, ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = srv.Serve(ln) }()
		env := benchHome(b, display, func(s *storage.Settings) {
			s.PutAccount(storage.Account{ID: "bench", Name: "Bench", BaseURL: "http://" + ln.Addr().String(), KeyStore: "env"})
			s.ActiveAccount = "bench"
		})
		env = append(env, storage.EnvAPIKey+"=k")
		b.StartTimer()

		p := launch(b, bin, env)
		p.firstFrame(b, "Agent Desk")
		b.StopTimer()
		time.Sleep(2 * time.Second) // the first page is in and drawn
		firstRSS += p.rssMB(b)
		b.StartTimer()
		requests += p.pageThrough(b, counter)
		b.StopTimer()
		time.Sleep(2 * time.Second) // let the last page render and settle
		appRSS += p.rssMB(b)
		if _, served, total, _ := counter.state(); served != agentCount || total != agentCount {
			b.Fatalf("the service handed out %d of %d agents, want %d", served, total, agentCount)
		}
		p.stop()
		_ = srv.Close()
		_ = svc.Close()

		m := launch(b, minimal, benchHome(b, display, nil))
		m.firstFrame(b, "^Minimal$")
		time.Sleep(2 * time.Second)
		minRSS += m.rssMB(b)
		m.stop()
		b.StartTimer()
	}
	appMB := appRSS / float64(b.N)
	minMB := minRSS / float64(b.N)
	b.ReportMetric(appMB, "app-MB")
	b.ReportMetric(minMB, "minimal-MB")
	b.ReportMetric(appMB/minMB, "ratio")
	b.ReportMetric(firstRSS/float64(b.N), "app-first-page-MB")
	b.ReportMetric(float64(requests)/float64(b.N), "list-requests")
}

// seededAgents asks a plain demo service how many agents its first
// workspace lists.
func seededAgents(b *testing.B) int {
	b.Helper()
	svc := demoservice.New(demoservice.Options{APIKey: "k"})
	defer svc.Close()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/agents?per_page=1", nil)
	req.Header.Set("Authorization", "Bearer k")
	svc.ServeHTTP(rec, req)
	var env struct{ Total int }
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil || rec.Code != http.StatusOK || env.Total == 0 {
		b.Fatalf("counting the seeded agents: %d %v %s", rec.Code, err, rec.Body)
	}
	return env.Total
}

// pageThrough turns the mouse wheel over the agents list until the service
// has handed out every agent, and returns how many list requests it served.
func (p *benchProc) pageThrough(b *testing.B, c *agentCounter) int {
	b.Helper()
	run := func(args ...string) {
		if out, err := p.run("xdotool", args...); err != nil {
			p.stop()
			b.Fatalf("xdotool %v: %v\n%s", args, err, out)
		}
	}
	run("windowmove", p.win, "0", "0")
	// The middle of the list, left of the window's centre (see e2e_test.go).
	// The pointer moves there from elsewhere: the display is shared by the
	// whole run, so it may already rest on that spot from an earlier round,
	// and a pointer that does not move tells the new window nothing.
	run("mousemove", "--window", p.win, "10", "10")
	run("mousemove", "--window", p.win, "290", "450")
	stalled := time.Now().Add(60 * time.Second)
	for {
		requests, served, total, _ := c.state()
		if total > 0 && served >= total {
			return requests
		}
		run("click", "--repeat", "200", "--delay", "1", "5")
		if _, s, _, _ := c.state(); s > served {
			stalled = time.Now().Add(60 * time.Second)
		} else if time.Now().After(stalled) {
			p.stop()
			b.Fatalf("paging stopped at %d of %d agents; output:\n%s", served, total, p.log)
		}
	}
}

// idleSeconds is how long BenchmarkIdleCPU watches each program sit
// untouched: long enough that timers firing every few seconds or every
// minute show, and that the 10 ms resolution of the kernel's CPU accounting
// is small beside the total. AGENTDESK_IDLE_SECONDS shortens it for a quick
// try.
const idleSeconds = 60

// idleSettle is the wait after the first frame before the idle period
// starts, so that loading the first page, laying it out and the fonts and
// shaders of the first frames are not counted as idling.
const idleSettle = 3 * time.Second

// clockTicks is the kernel's USER_HZ, the unit of utime and stime in
// /proc/PID/stat (sysconf(_SC_CLK_TCK)); it is 100 on every Linux
// architecture Go supports.
const clockTicks = 100

// idlePeriod is idleSeconds, or AGENTDESK_IDLE_SECONDS when set.
func idlePeriod(b *testing.B) time.Duration {
	b.Helper()
	v := os.Getenv("AGENTDESK_IDLE_SECONDS")
	if v == "" {
		return idleSeconds * time.Second
	}
	s, err := strconv.ParseFloat(v, 64)
	if err != nil || s <= 0 {
		b.Fatalf("AGENTDESK_IDLE_SECONDS=%q: want a positive number of seconds", v)
	}
	return time.Duration(s * float64(time.Second))
}

// cpuTicks is the CPU time the program has used so far, all its threads
// together (utime + stime of /proc/PID/stat), in clock ticks.
func (p *benchProc) cpuTicks(b *testing.B) int64 {
	b.Helper()
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.cmd.Process.Pid))
	if err != nil {
		p.stop()
		b.Fatalf("the program exited while idle? %v; output:\n%s", err, p.log)
	}
	// The command name (field 2) is in parentheses and may hold spaces;
	// the fields after its closing parenthesis start at field 3 (state),
	// so utime (14) and stime (15) are the 12th and 13th.
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(f) < 13 {
		b.Fatalf("short /proc stat: %q", stat)
	}
	var ticks int64
	for _, s := range f[11:13] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			b.Fatalf("/proc stat: %v", err)
		}
		ticks += n
	}
	return ticks
}

// idleCPU launches bin in a fresh home, waits for its first frame and the
// settle time, and returns the CPU ticks it used over the idle period and
// the period's actual length. When timed, the idle period is what the
// benchmark's timer measures.
func idleCPU(b *testing.B, bin, name, display string, period time.Duration, timed bool) (ticks int64, wall time.Duration) {
	b.Helper()
	p := launch(b, bin, benchHome(b, display, nil))
	defer p.stop()
	p.firstFrame(b, name)
	time.Sleep(idleSettle)
	if timed {
		b.StartTimer()
	}
	start, t0 := time.Now(), p.cpuTicks(b)
	time.Sleep(period)
	t1, wall := p.cpuTicks(b), time.Since(start)
	b.StopTimer()
	return t1 - t0, wall
}

// BenchmarkIdleCPU measures the CPU the real binary uses while nobody
// touches it: the built-in demo, onboarded, on the agents screen, after its
// first frame and a settle time, watched for idleSeconds. The minimal Fyne
// window is measured the same way, the two taking turns round by round so
// both meet the same machine. Reported as a percentage of one core
// (app-cpu-%, minimal-cpu-%) and their ratio app/minimal (target ≤ 1.0).
// ns/op is the length of the app's idle period.
//
// The pointer rests in a corner of the screen, off both windows, and does
// not move, so no hover effect differs between the programs or the rounds.
func BenchmarkIdleCPU(b *testing.B) {
	benchTools(b)
	bin := e2eBuild(b)
	minimal := minimalBuild(b)
	display := benchDisplay(b)
	period := idlePeriod(b)

	// The bottom-right pixel of launchXvfb's 1280×800 screen; the windows
	// open at its top left.
	park := exec.Command("xdotool", "mousemove", "1279", "799")
	park.Env = append(os.Environ(), "DISPLAY="+display)
	if out, err := park.CombinedOutput(); err != nil {
		b.Fatalf("xdotool mousemove: %v\n%s", err, out)
	}

	var appTicks, minTicks int64
	var appWall, minWall time.Duration
	b.ResetTimer()
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		t, w := idleCPU(b, bin, "Agent Desk", display, period, true)
		appTicks, appWall = appTicks+t, appWall+w
		t, w = idleCPU(b, minimal, "^Minimal$", display, period, false)
		minTicks, minWall = minTicks+t, minWall+w
	}
	pct := func(ticks int64, wall time.Duration) float64 {
		return float64(ticks) / clockTicks / wall.Seconds() * 100
	}
	appPct, minPct := pct(appTicks, appWall), pct(minTicks, minWall)
	b.ReportMetric(appPct, "app-cpu-%")
	b.ReportMetric(minPct, "minimal-cpu-%")
	// A window that used less than one tick over the whole period still
	// cost something; one tick, the resolution, keeps the ratio finite.
	b.ReportMetric(appPct/pct(max(minTicks, 1), minWall), "ratio")
}
