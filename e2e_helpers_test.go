package main

// End-to-end helpers: build the real binary once, start it under its own
// Xvfb display with fresh XDG folders, drive it with xdotool, and read what
// it stored. Flows live in e2e_*_test.go files; each starts with
//
//	e := startE2E(t, nil)
//
// and then clicks, types and waits. A step never waits on the clock: it
// waits for what it set off to be there (the window, a row in the history,
// a file the app wrote, a button turned blue, the screen changed and drawn
// whole), and the deadline (e2eWait) only guards against a hang.

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/storage"
)

// e2eWait is how long one step may take before a test gives up: a busy
// machine gets two minutes; a step that works takes far less.
const e2eWait = 2 * time.Minute

// e2ePoll is how often a wait looks again.
const e2ePoll = 100 * time.Millisecond

// stillShots is how many captures in a row must be the same for the
// screen to count as drawn whole: a loading bar or a streaming reply
// changes between two of them.
const stillShots = 3

// stillFor is how long the captures must stay the same besides: an app
// busy for a moment (a dialog closing, the focus moving on) draws nothing
// new for a few frames without being done.
const stillFor = 800 * time.Millisecond

// railWidth is the navigation's width in English; the agents screen gives
// listShare of the rest to its list, the agent's detail the remainder.
const (
	railWidth = 123
	listShare = 0.36
)

var (
	e2eBuildOnce sync.Once
	e2eBinary    string
	e2eBuildErr  error
	e2eBuildDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if benchXvfb != nil {
		stopProcess(benchXvfb, syscall.SIGTERM)
	}
	if e2eBuildDir != "" {
		_ = os.RemoveAll(e2eBuildDir)
	}
	os.Exit(code)
}

// e2eTools skips the test when the virtual display, xdotool or
// ImageMagick's import (the tests look at the screen) is missing.
func e2eTools(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end tests do not run with -short")
	}
	for _, tool := range []string{"Xvfb", "xdotool", "import"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("end-to-end test needs %s, which is not installed (Debian: apt-get install xvfb xdotool imagemagick)", tool)
		}
	}
}

// e2eBuild builds the real app once per go test run (without the ci tag,
// so it opens a real window).
func e2eBuild(t testing.TB) string {
	t.Helper()
	e2eBuildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "agentdesk-e2e-bin-")
		if err != nil {
			e2eBuildErr = err
			return
		}
		e2eBuildDir = dir
		bin := filepath.Join(dir, "agentdesk")
		cmd := exec.Command("go", "build", "-o", bin, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			e2eBuildErr = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		e2eBinary = bin
	})
	if e2eBuildErr != nil {
		t.Fatal(e2eBuildErr)
	}
	return e2eBinary
}

// E2E is one running Agent Desk under its own virtual display.
type E2E struct {
	t       testing.TB
	Display string
	// Paths are the app's folders inside the test's temp dir.
	Paths storage.Paths
	// Out is where screenshots are kept: $AGENTDESK_E2E_OUT, else a temp dir.
	Out    string
	Window string // the X window id
	// W and H are the window's size, read from the display once it shows.
	W, H int
	// StillFor, when set, is how long WaitStill wants the window unchanged
	// instead of stillFor: a soak of many steps asks less of each.
	StillFor time.Duration
	env      []string
	app      *exec.Cmd
	xvfb     *exec.Cmd // the display's server
	log      *lockedBuffer
	// screen reads the display for Shot, opened at the first one.
	screen interface {
		Capture(w, h int) ([]byte, error)
		Close()
	}
}

// lockedBuffer collects the app's output while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startE2E starts Xvfb and the app with fresh XDG folders. The welcome
// screen is skipped (onboarded); change may adjust the settings first (for
// example remembered answers).
func startE2E(t testing.TB, change func(*storage.Settings)) *E2E {
	t.Helper()
	return startE2EWith(t, change, nil)
}

// e2eAccount is the account the end-to-end tests sign in to a test service
// with, its key e2eKey read from the environment.
const e2eAccount, e2eKey = "e2e", "e2e-key"

// startE2EOn is startE2E with a test service at url as the active account;
// more may adjust the settings further.
func startE2EOn(t testing.TB, url string, more func(*storage.Settings)) *E2E {
	t.Helper()
	t.Setenv(storage.EnvAPIKey, e2eKey)
	return startE2E(t, func(s *storage.Settings) {
		s.PutAccount(storage.Account{ID: e2eAccount, Name: "Test service", BaseURL: url, KeyStore: storage.KeyInEnv})
		s.ActiveAccount = e2eAccount
		if more != nil {
			more(s)
		}
	})
}

// startE2EWith is startE2E that lets prepare write to the fresh folders
// (the history, say) before the app starts.
func startE2EWith(t testing.TB, change func(*storage.Settings), prepare func(storage.Paths)) *E2E {
	t.Helper()
	e2eTools(t)
	e2eBuild(t)

	display, xvfb := startXvfb(t)
	env, paths := freshHome(t, display, 1180, 760, change)
	stillCursor(t, paths)
	if prepare != nil {
		prepare(paths)
	}

	out := os.Getenv("AGENTDESK_E2E_OUT")
	if out == "" {
		out = t.TempDir()
	} else if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}

	e := &E2E{t: t, Paths: paths, Out: out, log: &lockedBuffer{}, Display: display, env: env, xvfb: xvfb}

	t.Cleanup(e.Quit)
	e.launch()
	return e
}

// launch starts Agent Desk on e's display and folders and waits until its
// window shows, drawn, at the display's top left. AGENTDESK_E2E_ARGS
// starts it with arguments, to look at it (--demo-seed odd: long,
// right-to-left and CJK titles).
func (e *E2E) launch() {
	e.t.Helper()
	e.app = exec.Command(e2eBuild(e.t), strings.Fields(os.Getenv("AGENTDESK_E2E_ARGS"))...)
	e.app.Env = e.env
	e.app.Stdout, e.app.Stderr = e.log, e.log
	if err := e.app.Start(); err != nil {
		e.t.Fatal(err)
	}
	// The window of this process: a window of the one before it may
	// linger a moment after it ended, under the same id.
	pid := strconv.Itoa(e.app.Process.Pid)
	e.WaitFor("the Agent Desk window", func() bool {
		out, err := e.output("xdotool", "search", "--onlyvisible", "--pid", pid, "--name", "Agent Desk")
		if w := strings.Fields(string(out)); err == nil && len(w) > 0 {
			e.Window = w[0]
			return true
		}
		return false
	})
	e.xdo("windowmove", e.Window, "0", "0")
	e.WaitFor("the window drawn at the top left", func() bool {
		out, err := e.output("xdotool", "getwindowgeometry", "--shell", e.Window)
		if err != nil {
			return false
		}
		g := map[string]int{}
		for _, l := range strings.Fields(string(out)) {
			if k, v, ok := strings.Cut(l, "="); ok {
				g[k], _ = strconv.Atoi(v)
			}
		}
		if g["X"] != 0 || g["Y"] != 0 || g["WIDTH"] == 0 || g["HEIGHT"] == 0 {
			return false
		}
		e.W, e.H = g["WIDTH"], g["HEIGHT"]
		// Before its first frame the window is all one colour.
		img := e.Shot()
		return img != nil && !uniformIn(img, image.Rect(0, 0, e.W, e.H))
	})
}

// startXvfb starts a virtual display on a free number and returns its name
// and server.
func startXvfb(t testing.TB) (string, *exec.Cmd) {
	t.Helper()
	cmd, display, err := launchXvfb()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopProcess(cmd, syscall.SIGTERM) })
	return display, cmd
}

// launchXvfb starts a virtual display. Xvfb picks a free display itself
// (-displayfd) and clears locks left by servers that died; stopped with
// SIGTERM it removes its own, so runs on one machine never use the
// displays up. -noreset: by default an X server resets when its last
// client leaves, and refuses connections meanwhile, so a program started
// right after the previous one quit could not open the display.
func launchXvfb() (*exec.Cmd, string, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, "", err
	}
	defer r.Close()
	// AGENTDESK_E2E_SCREEN sets a bigger screen to look at large windows
	// (1920x1080x24); the tests run on 1280x800.
	screen := os.Getenv("AGENTDESK_E2E_SCREEN")
	if screen == "" {
		screen = "1280x800x24"
	}
	// No key repeats: on a busy machine xdotool may be held up between a
	// key's press and its release, long enough for the server to repeat
	// the key ("mooove").
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", screen, "-nolisten", "tcp", "-noreset", "-r", "-ardelay", "60000")
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		w.Close()
		return nil, "", err
	}
	w.Close()
	line, err := bufio.NewReader(r).ReadString('\n')
	n, convErr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || convErr != nil {
		stopProcess(cmd, syscall.SIGTERM)
		return nil, "", fmt.Errorf("Xvfb did not start a display (%v %v)", err, convErr)
	}
	return cmd, ":" + strconv.Itoa(n), nil
}

// xdo runs xdotool on the test's display.
func (e *E2E) xdo(args ...string) {
	e.t.Helper()
	cmd := exec.Command("xdotool", args...)
	cmd.Env = e.env
	if out, err := cmd.CombinedOutput(); err != nil {
		e.t.Fatalf("xdotool %v: %v\n%s", args, err, out)
	}
}

// output runs a program on the test's display and returns what it printed.
func (e *E2E) output(name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = e.env
	return cmd.Output()
}

// Click clicks at a position relative to the window's top-left corner,
// then moves the pointer off the window, so that no hover or tip changes
// what the screen shows while a test compares it.
func (e *E2E) Click(x, y int) {
	e.t.Helper()
	e.xdo("mousemove", "--window", e.Window, strconv.Itoa(x), strconv.Itoa(y))
	e.xdo("click", "1")
	e.xdo("mousemove", strconv.Itoa(e.W+40), strconv.Itoa(e.H+20))
}

// Type types text into the focused field, like a person would. The app
// takes input events in order: what follows goes in after it.
func (e *E2E) Type(text string) {
	e.t.Helper()
	e.xdo("type", "--delay", "40", text)
}

// Key presses keys such as "ctrl+k" or "Return".
func (e *E2E) Key(keys ...string) {
	e.t.Helper()
	e.xdo(append([]string{"key", "--window", e.Window}, keys...)...)
}

// Screenshot saves the whole display as name.png in Out and returns its path.
func (e *E2E) Screenshot(name string) string {
	e.t.Helper()
	p := filepath.Join(e.Out, name+".png")
	if _, err := exec.LookPath("import"); err != nil {
		e.t.Logf("no screenshot %s: ImageMagick's import is not installed", name)
		return ""
	}
	cmd := exec.Command("import", "-window", "root", p)
	cmd.Env = e.env
	if out, err := cmd.CombinedOutput(); err != nil {
		e.t.Logf("screenshot %s failed: %v %s", name, err, out)
		return ""
	}
	e.t.Logf("screenshot: %s", p)
	return p
}

// History opens the app's history read-only; WAL lets it read while the
// app writes.
func (e *E2E) History() *storage.DB {
	e.t.Helper()
	db, err := storage.Open(context.Background(), e.Paths, storage.WithReadOnly())
	if err != nil {
		e.t.Fatalf("open the history: %v", err)
	}
	e.t.Cleanup(func() { _ = db.Close() })
	return db
}

// WaitFor polls cond until it holds; the limit only guards against a hang.
func (e *E2E) WaitFor(what string, cond func() bool) {
	e.t.Helper()
	e.WaitForWhy(what, cond, nil)
}

// WaitForWhy is WaitFor that, when it gives up, also says what why finds
// (where the awaited thing went instead), so a failure explains itself.
func (e *E2E) WaitForWhy(what string, cond func() bool, why func() string) {
	e.t.Helper()
	deadline := time.Now().Add(e2eWait)
	for !cond() {
		if time.Now().After(deadline) {
			e.Screenshot("timeout")
			found := ""
			if why != nil {
				found = "; " + why()
			}
			e.t.Fatalf("gave up waiting for %s%s; app output:\n%s", what, found, e.log)
		}
		time.Sleep(e2ePoll)
	}
}

// Shot is what the window shows now (it is at the display's top left),
// nil when it cannot be read. Raw pixels: no image format to encode and
// decode at every look.
func (e *E2E) Shot() *image.RGBA {
	w, h := e.W, e.H
	if w == 0 || h == 0 {
		return nil
	}
	out, err := e.grab(w, h)
	if err != nil || len(out) != 4*w*h {
		return nil
	}
	return &image.RGBA{Pix: out, Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}
}

// WaitScreen waits until the display shows what ok looks for.
func (e *E2E) WaitScreen(what string, ok func(img *image.RGBA) bool) {
	e.t.Helper()
	e.WaitFor(what, func() bool {
		img := e.Shot()
		return img != nil && ok(img)
	})
}

// WaitLit waits until the window's pixel x, y is the theme's primary blue:
// a main button that can be pressed, the frame of a field that has the
// keyboard.
func (e *E2E) WaitLit(what string, x, y int) {
	e.t.Helper()
	e.WaitScreen(what, func(img *image.RGBA) bool { return bluish(img, x, y) })
}

// OpenCommandBox presses Ctrl+K once the window is still and waits for the
// command box drawn whole, so what is typed next goes into it.
func (e *E2E) OpenCommandBox() {
	e.t.Helper()
	e.WaitStill("the window before Ctrl+K")
	before := e.Shot()
	e.Key("ctrl+k")
	e.WaitChange("the command box", image.Rect(0, 0, e.W, e.H), before)
}

// OpenNewChat presses Ctrl+N once the window is still (a reply still laid
// out takes keys where the window was) and waits for the New chat dialog's
// agents drawn whole, so Return or typing goes to the dialog.
func (e *E2E) OpenNewChat() {
	e.t.Helper()
	e.WaitStill("the window before Ctrl+N")
	before := e.Shot()
	e.Key("ctrl+n")
	e.WaitChange("the New chat dialog's agents", pickerList(e), before)
}

// WaitChange waits until region r of the window differs from before (a
// capture taken before the step) and the whole window then stays the same
// over stillShots captures: what the step set off is drawn whole.
func (e *E2E) WaitChange(what string, r image.Rectangle, before *image.RGBA) {
	e.t.Helper()
	if before == nil {
		e.t.Fatalf("no capture of the screen before waiting for %s (is ImageMagick's import installed?)", what)
	}
	e.waitStill(what, func(img *image.RGBA) bool { return !sameIn(img, before, r) })
}

// WaitStill waits until the whole window stays the same over stillShots
// captures and stillFor: nothing is loading, streaming or moving.
func (e *E2E) WaitStill(what string) {
	e.t.Helper()
	e.waitStill(what, func(*image.RGBA) bool { return true })
}

func (e *E2E) waitStill(what string, ok func(img *image.RGBA) bool) {
	e.t.Helper()
	var last *image.RGBA
	var since time.Time
	same := 0
	win := image.Rect(0, 0, e.W, e.H)
	e.WaitFor(what, func() bool {
		img := e.Shot()
		switch {
		case img == nil || !ok(img):
			last, same = nil, 0
			return false
		case last != nil && sameIn(img, last, win):
			same++
		default:
			same, since = 1, time.Now()
		}
		last = img
		return same >= stillShots && time.Since(since) >= cmp.Or(e.StillFor, stillFor)
	})
}

// Shots of screens the tests wait for, from the window's size: what is
// where follows the layout (the navigation, then the screen's panes).

// screenArea is the screen on show: right of the navigation, above the
// status bar.
func (e *E2E) screenArea() image.Rectangle { return image.Rect(railWidth, 0, e.W, e.H-50) }

// listRight is where the agents screen's list ends and the agent's detail
// begins.
func (e *E2E) listRight() int { return railWidth + int(float64(e.W-railWidth)*listShare) }

// agentsTotal is the agents screen's count of agents, at the right of its
// header: empty while the list loads, then "44 agents", "1 agent".
func (e *E2E) agentsTotal() image.Rectangle {
	r := e.listRight()
	return image.Rect(r-120, 12, r-12, 40)
}

// WaitAgentsListed waits until the agents screen lists the account's
// agents: the app keeps the first page for a start without the service
// before it shows it, and the count of agents shows with the list.
func (e *E2E) WaitAgentsListed() {
	e.t.Helper()
	e.WaitFor("the agent list kept for offline use", func() bool {
		kept, _ := filepath.Glob(filepath.Join(e.Paths.SnapshotsDir(), "*.json"))
		return len(kept) > 0
	})
	e.WaitScreen("the count of agents", func(img *image.RGBA) bool { return !uniformIn(img, e.agentsTotal()) })
	e.WaitStill("the agent list drawn")
}

// Search types words into the agents screen's search (Ctrl+F) and waits
// until the list shows what the service found: the search waits for
// typing to pause, then the count of agents changes.
func (e *E2E) Search(words string) {
	e.t.Helper()
	before := e.Shot()
	e.Key("ctrl+f")
	e.Type(words)
	e.WaitChange("the agents found for "+words, e.agentsTotal(), before)
}

// runAgentLit is a spot of the agent's Run agent button, away from its
// words: blue once the agent's form is shown.
func (e *E2E) runAgentLit() (int, int) { return e.listRight() + 15, e.H - 84 }

// WaitRun waits until the history holds a finished run of agent for
// account acct, its newest, and returns it.
func (e *E2E) WaitRun(what, acct, agent string) storage.Run {
	e.t.Helper()
	db := e.History()
	var run storage.Run
	e.WaitFor(what, func() bool {
		runs, err := db.Runs(context.Background(), acct, agent, 5)
		if err != nil || len(runs) == 0 {
			return false
		}
		run = runs[0]
		return run.Status == client.StatusCompleted
	})
	return run
}

// WaitRunTab waits for an opened agent's Run tab: its form read from the
// service and shown.
func (e *E2E) WaitRunTab() {
	e.t.Helper()
	x, y := e.runAgentLit()
	e.WaitLit("the agent's Run tab", x, y)
}

// composerStrip is the band of the chat's message box, left of Send: its
// frame is blue while the box has the keyboard.
func (e *E2E) composerStrip() image.Rectangle {
	return image.Rect(railWidth+5, e.H-150, e.W-95, e.H-100)
}

// WaitComposer waits until a chat is open with the keyboard in its
// message box.
func (e *E2E) WaitComposer() {
	e.t.Helper()
	e.WaitScreen("the chat's message box with the keyboard", func(img *image.RGBA) bool { return bluishIn(img, e.composerStrip()) })
	e.WaitStill("the chat drawn")
}

// bluish tells whether the pixel at x, y is the theme's primary blue.
func bluish(img image.Image, x, y int) bool {
	r, g, b, _ := img.At(x, y).RGBA()
	r, g, b = r>>8, g>>8, b>>8
	return b > 150 && b > r+60 && b > g+30
}

// bluishIn tells whether any pixel of r is the theme's primary blue.
func bluishIn(img image.Image, r image.Rectangle) bool {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if bluish(img, x, y) {
				return true
			}
		}
	}
	return false
}

// sameIn tells whether a and b show the same in r.
func sameIn(a, b *image.RGBA, r image.Rectangle) bool {
	r = r.Intersect(a.Bounds()).Intersect(b.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		ra := a.Pix[a.PixOffset(r.Min.X, y):a.PixOffset(r.Max.X, y)]
		rb := b.Pix[b.PixOffset(r.Min.X, y):b.PixOffset(r.Max.X, y)]
		if !bytes.Equal(ra, rb) {
			return false
		}
	}
	return true
}

// uniformIn tells whether every pixel of r is one colour (nothing drawn
// there).
func uniformIn(img *image.RGBA, r image.Rectangle) bool {
	r = r.Intersect(img.Bounds())
	if r.Empty() {
		return true
	}
	first := img.Pix[img.PixOffset(r.Min.X, r.Min.Y):img.PixOffset(r.Min.X+1, r.Min.Y)]
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := img.Pix[img.PixOffset(r.Min.X, y):img.PixOffset(r.Max.X, y)]
		for i := 0; i < len(row); i += 4 {
			if !bytes.Equal(row[i:i+4], first) {
				return false
			}
		}
	}
	return true
}

// blueButton finds a main button crossing the line x between y0 and y1
// on the display: the middle of its first run of blue, false when there
// is none.
func blueButton(img image.Image, x, y0, y1 int) (int, bool) {
	for y := y0; y <= y1; y++ {
		if !bluish(img, x, y) {
			continue
		}
		end := y
		for end < y1 && bluish(img, x, end+1) {
			end++
		}
		if end-y >= 10 { // a button, not a blue letter
			return (y + end) / 2, true
		}
		y = end
	}
	return 0, false
}

// Quit stops the app (the cleanup does it too).
func (e *E2E) Quit() {
	if e.app == nil || e.app.Process == nil || e.app.ProcessState != nil {
		return
	}
	stopProcess(e.app, os.Interrupt)
}

// stopProcess asks a started program to end with sig, and kills it if it
// lingers for more than five seconds.
func stopProcess(cmd *exec.Cmd, sig os.Signal) {
	_ = cmd.Process.Signal(sig)
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
}

// stillCursor turns Fyne's animations off, as a user can in Fyne's own
// settings: a focused field's cursor no longer pulses, so a test can see
// the window still (WaitStill) while a field has the keyboard.
func stillCursor(tb testing.TB, paths storage.Paths) {
	tb.Helper()
	dir := filepath.Join(filepath.Dir(paths.Config), "fyne")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(`{"no_animations": true}`), 0o600); err != nil {
		tb.Fatal(err)
	}
}

// freshHome makes empty XDG folders holding only a settings.json (onboarded,
// so the agents screen shows first, at the given window size, then change
// applied) and returns the environment to start Agent Desk in on display.
func freshHome(tb testing.TB, display string, width, height float32, change func(*storage.Settings)) ([]string, storage.Paths) {
	tb.Helper()
	root := tb.TempDir()
	xdg := map[string]string{
		"XDG_CONFIG_HOME": filepath.Join(root, "config"),
		"XDG_DATA_HOME":   filepath.Join(root, "data"),
		"XDG_CACHE_HOME":  filepath.Join(root, "cache"),
		"XDG_STATE_HOME":  filepath.Join(root, "state"),
	}
	paths := storage.Paths{
		Config: filepath.Join(xdg["XDG_CONFIG_HOME"], storage.AppDirName),
		Data:   filepath.Join(xdg["XDG_DATA_HOME"], storage.AppDirName),
		Cache:  filepath.Join(xdg["XDG_CACHE_HOME"], storage.AppDirName),
		State:  filepath.Join(xdg["XDG_STATE_HOME"], storage.AppDirName),
	}
	if err := paths.Ensure(); err != nil {
		tb.Fatal(err)
	}
	settings := storage.DefaultSettings()
	settings.Onboarded = true
	settings.WindowWidth, settings.WindowHeight = width, height
	if change != nil {
		change(&settings)
	}
	if err := storage.NewSettingsStore(paths).Save(context.Background(), settings); err != nil {
		tb.Fatal(err)
	}
	// English whatever this computer speaks (a test that wants another
	// language chooses it in the settings).
	env := append(os.Environ(), "DISPLAY="+display, "LANG=en_US.UTF-8", "LANGUAGE=", "LC_ALL=", "LC_MESSAGES=")
	for k, v := range xdg {
		env = append(env, k+"="+v)
	}
	return env, paths
}

// homeWith gives the app a home folder of its own holding the file name
// alone (written by write), where the file dialog opens, and returns it.
// The Go caches stay where they are, so the build is not redone.
func homeWith(t *testing.T, name string, write func(t *testing.T, path string)) string {
	t.Helper()
	e2eTools(t)
	for _, v := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		out, err := exec.Command("go", "env", v).Output()
		if err != nil {
			t.Fatal(err)
		}
		t.Setenv(v, strings.TrimSpace(string(out)))
	}
	home := t.TempDir()
	write(t, filepath.Join(home, name))
	t.Setenv("HOME", home)
	return home
}

// homeWithNotes gives the app a home folder holding notes.txt alone.
func homeWithNotes(t *testing.T) {
	t.Helper()
	homeWith(t, "notes.txt", func(t *testing.T, path string) {
		if err := os.WriteFile(path, []byte("Minutes of the Monday meeting.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	})
}

// userMessage is the user's message of a conversation that holds words,
// as the history keeps it.
func userMessage(ctx context.Context, db *storage.DB, convID int64, words string) (storage.Message, bool) {
	msgs, err := db.Messages(ctx, convID)
	if err != nil {
		return storage.Message{}, false
	}
	for _, m := range msgs {
		if m.Role == storage.RoleUser && strings.Contains(m.Content, words) {
			return m, true
		}
	}
	return storage.Message{}, false
}
