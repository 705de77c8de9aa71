//go:build !ci

package views

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver"

	"github.com/agentdesk/agentdesk/views/dragwatch"
	"github.com/agentdesk/agentdesk/views/kit"
)

// watchDrags highlights the window while files are dragged over it, with
// hint()'s words ("": none; false: this screen refuses them). Fyne reports
// only the drop; on X11 dragwatch tells the rest. Call on the main goroutine
// after the window is shown; stop ends the watch.
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
