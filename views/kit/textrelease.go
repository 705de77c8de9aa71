package kit

import (
	"context"
	"time"

	"fyne.io/fyne/v2"
)

// Fyne (still in 2.7) keeps a GL texture for every distinct string it has
// drawn, until a minute after it was last drawn, and lets go of expired
// ones only when it paints a frame (fyne-io/fyne#5486). A list that binds
// new rows, or a reply that streams in (each frame draws its last line
// anew), leaves thousands of them: paging through 10,000 agents held about
// 12,700 textures, 185 MB of C memory under Mesa's software renderer, and
// 200 streamed 20 kB replies some 500 MB. TextRelease has them dropped (see
// ReleaseText) once Many strings were drawn, and when the screen has rested
// for Rest after at least Few (a release draws again what is on screen,
// which does not count).
type TextRelease struct {
	win    fyne.Window
	life   context.Context
	limits ReleaseLimits

	// drawn and sinceIdle count the strings drawn since text was last
	// released, and since the screen last rested. UI goroutine only.
	drawn, sinceIdle int
	// at is when the planned release is due; timer fires then.
	at    time.Time
	timer *time.Timer
	// late fires lateAfter after a release at rest (ReleaseLate), unless
	// anything was drawn meanwhile: once Fyne's drawing state of what the
	// screen no longer shows expired, it is painted once more and its
	// memory given back.
	late      *time.Timer
	lateAfter time.Duration
}

// ReleaseLimits say when a TextRelease lets go of text: at once after Many
// new strings, after Rest without new ones once there are Few.
type ReleaseLimits struct {
	Many, Few int
	Rest      time.Duration
}

// NewTextRelease counts the text drawn in win; its one timer stops when
// life ends (the app closes).
func NewTextRelease(win fyne.Window, life context.Context, limits ReleaseLimits) *TextRelease {
	return &TextRelease{win: win, life: life, limits: limits, lateAfter: fyneKeeps() + 2*time.Second}
}

// Drawn counts n new strings drawn (a row bound to other content, a frame
// of a reply arriving) and plans a release.
func (r *TextRelease) Drawn(n int) {
	r.drawn += n
	r.sinceIdle += n
	switch {
	case r.drawn >= r.limits.Many:
		r.plan(time.Now())
	case r.sinceIdle >= r.limits.Few:
		r.plan(time.Now().Add(r.limits.Rest))
	}
}

// Pending is how many strings were drawn since the screen last rested.
func (r *TextRelease) Pending() int { return r.sinceIdle }

// plan releases text at the given time, or later if it is planned again
// meanwhile. Never at once: the screen may be in the middle of its layout.
func (r *TextRelease) plan(at time.Time) {
	r.at = at
	if r.timer == nil {
		t := time.AfterFunc(time.Until(at), func() { Do(r.due) })
		context.AfterFunc(r.life, func() { t.Stop() })
		r.timer = t
		return
	}
	r.timer.Reset(time.Until(at))
}

// due releases the text drawn so far: at once after many strings, and when
// the screen rests, when it also has the memory freed meanwhile given back.
func (r *TextRelease) due() {
	if r.life.Err() != nil || time.Now().Before(r.at) {
		return // closing, or planned again for later (the timer was reset)
	}
	switch {
	case r.drawn >= r.limits.Many:
		ReleaseText(r.win)
		r.drawn = 0
		// Once the screen rests, the rest.
		r.plan(time.Now().Add(r.limits.Rest))
	case r.sinceIdle >= r.limits.Few:
		ReleaseIdle(r.win)
		r.drawn, r.sinceIdle = 0, 0
		r.planLate()
	}
}

// planLate has ReleaseLate run lateAfter from now if nothing is drawn
// meanwhile.
func (r *TextRelease) planLate() {
	if r.late == nil {
		t := time.AfterFunc(r.lateAfter, func() {
			Do(func() {
				if r.life.Err() == nil && r.drawn == 0 && r.sinceIdle == 0 {
					ReleaseLate(r.win)
				}
			})
		})
		context.AfterFunc(r.life, func() { t.Stop() })
		r.late = t
		return
	}
	r.late.Reset(r.lateAfter)
}
