//go:build linux && cgo && !wayland

package dragwatch

/*
#cgo LDFLAGS: -lX11 -lXfixes
#include <stdlib.h>
#include "dragwatch_x11.h"
*/
import "C"

import (
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"
)

const pollMillis = 50

// askTimeout: a source that does not answer in time offers no files.
const askTimeout = 300 * time.Millisecond

// Watch reports via over whether files are dragged over X11 window win (the
// WindowHandle of driver.X11WindowContext), only on changes and on its own
// goroutine; over must not call stop. stop waits for the goroutine, reports
// nothing more, and may be called twice. The watch also ends if the server
// goes away. A drag counts from a source taking XdndSelection until the
// buttons are released, and only if it offers text/uri-list.
func Watch(win uintptr, over func(bool)) (stop func(), err error) {
	w, err := start(win, over, askTimeout)
	if err != nil {
		return func() {}, err
	}
	return w.stop, nil
}

type watcher struct {
	d     *C.dw_t
	over  func(bool)
	ask   time.Duration // askTimeout, unless a test waits longer
	wakeR int
	done  chan struct{}

	mu      sync.Mutex
	wakeW   int             // -1 once stopped
	pending []chan struct{} // sync calls waiting for a turn of the loop
}

func start(win uintptr, over func(bool), ask time.Duration) (*watcher, error) {
	var d *C.dw_t
	switch C.dw_open(C.Window(win), &d) {
	case C.DW_OK:
	case C.DW_NO_XFIXES:
		return nil, fmt.Errorf("dragwatch: X display %q has no XFixes extension", os.Getenv("DISPLAY"))
	case C.DW_NO_WINDOW:
		return nil, fmt.Errorf("dragwatch: no X window %#x", win)
	default:
		return nil, fmt.Errorf("dragwatch: cannot open X display %q", os.Getenv("DISPLAY"))
	}
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC|syscall.O_NONBLOCK); err != nil {
		C.dw_close(d)
		return nil, fmt.Errorf("dragwatch: %w", err)
	}
	w := &watcher{d: d, over: over, ask: ask, wakeR: p[0], wakeW: p[1], done: make(chan struct{})}
	go w.run()
	return w, nil
}

func (w *watcher) run() {
	defer close(w.done)
	// armed: a file drag is under way; asking: its source's answer is awaited.
	armed, asking, over, roundtrips := false, false, false, false
	var deadline time.Time
	report := func(v bool) {
		if v != over {
			over = v
			w.over(v)
		}
	}
	for {
		timeout := C.int(-1)
		if armed {
			timeout = pollMillis
		} else if asking {
			timeout = C.int(max(0, (time.Until(deadline)+time.Millisecond-1)/time.Millisecond))
		}
		r := C.dw_wait(w.d, C.int(w.wakeR), timeout, cbool(roundtrips))
		if r&(C.DW_STOP|C.DW_BROKEN) != 0 {
			break
		}
		syncs := w.takePending()
		found := C.dw_drain(w.d, cbool(len(syncs) > 0))
		switch found {
		case C.DW_FILES:
			armed, asking = true, false
		case C.DW_ASKING:
			armed, asking = false, true
			deadline = time.Now().Add(w.ask)
		case C.DW_NO_FILES:
			armed, asking = false, false
		}
		if asking && !time.Now().Before(deadline) {
			asking = false
			w.d.asking = 0 // an answer coming later is not heeded
		}
		// Requests may have read events that will not wake poll.
		roundtrips = found != C.DW_NOTHING
		var in C.int
		if armed {
			roundtrips = true
			if C.dw_query(w.d, &in) == 0 {
				armed = false // buttons released: dropped or cancelled
			}
		}
		report(armed && in != 0)
		for _, s := range syncs {
			close(s)
		}
	}
	C.dw_close(w.d)
	syscall.Close(w.wakeR)
	for _, s := range w.takePending() {
		close(s)
	}
}

func (w *watcher) takePending() []chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := w.pending
	w.pending = nil
	return s
}

func (w *watcher) stop() {
	w.mu.Lock()
	if w.wakeW >= 0 {
		syscall.Close(w.wakeW) // the goroutine reads end of file
		w.wakeW = -1
	}
	w.mu.Unlock()
	<-w.done
}

// sync returns once every X event sent before the call is handled, so tests
// need not wait for a time.
func (w *watcher) sync() {
	ack := make(chan struct{})
	w.mu.Lock()
	if w.wakeW < 0 {
		w.mu.Unlock()
		return
	}
	w.pending = append(w.pending, ack)
	syscall.Write(w.wakeW, []byte{0})
	w.mu.Unlock()
	select {
	case <-ack:
	case <-w.done:
	}
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
