//go:build !linux || !cgo

package kit

// trimMalloc does nothing where the C library needs no asking.
func trimMalloc() {}
