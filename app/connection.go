package app

import "github.com/agentdesk/agentdesk/app/live"

// Connection is what the last check of the active account's service found,
// for the screens that load from it: when the service becomes reachable
// again they load what they could not.
type Connection struct {
	// Checked says a check has finished.
	Checked bool
	// Reachable says the service answered the last check, even with a refusal.
	Reachable bool
	// Returns counts the times the service came back.
	Returns int
}

// Connection is the active account's connection, as last checked.
func (a *App) Connection() live.Observable[Connection] { return a.conn }

// SetReachable publishes the result of a connection check.
func (a *App) SetReachable(ok bool) {
	a.conn.Update(func(c Connection) Connection {
		if ok && c.Checked && !c.Reachable {
			c.Returns++
		}
		c.Checked, c.Reachable = true, ok
		return c
	})
}
