package agents

import (
	"context"
	"time"

	"fyne.io/fyne/v2"

	"github.com/agentdesk/agentdesk/views/kit"
)

// Fyne (still in 2.7) keeps a GL texture for every distinct string it has
// drawn, until a minute after it was last drawn (fyne-io/fyne#5486), and
// scrolling the agents list draws a new title on every row it binds:
// paging through 10,000 agents held about 12,700 textures, 185 MB of C
// memory under Mesa's software renderer. textRelease has them dropped (see
// kit.ReleaseText) once releaseRows rows were bound to new agents, and
// when the list has rested for releaseDelay after at least releaseIdleRows
// (about a screen; a release re-binds rows to the agents they showed,
// which does not count). The same scroll then holds a few MB of text.
var (
	releaseRows     = 300
	releaseIdleRows = 20
	releaseDelay    = 500 * time.Millisecond
)

// textRelease counts the rows bound to new agents and releases the text
// drawn for them. Its fields are the UI goroutine's; its one timer is
// stopped when the app closes.
type textRelease struct {
	win  fyne.Window
	life context.Context

	// rows and sinceIdle count the rows bound to a new agent since text
	// was last released, and since the list last rested.
	rows, sinceIdle int
	// at is when the planned release is due; timer fires then.
	at    time.Time
	timer *time.Timer
}

func newTextRelease(win fyne.Window, life context.Context) *textRelease {
	return &textRelease{win: win, life: life}
}

// rowDrawn counts a row bound to another agent than it showed (a new
// string to draw) and plans a release.
func (r *textRelease) rowDrawn() {
	r.rows++
	r.sinceIdle++
	switch {
	case r.rows >= releaseRows:
		r.plan(time.Now())
	case r.sinceIdle >= releaseIdleRows:
		r.plan(time.Now().Add(releaseDelay))
	}
}

// plan releases text at the given time, or later if it is planned again
// meanwhile. Never at once: the list may be in the middle of its layout.
func (r *textRelease) plan(at time.Time) {
	r.at = at
	if r.timer == nil {
		t := time.AfterFunc(time.Until(at), func() { kit.Do(r.due) })
		context.AfterFunc(r.life, func() { t.Stop() })
		r.timer = t
		return
	}
	r.timer.Reset(time.Until(at))
}

// due releases the text drawn so far: at once after many rows, and when the
// list rests, when it also has the memory freed meanwhile given back.
func (r *textRelease) due() {
	if r.life.Err() != nil || time.Now().Before(r.at) {
		return // closing, or planned again for later (the timer was reset)
	}
	switch {
	case r.rows >= releaseRows:
		kit.ReleaseText(r.win)
		r.rows = 0
		// Once the list rests, the rest.
		r.plan(time.Now().Add(releaseDelay))
	case r.sinceIdle >= releaseIdleRows:
		kit.ReleaseIdle(r.win)
		r.rows, r.sinceIdle = 0, 0
	}
}
