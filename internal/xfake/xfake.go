//go:build linux && cgo

package xfake

/*
#cgo LDFLAGS: -lX11
#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <X11/Xlib.h>

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

static void xf_own(Display *dpy, Window owner) {
	XSetSelectionOwner(dpy, XInternAtom(dpy, "XdndSelection", False), owner, CurrentTime);
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

// Source makes an unmapped window, to own XdndSelection as a drag source's
// hidden window does.
func (c *Conn) Source() uintptr { return c.window(0, 0, 0, 1, 1, false, false) }

// TakeXdndSelection makes owner the owner of XdndSelection, as a drag
// source does when a drag starts.
func (c *Conn) TakeXdndSelection(owner uintptr) { C.xf_own(c.dpy, C.Window(owner)) }

// Destroy destroys the window win.
func (c *Conn) Destroy(win uintptr) { C.xf_destroy(c.dpy, C.Window(win)) }

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
