package agents

import (
	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/views/kit"
)

// bindUntil shows each snapshot of o until show reports the last one it
// needs; stop ends it sooner.
func bindUntil[T any](o live.Observable[T], show func(T) (last bool)) (stop func()) {
	done := false
	stop = kit.Bind(o, func(v T) {
		if done {
			return
		}
		if show(v) {
			done = true
			if stop != nil {
				stop()
			}
		}
	})
	if done { // the first snapshot was already the last
		stop()
	}
	return stop
}
