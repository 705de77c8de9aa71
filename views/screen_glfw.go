//go:build !ci

package views

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver"
	"github.com/go-gl/glfw/v3.3/glfw"
)

// screenArea is the part of the main screen windows may use (without the
// panels), in the window's own units; ok is false where it cannot be
// known. Call it on the main goroutine after the window is shown (its
// scale is known then).
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
