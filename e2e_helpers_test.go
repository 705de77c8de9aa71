package main

// End-to-end helpers: build the real binary once, start it under its own
// Xvfb display with fresh XDG folders, drive it with xdotool, and read what
// it stored. Flows live in e2e_*_test.go files; each starts with
//
//	e := startE2E(t, nil)
//
// and then clicks, types and waits on storage.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/storage"
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

// e2eTools skips the test when the virtual display or xdotool is missing.
func e2eTools(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end tests do not run with -short")
	}
	for _, tool := range []string{"Xvfb", "xdotool"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("end-to-end test needs %s, which is not installed (Debian: apt-get install xvfb xdotool)", tool)
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
	t       *testing.T
	Display string
	// Paths are the app's folders inside the test's temp dir.
	Paths storage.Paths
	// Out is where screenshots are kept: $AGENTDESK_E2E_OUT, else a temp dir.
	Out    string
	Window string // the X window id
	env    []string
	app    *exec.Cmd
	log    *lockedBuffer
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
func startE2E(t *testing.T, change func(*storage.Settings)) *E2E {
	t.Helper()
	e2eTools(t)
	bin := e2eBuild(t)

	display := startXvfb(t)
	env, paths := freshHome(t, display, 1180, 760, change)

	out := os.Getenv("AGENTDESK_E2E_OUT")
	if out == "" {
		out = t.TempDir()
	} else if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}

	e := &E2E{t: t, Paths: paths, Out: out, log: &lockedBuffer{}, Display: display, env: env}

	// AGENTDESK_E2E_ARGS starts the app with arguments, to look at it
	// (--demo-seed odd: long, right-to-left and CJK titles).
	e.app = exec.Command(bin, strings.Fields(os.Getenv("AGENTDESK_E2E_ARGS"))...)
	e.app.Env = e.env
	e.app.Stdout, e.app.Stderr = e.log, e.log
	if err := e.app.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Quit)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	search := exec.CommandContext(ctx, "xdotool", "search", "--sync", "--name", "Agent Desk")
	search.Env = e.env
	win, err := search.Output()
	if err != nil {
		t.Fatalf("the Agent Desk window never appeared: %v\n%s", err, e.log)
	}
	e.Window = strings.Fields(string(win))[0]
	e.xdo("windowmove", e.Window, "0", "0")
	time.Sleep(time.Second) // first frame
	return e
}

// startXvfb starts a virtual display on a free number and returns its name.
func startXvfb(t testing.TB) string {
	t.Helper()
	cmd, display, err := launchXvfb()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopProcess(cmd, syscall.SIGTERM) })
	return display
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
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", screen, "-nolisten", "tcp", "-noreset")
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

// Click clicks at a position relative to the window's top-left corner.
func (e *E2E) Click(x, y int) {
	e.t.Helper()
	e.xdo("mousemove", "--window", e.Window, strconv.Itoa(x), strconv.Itoa(y))
	e.xdo("click", "1")
	time.Sleep(300 * time.Millisecond)
}

// Type types text into the focused field, like a person would.
func (e *E2E) Type(text string) {
	e.t.Helper()
	e.xdo("type", "--delay", "40", text)
	time.Sleep(200 * time.Millisecond)
}

// Key presses keys such as "ctrl+k" or "Return".
func (e *E2E) Key(keys ...string) {
	e.t.Helper()
	e.xdo(append([]string{"key", "--window", e.Window}, keys...)...)
	time.Sleep(300 * time.Millisecond)
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
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			e.Screenshot("timeout")
			e.t.Fatalf("gave up waiting for %s; app output:\n%s", what, e.log)
		}
		time.Sleep(200 * time.Millisecond)
	}
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

// homeWithNotes gives the app a home folder of its own holding notes.txt
// alone, where the file dialog opens. The Go caches stay where they are, so
// the build is not redone.
func homeWithNotes(t *testing.T) {
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
	if err := os.WriteFile(filepath.Join(home, "notes.txt"), []byte("Minutes of the Monday meeting.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
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
