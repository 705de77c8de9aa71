//go:build linux && cgo

package xfake

/*
#cgo LDFLAGS: -lX11
#include <errno.h>
#include <stdlib.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <X11/Xlib.h>
#include <X11/Xatom.h>

// xf_close closes without Xlib if the server went away (Xlib would exit).
static void xf_close(Display *dpy) {
	int fd = ConnectionNumber(dpy);
	struct pollfd p = {fd, POLLIN, 0};
	char c;
	if (poll(&p, 1, 0) == 1 && ((p.revents & (POLLERR | POLLHUP)) || recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 0)) {
		close(fd);
		return;
	}
	XCloseDisplay(dpy);
}

static Window xf_window(Display *dpy, Window parent, int x, int y, int w, int h, int override, int map) {
	XSetWindowAttributes a = {0};
	a.override_redirect = override ? True : False;
	a.background_pixel = WhitePixel(dpy, DefaultScreen(dpy));
	if (parent == None) {
		parent = DefaultRootWindow(dpy);
	}
	Window win = XCreateWindow(dpy, parent, x, y, w, h, 0, CopyFromParent, InputOutput, CopyFromParent,
				   CWOverrideRedirect | CWBackPixel, &a);
	if (map) {
		XMapWindow(dpy, win);
	}
	XSync(dpy, False);
	return win;
}

static void xf_types(Display *dpy, Window win, Atom *types, int n) {
	XChangeProperty(dpy, win, XInternAtom(dpy, "XdndTypeList", False), XA_ATOM, 32, PropModeReplace,
			(unsigned char *)types, n);
	XSync(dpy, False);
}

// xf_serve answers SelectionRequests for ms as an XDND source: TARGETS with
// types, anything else refused. Returns 1 after TARGETS, 0 on timeout.
static int xf_serve(Display *dpy, Atom *types, int n, int ms) {
	Atom xdnd = XInternAtom(dpy, "XdndSelection", False), targets = XInternAtom(dpy, "TARGETS", False);
	for (;;) {
		while (XPending(dpy) > 0) {
			XEvent ev;
			XNextEvent(dpy, &ev);
			if (ev.type != SelectionRequest) {
				continue;
			}
			XSelectionRequestEvent *rq = &ev.xselectionrequest;
			XSelectionEvent sn = {0};
			sn.type = SelectionNotify;
			sn.display = dpy;
			sn.requestor = rq->requestor;
			sn.selection = rq->selection;
			sn.target = rq->target;
			sn.time = rq->time;
			sn.property = None;
			int answered = rq->selection == xdnd && rq->target == targets;
			if (answered) {
				sn.property = rq->property != None ? rq->property : rq->target;
				XChangeProperty(dpy, rq->requestor, sn.property, XA_ATOM, 32, PropModeReplace,
						(unsigned char *)types, n);
			}
			XSendEvent(dpy, rq->requestor, False, NoEventMask, (XEvent *)&sn);
			XSync(dpy, False);
			if (answered) {
				return 1;
			}
		}
		struct pollfd p = {ConnectionNumber(dpy), POLLIN, 0};
		if (poll(&p, 1, ms) <= 0) {
			return 0;
		}
	}
}

static void xf_own(Display *dpy, Window owner) {
	XSetSelectionOwner(dpy, XInternAtom(dpy, "XdndSelection", False), owner, CurrentTime);
	XSync(dpy, False);
}

// xf_own_and_go takes XdndSelection and destroys owner under a server grab,
// so no other request comes between.
static void xf_own_and_go(Display *dpy, Window owner) {
	XGrabServer(dpy);
	XSetSelectionOwner(dpy, XInternAtom(dpy, "XdndSelection", False), owner, CurrentTime);
	XDestroyWindow(dpy, owner);
	XUngrabServer(dpy);
	XSync(dpy, False);
}

static void xf_destroy(Display *dpy, Window win) {
	XDestroyWindow(dpy, win);
	XSync(dpy, False);
}
*/
import "C"

import (
	"errors"
	"sync"
	"time"
	"unsafe"
)

// Conn is a connection to $DISPLAY; use it from one goroutine at a time.
type Conn struct {
	once sync.Once
	dpy  *C.Display
}

// Open connects to the display named by $DISPLAY.
func Open() (*Conn, error) {
	dpy := C.XOpenDisplay(nil)
	if dpy == nil {
		return nil, errors.New("xfake: cannot open the X display")
	}
	return &Conn{dpy: dpy}, nil
}

// Close closes the connection, safe when the server went away.
func (c *Conn) Close() {
	c.once.Do(func() { C.xf_close(c.dpy) })
}

func (c *Conn) window(parent uintptr, x, y, w, h int, override, mapped bool) uintptr {
	return uintptr(C.xf_window(c.dpy, C.Window(parent), C.int(x), C.int(y), C.int(w), C.int(h), cbool(override), cbool(mapped)))
}

// Window makes and maps a w×h top-level at (x, y), above earlier ones.
func (c *Conn) Window(x, y, w, h int) uintptr { return c.window(0, x, y, w, h, false, true) }

// Child makes and maps a window inside parent, as a WM frame holds the app's.
func (c *Conn) Child(parent uintptr, x, y, w, h int) uintptr {
	return c.window(parent, x, y, w, h, false, true)
}

// Overlay makes an override-redirect top-level, as drag sources show the
// dragged thing.
func (c *Conn) Overlay(x, y, w, h int) uintptr { return c.window(0, x, y, w, h, true, true) }

// URIList is the type a drag offers files in.
const URIList = "text/uri-list"

// Source makes an unmapped drag-source window offering text/uri-list.
func (c *Conn) Source() uintptr { return c.SourceOffering(URIList) }

// SourceOffering makes an unmapped drag-source window with XdndTypeList
// types; without types only Serve tells what it offers.
func (c *Conn) SourceOffering(types ...string) uintptr {
	win := c.window(0, 0, 0, 1, 1, false, false)
	if len(types) > 0 {
		atoms := c.atoms(types)
		C.xf_types(c.dpy, C.Window(win), &atoms[0], C.int(len(atoms)))
	}
	return win
}

// Serve answers selection requests until one asks XdndSelection's TARGETS
// (answered with types); false if none came within timeout.
func (c *Conn) Serve(timeout time.Duration, types ...string) bool {
	atoms := c.atoms(types)
	var p *C.Atom
	if len(atoms) > 0 {
		p = &atoms[0]
	}
	return C.xf_serve(c.dpy, p, C.int(len(atoms)), C.int(timeout/time.Millisecond)) != 0
}

func (c *Conn) atoms(names []string) []C.Atom {
	atoms := make([]C.Atom, len(names))
	for i, name := range names {
		s := C.CString(name)
		atoms[i] = C.XInternAtom(c.dpy, s, C.False)
		C.free(unsafe.Pointer(s))
	}
	return atoms
}

// TakeXdndSelection makes owner own XdndSelection, as a drag start does.
func (c *Conn) TakeXdndSelection(owner uintptr) { C.xf_own(c.dpy, C.Window(owner)) }

// TakeXdndSelectionAndGo takes XdndSelection and destroys owner at once,
// like a source that crashes.
func (c *Conn) TakeXdndSelectionAndGo(owner uintptr) { C.xf_own_and_go(c.dpy, C.Window(owner)) }

// Destroy destroys the window win.
func (c *Conn) Destroy(win uintptr) { C.xf_destroy(c.dpy, C.Window(win)) }

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
