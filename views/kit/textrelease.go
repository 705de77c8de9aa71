package kit

import (
	"context"
	"os"
	"runtime/debug"
	"time"

	"fyne.io/fyne/v2"
	"github.com/agentdesk/agentdesk/internal/clock"
)

// TextRelease has Fyne drop its text textures (ReleaseText) after Many new
// strings, or after Rest once Few were drawn. Fyne (2.7) keeps one per string
// drawn for a minute, freeing them only on paint (fyne-io/fyne#5486), so
// rebinding rows and streaming replies pile them up.
type TextRelease struct {
	win    fyne.Window
	life   context.Context
	limits ReleaseLimits

	// drawn and sinceIdle count strings since the last release and rest. UI goroutine only.
	drawn, sinceIdle int
	// at is when the planned release is due; timer fires then.
	at    time.Time
	timer clock.Timer
	// late fires lateAfter a release at rest unless anything was drawn:
	// once Fyne's state for unshown widgets expired, paint once and free it.
	late      clock.Timer
	lateAfter time.Duration
}

// ReleaseLimits say when a TextRelease lets go: after Many strings, or Rest once Few.
type ReleaseLimits struct {
	Many, Few int
	Rest      time.Duration
}

// NewTextRelease counts text drawn in win; its timer stops when life ends.
func NewTextRelease(win fyne.Window, life context.Context, limits ReleaseLimits) *TextRelease {
	return &TextRelease{win: win, life: life, limits: limits, lateAfter: fyneKeeps() + 2*time.Second}
}

func (r *TextRelease) Drawn(n int) {
	r.drawn += n
	r.sinceIdle += n
	switch {
	case r.drawn >= r.limits.Many:
		r.plan(clockNow().Now())
	case r.sinceIdle >= r.limits.Few:
		r.plan(clockNow().Now().Add(r.limits.Rest))
	}
}

// Pending is how many strings were drawn since the screen last rested.
func (r *TextRelease) Pending() int { return r.sinceIdle }

// plan releases at the given time or later; never at once, as a layout may
// be under way.
func (r *TextRelease) plan(at time.Time) {
	r.at = at
	r.timer = r.after(r.timer, at.Sub(clockNow().Now()), r.due)
}

// after has t run fn on the UI goroutine in d, making t if nil; it stops when
// r's life ends.
func (r *TextRelease) after(t clock.Timer, d time.Duration, fn func()) clock.Timer {
	if t != nil {
		t.Reset(d)
		return t
	}
	t = clockNow().AfterFunc(d, func() { Do(fn) })
	context.AfterFunc(r.life, func() { t.Stop() })
	return t
}

// typingPause is how long after a key in the focused text field a release
// waits: setting the window's content again while keys arrive puts the
// caret back, and later letters land before earlier ones.
const typingPause = 2 * time.Second

// typing reports whether the user is typing in w's focused field.
func typing(w fyne.Window) bool {
	f, ok := w.Canvas().Focused().(interface{ lastKeyed() time.Time })
	return ok && clockNow().Now().Sub(f.lastKeyed()) < typingPause
}

// due releases the text drawn; at rest it also returns freed memory. While
// the user types it waits for a pause.
func (r *TextRelease) due() {
	if r.life.Err() != nil || clockNow().Now().Before(r.at) {
		return // closing, or planned again for later (the timer was reset)
	}
	if typing(r.win) {
		r.plan(clockNow().Now().Add(typingPause))
		return
	}
	switch {
	case r.drawn >= r.limits.Many:
		ReleaseText(r.win)
		r.drawn = 0
		// Once the screen rests, the rest.
		r.plan(clockNow().Now().Add(r.limits.Rest))
	case r.sinceIdle >= r.limits.Few:
		release(r.win, true)
		r.drawn, r.sinceIdle = 0, 0
		r.planLate()
	}
}

// planLate has releaseLate run lateAfter from now if nothing is drawn.
func (r *TextRelease) planLate() {
	r.late = r.after(r.late, r.lateAfter, func() {
		if r.life.Err() == nil && r.drawn == 0 && r.sinceIdle == 0 && !typing(r.win) {
			releaseLate(r.win)
		}
	})
}

// ReleaseText makes Fyne drop the GL textures of text drawn so far in w and
// returns their C memory. Fyne keeps a texture per string drawn for a minute
// (fyne-io/fyne#5486), so a scrolled list piles them up; setting the content
// again is the public call that frees them. UI goroutine, at a pause: it
// relays out the whole window.
func ReleaseText(w fyne.Window) { release(w, false) }

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

// release is ReleaseText; idle (the user stopped) also returns the heap's
// free pages now, which an idle window might keep for minutes, off the UI
// goroutine.
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

// releaseLate is for a window idle longer than fyneKeeps: Fyne frees unshown
// widgets' renderers only when it paints, which an idle window does not.
// It paints once, then returns the memory off the UI. UI goroutine.
func releaseLate(w fyne.Window) {
	if w == nil || w.Content() == nil {
		return
	}
	w.Canvas().Refresh(w.Content())
	time.AfterFunc(time.Second, func() {
		trimMalloc()
		debug.FreeOSMemory()
	})
}
