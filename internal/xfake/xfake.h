//go:build linux && cgo

#include <X11/Xlib.h>

void xf_close(Display *dpy);
Window xf_window(Display *dpy, Window parent, int x, int y, int w, int h, int override, int map);
void xf_types(Display *dpy, Window win, Atom *types, int n);
int xf_serve(Display *dpy, Atom *types, int n, int ms);
void xf_own(Display *dpy, Window owner);
void xf_own_and_go(Display *dpy, Window owner);
void xf_destroy(Display *dpy, Window win);
void xf_ask_close(Display *dpy, Window win);
int xf_capture(Display *dpy, int w, int h, unsigned char *out);
