package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/storage"
)

// ConnectionState is the answer to "Test connection", in plain words.
type ConnectionState int

const (
	Connected ConnectionState = iota + 1
	KeyRejected
	ServerNotFound
	Offline
	ServerError
	WorkspaceRejected
	// TLSProblem: the certificate could not be checked; the key was not sent.
	TLSProblem
)

// ConnectionResult is what Test connection found, with the sentence to show.
type ConnectionResult struct {
	State   ConnectionState
	Message string
	Agents  int // how many agents the account has, when connected
	// NeedsCertificate: an authority the computer does not know signed the
	// service's certificate, as a network that inspects secure connections
	// does; trusting the company's certificate (Certificates) can fix it.
	NeedsCertificate bool
}

// tidy is an account and key as typed, with the spaces a paste brings cut
// off: the one place the form's text is cleaned.
func tidy(acct storage.Account, key string) (storage.Account, string) {
	acct.Name = strings.TrimSpace(acct.Name)
	acct.BaseURL = strings.TrimRight(strings.TrimSpace(acct.BaseURL), "/")
	acct.WorkspaceID = strings.TrimSpace(acct.WorkspaceID)
	return acct, strings.TrimSpace(key)
}

// Test makes one cheap call with an account as typed and says what
// happened. A blank key means the stored one, which goes to another server
// than it was saved for only when keyMayMove (the user agreed).
func (svc *Accounts) Test(ctx context.Context, acct storage.Account, key string, keyMayMove bool) ConnectionResult {
	acct, key = tidy(acct, key)
	if moves, _, to := svc.StoredKeyMoves(acct, key); moves && !keyMayMove {
		return ConnectionResult{State: KeyRejected, Message: lang.L("Your saved key was not sent to {{.Address}}. Paste the key for that address, or agree to send the saved one.", map[string]any{"Address": to})}
	}
	if key == "" && acct.ID != "" && !acct.IsDemo() {
		if stored, _, err := svc.a.secrets.KeyOf(ctx, acct); err == nil {
			key = stored
		}
	}
	workspace := acct.WorkspaceID
	if msg := checkBaseURL(acct.BaseURL); msg != "" {
		return ConnectionResult{State: ServerNotFound, Message: msg}
	}
	if key == "" {
		return ConnectionResult{State: KeyRejected, Message: lang.L("Enter the API key of your account.")}
	}
	if msg := checkWorkspace(workspace); msg != "" {
		return ConnectionResult{State: WorkspaceRejected, Message: msg}
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	c := svc.a.newClient(acct.BaseURL, key, workspace, storage.Account{Certificates: acct.Certificates})
	// retry a hiccup before answering
	page, err := c.ListAgents(ctx, client.ListAgentsParams{PerPage: 1}, client.WithMaxRetries(2))
	var decodeErr *client.DecodeError
	switch {
	case err == nil:
		msg := lang.N("Connected. This account has {{.Count}} agent.", page.Total, map[string]any{"Count": Number(page.Total)})
		if proxy := svc.a.proxyFor(acct.BaseURL, acct.Certificates); proxy != "" {
			msg += " " + lang.L("Calls go through your network's proxy {{.Proxy}}.", map[string]any{"Proxy": proxy})
		}
		return ConnectionResult{State: Connected, Agents: page.Total, Message: msg}
	case client.IsAuth(err):
		return ConnectionResult{State: KeyRejected, Message: lang.L("The service rejected the API key. Check that it was copied whole.")}
	case workspace != "" && (client.IsForbidden(err) || namesWorkspace(err)):
		return ConnectionResult{State: WorkspaceRejected, Message: lang.L("The API key works, but the service refused workspace {{.Workspace}}. Check the number in the service's web app under Settings → Workspace.", map[string]any{"Workspace": workspace})}
	case client.IsNotFound(err) || errors.As(err, &decodeErr):
		return ConnectionResult{State: ServerNotFound, Message: lang.L("The server answered, but not as an Agent Execution Service. Check the address.")}
	case client.IsProxyAuthRequired(err) || client.IsProxyUnreachable(err):
		return ConnectionResult{State: Offline, Message: Describe(err)} // the network's proxy, not the service
	case client.IsTLS(err):
		// which certificate problem, in plain words
		return ConnectionResult{State: TLSProblem, Message: Describe(err), NeedsCertificate: client.IsUnknownAuthority(err)}
	case client.IsOffline(err):
		if netErr, ok := errors.AsType[*client.NetworkError](err); ok && strings.Contains(strings.ToLower(netErr.Err.Error()), "no such host") {
			return ConnectionResult{State: ServerNotFound, Message: lang.L("No server was found at that address. Check the address for typing mistakes.")}
		}
		return ConnectionResult{State: Offline, Message: lang.L("Agent Desk can't reach that server. Check your internet connection and the address.")}
	case errors.Is(err, context.DeadlineExceeded):
		return ConnectionResult{State: Offline, Message: lang.L("The server did not answer in time. Check your internet connection and the address.")}
	}
	return ConnectionResult{State: ServerError, Message: Describe(err)}
}

func checkWorkspace(ws string) string {
	ws = strings.TrimSpace(ws)
	if ws == "" {
		return ""
	}
	if n, err := strconv.ParseInt(ws, 10, 64); err != nil || n <= 0 {
		return lang.L("The workspace number is a whole number, for example 12345. Leave it empty to use the workspace selected in the service's web app.")
	}
	return ""
}

func namesWorkspace(err error) bool {
	e, ok := errors.AsType[*client.APIError](err)
	if !ok || (e.StatusCode != 400 && e.StatusCode != 422) {
		return false
	}
	for f := range e.Fields {
		if strings.Contains(strings.ToLower(f), "workspace") {
			return true
		}
	}
	return strings.Contains(strings.ToLower(e.Message+" "+e.Detail), "workspace")
}

// checkBaseURL says what is wrong with a service address, "" if usable.
func checkBaseURL(raw string) string {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return lang.L("Enter the address of your service, for example https://agents.example.com/api.")
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Hostname() == "" {
		return lang.L("The address must start with https:// and name a server, for example https://agents.example.com/api.")
	}
	// Credentials in the address would be saved in plain text and sent with every request.
	if u.User != nil {
		return lang.L("Remove the name and password from the address (the part up to @). Agent Desk signs in with your API key only, and does not keep passwords in addresses.")
	}
	// Plain http sends the key unencrypted: only for a service on this computer.
	if u.Scheme == "http" && !client.OnThisComputer(u.Hostname()) {
		return lang.L("The address must start with https:// so that your API key is sent encrypted. Addresses starting with http:// work only for a service on this computer.")
	}
	return ""
}

// SameServer reports whether two addresses have the same scheme, host and port.
func SameServer(a, b string) bool {
	ua, err1 := url.Parse(strings.TrimSpace(a))
	ub, err2 := url.Parse(strings.TrimSpace(b))
	if err1 != nil || err2 != nil || ua.Hostname() == "" || ub.Hostname() == "" {
		return false
	}
	return strings.EqualFold(ua.Scheme, ub.Scheme) &&
		strings.EqualFold(strings.TrimSuffix(ua.Hostname(), "."), strings.TrimSuffix(ub.Hostname(), ".")) &&
		portOrDefault(ua) == portOrDefault(ub)
}

func portOrDefault(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}

// StoredKeyMoves reports whether the stored key for acct would go to another
// server than it was saved for: the form must ask first.
func (svc *Accounts) StoredKeyMoves(acct storage.Account, key string) (moves bool, from, to string) {
	if acct, key = tidy(acct, key); key != "" || acct.ID == "" || acct.IsDemo() {
		return false, "", ""
	}
	saved, ok := svc.a.Settings().Account(acct.ID)
	if !ok || SameServer(saved.BaseURL, acct.BaseURL) {
		return false, "", ""
	}
	return true, hostOf(saved.BaseURL), hostOf(acct.BaseURL)
}

func hostOf(raw string) string {
	if u, err := url.Parse(strings.TrimSpace(raw)); err == nil && u.Host != "" {
		return u.Host
	}
	return strings.TrimSpace(raw)
}

// KeyInFileNote tells the user the key is in a file, not the keyring, or "".
func KeyInFileNote(acct storage.Account) string {
	if acct.KeyStore != storage.KeyInFile {
		return ""
	}
	return lang.L("The API key is kept in a file on this computer that only you can read, because the computer's password store (keyring) did not answer.")
}

// KeyWhere is storage.KeyLocation's Describe in the language in use.
func KeyWhere(l storage.KeyLocation) string {
	switch l.Kind {
	case storage.KeyInKeyring:
		return lang.L("stored in the system keyring")
	case storage.KeyInFile:
		return lang.L("kept in a file on this computer that only you can read, because the system keyring did not answer: {{.Path}}", map[string]any{"Path": l.File})
	case storage.KeyInEnv:
		return lang.L("taken from {{.Variable}}", map[string]any{"Variable": storage.EnvAPIKey})
	}
	return lang.L("not stored")
}

// Save adds or changes an account and stores its key; an empty key keeps the stored one.
func (svc *Accounts) Save(ctx context.Context, acct storage.Account, key string) (storage.Account, error) {
	a := svc.a
	acct, key = tidy(acct, key)
	if msg := checkBaseURL(acct.BaseURL); msg != "" {
		return acct, errors.New(msg)
	}
	if msg := checkWorkspace(acct.WorkspaceID); msg != "" {
		return acct, errors.New(msg)
	}
	if acct.Name == "" {
		if u, err := url.Parse(acct.BaseURL); err == nil {
			acct.Name = u.Host
		}
	}
	if acct.ID == "" {
		acct.ID = fmt.Sprintf("acct-%d", time.Now().UnixNano())
	}
	if acct.IsDemo() {
		return acct, say(func() string { return lang.L("the demo account cannot be changed") })
	}
	if err := a.refuseLockedAccount(acct, false); err != nil {
		return acct, err
	}
	if key != "" {
		loc, err := a.secrets.Set(ctx, acct.ID, key)
		if err != nil {
			return acct, sayWrapped(err, func() string {
				return lang.L("the API key could not be stored: {{.Why}}", map[string]any{"Why": why(err)})
			})
		}
		acct.KeyStore = loc.Kind
	}
	err := a.UpdateSettings(ctx, func(s *storage.Settings) {
		s.PutAccount(acct)
		s.Onboarded = true
	})
	if err == nil && a.AccountID() == acct.ID {
		err = a.Activate(ctx, acct.ID)
	}
	return acct, err
}

// Remove forgets an account and its key; the demo becomes active if it was.
func (svc *Accounts) Remove(ctx context.Context, id string) error {
	a := svc.a
	if id == storage.DemoAccountID {
		return say(func() string { return lang.L("the demo account is always there") })
	}
	if err := a.refuseLockedAccount(storage.Account{ID: id}, true); err != nil {
		return err
	}
	if err := a.secrets.Delete(ctx, id); err != nil {
		return sayWrapped(err, func() string {
			return lang.L("the API key could not be removed: {{.Why}}", map[string]any{"Why": why(err)})
		})
	}
	if err := a.UpdateSettings(ctx, func(s *storage.Settings) { s.RemoveAccount(id) }); err != nil {
		return err
	}
	if a.AccountID() == id {
		return a.Activate(ctx, storage.DemoAccountID)
	}
	return nil
}

// SetMemoryVariantOverride sets the active account's memory variant ("", "A", "B").
func (svc *Accounts) SetMemoryVariantOverride(ctx context.Context, v string) error {
	return svc.changeActive(ctx, say(func() string { return lang.L("the demo service always uses variant A") }),
		func(acct *storage.Account) { acct.MemoryVariantOverride = v })
}

// SetRequestsPerSecond sets the active account's pace (0 default, negative none).
func (svc *Accounts) SetRequestsPerSecond(ctx context.Context, perSecond float64) error {
	return svc.changeActive(ctx, say(func() string { return lang.L("the demo runs on this computer and is not paced") }),
		func(acct *storage.Account) { acct.RequestsPerSecond = perSecond })
}

// changeActive changes the active account's settings; the demo's are refused with demoErr.
func (svc *Accounts) changeActive(ctx context.Context, demoErr error, change func(*storage.Account)) error {
	acct := svc.a.Account()
	if acct.IsDemo() {
		return demoErr
	}
	change(&acct)
	if err := svc.a.UpdateSettings(ctx, func(s *storage.Settings) { s.PutAccount(acct) }); err != nil {
		return err
	}
	return svc.a.Activate(ctx, acct.ID)
}

// RememberDetected stores what the client detected about the server.
func (svc *Accounts) RememberDetected(ctx context.Context) {
	acct, c := svc.a.Account(), svc.a.Client()
	if acct.IsDemo() {
		return
	}
	next := acct
	next.MemoryVariant = cmp.Or(string(c.MemoryVariant()), acct.MemoryVariant)
	next.ExecuteStyle = cmp.Or(string(c.ExecuteStyle()), acct.ExecuteStyle)
	next.PollPath = cmp.Or(string(c.PollPath()), acct.PollPath)
	if next.MemoryVariant == acct.MemoryVariant && next.ExecuteStyle == acct.ExecuteStyle && next.PollPath == acct.PollPath {
		return
	}
	_ = svc.a.UpdateSettings(ctx, func(s *storage.Settings) {
		if cur, ok := s.Account(acct.ID); ok {
			cur.MemoryVariant, cur.ExecuteStyle, cur.PollPath = next.MemoryVariant, next.ExecuteStyle, next.PollPath
			s.PutAccount(cur)
		}
	})
}

// Accounts are the service accounts Agent Desk knows: checking, saving and removing them, and what was learnt of each service (App.Accounts).
type Accounts struct{ a *App }

func (a *App) Accounts() *Accounts { return &Accounts{a} }

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

// Prefs are the active account's favourite and recent agents and daily limit.
func (svc *Accounts) Prefs() AccountPrefs {
	a := svc.a
	return locked(&a.mu, func() AccountPrefs { return a.settings.Prefs[a.account.ID] })
}

// UpdatePrefs changes the active account's prefs and saves them at once.
func (svc *Accounts) UpdatePrefs(ctx context.Context, change func(*AccountPrefs)) error {
	a := svc.a
	id := a.AccountID()
	return a.UpdateSettings(ctx, func(s *Settings) {
		p := s.Prefs[id]
		p.Favourites, p.Recent = slices.Clone(p.Favourites), slices.Clone(p.Recent)
		change(&p)
		s.Prefs[id] = p
	})
}
