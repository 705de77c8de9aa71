package kit

import (
	"os"
	"runtime/debug"
	"time"

	"fyne.io/fyne/v2"
)

// ReleaseText makes Fyne drop the GL textures of the text drawn so far in
// w, and gives the C memory they held back to the system.
//
// Fyne keeps one texture for every distinct string it has drawn, for a
// minute after it was last drawn (fyne-io/fyne#5486). A list that scrolls
// through thousands of rows therefore holds thousands of textures: paging
// through 10,000 agents kept about 12,700 of them, some 185 MB of C memory
// under Mesa's software renderer. Setting the window's content again is the
// public call after which Fyne deletes them (with its GL context current);
// the same widgets stay on screen, the focused one keeps the focus, and the
// few strings on screen are drawn again on the next frame. Call it on the
// UI goroutine, at a pause: it lays out and redraws the whole window.
func ReleaseText(w fyne.Window) {
	release(w, false)
}

// ReleaseIdle is ReleaseText for when the user has stopped (a list at
// rest): it also has the Go heap return its free pages now. After a burst
// of work (decoding pages, drawing rows) the runtime would otherwise keep
// them until its next collection, which an idle window may not see for
// minutes: after paging through 10,000 agents, 64 MB of Go heap resident
// instead of 44 MB. The collection runs on a goroutine of its own, off the
// UI (about 15 ms there).
func ReleaseIdle(w fyne.Window) {
	release(w, true)
}

// Releasing reports whether w is being laid out only for a release of
// text, which sets its content again: Fyne then lays the content out at
// its smallest size and back. A layout that watches its size should let
// that pass (the size it ends with is the one it had). Known of a window
// with a Layer (UI goroutine only).
func Releasing(w fyne.Window) bool {
	if w == nil {
		return false
	}
	l := LayerOf(w.Canvas())
	return l != nil && l.releasing
}

func release(w fyne.Window, idle bool) {
	if w == nil || w.Content() == nil {
		return
	}
	focused := w.Canvas().Focused()
	l := LayerOf(w.Canvas())
	if l != nil {
		l.releasing = true
	}
	w.SetContent(w.Content())
	if l != nil {
		l.releasing = false
	}
	if focused != nil && w.Canvas().Focused() != focused {
		w.Canvas().Focus(focused)
	}
	go func() {
		trimMalloc()
		if idle {
			debug.FreeOSMemory()
		}
	}()
}

// fyneKeeps is how long Fyne keeps the drawing state (renderer) of a
// widget after it was last drawn: a minute, or FYNE_CACHE when set (Fyne
// reads it at start, as here).
func fyneKeeps() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("FYNE_CACHE")); err == nil {
		return d
	}
	return time.Minute
}

// ReleaseLate is for a window left alone since longer than fyneKeeps:
// Fyne lets go of the drawing state of widgets no longer shown (a reply's
// rows scrolled away, and every widget they hold) only when it paints a
// frame, which a window left alone does not do; 200 streamed replies kept
// some 90 MB that way. ReleaseLate has the window painted once, then the
// memory freed given back (off the UI). Call it on the UI goroutine.
func ReleaseLate(w fyne.Window) {
	if w == nil || w.Content() == nil {
		return
	}
	w.Canvas().Refresh(w.Content())
	time.AfterFunc(time.Second, func() {
		trimMalloc()
		debug.FreeOSMemory()
	})
}
