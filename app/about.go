package app

import (
	"context"
	"strings"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/storage"
)

// AboutFolder is one of Agent Desk's folders, for the About dialog.
type AboutFolder struct {
	What string // what is kept there, in plain words
	Path string
}

// Folders lists where Agent Desk keeps its files, in the About dialog's order.
func (a *App) Folders() []AboutFolder {
	p := a.Paths()
	return []AboutFolder{
		{What: lang.L("Settings and accounts"), Path: p.Config},
		{What: lang.L("History of chats and runs"), Path: p.Data},
		{What: lang.L("Downloaded previews"), Path: p.Cache},
	}
}

// TestSaved is TestConnection for an account being edited, a blank key
// meaning the stored one. The stored key goes to another server only when
// keyMayMove says the user agreed (StoredKeyMoves).
func (svc *Accounts) TestSaved(ctx context.Context, acct storage.Account, key string, keyMayMove bool) ConnectionResult {
	if moves, _, to := svc.a.Accounts().StoredKeyMoves(acct, key); moves && !keyMayMove {
		return ConnectionResult{State: KeyRejected, Message: lang.L("Your saved key was not sent to {{.Address}}. Paste the key for that address, or agree to send the saved one.", map[string]any{"Address": to})}
	}
	if strings.TrimSpace(key) == "" && acct.ID != "" && !acct.IsDemo() {
		if stored, _, err := svc.a.secrets.KeyOf(ctx, acct); err == nil {
			key = stored
		}
	}
	return svc.a.Accounts().TestConnection(ctx, acct.BaseURL, key, acct.WorkspaceID)
}
