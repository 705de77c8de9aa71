// Package dragwatch tells whether files are being dragged over a window.
//
// Fyne 2.7 (GLFW 3.3) reports a file drop on a window but never a drag
// entering or moving over it, so the app cannot highlight the window while
// files are dragged over it. On X11 this package finds it out on its own
// connection, without touching Fyne's: every XDND drag source takes
// ownership of the XdndSelection selection when a drag starts, XFixes tells
// us when that happens, and from then on, while a pointer button is held, we
// look where the pointer is. Only drags of files count (GLFW takes only
// text/uri-list): the source's XdndTypeList property, or else its answer
// when asked for the TARGETS of XdndSelection, must list text/uri-list.
package dragwatch
