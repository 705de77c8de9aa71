//go:build !linux || !cgo || wayland

package dragwatch

import "errors"

// Watch only works on X11 (Linux, cgo, no wayland tag); here it returns an
// error and a no-op stop.
func Watch(win uintptr, over func(bool)) (stop func(), err error) {
	return func() {}, errors.New("dragwatch: this platform does not report drags over a window")
}
