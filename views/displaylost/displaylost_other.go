//go:build !linux || !cgo || wayland

package displaylost

// OnLost does nothing here: only X11 ends a program whose display went
// away before it can save.
func OnLost(fn func()) {}
