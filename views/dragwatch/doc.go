// Package dragwatch tells whether files are being dragged over a window.
//
// Fyne (GLFW 3.3) reports drops but never a drag entering a window. On X11
// this package watches on its own connection: XFixes reports when a drag
// source takes XdndSelection, then the pointer is polled while a button is
// held. Only drags offering text/uri-list (all GLFW accepts) count.
package dragwatch
