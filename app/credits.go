package app

import (
	"time"

	"github.com/agentdesk/agentdesk/app/ledger"
)

// Ledger is what the account's work has cost, as this computer recorded
// it; each charge recorded counts in Session.Charges.
func (a *App) Ledger() *ledger.Ledger {
	return ledger.New(a.db, a.AccountID, func() { a.publish(func(s *Session) { s.Charges++ }) }, time.Now)
}
