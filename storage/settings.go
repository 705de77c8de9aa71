package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// DemoAccountID is the built-in demo account, always listed, never written.
const DemoAccountID = "demo"

// Themes the settings screen offers.
const (
	ThemeSystem = "system"
	ThemeLight  = "light"
	ThemeDark   = "dark"
)

// settingsVersion is the format of settings.json this build writes.
const settingsVersion = 1

// Settings are the user's choices, kept in settings.json.
type Settings struct {
	Version      int     `json:"version"`
	Theme        string  `json:"theme"` // ThemeSystem, ThemeLight or ThemeDark
	WindowWidth  float32 `json:"window_width"`
	WindowHeight float32 `json:"window_height"`
	LastScreen   string  `json:"last_screen,omitempty"`
	// LastAnswers: agent id → question → answer, to reopen forms as left.
	LastAnswers map[string]map[string]string `json:"last_answers,omitempty"`
	// Accounts always starts with the demo account; the rest are the user's.
	Accounts []Account `json:"accounts"`
	// ActiveAccount is an Account.ID; DemoAccountID for the demo.
	ActiveAccount string `json:"active_account"`
	Onboarded     bool   `json:"onboarded"`
	// WrapCode: code in replies wraps instead of scrolling sideways.
	WrapCode bool `json:"wrap_code,omitempty"`
	// ShowAdvanced: the Advanced folds are open.
	ShowAdvanced bool `json:"show_advanced,omitempty"`
	// Language is "en", "pt-BR", "es", or "" for the computer's.
	Language string `json:"language,omitempty"`
	// Proxy is how calls leave this computer, for every account.
	Proxy ProxySetting `json:"proxy,omitzero"`
	// TextSize is the size of text in percent, TextSizeMin to TextSizeMax;
	// 0 is 100.
	TextSize int `json:"text_size,omitempty"`
	// HighContrast draws with the strongest contrast, in either theme.
	HighContrast bool `json:"high_contrast,omitempty"`
	// Prefs are each account's own habits by account id, the demo's too
	// (the demo's Account entry is never written).
	Prefs map[string]AccountPrefs `json:"prefs,omitempty"`
}

// Text sizes the settings offer, in percent.
const (
	TextSizeMin = 90
	TextSizeMax = 150
)

// AccountPrefs are what one account's user keeps choosing.
type AccountPrefs struct {
	// Favourites are starred agents, in the order starred.
	Favourites []AgentRef `json:"favourites,omitempty"`
	// Recent are the agents last run, newest first.
	Recent []AgentRef `json:"recent,omitempty"`
	// DailyLimit is the credits a day the user means to spend at most; 0 is none.
	DailyLimit float64 `json:"daily_limit,omitempty"`
}

// AgentRef names an agent as last seen, so lists of favourites show before
// the service answers.
type AgentRef struct {
	ID          string `json:"id"`
	Title       string `json:"title,omitempty"`
	Type        string `json:"type,omitempty"`
	Description string `json:"description,omitempty"`
}

// Proxy modes (ProxySetting.Mode).
const (
	ProxySystem = "system" // the system's settings; "" means the same
	ProxyNone   = "none"
	ProxyManual = "manual" // through the proxy at URL
	ProxyPAC    = "pac"    // as the proxy script (PAC) at URL says
)

// ProxySetting is how calls reach the internet: the system's proxy
// settings, none, the proxy at URL, or the script at URL.
type ProxySetting struct {
	Mode string `json:"mode"`
	URL  string `json:"url,omitempty"`
}

// Certificate is an authority trusted for one account besides the
// system's: a company's that inspects secure connections, say.
type Certificate struct {
	Name    string    `json:"name"`
	Expires time.Time `json:"expires"`
	PEM     string    `json:"pem"`
}

// Account is one service account. It never holds the API key (see Secrets).
type Account struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	BaseURL     string `json:"base_url"`
	WorkspaceID string `json:"workspace_id,omitempty"`
	// MemoryVariant is what was detected for this account: "", "A" or "B".
	MemoryVariant string `json:"memory_variant,omitempty"`
	// MemoryVariantOverride is the user's choice; it wins when set.
	MemoryVariantOverride string `json:"memory_variant_override,omitempty"`
	// ExecuteStyle and PollPath are the server's detected ways ("" until known).
	ExecuteStyle string `json:"execute_style,omitempty"`
	PollPath     string `json:"poll_path,omitempty"`
	// KeyStore says where the key lives ("keyring", "file" or "env").
	KeyStore string `json:"key_store,omitempty"`
	// RequestsPerSecond paces requests (client.Pacer): 0 default, negative none.
	RequestsPerSecond float64 `json:"requests_per_second,omitempty"`
	// Certificates are authorities trusted for this account's calls.
	Certificates []Certificate `json:"certificates,omitempty"`
}

// EffectiveMemoryVariant is the override when set, else the detected variant.
func (a Account) EffectiveMemoryVariant() string {
	if a.MemoryVariantOverride != "" {
		return a.MemoryVariantOverride
	}
	return a.MemoryVariant
}

// IsDemo reports whether a is the built-in demo account.
func (a Account) IsDemo() bool { return a.ID == DemoAccountID }

// DemoAccount is the built-in demo entry, served in-process.
func DemoAccount() Account {
	return Account{ID: DemoAccountID, Name: "Demo", MemoryVariant: "A"}
}

// DefaultSettings are what a first launch (or a broken settings file) gets.
func DefaultSettings() Settings {
	return Settings{
		Version:       settingsVersion,
		Theme:         ThemeSystem,
		WindowWidth:   1024,
		WindowHeight:  720,
		LastAnswers:   map[string]map[string]string{},
		Accounts:      []Account{DemoAccount()},
		ActiveAccount: DemoAccountID,
	}
}

// Account returns the account with the given id.
func (s Settings) Account(id string) (Account, bool) {
	if i := slices.IndexFunc(s.Accounts, func(a Account) bool { return a.ID == id }); i >= 0 {
		return s.Accounts[i], true
	}
	if id == DemoAccountID {
		return DemoAccount(), true
	}
	return Account{}, false
}

// PutAccount adds a or replaces the account with the same ID.
func (s *Settings) PutAccount(a Account) {
	if i := slices.IndexFunc(s.Accounts, func(x Account) bool { return x.ID == a.ID }); i >= 0 {
		s.Accounts[i] = a
	} else {
		s.Accounts = append(s.Accounts, a)
	}
}

// RemoveAccount drops an account, never the demo, which takes over if it was active.
func (s *Settings) RemoveAccount(id string) {
	if id == DemoAccountID {
		return
	}
	s.Accounts = slices.DeleteFunc(s.Accounts, func(a Account) bool { return a.ID == id })
	if s.ActiveAccount == id {
		s.ActiveAccount = DemoAccountID
	}
}

// normalise fills gaps of older or hand-edited files and puts the demo first.
func (s *Settings) normalise() {
	d := DefaultSettings()
	if s.Theme != ThemeLight && s.Theme != ThemeDark {
		s.Theme = ThemeSystem
	}
	if s.TextSize != 0 {
		s.TextSize = min(max(s.TextSize, TextSizeMin), TextSizeMax)
	}
	if s.WindowWidth <= 0 || s.WindowHeight <= 0 {
		s.WindowWidth, s.WindowHeight = d.WindowWidth, d.WindowHeight
	}
	if s.LastAnswers == nil {
		s.LastAnswers = map[string]map[string]string{}
	}
	s.Accounts = append([]Account{DemoAccount()}, slices.DeleteFunc(slices.Clone(s.Accounts), func(a Account) bool {
		return a.ID == "" || a.ID == DemoAccountID
	})...)
	if _, ok := s.Account(s.ActiveAccount); !ok {
		s.ActiveAccount = DemoAccountID
	}
	s.Version = settingsVersion
}

// Notice is something storage did on the user's behalf (zero: nothing).
type Notice struct {
	Kind NoticeKind
	// Path is the file concerned, or where the broken settings were moved.
	Path string
	Err  error
}

// NoticeKind is what storage had to do.
type NoticeKind int

// What storage may have had to do.
const (
	NoNotice NoticeKind = iota
	// HistoryReadOnly: nothing new is saved until fixed and restarted.
	HistoryReadOnly
	// HistoryInMemory: an empty history lives until the app closes.
	HistoryInMemory
	// SettingsMovedAside: unreadable settings moved to Path; defaults used.
	SettingsMovedAside
	// SettingsNotMovedAside: unreadable and not movable (Err); defaults used.
	SettingsNotMovedAside
)

// IsZero tells that there is nothing to say.
func (n Notice) IsZero() bool { return n.Kind == NoNotice }

// SettingsStore reads and writes settings.json in the config folder.
type SettingsStore struct {
	path string
	mu   sync.Mutex
	now  func() time.Time
}

// NewSettingsStore keeps settings in p.SettingsFile().
func NewSettingsStore(p Paths) *SettingsStore {
	return &SettingsStore{path: p.SettingsFile(), now: time.Now}
}

// Load reads the settings, always usable: missing gives defaults, corrupt
// is moved aside with a Notice; err only when ctx is done or the move failed.
func (s *SettingsStore) Load(ctx context.Context) (Settings, Notice, error) {
	if err := ctx.Err(); err != nil {
		return DefaultSettings(), Notice{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	data, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return DefaultSettings(), Notice{}, nil
	}
	if err == nil {
		var st Settings
		if err = json.Unmarshal(data, &st); err == nil {
			st.normalise()
			return st, Notice{}, nil
		}
	}
	broken := fmt.Sprintf("%s.broken-%s", s.path, s.now().Format("20060102-150405.000"))
	if mvErr := os.Rename(s.path, broken); mvErr != nil {
		e := &Error{Op: "move the unreadable settings file aside", Path: s.path, Reason: plainOSError(mvErr), Err: mvErr}
		return DefaultSettings(), Notice{Kind: SettingsNotMovedAside, Path: s.path, Err: e}, e
	}
	return DefaultSettings(), Notice{Kind: SettingsMovedAside, Path: broken}, nil
}

// Save writes the settings atomically, owner-only, without the demo.
func (s *SettingsStore) Save(ctx context.Context, st Settings) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	st.normalise()
	st.Accounts = st.Accounts[1:] // the demo is synthesised on load
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return &Error{Op: "save the settings", Path: s.path, Reason: err.Error(), Err: err}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := replaceFile(s.path, append(data, '\n'), 0o600, true); err != nil {
		return &Error{Op: "save the settings", Path: s.path, Reason: plainOSError(err), Err: err}
	}
	return nil
}

// replaceFile replaces path atomically; durable also syncs data and rename.
func replaceFile(path string, data []byte, mode os.FileMode, durable bool) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err := f.Chmod(mode); err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		return err
	}
	if durable {
		if err := f.Sync(); err != nil {
			return err
		}
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	ok = true
	if !durable {
		return nil
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
