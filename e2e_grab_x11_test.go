//go:build linux && cgo

package main

import "github.com/agentdesk/agentdesk/internal/xfake"

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
