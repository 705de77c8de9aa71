//go:build !linux || !cgo || wayland

package dragwatch

import "errors"

// Watch would report whether files are being dragged over the window win,
// but only X11 (Linux, with cgo, without the wayland tag) lets us find that
// out, so here it returns an error and a stop that does nothing.
func Watch(win uintptr, over func(bool)) (stop func(), err error) {
	return func() {}, errors.New("dragwatch: this platform does not report drags over a window")
}
