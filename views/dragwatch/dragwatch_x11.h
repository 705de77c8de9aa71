//go:build linux && cgo && !wayland

#include <X11/Xlib.h>

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

int dw_open(Window win, dw_t **out);
void dw_close(dw_t *d);
int dw_wait(dw_t *d, int wakefd, int timeout, int roundtrips);
int dw_drain(dw_t *d, int sync);
int dw_query(dw_t *d, int *over);
