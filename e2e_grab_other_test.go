//go:build !(linux && cgo)

package main

import "fmt"

// grab reads the top-left w×h of the test's display as RGBA with
// ImageMagick's import.
func (e *E2E) grab(w, h int) ([]byte, error) {
	return e.output("import", "-silent", "-window", "root", "-crop", fmt.Sprintf("%dx%d+0+0", w, h), "-depth", "8", "rgba:-")
}
