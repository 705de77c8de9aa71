package app

import (
	"context"
	"errors"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/storage"
)

// MemoryLimit is the longest memory the service accepts, in characters.
const MemoryLimit = 32000

// ErrMemoryEmpty is returned when a memory has no text: the service requires it.
var ErrMemoryEmpty = say(func() string { return lang.L("write the memory's text before saving") })

// MemoryTooLongError says a memory is over MemoryLimit; nothing was sent.
type MemoryTooLongError struct{ Length int }

func (e *MemoryTooLongError) Error() string {
	return lang.L("This memory is {{.Length}} characters long; the service takes at most {{.Limit}}. Shorten it before saving.",
		map[string]any{"Length": Number(e.Length), "Limit": Number(MemoryLimit)})
}

// MemoryLength counts a memory the way the limit does: in characters.
func MemoryLength(text string) int { return utf8.RuneCountInString(text) }

// MemoryEdit is what the editor sends: text, and collection (A) or metadata (B).
type MemoryEdit struct {
	Content      string
	CollectionID string
	Metadata     map[string]any
}

// CollectionSummary is a local collection with its count of known memories.
type CollectionSummary struct {
	storage.CollectionEntry
	Count int
}

// Variant is the active account's memory interface; MemoryAuto while unknown.
func (svc *Memories) Variant() client.MemoryVariant {
	a := svc.a
	v := a.Client().MemoryVariant()
	if v != client.MemoryAuto {
		return v
	}
	// The built-in demo serves variant A, unless pointed elsewhere; so does a
	// service that listed collections at the last sync (the real one):
	// collections are variant A's, which keeps a memory's text and collection only.
	if a.IsDemo() && len(a.cfg.ClientOptions) == 0 || locked(&a.mu, func() bool { return a.defaultCollections != nil }) {
		return client.MemoryA
	}
	return v
}

// List lists the local index's memories matching query, most recently seen first.
func (svc *Memories) List(ctx context.Context, query string) ([]storage.MemoryEntry, error) {
	return svc.a.db.Memories(ctx, svc.a.AccountID(), query)
}

// Get is one memory of the local index.
func (svc *Memories) Get(ctx context.Context, id string) (storage.MemoryEntry, error) {
	return svc.a.db.GetMemory(ctx, svc.a.AccountID(), id)
}

func (a *App) collectionSummaries(ctx context.Context) ([]CollectionSummary, int, error) {
	cols, err := a.db.Collections(ctx, a.AccountID())
	if err != nil {
		return nil, 0, err
	}
	mems, err := a.db.Memories(ctx, a.AccountID(), "")
	if err != nil {
		return nil, 0, err
	}
	counts := map[string]int{}
	for _, m := range mems {
		counts[m.CollectionID]++
	}
	out := make([]CollectionSummary, 0, len(cols))
	for _, c := range cols {
		out = append(out, CollectionSummary{CollectionEntry: c, Count: counts[c.ID]})
	}
	label := func(c CollectionSummary) string { return strings.ToLower(CollectionLabel(c.ID, c.Name)) }
	sort.SliceStable(out, func(i, j int) bool { return label(out[i]) < label(out[j]) })
	return out, len(mems), nil
}

func checkMemory(text string) error {
	if strings.TrimSpace(text) == "" {
		return ErrMemoryEmpty
	}
	if n := MemoryLength(text); n > MemoryLimit {
		return &MemoryTooLongError{Length: n}
	}
	return nil
}

// checkCollectionID refuses a collection number that is no whole number; "" only when not required.
func checkCollectionID(id string, required bool) error {
	switch n, err := strconv.ParseInt(id, 10, 64); {
	case id == "" && required:
		return say(func() string { return lang.L("enter the collection's number") })
	case id != "" && (err != nil || n <= 0):
		return say(func() string {
			return lang.L("a collection number is a whole number such as 2, not {{.Typed}}", map[string]any{"Typed": strconv.Quote(id)})
		})
	}
	return nil
}

// Create stores a new memory on the service and locally; bad text is refused first.
func (svc *Memories) Create(ctx context.Context, e MemoryEdit) (storage.MemoryEntry, error) {
	return svc.send(ctx, "", e)
}

// Update saves an edit, also of a memory created elsewhere (brought into the
// index by its number); the local draft is cleared once the service confirms.
func (svc *Memories) Update(ctx context.Context, id string, e MemoryEdit) (storage.MemoryEntry, error) {
	entry, err := svc.send(ctx, strings.TrimSpace(id), e)
	if err != nil {
		return entry, err
	}
	_ = svc.a.db.SaveMemoryDraft(ctx, svc.a.AccountID(), entry.ID, "")
	entry.Draft = ""
	return entry, nil
}

// send creates (id "") or updates memory id and keeps the service's answer.
func (svc *Memories) send(ctx context.Context, id string, e MemoryEdit) (storage.MemoryEntry, error) {
	a := svc.a
	err := checkMemory(e.Content)
	if err == nil && id != "" {
		err = validMemoryID(id)
	}
	if err == nil {
		err = checkCollectionID(e.CollectionID, false)
	}
	if err != nil {
		return storage.MemoryEntry{}, err
	}
	p := client.MemoryParams{Content: e.Content, CollectionID: client.ID(e.CollectionID), Metadata: e.Metadata}
	var m *client.Memory
	if id == "" {
		m, err = a.Client().CreateMemory(ctx, p)
	} else {
		m, err = a.Client().UpdateMemory(ctx, client.ID(id), p)
	}
	a.Accounts().RememberDetected(ctx)
	if err != nil {
		return storage.MemoryEntry{}, err
	}
	return a.keepMemory(ctx, m, e)
}

func validMemoryID(id string) error {
	if n, err := strconv.ParseInt(id, 10, 64); err != nil || n <= 0 {
		return say(func() string {
			return lang.L("a memory number is a whole number such as 501, not {{.Typed}}", map[string]any{"Typed": strconv.Quote(id)})
		})
	}
	return nil
}

func (a *App) keepMemory(ctx context.Context, m *client.Memory, sent MemoryEdit) (storage.MemoryEntry, error) {
	entry := storage.MemoryEntry{
		AccountID: a.AccountID(),
		ID:        m.ID.String(),
		Content:   m.Content,
		Metadata:  m.Metadata,
		Variant:   string(m.Variant),
		LastSeen:  time.Now(),
	}
	if entry.Content == "" {
		entry.Content = sent.Content
	}
	if entry.Variant == "" {
		entry.Variant = string(a.Memories().Variant())
	}
	if entry.Variant == string(client.MemoryB) && entry.Metadata == nil {
		entry.Metadata = sent.Metadata
	}
	if entry.Variant != string(client.MemoryB) {
		entry.CollectionID = m.CollectionID.String()
		if entry.CollectionID == "" {
			entry.CollectionID = sent.CollectionID
		}
		if m.Collection != nil && m.Collection.Name != "" {
			entry.CollectionName = m.Collection.Name
			if entry.CollectionID == "" {
				entry.CollectionID = m.Collection.ID.String()
			}
		} else if entry.CollectionID != "" {
			entry.CollectionName = a.collectionName(ctx, entry.CollectionID)
		}
	}
	entry.Credits = creditsOf(m.Credits)
	if err := a.db.UpsertMemory(ctx, entry); err != nil {
		return entry, err
	}
	// No title: such charges are named when read, in the language then in use.
	a.Ledger().Record(ctx, storage.CreditsMemory, "", "", entry.ID, m.Credits)
	// A memory's collection, even one the service chose, is listed too:
	// there is no other way to learn of it. Failing here is retried at the next save.
	if entry.CollectionID != "" {
		if m.Collection != nil && m.Collection.Name != "" {
			_ = a.db.UpsertCollection(ctx, storage.CollectionEntry{AccountID: entry.AccountID, ID: entry.CollectionID, Name: m.Collection.Name})
		} else {
			_ = a.db.NoteCollection(ctx, entry.AccountID, entry.CollectionID)
		}
	}
	return entry, nil
}

// CollectionLabel is a collection's name, or its id while the name is unknown.
func CollectionLabel(id, name string) string {
	if name != "" {
		return name
	}
	return lang.L("Collection no. {{.Number}}", map[string]any{"Number": id})
}

func (a *App) collectionName(ctx context.Context, id string) string {
	cols, err := a.db.Collections(ctx, a.AccountID())
	if i := slices.IndexFunc(cols, func(c storage.CollectionEntry) bool { return c.ID == id }); err == nil && i >= 0 {
		return cols[i].Name
	}
	return ""
}

// Forget removes a memory from the local index only.
func (svc *Memories) Forget(ctx context.Context, id string) error {
	return svc.a.db.DeleteMemoryEntry(ctx, svc.a.AccountID(), id)
}

// RenameCollection renames a collection on the service and locally; naming
// one created elsewhere brings it into the index.
func (svc *Memories) RenameCollection(ctx context.Context, id, name string) (storage.CollectionEntry, error) {
	a := svc.a
	id, name = strings.TrimSpace(id), strings.TrimSpace(name)
	if err := checkCollectionID(id, true); err != nil {
		return storage.CollectionEntry{}, err
	}
	if name == "" {
		return storage.CollectionEntry{}, say(func() string { return lang.L("enter a name for the collection") })
	}
	c, err := a.Client().UpdateCollection(ctx, client.ID(id), name)
	if err != nil {
		return storage.CollectionEntry{}, err
	}
	entry := storage.CollectionEntry{AccountID: a.AccountID(), ID: id, Name: c.Name}
	if entry.Name == "" {
		entry.Name = name
	}
	return entry, a.db.UpsertCollection(ctx, entry)
}

// ForgetCollection removes a collection from the local index only.
func (svc *Memories) ForgetCollection(ctx context.Context, id string) error {
	return svc.a.db.DeleteCollectionEntry(ctx, svc.a.AccountID(), id)
}

// creditsOf is nil when the service said nothing.
func creditsOf(c client.Credits) *float64 {
	if !c.Valid {
		return nil
	}
	return &c.Value
}

// SaveNewDraft keeps the text of a memory not created yet, so nothing typed is lost.
func (svc *Memories) SaveNewDraft(ctx context.Context, accountID, content, collectionID string) error {
	return svc.a.db.SaveNewMemoryDraft(ctx, accountID, content, collectionID)
}

// NewDraft is the active account's memory not created yet, if any.
func (svc *Memories) NewDraft(ctx context.Context) (content, collectionID string, err error) {
	return svc.a.db.NewMemoryDraft(ctx, svc.a.AccountID())
}

// Sync mirrors the service's lists into the local index; listed is false
// when the service offers none. A memory with a draft is never dropped.
func (svc *Memories) Sync(ctx context.Context) (listed bool, err error) {
	a := svc.a
	c := a.Client()
	listedCols, err := client.Collect(c.Collections(ctx, client.ListCollectionsParams{PerPage: client.MaxCollectionsPerPage}), math.MaxInt)
	var listedMems []client.Memory
	if err == nil {
		listedMems, err = client.Collect(c.Memories(ctx, client.ListMemoriesParams{PerPage: client.MaxMemoriesPerPage}), math.MaxInt)
	}
	if client.IsUnsupported(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var cols []storage.CollectionEntry
	defaults, names := map[string]bool{}, map[string]string{}
	for _, col := range listedCols {
		cols = append(cols, storage.CollectionEntry{ID: col.ID.String(), Name: collectionName(col)})
		names[col.ID.String()] = collectionName(col)
		if col.IsDefault() {
			defaults[col.ID.String()] = true
		}
	}
	var mems []storage.MemoryEntry
	for _, m := range listedMems {
		mems = append(mems, storage.MemoryEntry{ID: m.ID.String(), Content: m.Content, Metadata: m.Metadata, Variant: string(m.Variant),
			CollectionID: m.CollectionID.String(), CollectionName: names[m.CollectionID.String()], Credits: creditsOf(m.Credits)})
	}
	if err := a.db.SyncMemoryIndex(ctx, a.AccountID(), mems, cols); err != nil {
		return true, err
	}
	a.mu.Lock()
	a.defaultCollections = defaults
	a.mu.Unlock()
	return true, nil
}

// IsDefaultCollection reports whether the last sync named this collection the default.
func (svc *Memories) IsDefaultCollection(id string) bool {
	return locked(&svc.a.mu, func() bool { return svc.a.defaultCollections[id] })
}

// Delete deletes a memory on the service and locally, also when the service lacks it.
func (svc *Memories) Delete(ctx context.Context, id string) error {
	if err := validMemoryID(id); err != nil {
		return err
	}
	err := svc.a.Client().DeleteMemory(ctx, client.ID(id))
	if err != nil && !(client.IsNotFound(err) && !client.IsUnsupported(err)) {
		return err
	}
	if derr := svc.a.db.DeleteMemoryEntry(ctx, svc.a.AccountID(), id); derr != nil && !errors.Is(derr, storage.ErrNotFound) {
		return derr
	}
	return nil
}

// collectionName is col as staff read it: the default collection in their
// language where the service names it in English ("My Memories") or not at all.
func collectionName(col client.Collection) string {
	if col.IsDefault() && (col.Label() == client.DefaultCollectionName || col.Label() == client.DefaultCollectionShown) {
		return lang.L("My Memories")
	}
	return col.Label()
}

// CreateCollection creates a named memory collection on the service and lists it.
func (svc *Memories) CreateCollection(ctx context.Context, name string) (storage.CollectionEntry, error) {
	c, err := svc.a.Client().CreateCollection(ctx, name)
	if err != nil {
		return storage.CollectionEntry{}, err
	}
	entry := storage.CollectionEntry{AccountID: svc.a.AccountID(), ID: c.ID.String(), Name: collectionName(*c)}
	if entry.Name == "" {
		entry.Name = strings.TrimSpace(name)
	}
	if entry.ID == "" {
		return entry, say(func() string {
			return lang.L("the service created the collection but did not say its number; refresh the list to see it")
		})
	}
	return entry, svc.a.db.UpsertCollection(ctx, entry)
}

// DeleteCollection deletes a collection and its memories; the default is refused first.
func (svc *Memories) DeleteCollection(ctx context.Context, id string) error {
	a := svc.a
	if err := checkCollectionID(id, true); err != nil {
		return err
	}
	if a.Memories().IsDefaultCollection(id) {
		return client.ErrDefaultCollection
	}
	err := a.Client().DeleteCollection(ctx, client.ID(id))
	if err != nil && !(client.IsNotFound(err) && !client.IsUnsupported(err)) {
		return err
	}
	return a.db.DeleteCollectionAndMemories(ctx, a.AccountID(), id)
}

// Memories is what the account keeps in memory: its memories and collections, here and at the service (App.Memories).
type Memories struct{ a *App }

func (a *App) Memories() *Memories { return &Memories{a} }

// MemoryIndex is the Memories screen's view of the local index.
type MemoryIndex struct {
	a *App
	// Shelves are the rows of the collections pane: first every memory
	// (ID "", Count of them all), then each collection with how many
	// memories it holds, by name.
	Shelves *live.List[CollectionSummary]
	// Found are the memories the search and the chosen collection find,
	// most recently seen first.
	Found *live.List[MemoryEntry]
	sync  *live.State[MemorySync]

	mu                sync.Mutex
	query, collection string
}

// MemorySync is how the last reading of the service's lists went.
type MemorySync struct {
	// Listed says the service lists memories and collections, so the index
	// mirrors them; without, they are added by number.
	Listed bool
	// Syncing says a reading is under way.
	Syncing bool
	// Err is why the last reading failed; the index shows what was kept.
	Err error
}

// NewIndex is the Memories screen's state; nothing is read before Load or Sync.
func (svc *Memories) NewIndex() *MemoryIndex {
	a := svc.a
	x := &MemoryIndex{a: a, sync: live.NewState(MemorySync{})}
	x.Shelves = live.NewList(a, x.shelves)
	x.Found = live.NewList(a, x.found)
	return x
}

func (x *MemoryIndex) SyncState() live.Observable[MemorySync] { return x.sync }

// Load reloads the index: memories matching query in collection ("" for all).
func (x *MemoryIndex) Load(query, collection string) {
	x.mu.Lock()
	x.query, x.collection = query, collection
	x.mu.Unlock()
	x.Reload()
}

// Reload reads the index again with the search last given to Load.
func (x *MemoryIndex) Reload() {
	x.Shelves.Reload()
	x.Found.Reload()
}

// Clear forgets what was read (another account became active).
func (x *MemoryIndex) Clear() {
	x.Shelves.Clear()
	x.Found.Clear()
}

// Sync reads the service's lists into the index in the background, then reloads; never doubled.
func (x *MemoryIndex) Sync() {
	started := false
	x.sync.Update(func(s MemorySync) MemorySync {
		if !s.Syncing {
			s.Syncing, started = true, true
		}
		return s
	})
	if !started {
		return
	}
	x.a.Go(func() {
		listed, err := x.a.Memories().Sync(x.a.Life())
		x.sync.Update(func(s MemorySync) MemorySync {
			// A failed reading keeps what the last one learned.
			return MemorySync{Listed: listed || (err != nil && s.Listed), Err: err}
		})
		x.Reload()
	})
}

// DeleteMemory deletes a memory on the service; it leaves the list at once.
func (x *MemoryIndex) DeleteMemory(ctx context.Context, id string) error {
	if err := x.a.Memories().Delete(ctx, id); err != nil {
		return err
	}
	x.Found.Drop(func(m MemoryEntry) bool { return m.ID == id })
	x.Reload()
	return nil
}

func (x *MemoryIndex) filter() (query, collection string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.query, x.collection
}

func (x *MemoryIndex) shelves(ctx context.Context) ([]CollectionSummary, error) {
	cols, total, err := x.a.collectionSummaries(ctx)
	if err != nil {
		return nil, err
	}
	return append([]CollectionSummary{{Count: total}}, cols...), nil
}

func (x *MemoryIndex) found(ctx context.Context) ([]MemoryEntry, error) {
	query, collection := x.filter()
	mems, err := x.a.Memories().List(ctx, query)
	if err != nil || collection == "" {
		return mems, err
	}
	return slices.DeleteFunc(mems, func(m MemoryEntry) bool { return m.CollectionID != collection }), nil
}
