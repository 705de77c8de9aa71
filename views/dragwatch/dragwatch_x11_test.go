//go:build linux && cgo && !wayland

package dragwatch

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/xfake"
)

// wait is how long a test waits for something that should happen at once.
const wait = 10 * time.Second

// display is a test's own X server, and a connection to make windows with.
type display struct {
	*xfake.Conn
	xvfb *os.Process
}

// startX starts an Xvfb of the test's own, points DISPLAY at it and
// connects to it. Both go away when the test ends.
func startX(t *testing.T) display {
	t.Helper()
	xvfb := startXvfb(t)
	c, err := xfake.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return display{c, xvfb}
}

// startXvfb starts an Xvfb of the test's own, until the test ends, and
// points DISPLAY at it.
func startXvfb(t *testing.T, xvfbArgs ...string) *os.Process {
	t.Helper()
	for _, tool := range []string{"Xvfb", "xdotool"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{"-displayfd", "3", "-screen", "0", "1024x768x24", "-nolisten", "tcp", "-noreset"}, xvfbArgs...)
	cmd := exec.Command("Xvfb", args...)
	cmd.ExtraFiles = []*os.File{w}
	err = cmd.Start()
	w.Close()
	if err != nil {
		r.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	})
	line, err := bufio.NewReader(r).ReadString('\n')
	r.Close()
	n, convErr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || convErr != nil {
		t.Fatalf("Xvfb did not start a display (%v %v)", err, convErr)
	}
	t.Setenv("DISPLAY", ":"+strconv.Itoa(n))
	return cmd.Process
}

// xdo runs xdotool on the test's display.
func xdo(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command("xdotool", args...).CombinedOutput(); err != nil {
		t.Fatalf("xdotool %v: %v\n%s", args, err, out)
	}
}

func moveTo(t *testing.T, x, y int) {
	t.Helper()
	xdo(t, "mousemove", strconv.Itoa(x), strconv.Itoa(y))
}

// recorder keeps what the watcher reports, in order.
type recorder chan bool

func newRecorder() recorder { return make(recorder, 100) }

func (r recorder) over(v bool) { r <- v }

// next fails unless the next report is want.
func (r recorder) next(t *testing.T, want bool) {
	t.Helper()
	select {
	case got := <-r:
		if got != want {
			t.Fatalf("reported %v, want %v", got, want)
		}
	case <-time.After(wait):
		t.Fatalf("nothing reported in %v, want %v", wait, want)
	}
}

// none fails if anything was reported; call it after w.sync.
func (r recorder) none(t *testing.T) {
	t.Helper()
	select {
	case got := <-r:
		t.Fatalf("reported %v, want nothing", got)
	default:
	}
}

func watch(t *testing.T, win uintptr, r recorder) *watcher {
	t.Helper()
	w, err := start(win, r.over, askTimeout)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.stop)
	return w
}

// drag starts a drag at (x, y) as a drag source does: the button goes down,
// then source takes XdndSelection.
func drag(t *testing.T, c display, source uintptr, x, y int) {
	t.Helper()
	moveTo(t, x, y)
	xdo(t, "mousedown", "1")
	c.TakeXdndSelection(source)
}

func TestDragOverWindow(t *testing.T) {
	c := startX(t)
	win := c.Window(100, 100, 400, 300)
	source := c.Source()
	r := newRecorder()
	w := watch(t, win, r)
	// next waits for want, then checks that nothing else comes while the
	// pointer stays: over is called only on changes.
	next := func(want bool) {
		t.Helper()
		r.next(t, want)
		w.sync()
		r.none(t)
	}

	drag(t, c, source, 700, 600) // starts outside
	moveTo(t, 150, 150)
	next(true)
	moveTo(t, 600, 150)
	next(false)
	moveTo(t, 499, 399) // the window's last pixel
	next(true)
	xdo(t, "mouseup", "1")
	next(false)

	// The same source again: X tells us although the owner does not change.
	for i := range 2 {
		drag(t, c, source, 200, 200) // starts inside
		moveTo(t, 210, 205+i)
		next(true)
		xdo(t, "mouseup", "1")
		next(false)
	}

	// Another source, offering more types, the button held since before it
	// took the selection.
	moveTo(t, 300, 300)
	xdo(t, "mousedown", "1")
	moveTo(t, 305, 300)
	c.TakeXdndSelection(c.SourceOffering("text/plain", "UTF8_STRING", "x-special/gnome-icon-list", xfake.URIList))
	next(true)
	xdo(t, "mouseup", "1")
	next(false)
}

func TestClickDragIsNoFileDrag(t *testing.T) {
	c := startX(t)
	win := c.Window(100, 100, 400, 300)
	source := c.Source()
	c.TakeXdndSelection(source) // before the watch began: does not count
	r := newRecorder()
	w := watch(t, win, r)

	moveTo(t, 150, 150)
	xdo(t, "mousedown", "1")
	moveTo(t, 200, 200)
	w.sync()
	r.none(t)
	moveTo(t, 700, 600)
	moveTo(t, 250, 250)
	w.sync()
	r.none(t)
	xdo(t, "mouseup", "1")
	w.sync()
	r.none(t)

	// After a file drag, an ordinary click-drag is no file drag either.
	drag(t, c, source, 150, 150)
	moveTo(t, 160, 160)
	r.next(t, true)
	xdo(t, "mouseup", "1")
	r.next(t, false)
	xdo(t, "mousedown", "1")
	moveTo(t, 200, 200)
	w.sync()
	r.none(t)
	xdo(t, "mouseup", "1")
}

// goroutinesBack waits until no more goroutines run than before.
func goroutinesBack(t *testing.T, before int) {
	t.Helper()
	for deadline := time.Now().Add(wait); runtime.NumGoroutine() > before; {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines, %d before the watch", runtime.NumGoroutine(), before)
		}
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
}

// stop ends the watch without a last report: over would post to an app
// that is shutting down.
func TestStopDuringDrag(t *testing.T) {
	c := startX(t)
	win := c.Window(100, 100, 400, 300)
	r := newRecorder()
	before := runtime.NumGoroutine()
	stop, err := Watch(win, r.over)
	if err != nil {
		t.Fatal(err)
	}
	drag(t, c, c.Source(), 150, 150)
	moveTo(t, 160, 160)
	r.next(t, true)
	stop()
	r.none(t) // stop returns after the goroutine ended
	stop()
	r.none(t)
	goroutinesBack(t, before)
	xdo(t, "mouseup", "1")
}

func TestStopWhileIdle(t *testing.T) {
	c := startX(t)
	win := c.Window(100, 100, 400, 300)
	r := newRecorder()
	before := runtime.NumGoroutine()
	stop, err := Watch(win, r.over)
	if err != nil {
		t.Fatal(err)
	}
	stop()
	stop()
	r.none(t)
	goroutinesBack(t, before)
}

func TestNoDisplay(t *testing.T) {
	t.Setenv("DISPLAY", "no-such-display-for-dragwatch")
	before := runtime.NumGoroutine()
	stop, err := Watch(1, func(bool) { t.Error("reported") })
	if err == nil {
		t.Fatal("no error")
	}
	if !strings.Contains(err.Error(), "no-such-display-for-dragwatch") {
		t.Errorf("error %q does not name the display", err)
	}
	stop()
	goroutinesBack(t, before)
}

func TestNoXFixes(t *testing.T) {
	// Xvfb 21 without XFixes aborts when a client leaves while another is
	// connected, so connect nothing else: XFixes is looked for before the
	// window is.
	startXvfb(t, "-extension", "XFIXES")
	stop, err := Watch(1, func(bool) { t.Error("reported") })
	if err == nil || !strings.Contains(err.Error(), "XFixes") {
		t.Fatalf("error %v, want one about XFixes", err)
	}
	stop()
}

// An X error must not end the process (Xlib's default handler exits).
func TestNoWindow(t *testing.T) {
	c := startX(t)
	win := c.Window(100, 100, 400, 300)
	c.Destroy(win)
	stop, err := Watch(win, func(bool) { t.Error("reported") })
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%#x", win)) {
		t.Fatalf("error %v, want one about window %#x", err, win)
	}
	stop()
}

func TestWindowGoesAway(t *testing.T) {
	c := startX(t)
	win := c.Window(100, 100, 400, 300)
	r := newRecorder()
	w := watch(t, win, r)
	drag(t, c, c.Source(), 150, 150)
	moveTo(t, 160, 160)
	r.next(t, true)
	c.Destroy(win)
	moveTo(t, 170, 170)
	r.next(t, false)
	xdo(t, "mouseup", "1")
	drag(t, c, c.Source(), 150, 150)
	moveTo(t, 160, 160)
	w.sync()
	r.none(t)
	xdo(t, "mouseup", "1")
	w.sync()
	r.none(t)
}

func TestCoveredByAnotherWindow(t *testing.T) {
	c := startX(t)
	win := c.Window(100, 100, 400, 300)
	c.Window(300, 150, 200, 100) // made later, so above
	r := newRecorder()
	watch(t, win, r)
	drag(t, c, c.Source(), 150, 150)
	moveTo(t, 155, 150)
	r.next(t, true)
	moveTo(t, 350, 200)
	r.next(t, false)
	moveTo(t, 350, 300)
	r.next(t, true)
	xdo(t, "mouseup", "1")
	r.next(t, false)
}

// With a window manager the top-level window is the frame around ours.
func TestInFrame(t *testing.T) {
	c := startX(t)
	frame := c.Window(100, 100, 420, 340)
	win := c.Child(frame, 10, 30, 400, 300)
	r := newRecorder()
	w := watch(t, win, r)
	drag(t, c, c.Source(), 200, 110) // on the frame's title bar
	moveTo(t, 205, 110)
	w.sync()
	r.none(t)
	moveTo(t, 200, 200)
	r.next(t, true)
	moveTo(t, 200, 115)
	r.next(t, false)
	xdo(t, "mouseup", "1")
	w.sync()
	r.none(t)
}

// Drag sources show the dragged thing in an override-redirect window under
// the pointer; it is not a window the files are over.
func TestUnderDragIcon(t *testing.T) {
	c := startX(t)
	win := c.Window(100, 100, 400, 300)
	cover := c.Window(400, 300, 200, 200) // made later, so above
	r := newRecorder()
	watch(t, win, r)
	drag(t, c, c.Source(), 700, 600)
	c.Overlay(140, 140, 64, 64)
	moveTo(t, 150, 150)
	r.next(t, true)
	// An icon over the other window that covers ours: not over.
	c.Overlay(440, 340, 64, 64)
	moveTo(t, 450, 350)
	r.next(t, false)
	c.Destroy(cover)
	moveTo(t, 451, 350)
	r.next(t, true)
	xdo(t, "mouseup", "1")
	r.next(t, false)
}

// text is what a browser offers when selected text is dragged: no files,
// which the app cannot take.
var text = []string{"text/plain;charset=utf-8", "UTF8_STRING"}

// quietFor checks that nothing is reported while the pointer moves over
// the window for longer than a source has to answer.
func quietFor(t *testing.T, w *watcher, r recorder) {
	t.Helper()
	for end := time.Now().Add(askTimeout + 200*time.Millisecond); time.Now().Before(end); {
		moveTo(t, 150+rand.IntN(100), 150+rand.IntN(100))
		w.sync()
		r.none(t)
		time.Sleep(20 * time.Millisecond)
	}
}

// A drag of text, not files, does not light the window up, whether its
// source lists its types in XdndTypeList (and does not answer) or answers
// when asked; a file drag after it does.
func TestDragOfTextIsNoFileDrag(t *testing.T) {
	c := startX(t)
	win := c.Window(100, 100, 400, 300)
	r := newRecorder()
	w := watch(t, win, r)

	drag(t, c, c.SourceOffering(text...), 150, 150)
	quietFor(t, w, r)
	xdo(t, "mouseup", "1")
	w.sync()
	r.none(t)

	drag(t, c, c.SourceOffering(), 150, 150)
	if !c.Serve(wait, text...) {
		t.Fatal("the watcher did not ask the source for its TARGETS")
	}
	quietFor(t, w, r)
	xdo(t, "mouseup", "1")
	w.sync()
	r.none(t)

	drag(t, c, c.Source(), 150, 150)
	moveTo(t, 160, 160)
	r.next(t, true)
	xdo(t, "mouseup", "1")
	r.next(t, false)
}

// A source without XdndTypeList (it need not set one when it offers 3
// types or fewer) is asked for its TARGETS. So is one whose XdndTypeList
// lacks text/uri-list: toolkits reuse the window and may leave the list of
// an earlier drag on it.
func TestSourceAnswersTargets(t *testing.T) {
	// The answer counts however late it comes here: a busy machine may
	// take longer than a source usually does.
	c := startX(t)
	win := c.Window(100, 100, 400, 300)
	r := newRecorder()
	w, err := start(win, r.over, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.stop)
	for _, source := range []uintptr{c.SourceOffering(), c.SourceOffering(text...)} {
		moveTo(t, 150, 150)
		xdo(t, "mousedown", "1")
		took := time.Now()
		c.TakeXdndSelection(source)
		w.sync()
		r.none(t) // not before the answer
		if !c.Serve(wait, "text/plain", xfake.URIList) {
			t.Fatal("the watcher did not ask the source for its TARGETS")
		}
		answered := time.Since(took)
		r.next(t, true)
		t.Logf("asked and answered %v after the source took XdndSelection, over after %v", answered, time.Since(took))
		moveTo(t, 600, 150)
		r.next(t, false)
		xdo(t, "mouseup", "1")
		w.sync()
		r.none(t)
	}
}

// A source that neither sets XdndTypeList nor answers offers no files; an
// answer after the watcher gave up changes nothing, and the next file drag
// lights the window up.
func TestSilentSource(t *testing.T) {
	c := startX(t)
	win := c.Window(100, 100, 400, 300)
	r := newRecorder()
	w := watch(t, win, r)
	drag(t, c, c.SourceOffering(), 150, 150)
	quietFor(t, w, r)
	if !c.Serve(wait, xfake.URIList) { // too late
		t.Fatal("the watcher did not ask the source for its TARGETS")
	}
	quietFor(t, w, r)
	xdo(t, "mouseup", "1")
	w.sync()
	r.none(t)

	drag(t, c, c.Source(), 150, 150)
	moveTo(t, 160, 160)
	r.next(t, true)
	xdo(t, "mouseup", "1")
	r.next(t, false)
}

// A source gone before the watcher looks at it offers no files, and the X
// errors asking it brings do not end the process.
func TestSourceGoesAway(t *testing.T) {
	c := startX(t)
	win := c.Window(100, 100, 400, 300)
	r := newRecorder()
	w := watch(t, win, r)
	moveTo(t, 150, 150)
	xdo(t, "mousedown", "1")
	c.TakeXdndSelectionAndGo(c.Source())
	quietFor(t, w, r)
	xdo(t, "mouseup", "1")

	drag(t, c, c.Source(), 150, 150)
	moveTo(t, 160, 160)
	r.next(t, true)
	xdo(t, "mouseup", "1")
	r.next(t, false)
}
