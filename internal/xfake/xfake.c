//go:build linux && cgo

// The X11 calls behind xfake.go, on its own connection.

#include "xfake.h"
#include <errno.h>
#include <stdlib.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <X11/Xatom.h>
#include <X11/Xutil.h>

// xf_close closes without Xlib if the server went away (Xlib would exit).
void xf_close(Display *dpy) {
	int fd = ConnectionNumber(dpy);
	struct pollfd p = {fd, POLLIN, 0};
	char c;
	if (poll(&p, 1, 0) == 1 && ((p.revents & (POLLERR | POLLHUP)) || recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 0)) {
		close(fd);
		return;
	}
	XCloseDisplay(dpy);
}

Window xf_window(Display *dpy, Window parent, int x, int y, int w, int h, int override, int map) {
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

void xf_types(Display *dpy, Window win, Atom *types, int n) {
	XChangeProperty(dpy, win, XInternAtom(dpy, "XdndTypeList", False), XA_ATOM, 32, PropModeReplace,
			(unsigned char *)types, n);
	XSync(dpy, False);
}

// xf_serve answers SelectionRequests for ms as an XDND source: TARGETS with
// types, anything else refused. Returns 1 after TARGETS, 0 on timeout.
int xf_serve(Display *dpy, Atom *types, int n, int ms) {
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

void xf_own(Display *dpy, Window owner) {
	XSetSelectionOwner(dpy, XInternAtom(dpy, "XdndSelection", False), owner, CurrentTime);
	XSync(dpy, False);
}

// xf_own_and_go takes XdndSelection and destroys owner under a server grab,
// so no other request comes between.
void xf_own_and_go(Display *dpy, Window owner) {
	XGrabServer(dpy);
	XSetSelectionOwner(dpy, XInternAtom(dpy, "XdndSelection", False), owner, CurrentTime);
	XDestroyWindow(dpy, owner);
	XUngrabServer(dpy);
	XSync(dpy, False);
}

void xf_destroy(Display *dpy, Window win) {
	XDestroyWindow(dpy, win);
	XSync(dpy, False);
}

// xf_ask_close sends win the WM_DELETE_WINDOW message a window manager sends
// when its close button is pressed.
void xf_ask_close(Display *dpy, Window win) {
	XEvent ev = {0};
	ev.xclient.type = ClientMessage;
	ev.xclient.window = win;
	ev.xclient.message_type = XInternAtom(dpy, "WM_PROTOCOLS", False);
	ev.xclient.format = 32;
	ev.xclient.data.l[0] = XInternAtom(dpy, "WM_DELETE_WINDOW", False);
	ev.xclient.data.l[1] = CurrentTime;
	XSendEvent(dpy, win, False, NoEventMask, &ev);
	XSync(dpy, False);
}

// xf_capture copies the root window's top-left w×h into out as RGBA; 0 when
// the display cannot give it (a failed request does not end the program).
static int xf_failed;
static int xf_note(Display *dpy, XErrorEvent *e) { xf_failed = 1; return 0; }

int xf_capture(Display *dpy, int w, int h, unsigned char *out) {
	xf_failed = 0;
	int (*old)(Display *, XErrorEvent *) = XSetErrorHandler(xf_note);
	XImage *img = XGetImage(dpy, DefaultRootWindow(dpy), 0, 0, w, h, AllPlanes, ZPixmap);
	XSync(dpy, False);
	XSetErrorHandler(old);
	// Only true-colour images have a mask per colour; others are refused.
	if (img == NULL || xf_failed || !img->red_mask || !img->green_mask || !img->blue_mask) {
		if (img != NULL) {
			XDestroyImage(img);
		}
		return 0;
	}
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			unsigned long p = XGetPixel(img, x, y);
			unsigned char *o = out + 4 * (y * w + x);
			o[0] = (p & img->red_mask) >> __builtin_ctzl(img->red_mask);
			o[1] = (p & img->green_mask) >> __builtin_ctzl(img->green_mask);
			o[2] = (p & img->blue_mask) >> __builtin_ctzl(img->blue_mask);
			o[3] = 255;
		}
	}
	XDestroyImage(img);
	return 1;
}
