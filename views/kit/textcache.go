package kit

import (
	"os"
	"runtime/debug"
	"time"

	"fyne.io/fyne/v2"
)

// ReleaseText makes Fyne drop the GL textures of text drawn so far in w and
// returns their C memory. Fyne keeps a texture per string drawn for a minute
// (fyne-io/fyne#5486), so a scrolled list piles them up; setting the content
// again is the public call that frees them. UI goroutine, at a pause: it
// relays out the whole window.
func ReleaseText(w fyne.Window) {
	release(w, false)
}

// ReleaseIdle is ReleaseText once the user stopped, also returning the heap's
// free pages now, which an idle window might keep for minutes. The
// collection runs off the UI goroutine.
func ReleaseIdle(w fyne.Window) {
	release(w, true)
}

// Releasing reports whether w is laid out only for a text release, which
// passes through its smallest size: size-watching layouts should ignore it.
// UI goroutine only.
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

// fyneKeeps is how long Fyne keeps a widget's renderer: a minute, or FYNE_CACHE.
func fyneKeeps() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("FYNE_CACHE")); err == nil {
		return d
	}
	return time.Minute
}

// ReleaseLate is for a window idle longer than fyneKeeps: Fyne frees unshown
// widgets' renderers only when it paints, which an idle window does not.
// It paints once, then returns the memory off the UI. UI goroutine.
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
