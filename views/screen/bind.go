package screen

import (
	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/views/kit"
)

// OnAccountChange calls reload on the UI goroutine each time an account is
// activated after this call, so screens drop the old one's data.
func OnAccountChange(a *app.App, reload func()) (stop func()) {
	return onSessionCount(a, func(s app.Session) uint64 { return s.Activations }, reload)
}

// onServiceBack calls reload on the UI goroutine each time the service can be
// reached again after it could not.
func onServiceBack(a *app.App, reload func()) (stop func()) {
	return OnNew(a.Connection(), func(c app.Connection) uint64 { return uint64(c.Returns) }, func(app.Connection) { reload() })
}

// Follow keeps a screen to the account in use and the service: changed runs
// after each account change, and retry when the service is back if failed
// says the last reading failed.
func Follow(a *app.App, changed func(), failed func() bool, retry func()) {
	OnAccountChange(a, changed)
	onServiceBack(a, func() {
		if failed() {
			retry()
		}
	})
}

// OnCharge calls update on the UI goroutine on each charged call recorded
// after this call, and on each account activation.
func OnCharge(a *app.App, update func()) (stop func()) {
	return onSessionCount(a, func(s app.Session) uint64 { return s.Charges + s.Activations }, update)
}

func onSessionCount(a *app.App, count func(app.Session) uint64, fn func()) (stop func()) {
	return OnNew(a.Session(), count, func(app.Session) { fn() })
}

// OnNew calls fn on the UI goroutine with each value of o whose count
// differs from the last one seen, from this call on.
func OnNew[T any](o kit.Observable[T], count func(T) uint64, fn func(T)) (stop func()) {
	first := true
	var seen uint64
	return kit.Bind(o, func(v T) {
		n := count(v)
		if first || n == seen {
			first, seen = false, n
			return
		}
		seen = n
		fn(v)
	})
}
