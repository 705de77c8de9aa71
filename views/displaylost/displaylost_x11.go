//go:build linux && cgo && !wayland

package displaylost

/*
#cgo LDFLAGS: -lX11
void agentdesk_watch_display(void);
*/
import "C"

import (
	"fmt"
	"os"
	"sync/atomic"
)

// lost is what runs when the display goes away: Xlib's handler is one per
// process and carries no data, so the function waits here.
var lost atomic.Pointer[func()]

// OnLost has fn run when the connection to the X display breaks, then ends
// the program (Xlib does not let it go on); fn should save and return.
func OnLost(fn func()) {
	lost.Store(&fn)
	C.agentdesk_watch_display()
}

//export agentdeskDisplayLost
func agentdeskDisplayLost() {
	if fn := lost.Load(); fn != nil {
		(*fn)()
	}
	fmt.Fprintln(os.Stderr, "agentdesk: the display went away; what was typed is saved")
	os.Exit(1)
}
