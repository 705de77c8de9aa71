package app

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/storage"
)

// ErrSetByOrganisation is why a change the organisation's policy locks is refused.
var ErrSetByOrganisation = errors.New("set by the organisation")

// Locks are the settings the organisation's policy file set and locked.
type Locks struct {
	Language bool
	Pace     bool
	// accounts are the locked accounts' ids, with their address and workspace.
	accounts map[string]storage.Account
}

// Account tells that the account's address and workspace are set by the
// organisation, and that it cannot be removed.
func (l Locks) Account(id string) bool {
	_, ok := l.accounts[id]
	return ok
}

// Locks are what the organisation's policy file locks.
func (a *App) Locks() Locks { return a.locks }

// Policy is the organisation's policy file as read at start (empty when
// there is none, or it could not be read); its proxy and certificates are
// for the network settings to apply.
func (a *App) Policy() storage.Policy { return a.policy }

// usePolicy reads the organisation's policy file and applies it to the
// settings just loaded: preset accounts are added if missing, preset values
// fill what the user left as the default, locked ones always apply. An
// unreadable file becomes a notice, and the settings stay as they are.
func (a *App) usePolicy(s storage.Settings) storage.Settings {
	p, err := storage.LoadMachinePolicy(a.cfg.PolicyRegistry, a.cfg.PolicyFile)
	if err != nil {
		path := a.cfg.PolicyFile
		if e, ok := errors.AsType[*storage.Error](err); ok {
			path = e.Path
		}
		a.notices = append(a.notices, func() string {
			return lang.L("The settings your organisation gave Agent Desk could not be read, so it started without them. Please tell your IT department; the file is {{.Path}} ({{.Why}}).", map[string]any{"Path": path, "Why": policyReason(err)})
		})
		return s
	}
	a.policy = p
	s.Accounts = append([]storage.Account(nil), s.Accounts...)
	if l := p.Language; l != nil && (l.Locked || s.Language == "") {
		s.Language = l.Value
		a.locks.Language = l.Locked
	}
	if x := p.Proxy; x != nil && (x.Locked || s.Proxy.Mode == "") {
		s.Proxy = x.ProxySetting
	}
	if n := p.RequestsPerSecond; n != nil {
		a.locks.Pace = n.Locked
		for i := range s.Accounts {
			if !s.Accounts[i].IsDemo() && (n.Locked || s.Accounts[i].RequestsPerSecond == 0) {
				s.Accounts[i].RequestsPerSecond = paceSetting(n.Value)
			}
		}
	}
	for _, pa := range p.Accounts {
		key := storage.PolicyAccountKey(pa.BaseURL, pa.WorkspaceID)
		i := -1
		for j, acct := range s.Accounts {
			if !acct.IsDemo() && storage.PolicyAccountKey(acct.BaseURL, acct.WorkspaceID) == key {
				i = j
				break
			}
		}
		if i < 0 {
			sum := sha256.Sum256([]byte(key))
			acct := storage.Account{ID: "org-" + hex.EncodeToString(sum[:8]), Name: pa.Name, BaseURL: pa.BaseURL, WorkspaceID: pa.WorkspaceID}
			if n := p.RequestsPerSecond; n != nil {
				acct.RequestsPerSecond = paceSetting(n.Value)
			}
			s.Accounts = append(s.Accounts, acct)
			i = len(s.Accounts) - 1
		}
		if pa.Locked {
			if a.locks.accounts == nil {
				a.locks.accounts = map[string]storage.Account{}
			}
			a.locks.accounts[s.Accounts[i].ID] = s.Accounts[i]
		}
	}
	return s
}

// policyReason is what is wrong with the policy file, without the sentence
// around it that the notice already says.
func policyReason(err error) string {
	if e, ok := errors.AsType[*storage.Error](err); ok {
		return e.Reason
	}
	return err.Error()
}

// paceSetting is a policy's pace as an account keeps it: one a second is
// the default the Settings screen offers first.
func paceSetting(perSecond float64) float64 {
	if perSecond == DefaultPace {
		return 0
	}
	return perSecond
}

// enforcePolicy refuses a change of what the organisation locked, and gives
// the accounts added the organisation's pace.
func (a *App) enforcePolicy(old storage.Settings, next *storage.Settings) error {
	l, p := a.locks, a.policy
	if l.Language && next.Language != p.Language.Value {
		return sayWrapped(ErrSetByOrganisation, func() string {
			return lang.L("your organisation has set the language of Agent Desk, so it cannot be changed here")
		})
	}
	if x := p.Proxy; x != nil && x.Locked && next.Proxy != x.ProxySetting {
		return sayWrapped(ErrSetByOrganisation, func() string {
			return lang.L("your organisation has set how Agent Desk reaches the internet, so it cannot be changed here")
		})
	}
	for id, want := range l.accounts {
		got, ok := next.Account(id)
		if !ok || got.BaseURL != want.BaseURL || got.WorkspaceID != want.WorkspaceID {
			return lockedAccount(want)
		}
	}
	if n := p.RequestsPerSecond; n != nil {
		for i, acct := range next.Accounts {
			was, existed := old.Account(acct.ID)
			switch {
			case acct.IsDemo():
			case !existed && (n.Locked || acct.RequestsPerSecond == 0):
				next.Accounts[i].RequestsPerSecond = paceSetting(n.Value)
			case existed && n.Locked && acct.RequestsPerSecond != was.RequestsPerSecond:
				return sayWrapped(ErrSetByOrganisation, func() string {
					return lang.L("your organisation has set the pace of requests, so it cannot be changed here")
				})
			}
		}
	}
	return nil
}

// refuseLockedAccount refuses to change the address or workspace of an
// account the organisation locked, or to remove it (removed).
func (a *App) refuseLockedAccount(acct storage.Account, removed bool) error {
	want, ok := a.locks.accounts[acct.ID]
	if !ok || (!removed && acct.BaseURL == want.BaseURL && acct.WorkspaceID == want.WorkspaceID) {
		return nil
	}
	return lockedAccount(want)
}

func lockedAccount(acct storage.Account) error {
	return sayWrapped(ErrSetByOrganisation, func() string {
		return lang.L("your organisation has set the address and workspace of {{.Account}}, so they cannot be changed and the account cannot be removed", map[string]any{"Account": acct.Name})
	})
}
