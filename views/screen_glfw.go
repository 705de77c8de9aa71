//go:build !ci

package views

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver"
	"github.com/go-gl/glfw/v3.3/glfw"
)

// screenArea is the main screen's usable area (without panels) in window
// units; ok is false where unknown. Call on the main goroutine after Show.
func screenArea(win fyne.Window) (area fyne.Size, ok bool) {
	nw, native := win.(driver.NativeWindow)
	if !native {
		return area, false
	}
	nw.RunNative(func(ctx any) {
		switch ctx.(type) {
		case driver.X11WindowContext, driver.WindowsWindowContext, driver.MacWindowContext, driver.WaylandWindowContext:
		default:
			return
		}
		m := glfw.GetPrimaryMonitor()
		if m == nil {
			return
		}
		_, _, w, h := m.GetWorkarea()
		scale := win.Canvas().Scale()
		if w <= 0 || h <= 0 || scale <= 0 {
			return
		}
		area, ok = fyne.NewSize(float32(w)/scale, float32(h)/scale), true
	})
	return area, ok
}
