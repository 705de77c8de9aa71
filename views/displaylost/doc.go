// Package displaylost saves what staff typed when the X display goes away
// under Agent Desk (a remote session cut, the desktop crashing): Xlib then
// ends the program at once, inside the window loop, before closing could
// write anything. Elsewhere OnLost does nothing.
package displaylost
