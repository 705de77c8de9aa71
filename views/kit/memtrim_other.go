//go:build !linux || !cgo

package kit

// trimMalloc does nothing where the C library gives memory back by itself
// or has no call to ask it.
func trimMalloc() {}
