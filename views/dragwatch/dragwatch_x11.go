//go:build linux && cgo && !wayland

package dragwatch

/*
#cgo LDFLAGS: -lX11 -lXfixes
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>
#include <X11/Xlib.h>
#include <X11/Xlibint.h>
#include <X11/Xatom.h>
#include <X11/extensions/Xfixes.h>

typedef struct {
	Display *dpy;
	Window win, root;
	Window own; // ours, unmapped: the answers to our TARGETS requests come to it
	Atom xdnd, typelist, targets, uri, prop;
	int fixes_event;
	int asking; // waiting for the answer to the TARGETS request made at time asked
	Time asked;
} dw_t;

enum { DW_OK, DW_NO_DISPLAY, DW_NO_XFIXES, DW_NO_WINDOW };
enum { DW_WAKE = 1, DW_STOP = 2, DW_BROKEN = 4 };
enum { DW_NOTHING, DW_FILES, DW_ASKING, DW_NO_FILES };

// dw_drop drops X errors on our Display instead of passing them to the
// process-wide handler, whose default exits.
static Bool dw_drop(Display *dpy, XErrorEvent *he, xError *we) {
	return False;
}

// dw_broken tells whether the server closed fd without reading from it:
// Xlib's IO error handler would exit.
static int dw_broken(int fd) {
	struct pollfd p = {fd, POLLIN, 0};
	if (poll(&p, 1, 0) < 0) {
		return 0;
	}
	if (p.revents & (POLLERR | POLLHUP | POLLNVAL)) {
		return 1;
	}
	if (p.revents & POLLIN) {
		char c;
		ssize_t n = recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
		return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
	}
	return 0;
}

static int dw_open(Window win, dw_t **out) {
	dw_t *d = calloc(1, sizeof *d);
	if (!d) {
		return DW_NO_DISPLAY;
	}
	Display *dpy = XOpenDisplay(NULL);
	if (!dpy) {
		free(d);
		return DW_NO_DISPLAY;
	}
	d->dpy = dpy;
	for (int code = 1; code < FirstExtensionError; code++) {
		XESetWireToError(dpy, code, dw_drop);
	}
	int res = DW_OK, event, error, major = 1, minor = 0;
	XWindowAttributes wa;
	if (!XFixesQueryExtension(dpy, &event, &error) || !XFixesQueryVersion(dpy, &major, &minor) || major < 1) {
		res = DW_NO_XFIXES;
	} else if (!XGetWindowAttributes(dpy, win, &wa)) {
		res = DW_NO_WINDOW;
	}
	if (res != DW_OK) {
		XCloseDisplay(dpy);
		free(d);
		return res;
	}
	d->win = win;
	d->root = wa.root;
	d->fixes_event = event;
	d->xdnd = XInternAtom(dpy, "XdndSelection", False);
	d->typelist = XInternAtom(dpy, "XdndTypeList", False);
	d->targets = XInternAtom(dpy, "TARGETS", False);
	d->uri = XInternAtom(dpy, "text/uri-list", False);
	d->prop = XInternAtom(dpy, "DRAGWATCH_TARGETS", False);
	d->own = XCreateWindow(dpy, d->root, -1, -1, 1, 1, 0, 0, InputOnly, CopyFromParent, 0, NULL);
	XFixesSelectSelectionInput(dpy, d->root, d->xdnd, XFixesSetSelectionOwnerNotifyMask);
	XSync(dpy, False);
	*out = d;
	return DW_OK;
}

static void dw_close(dw_t *d) {
	if (dw_broken(ConnectionNumber(d->dpy))) {
		close(ConnectionNumber(d->dpy)); // XCloseDisplay would exit the process
	} else {
		XDestroyWindow(d->dpy, d->own);
		XCloseDisplay(d->dpy);
	}
	free(d);
}

// dw_wait polls the X connection and wake-up pipe for timeout ms (-1:
// forever). roundtrips: events Xlib read meanwhile would not wake poll.
// Without them it makes no Xlib call, so a dead server cannot end the process.
static int dw_wait(dw_t *d, int wakefd, int timeout, int roundtrips) {
	int xfd = ConnectionNumber(d->dpy);
	if (dw_broken(xfd)) {
		return DW_BROKEN;
	}
	if (roundtrips && XEventsQueued(d->dpy, QueuedAfterReading) > 0) {
		timeout = 0;
	}
	struct pollfd p[2] = {{xfd, POLLIN, 0}, {wakefd, POLLIN, 0}};
	if (poll(p, 2, timeout) < 0) {
		return errno == EINTR ? 0 : DW_BROKEN; // rather end than spin
	}
	int res = 0;
	if (p[1].revents) {
		char buf[64];
		ssize_t n;
		while ((n = read(wakefd, buf, sizeof buf)) > 0) {
			res |= DW_WAKE;
		}
		if (n == 0) {
			res |= DW_STOP;
		}
	}
	if (p[0].revents && dw_broken(xfd)) {
		res |= DW_BROKEN;
	}
	return res;
}

// dw_lists_uri tells whether atom list prop holds text/uri-list (del: delete it).
static int dw_lists_uri(dw_t *d, Window win, Atom prop, Bool del) {
	Atom type = None;
	int format = 0, uri = 0;
	unsigned long n = 0, after = 0;
	unsigned char *data = NULL;
	if (XGetWindowProperty(d->dpy, win, prop, 0, 4096, del, AnyPropertyType, &type, &format, &n, &after, &data) !=
	    Success) {
		return 0;
	}
	if (data && format == 32 && (type == XA_ATOM || type == d->targets)) {
		Atom *atoms = (Atom *)data; // Xlib hands format 32 out as longs
		for (unsigned long i = 0; i < n && !uri; i++) {
			uri = atoms[i] == d->uri;
		}
	}
	if (data) {
		XFree(data);
	}
	return uri;
}

// dw_begin checks what src's drag offers: its XdndTypeList (required only
// past 3 types, and may be stale), else asks for the TARGETS of XdndSelection,
// answered by a SelectionNotify.
static int dw_begin(dw_t *d, Window src, Time t) {
	d->asking = 0;
	if (dw_lists_uri(d, src, d->typelist, False)) {
		return DW_FILES;
	}
	XConvertSelection(d->dpy, d->xdnd, d->targets, d->prop, d->own, t);
	XFlush(d->dpy);
	d->asking = 1;
	d->asked = t;
	return DW_ASKING;
}

// dw_drain reads pending events and returns the last relevant one's verdict.
static int dw_drain(dw_t *d, int sync) {
	int res = DW_NOTHING;
	if (sync) {
		XSync(d->dpy, False);
	}
	while (XPending(d->dpy) > 0) {
		XEvent ev;
		XNextEvent(d->dpy, &ev);
		if (ev.type == d->fixes_event + XFixesSelectionNotify) {
			XFixesSelectionNotifyEvent *se = (XFixesSelectionNotifyEvent *)&ev;
			if (se->selection == d->xdnd && se->owner != None) {
				res = dw_begin(d, se->owner, se->timestamp);
			}
		} else if (ev.type == SelectionNotify) {
			XSelectionEvent *sn = &ev.xselection;
			if (d->asking && sn->requestor == d->own && sn->selection == d->xdnd && sn->target == d->targets &&
			    sn->time == d->asked) {
				d->asking = 0;
				res = sn->property != None && dw_lists_uri(d, d->own, sn->property, True) ? DW_FILES
													     : DW_NO_FILES;
			}
		}
	}
	return res;
}

static int dw_contains(XWindowAttributes *wa, int x, int y) {
	int b = 2 * wa->border_width;
	return x >= wa->x && y >= wa->y && x < wa->x + wa->width + b && y < wa->y + wa->height + b;
}

// dw_uncovered tells whether only override-redirect windows lie above top at
// (x, y): drag sources show the dragged thing in one, not always input-transparent.
static int dw_uncovered(dw_t *d, Window top, Window child, int x, int y) {
	XWindowAttributes wa;
	if (!XGetWindowAttributes(d->dpy, child, &wa) || !wa.override_redirect) {
		return 0;
	}
	Window r, parent, *kids = NULL;
	unsigned int n = 0;
	if (!XQueryTree(d->dpy, d->root, &r, &parent, &kids, &n)) {
		return 0;
	}
	int above = 0, covered = 0;
	for (unsigned int i = 0; i < n && !covered; i++) { // bottom to top
		if (kids[i] == top) {
			above = 1;
		} else if (above && XGetWindowAttributes(d->dpy, kids[i], &wa) && wa.map_state == IsViewable &&
			   !wa.override_redirect && dw_contains(&wa, x, y)) {
			covered = 1;
		}
	}
	if (kids) {
		XFree(kids);
	}
	return above && !covered;
}

// dw_query tells whether a button is held; *over when the window is under it.
static int dw_query(dw_t *d, int *over) {
	Display *dpy = d->dpy;
	Window r, parent, child = None, *kids;
	int rx, ry, x, y;
	unsigned int mask = 0, n;
	*over = 0;
	Bool same = XQueryPointer(dpy, d->root, &r, &child, &rx, &ry, &x, &y, &mask);
	int held = (mask & (Button1Mask | Button2Mask | Button3Mask | Button4Mask | Button5Mask)) != 0;
	if (!same || !held || child == None) {
		return held;
	}
	// The top-level: the window manager's frame, or the window itself.
	Window top = d->win;
	for (int depth = 0;; depth++) {
		if (depth > 64 || !XQueryTree(dpy, top, &r, &parent, &kids, &n)) {
			return held; // the window went away
		}
		if (kids) {
			XFree(kids);
		}
		if (parent == r || parent == None) {
			break;
		}
		top = parent;
	}
	XWindowAttributes wa;
	Window sub;
	if (!XGetWindowAttributes(dpy, d->win, &wa) || wa.map_state != IsViewable ||
	    !XTranslateCoordinates(dpy, d->root, d->win, rx, ry, &x, &y, &sub)) {
		return held;
	}
	if (x < 0 || y < 0 || x >= wa.width || y >= wa.height) {
		return held;
	}
	*over = child == top || dw_uncovered(d, top, child, rx, ry);
	return held;
}
*/
import "C"

import (
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"
)

const pollMillis = 50

// askTimeout: a source that does not answer in time offers no files.
const askTimeout = 300 * time.Millisecond

// Watch reports via over whether files are dragged over X11 window win (the
// WindowHandle of driver.X11WindowContext), only on changes and on its own
// goroutine; over must not call stop. stop waits for the goroutine, reports
// nothing more, and may be called twice. The watch also ends if the server
// goes away. A drag counts from a source taking XdndSelection until the
// buttons are released, and only if it offers text/uri-list.
func Watch(win uintptr, over func(bool)) (stop func(), err error) {
	w, err := start(win, over, askTimeout)
	if err != nil {
		return func() {}, err
	}
	return w.stop, nil
}

type watcher struct {
	d     *C.dw_t
	over  func(bool)
	ask   time.Duration // askTimeout, unless a test waits longer
	wakeR int
	done  chan struct{}

	mu      sync.Mutex
	wakeW   int             // -1 once stopped
	pending []chan struct{} // sync calls waiting for a turn of the loop
}

func start(win uintptr, over func(bool), ask time.Duration) (*watcher, error) {
	var d *C.dw_t
	switch C.dw_open(C.Window(win), &d) {
	case C.DW_OK:
	case C.DW_NO_XFIXES:
		return nil, fmt.Errorf("dragwatch: X display %q has no XFixes extension", os.Getenv("DISPLAY"))
	case C.DW_NO_WINDOW:
		return nil, fmt.Errorf("dragwatch: no X window %#x", win)
	default:
		return nil, fmt.Errorf("dragwatch: cannot open X display %q", os.Getenv("DISPLAY"))
	}
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC|syscall.O_NONBLOCK); err != nil {
		C.dw_close(d)
		return nil, fmt.Errorf("dragwatch: %w", err)
	}
	w := &watcher{d: d, over: over, ask: ask, wakeR: p[0], wakeW: p[1], done: make(chan struct{})}
	go w.run()
	return w, nil
}

func (w *watcher) run() {
	defer close(w.done)
	// armed: a file drag is under way; asking: its source's answer is awaited.
	armed, asking, over, roundtrips := false, false, false, false
	var deadline time.Time
	report := func(v bool) {
		if v != over {
			over = v
			w.over(v)
		}
	}
	for {
		timeout := C.int(-1)
		if armed {
			timeout = pollMillis
		} else if asking {
			timeout = C.int(max(0, (time.Until(deadline)+time.Millisecond-1)/time.Millisecond))
		}
		r := C.dw_wait(w.d, C.int(w.wakeR), timeout, cbool(roundtrips))
		if r&(C.DW_STOP|C.DW_BROKEN) != 0 {
			break
		}
		syncs := w.takePending()
		found := C.dw_drain(w.d, cbool(len(syncs) > 0))
		switch found {
		case C.DW_FILES:
			armed, asking = true, false
		case C.DW_ASKING:
			armed, asking = false, true
			deadline = time.Now().Add(w.ask)
		case C.DW_NO_FILES:
			armed, asking = false, false
		}
		if asking && !time.Now().Before(deadline) {
			asking = false
			w.d.asking = 0 // an answer coming later is not heeded
		}
		// Requests may have read events that will not wake poll.
		roundtrips = found != C.DW_NOTHING
		var in C.int
		if armed {
			roundtrips = true
			if C.dw_query(w.d, &in) == 0 {
				armed = false // buttons released: dropped or cancelled
			}
		}
		report(armed && in != 0)
		for _, s := range syncs {
			close(s)
		}
	}
	C.dw_close(w.d)
	syscall.Close(w.wakeR)
	for _, s := range w.takePending() {
		close(s)
	}
}

func (w *watcher) takePending() []chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := w.pending
	w.pending = nil
	return s
}

func (w *watcher) stop() {
	w.mu.Lock()
	if w.wakeW >= 0 {
		syscall.Close(w.wakeW) // the goroutine reads end of file
		w.wakeW = -1
	}
	w.mu.Unlock()
	<-w.done
}

// sync returns once every X event sent before the call is handled, so tests
// need not wait for a time.
func (w *watcher) sync() {
	ack := make(chan struct{})
	w.mu.Lock()
	if w.wakeW < 0 {
		w.mu.Unlock()
		return
	}
	w.pending = append(w.pending, ack)
	syscall.Write(w.wakeW, []byte{0})
	w.mu.Unlock()
	select {
	case <-ack:
	case <-w.done:
	}
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
