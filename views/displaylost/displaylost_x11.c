//go:build linux && cgo && !wayland

#include <X11/Xlib.h>
#include "_cgo_export.h"

// Xlib calls this when the display's connection breaks, and ends the
// program when it returns; the Go side saves first and ends it itself.
static int agentdesk_display_lost(Display *dpy) {
	(void)dpy;
	agentdeskDisplayLost();
	return 0;
}

void agentdesk_watch_display(void) {
	XSetIOErrorHandler(agentdesk_display_lost);
}
