//go:build !ci

package views

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver"

	"github.com/agentdesk/agentdesk/views/dragwatch"
	"github.com/agentdesk/agentdesk/views/kit"
)

// watchDrags highlights the window while files are dragged over it, with
// hint() saying what dropping them does ("": no highlight; takes false:
// this screen would refuse them, and says what to do). Fyne reports
// only the drop; on X11 dragwatch tells the rest, elsewhere the window
// shows nothing until the drop. Call it on the main goroutine after the
// window is shown; the watch ends with the returned stop.
func watchDrags(win fyne.Window, hint func() (string, bool)) (stop func()) {
	stop = func() {}
	nw, ok := win.(driver.NativeWindow)
	if !ok {
		return stop
	}
	var handle uintptr
	nw.RunNative(func(ctx any) {
		if x, ok := ctx.(driver.X11WindowContext); ok {
			handle = x.WindowHandle
		}
	})
	if handle == 0 {
		return stop
	}
	stop, err := dragwatch.Watch(handle, func(over bool) {
		kit.Do(func() {
			l := kit.LayerOf(win.Canvas())
			if l == nil {
				return
			}
			h, takes := "", false
			if over {
				h, takes = hint()
			}
			l.ShowDrop(h != "", h, takes)
		})
	})
	if err != nil {
		fyne.LogError("Files dragged over the window will not be highlighted", err)
		return func() {}
	}
	return stop
}
