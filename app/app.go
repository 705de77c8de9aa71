// Package app is what a user of Agent Desk can do, without widgets: screens
// call its use cases and follow Observable snapshots; Explain words every error.
package app

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"time"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/app/catalog"
	"github.com/agentdesk/agentdesk/app/ledger"
	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/clock"
	"github.com/agentdesk/agentdesk/storage"
)

// DemoServer is the running built-in service the demo account talks to.
type DemoServer interface {
	URL() string
	Close() error
}

// Config says where Agent Desk keeps its files and how the demo behaves.
type Config struct {
	Paths storage.Paths
	// StartDemo starts the built-in service the demo account talks to.
	StartDemo func(key string) (DemoServer, error)
	// Keyring replaces the system keyring (tests).
	Keyring storage.Keyring
	// HTTPClient is used for every call to the service.
	HTTPClient *http.Client
	// Network is how calls leave this computer (proxy, authorities) when
	// HTTPClient is nil; the zero value follows the system's settings.
	Network client.Network
	// ClientOptions are added to every client this app builds.
	ClientOptions []client.Option
	// FastRetries shortens retry waits, for tests whose services fail on purpose.
	FastRetries bool
	// PictureBudget overrides PictureBudget.
	PictureBudget int64
	// Clock is what refreshes and debounces wait on (tests move a
	// clock.Fake); the system's when nil.
	Clock clock.Clock
	// Version is sent with every request; "dev" when empty.
	Version string
	// PlainText makes a reply's Markdown plain for a results sheet
	// (richtext.ReplyText, which app cannot import); as written when nil.
	PlainText func(markdown string) string
	// Speak makes Open use the language the settings keep before it opens
	// an account, so the demo it starts speaks it too (the program; tests
	// choose theirs).
	Speak bool
	// PolicyFile is the organisation's policy file (storage.DefaultPolicyFile
	// for the program); none when empty.
	PolicyFile string
	// PolicyRegistry is the registry key (under HKLM) read before the
	// file on Windows (storage.PolicyRegistryKey); "" elsewhere.
	PolicyRegistry string
}

// App is one running Agent Desk: settings, secrets, history and the active account.
type App struct {
	// pictures are decoded pictures within one memory budget, and this session's downloads.
	pictures *pictureStore

	cfg Config
	// conn is the last connection check's result (Connection).
	conn *live.State[Connection]
	// pacers pace the requests to each service (pacerFor).
	pacersMu sync.Mutex
	pacers   map[string]*client.Pacer
	store    *storage.SettingsStore
	secrets  *storage.Secrets
	db       *storage.DB
	cache    *storage.Cache
	// notices are worded when read (Notices), once the language is chosen.
	notices []func() string
	// policy is the organisation's policy file, and locks what it locks (usePolicy).
	policy  storage.Policy
	locks   Locks
	demoKey string

	chat *chatHub
	// uploadSlots bounds the uploads running at once across every queue.
	uploadSlots chan struct{}

	mu       sync.Mutex
	settings storage.Settings
	account  storage.Account
	keyWhere storage.KeyLocation
	client   *client.Client
	demo     DemoServer
	session  *live.State[Session]
	// defaultCollections are the ids of the collections the service calls
	// the account's default, from the last memory sync.
	defaultCollections map[string]bool

	linked linkedFiles

	drafts *appDrafts
	// batches runs the account's batches (Batches).
	batches *BatchRunner
	// indexing are the agent index reads under way (Agents.IndexAll).
	indexing indexReads
	runner   *Runner // Runs().Runner()
	// nets reach the service as the network settings say (its proxy, its
	// authorities); each built at its first call, closed by Close.
	nets    nets
	proxies proxyNet // the proxy's sign-in (Network)
	// writers are settings writes still under way (SaveSettingsLater).
	writers sync.WaitGroup
	// life ends when the app closes; work is Go's, which Close waits for.
	life   context.Context
	end    context.CancelFunc
	work   sync.WaitGroup
	workMu sync.Mutex // orders Go against Close
	closed bool
}

// Session is what every screen reads about Agent Desk as a whole.
type Session struct {
	Account  Account
	Settings Settings
	// Activations counts account activations: screens reload when it changes.
	Activations uint64
	// Charges counts charged calls: the credits meter rereads when it changes.
	Charges uint64
}

// Open loads settings, the history and the last active account; problems on disk become Notices.
func Open(ctx context.Context, cfg Config) (*App, error) {
	a := &App{cfg: cfg, session: live.NewState(Session{}), conn: live.NewState(Connection{}), pictures: newPictureStore(cfg.PictureBudget),
		chat:        &chatHub{sessions: map[int64]*ChatSession{}, finished: live.NewState[[]ChatFinished](nil), maxReply: MaxReplyBytes},
		uploadSlots: make(chan struct{}, UploadConcurrency)}
	a.drafts = newAppDrafts(a)
	a.batches = &BatchRunner{a: a, news: live.NewState(BatchNews{})}
	a.runner = newRunner(a)
	a.proxies = proxyNet{users: map[string]*url.Userinfo{}, waiting: map[string]bool{}, asked: live.NewState(ProxyAsk{})}
	a.nets.clients = map[string]*http.Client{}
	a.life, a.end = context.WithCancel(context.Background())
	if err := a.cfg.Paths.Ensure(); err != nil {
		a.notices = append(a.notices, func() string { return why(err) })
	}
	a.store = storage.NewSettingsStore(a.cfg.Paths)
	ring := cfg.Keyring
	if ring == nil {
		ring = storage.SystemKeyring{}
	}
	a.secrets = storage.NewSecrets(a.cfg.Paths, ring)

	settings, notice, err := a.store.Load(ctx)
	if !notice.IsZero() {
		a.notices = append(a.notices, func() string { return noticeSentence(notice) })
	}
	if err != nil {
		a.notices = append(a.notices, func() string { return why(err) })
		settings = storage.DefaultSettings()
	}
	settings = a.usePolicy(settings)
	a.settings = settings
	if cfg.Speak {
		if err := UseLanguage(settings.Language); err != nil {
			a.notices = append(a.notices, func() string { return why(err) })
		}
	}

	db, dbNotice := storage.OpenOrFallback(ctx, a.cfg.Paths)
	if !dbNotice.IsZero() {
		a.notices = append(a.notices, func() string { return noticeSentence(dbNotice) })
	}
	a.db = db
	if cache, err := storage.OpenCache(a.cfg.Paths.DownloadsDir(), storage.DefaultCacheBytes); err == nil {
		a.cache = cache
	} else {
		a.notices = append(a.notices, func() string {
			return lang.L("Image previews will not be kept between launches: {{.Why}}", map[string]any{"Why": why(err)})
		})
	}
	// Deleted conversations can be restored within a day.
	if !db.ReadOnly() {
		_, _ = db.PurgeDeleted(ctx, time.Now().Add(-24*time.Hour))
	}

	b := make([]byte, 16)
	_, _ = rand.Read(b)
	a.demoKey = "demo-" + hex.EncodeToString(b)

	active := a.settings.ActiveAccount
	if active == "" {
		active = storage.DemoAccountID
	}
	if err := a.Activate(ctx, active); err != nil {
		a.notices = append(a.notices, func() string {
			return lang.L("Agent Desk could not open your account ({{.Why}}); it opened the demo instead.", map[string]any{"Why": why(err)})
		})
		if err := a.Activate(ctx, storage.DemoAccountID); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// Close saves pending drafts, stops the demo service and closes the history.
func (a *App) Close() error {
	a.workMu.Lock()
	a.closed = true
	a.workMu.Unlock()
	// What was typed is written first: a close cut short by its time limit
	// (main's closeWithin) loses no draft.
	_ = a.FlushDrafts()
	a.quitChats()
	a.end()
	a.work.Wait()
	a.nets.reset()
	a.writers.Wait()
	_ = a.FlushDrafts()
	a.mu.Lock()
	demo := a.demo
	a.demo = nil
	a.mu.Unlock()
	if demo != nil {
		_ = demo.Close()
	}
	return a.db.Close()
}

// locked is get's value under mu.
func locked[T any](mu *sync.Mutex, get func() T) T {
	mu.Lock()
	defer mu.Unlock()
	return get()
}

// Go runs fn as the app's own work, which Close waits for; false once Close has begun.
func (a *App) Go(fn func()) bool {
	a.workMu.Lock()
	defer a.workMu.Unlock()
	if a.closed {
		return false
	}
	a.work.Add(1)
	go func() {
		defer a.work.Done()
		fn()
	}()
	return true
}

// Life ends when the app closes; screens' background work derives from it.
func (a *App) Life() context.Context { return a.life }

// Notices are the start-up problems the user should read once.
func (a *App) Notices() []string {
	var out []string
	for _, n := range a.notices {
		out = append(out, n())
	}
	return out
}

func (a *App) DB() *storage.DB { return a.db }

// Cache keeps downloaded previews; nil when it could not be opened.
func (a *App) Cache() *storage.Cache { return a.cache }

// Paths are Agent Desk's folders.
func (a *App) Paths() storage.Paths { return a.cfg.Paths }

// Client is the service client of the active account.
func (a *App) Client() *client.Client {
	return locked(&a.mu, func() *client.Client { return a.client })
}

// Account is the active account.
func (a *App) Account() storage.Account {
	return locked(&a.mu, func() storage.Account { return a.account })
}

// AccountID is the active account's id, the scope of everything in history.
func (a *App) AccountID() string { return a.Account().ID }

// IsDemo reports whether the built-in demo service is active.
func (a *App) IsDemo() bool { return a.Account().IsDemo() }

// Demo is the running built-in service, or nil when a real account is active.
func (a *App) Demo() DemoServer {
	return locked(&a.mu, func() DemoServer { return a.demo })
}

// KeyLocation says where the active account's key lives.
func (a *App) KeyLocation() storage.KeyLocation {
	return locked(&a.mu, func() storage.KeyLocation { return a.keyWhere })
}

// Settings is a copy of the current settings.
func (a *App) Settings() storage.Settings {
	return locked(&a.mu, func() storage.Settings { return a.settings })
}

// UpdateSettings changes the settings and saves them at once.
func (a *App) UpdateSettings(ctx context.Context, change func(*storage.Settings)) error {
	a.mu.Lock()
	s := a.settings
	// Copy the maps change may write, so readers of the old copy never race.
	s.LastAnswers = cloneAnswers(s.LastAnswers)
	s.Accounts = slices.Clone(s.Accounts) // and the accounts, which a refused change must leave as they were
	s.Prefs = maps.Clone(s.Prefs)
	if s.Prefs == nil {
		s.Prefs = map[string]storage.AccountPrefs{}
	}
	change(&s)
	if err := a.enforcePolicy(a.settings, &s); err != nil {
		a.mu.Unlock()
		return err
	}
	a.settings = s
	a.mu.Unlock()
	err := a.store.Save(ctx, s)
	a.publish(func(*Session) {})
	return err
}

// TextSizes are the text sizes offered, in percent, smallest first.
var TextSizes = []int{TextSizeMin, 100, 110, 125, TextSizeMax}

// StepTextSize moves the text size by steps along TextSizes (0 is back to
// 100 %), as Ctrl+= and Ctrl+- do: a change for UpdateSettings.
func StepTextSize(steps int) func(*storage.Settings) {
	return func(s *storage.Settings) {
		at := slices.Index(TextSizes, cmp.Or(s.TextSize, 100))
		if at < 0 || steps == 0 {
			at, steps = slices.Index(TextSizes, 100), 0
		}
		s.TextSize = TextSizes[min(max(at+steps, 0), len(TextSizes)-1)]
	}
}

// SaveSettingsLater applies change and writes the settings in the background.
func (a *App) SaveSettingsLater(change func(*storage.Settings)) {
	a.writers.Add(1)
	go func() {
		defer a.writers.Done()
		_ = a.UpdateSettings(context.Background(), change)
	}()
}

func cloneAnswers(in map[string]map[string]string) map[string]map[string]string {
	out := make(map[string]map[string]string, len(in))
	for k, v := range in {
		out[k] = maps.Clone(v)
	}
	return out
}

func (a *App) Session() live.Observable[Session] { return a.session }

// publish reads the fields under the session's lock, so the last version is the newest.
func (a *App) publish(change func(*Session)) {
	a.session.Update(func(s Session) Session {
		a.mu.Lock()
		s.Account, s.Settings = a.account, a.settings
		a.mu.Unlock()
		change(&s)
		return s
	})
}

// Activate makes an account the active one, starting the demo service for the demo.
func (a *App) Activate(ctx context.Context, accountID string) error {
	acct, ok := a.Settings().Account(accountID)
	if !ok {
		return say(func() string {
			return lang.L("there is no account {{.Account}}", map[string]any{"Account": strconv.Quote(accountID)})
		})
	}
	var (
		c     *client.Client
		where storage.KeyLocation
		demo  DemoServer
	)
	if acct.IsDemo() {
		a.mu.Lock()
		demo = a.demo
		a.mu.Unlock()
		if demo == nil {
			err := errors.New("none is built in")
			if a.cfg.StartDemo != nil {
				demo, err = a.cfg.StartDemo(a.demoKey)
			}
			if err != nil {
				return sayWrapped(err, func() string {
					return lang.L("the demo service could not start: {{.Why}}", map[string]any{"Why": why(err)})
				})
			}
		}
		c = a.newClient(demo.URL(), a.demoKey, "", storage.Account{})
	} else {
		key, loc, err := a.secrets.KeyOf(ctx, acct)
		if err != nil && !errors.Is(err, storage.ErrNoKey) {
			return err
		}
		where = loc
		if checkBaseURL(acct.BaseURL) != "" {
			// An address the key may not travel to: ask without the
			// key; the account's settings say why.
			key = ""
		}
		c = a.newClient(acct.BaseURL, key, acct.WorkspaceID, acct)
	}

	a.mu.Lock()
	old := a.demo
	a.account, a.client, a.keyWhere = acct, c, where
	a.defaultCollections = nil
	if acct.IsDemo() {
		a.demo = demo
	} else {
		a.demo = nil
	}
	a.mu.Unlock()
	if old != nil && old != demo {
		_ = old.Close()
	}
	if a.Settings().ActiveAccount != acct.ID {
		_ = a.UpdateSettings(ctx, func(s *storage.Settings) { s.ActiveAccount = acct.ID })
	}
	a.publish(func(s *Session) { s.Activations++ })
	a.Go(func() { a.runner.resume(a.life) })
	return nil
}

func (a *App) newClient(baseURL, key, workspace string, acct storage.Account) *client.Client {
	opts := []client.Option{
		client.WithBaseURL(baseURL),
		client.WithAPIKey(key),
		client.WithUserAgent("AgentDesk/" + a.Version()),
		client.WithExecuteStyle(client.ExecuteStyle(acct.ExecuteStyle)),
		client.WithPollPath(client.PollPath(acct.PollPath)),
	}
	if workspace != "" {
		opts = append(opts, client.WithWorkspace(workspace))
	}
	if variant := acct.EffectiveMemoryVariant(); variant != "" {
		opts = append(opts, client.WithMemoryVariant(client.MemoryVariant(variant)))
	}
	hc := a.cfg.HTTPClient
	if hc == nil {
		hc = a.httpClient(acct.Certificates) // built only when a client of its own is not given
	}
	opts = append(opts, client.WithHTTPClient(hc))
	if a.cfg.FastRetries {
		opts = append(opts, client.WithRetryBackoff(time.Millisecond, 10*time.Millisecond))
	}
	if p := a.pacerFor(baseURL, key, acct.RequestsPerSecond); p != nil {
		opts = append(opts, client.WithPacer(p))
	}
	opts = append(opts, a.cfg.ClientOptions...)
	return client.New(opts...)
}

// proxyFor names the proxy calls to baseURL go through ("" for none), as
// the network settings in force choose it.
func (a *App) proxyFor(baseURL string, certs []storage.Certificate) string {
	u, err := url.Parse(baseURL)
	if err != nil || a.cfg.HTTPClient != nil {
		return ""
	}
	if p, err := client.ProxyUsed(a.httpClient(certs), u); err == nil && p != nil {
		return p.Host
	}
	return ""
}

// DefaultPace and DefaultBurst pace an account unless its settings say otherwise.
const (
	DefaultPace  = 1.0
	DefaultBurst = 5
)

// pacerFor is the pacing shared by every client of one key at one service
// (perSecond: 0 default, negative none); local services are not paced by default.
func (a *App) pacerFor(baseURL, apiKey string, perSecond float64) *client.Pacer {
	if perSecond == 0 {
		perSecond = DefaultPace
		if u, err := url.Parse(baseURL); err != nil || client.OnThisComputer(u.Hostname()) {
			return nil
		}
	}
	if perSecond < 0 {
		return nil
	}
	sum := sha256.Sum256([]byte(apiKey)) // the key itself is kept nowhere
	key := baseURL + " " + hex.EncodeToString(sum[:8]) + " " + strconv.FormatFloat(perSecond, 'g', -1, 64)
	a.pacersMu.Lock()
	defer a.pacersMu.Unlock()
	if a.pacers == nil {
		a.pacers = map[string]*client.Pacer{}
	}
	p, ok := a.pacers[key]
	if !ok {
		p = client.NewPacer(perSecond, DefaultBurst)
		a.pacers[key] = p
	}
	return p
}

// Version is Agent Desk's version, as About shows it.
func (a *App) Version() string { return cmp.Or(a.cfg.Version, "dev") }

// Catalog is what the account's service offers besides agents.
func (a *App) Catalog() *catalog.Catalog { return catalog.New(a.Client, a, a.cfg.Clock) }

// Connection is what the last check of the active account's service found.
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

// Ledger is what the account's work has cost; each charge counts in Session.Charges.
func (a *App) Ledger() *ledger.Ledger {
	limit := func() float64 { return a.Accounts().Prefs().DailyLimit }
	return ledger.New(a.db, a.AccountID, limit, func() { a.publish(func(s *Session) { s.Charges++ }) }, time.Now)
}
