//go:build !(linux && cgo)

package main

import "fmt"

// grab reads the top-left w×h of the test's display as RGBA with
// ImageMagick's import.
func (e *E2E) grab(w, h int) ([]byte, error) {
	return e.output("import", "-silent", "-window", "root", "-crop", fmt.Sprintf("%dx%d+0+0", w, h), "-depth", "8", "rgba:-")
}

// AskToClose needs Xlib: the test is skipped where it cannot ask.
func (e *E2E) AskToClose() {
	e.t.Helper()
	e.t.Skip("asking a window to close needs X11 and cgo")
}
