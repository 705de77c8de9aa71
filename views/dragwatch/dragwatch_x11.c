//go:build linux && cgo && !wayland

// The X11 side of the drag watch, on its own connection.

#include "dragwatch_x11.h"
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>
#include <X11/Xlibint.h>
#include <X11/Xatom.h>
#include <X11/extensions/Xfixes.h>

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

int dw_open(Window win, dw_t **out) {
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

void dw_close(dw_t *d) {
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
int dw_wait(dw_t *d, int wakefd, int timeout, int roundtrips) {
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
int dw_drain(dw_t *d, int sync) {
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
int dw_query(dw_t *d, int *over) {
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
