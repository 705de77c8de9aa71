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

// xf_close closes the connection, without Xlib if the server went away
// (Xlib would exit the process).
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

// xf_types sets XdndTypeList on win to the n atoms in types.
static void xf_types(Display *dpy, Window win, Atom *types, int n) {
	XChangeProperty(dpy, win, XInternAtom(dpy, "XdndTypeList", False), XA_ATOM, 32, PropModeReplace,
			(unsigned char *)types, n);
	XSync(dpy, False);
}

// xf_serve answers the SelectionRequests that come in ms milliseconds, as
// an XDND source does: TARGETS on XdndSelection with the n atoms in types,
// anything else with a refusal. It returns after answering TARGETS once
// (1), or when no event came for ms (0).
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

// xf_own_and_go makes owner the owner of XdndSelection and destroys it,
// the server grabbed so that no other client's request comes between.
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

// Conn is a connection to the display named by $DISPLAY; use it from one
// goroutine at a time.
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

// Close closes the connection; the server destroys its windows. It is
// safe when the server went away.
func (c *Conn) Close() {
	c.once.Do(func() { C.xf_close(c.dpy) })
}

func (c *Conn) window(parent uintptr, x, y, w, h int, override, mapped bool) uintptr {
	return uintptr(C.xf_window(c.dpy, C.Window(parent), C.int(x), C.int(y), C.int(w), C.int(h), cbool(override), cbool(mapped)))
}

// Window makes and maps a top-level window at (x, y) on the root, w×h big,
// above the ones made before. Without a window manager it stays there.
func (c *Conn) Window(x, y, w, h int) uintptr { return c.window(0, x, y, w, h, false, true) }

// Child makes and maps a window inside parent at (x, y), as a window
// manager's frame holds the app's window.
func (c *Conn) Child(parent uintptr, x, y, w, h int) uintptr {
	return c.window(parent, x, y, w, h, false, true)
}

// Overlay makes and maps an override-redirect top-level window, as drag
// sources show the dragged thing under the pointer.
func (c *Conn) Overlay(x, y, w, h int) uintptr { return c.window(0, x, y, w, h, true, true) }

// URIList is the type a drag offers files in.
const URIList = "text/uri-list"

// Source makes an unmapped window, to own XdndSelection as a file
// manager's hidden drag-source window does: its XdndTypeList says it
// offers text/uri-list.
func (c *Conn) Source() uintptr { return c.SourceOffering(URIList) }

// SourceOffering makes an unmapped window, to own XdndSelection as a drag
// source's hidden window does, with its XdndTypeList set to types; without
// types it has no XdndTypeList (then only Serve tells what it offers).
func (c *Conn) SourceOffering(types ...string) uintptr {
	win := c.window(0, 0, 0, 1, 1, false, false)
	if len(types) > 0 {
		atoms := c.atoms(types)
		C.xf_types(c.dpy, C.Window(win), &atoms[0], C.int(len(atoms)))
	}
	return win
}

// Serve answers the selection requests that come to this connection's
// windows until one asks XdndSelection for its TARGETS, which it answers
// with types (a drag source's XdndSelection answers it with the types the
// drag offers), and tells whether one came before no event came for
// timeout.
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

// TakeXdndSelection makes owner the owner of XdndSelection, as a drag
// source does when a drag starts.
func (c *Conn) TakeXdndSelection(owner uintptr) { C.xf_own(c.dpy, C.Window(owner)) }

// TakeXdndSelectionAndGo makes owner the owner of XdndSelection and
// destroys it before any other client is heard, as a drag source that
// crashes at once.
func (c *Conn) TakeXdndSelectionAndGo(owner uintptr) { C.xf_own_and_go(c.dpy, C.Window(owner)) }

// Destroy destroys the window win.
func (c *Conn) Destroy(win uintptr) { C.xf_destroy(c.dpy, C.Window(win)) }

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
