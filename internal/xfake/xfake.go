//go:build linux && cgo

package xfake

/*
#cgo LDFLAGS: -lX11
#include <stdlib.h>
#include <X11/Xlib.h>
#include "xfake.h"
*/
import "C"

import (
	"errors"
	"sync"
	"time"
	"unsafe"
)

// Conn is a connection to $DISPLAY; use it from one goroutine at a time.
type Conn struct {
	once sync.Once
	dpy  *C.Display
}

// Open connects to the display named by $DISPLAY.
func Open() (*Conn, error) { return OpenDisplay("") }

// OpenDisplay connects to the display called name (such as ":5"); "" is
// $DISPLAY's.
func OpenDisplay(name string) (*Conn, error) {
	var cname *C.char
	if name != "" {
		cname = C.CString(name)
		defer C.free(unsafe.Pointer(cname))
	}
	dpy := C.XOpenDisplay(cname)
	if dpy == nil {
		return nil, errors.New("xfake: cannot open the X display")
	}
	return &Conn{dpy: dpy}, nil
}

// Close closes the connection, safe when the server went away.
func (c *Conn) Close() {
	c.once.Do(func() { C.xf_close(c.dpy) })
}

func (c *Conn) window(parent uintptr, x, y, w, h int, override, mapped bool) uintptr {
	return uintptr(C.xf_window(c.dpy, C.Window(parent), C.int(x), C.int(y), C.int(w), C.int(h), cbool(override), cbool(mapped)))
}

// Window makes and maps a w×h top-level at (x, y), above earlier ones.
func (c *Conn) Window(x, y, w, h int) uintptr { return c.window(0, x, y, w, h, false, true) }

// Child makes and maps a window inside parent, as a WM frame holds the app's.
func (c *Conn) Child(parent uintptr, x, y, w, h int) uintptr {
	return c.window(parent, x, y, w, h, false, true)
}

// Overlay makes an override-redirect top-level, as drag sources show the
// dragged thing.
func (c *Conn) Overlay(x, y, w, h int) uintptr { return c.window(0, x, y, w, h, true, true) }

// URIList is the type a drag offers files in.
const URIList = "text/uri-list"

// Source makes an unmapped drag-source window offering text/uri-list.
func (c *Conn) Source() uintptr { return c.SourceOffering(URIList) }

// SourceOffering makes an unmapped drag-source window with XdndTypeList
// types; without types only Serve tells what it offers.
func (c *Conn) SourceOffering(types ...string) uintptr {
	win := c.window(0, 0, 0, 1, 1, false, false)
	if len(types) > 0 {
		atoms := c.atoms(types)
		C.xf_types(c.dpy, C.Window(win), &atoms[0], C.int(len(atoms)))
	}
	return win
}

// Serve answers selection requests until one asks XdndSelection's TARGETS
// (answered with types); false if none came within timeout.
func (c *Conn) Serve(timeout time.Duration, types ...string) bool {
	atoms := c.atoms(types)
	var p *C.Atom
	if len(atoms) > 0 {
		p = &atoms[0]
	}
	return C.xf_serve(c.dpy, p, C.int(len(atoms)), C.int(timeout/time.Millisecond)) != 0
}

func (c *Conn) atoms(names []string) []C.Atom {
	atoms := make([]C.Atom, len(names))
	for i, name := range names {
		s := C.CString(name)
		atoms[i] = C.XInternAtom(c.dpy, s, C.False)
		C.free(unsafe.Pointer(s))
	}
	return atoms
}

// TakeXdndSelection makes owner own XdndSelection, as a drag start does.
func (c *Conn) TakeXdndSelection(owner uintptr) { C.xf_own(c.dpy, C.Window(owner)) }

// TakeXdndSelectionAndGo takes XdndSelection and destroys owner at once,
// like a source that crashes.
func (c *Conn) TakeXdndSelectionAndGo(owner uintptr) { C.xf_own_and_go(c.dpy, C.Window(owner)) }

// Destroy destroys the window win.
func (c *Conn) Destroy(win uintptr) { C.xf_destroy(c.dpy, C.Window(win)) }

// AskToClose asks win to close as a window manager's close button does.
func (c *Conn) AskToClose(win uintptr) { C.xf_ask_close(c.dpy, C.Window(win)) }

// Capture is the top-left w×h of the screen as RGBA bytes, read by the X
// server itself: a screenshot without starting a program for it.
func (c *Conn) Capture(w, h int) ([]byte, error) {
	if w <= 0 || h <= 0 {
		return nil, errors.New("xfake: nothing to capture")
	}
	out := make([]byte, 4*w*h)
	if C.xf_capture(c.dpy, C.int(w), C.int(h), (*C.uchar)(unsafe.Pointer(&out[0]))) == 0 {
		return nil, errors.New("xfake: the display gave no picture")
	}
	return out, nil
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
