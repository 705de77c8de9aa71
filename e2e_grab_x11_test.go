//go:build linux && cgo

package main

import (
	"strconv"

	"github.com/agentdesk/agentdesk/internal/xfake"
)

// grab reads the top-left w×h of the test's display as RGBA through its
// own X connection: tests look at the screen many times a second, too
// often to start a program for each look.
func (e *E2E) grab(w, h int) ([]byte, error) {
	if e.screen == nil {
		x, err := xfake.OpenDisplay(e.Display)
		if err != nil {
			return nil, err
		}
		e.screen = x
		// Registered after the display's own stop: closed before it.
		e.t.Cleanup(x.Close)
	}
	return e.screen.Capture(w, h)
}

// AskToClose asks the window to close as a window manager's close button
// does (the test's display has no window manager to press).
func (e *E2E) AskToClose() {
	e.t.Helper()
	win, err := strconv.ParseUint(e.Window, 10, 64)
	if err != nil {
		e.t.Fatalf("window id %q: %v", e.Window, err)
	}
	if _, err := e.grab(1, 1); err != nil { // the test's own connection
		e.t.Fatal(err)
	}
	e.screen.(*xfake.Conn).AskToClose(uintptr(win))
}
