// Package xfake makes the X11 windows and the drag-source side of XDND that
// dragwatch's tests need, on its own X connection (cgo is not allowed in
// _test.go files). Only tests use it; X errors here end the process.
package xfake
