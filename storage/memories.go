package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"time"
)

// MemoryEntry is the local record of one memory the app created, updated or saw.
type MemoryEntry struct {
	AccountID      string
	ID             string
	Content        string
	Metadata       map[string]any // variant B
	CollectionID   string         // variant A
	CollectionName string
	Variant        string // "A" or "B"
	Credits        *float64
	LastSeen       time.Time // when the server last confirmed it
	Draft          string    // an edit not yet saved to the server
}

// CollectionEntry is the local record of one memory collection.
type CollectionEntry struct {
	AccountID string
	ID        string
	Name      string
	LastSeen  time.Time
}

const memoryColumns = `account_id, id, content, metadata, collection_id, collection_name, variant, credits, last_seen, draft`

// upsertMemory keeps a memory's draft unless the new record has one.
const upsertMemory = `INSERT INTO memories (` + memoryColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT(account_id, id) DO UPDATE SET content = excluded.content, metadata = excluded.metadata,
	collection_id = excluded.collection_id, collection_name = excluded.collection_name,
	variant = excluded.variant, credits = coalesce(excluded.credits, credits), last_seen = excluded.last_seen,
	draft = CASE WHEN excluded.draft <> '' THEN excluded.draft ELSE draft END`

const upsertCollection = `INSERT INTO collections (account_id, id, name, last_seen) VALUES (?, ?, ?, ?)
	ON CONFLICT(account_id, id) DO UPDATE SET name = excluded.name, last_seen = excluded.last_seen`

// UpsertMemory records the server's memory, keeping the draft unless m has one.
func (db *DB) UpsertMemory(ctx context.Context, m MemoryEntry) error {
	m.LastSeen = db.nowOr(m.LastSeen)
	return db.write(ctx, "save the memory", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, upsertMemory, m.fields()...)
		if err != nil || m.CollectionID == "" || m.CollectionName == "" {
			return err
		}
		_, err = tx.ExecContext(ctx, upsertCollection, m.AccountID, m.CollectionID, m.CollectionName, millis(m.LastSeen))
		return err
	})
}

// SaveMemoryDraft keeps an unsaved edit of a memory ("" clears it).
func (db *DB) SaveMemoryDraft(ctx context.Context, accountID, id, draft string) error {
	return db.update(ctx, "save the memory draft", `UPDATE memories SET draft = ? WHERE account_id = ? AND id = ?`, draft, accountID, id)
}

// GetMemory returns one memory of the index.
func (db *DB) GetMemory(ctx context.Context, accountID, id string) (MemoryEntry, error) {
	return queryOne(ctx, db, "read the memory", scanRecord[MemoryEntry], `SELECT `+memoryColumns+` FROM memories WHERE account_id = ? AND id = ?`, accountID, id)
}

// Memories returns an account's memories matching query, most recently seen first.
func (db *DB) Memories(ctx context.Context, accountID, query string) ([]MemoryEntry, error) {
	q := `SELECT ` + memoryColumns + ` FROM memories WHERE account_id = ?`
	args := []any{accountID}
	if query = strings.TrimSpace(searchText(query)); query != "" {
		like := "%" + escapeLike(query) + "%"
		q += ` AND (content LIKE ? ESCAPE '\' OR collection_name LIKE ? ESCAPE '\' OR metadata LIKE ? ESCAPE '\' OR id = ?)`
		args = append(args, like, like, like, query)
	}
	return queryAll(ctx, db, "read the memories", scanRecord[MemoryEntry], q+` ORDER BY last_seen DESC, id`, args...)
}

// DeleteMemoryEntry forgets a memory locally (the server keeps it).
func (db *DB) DeleteMemoryEntry(ctx context.Context, accountID, id string) error {
	return db.update(ctx, "remove the memory from the list", `DELETE FROM memories WHERE account_id = ? AND id = ?`, accountID, id)
}

// UpsertCollection records a collection (zero LastSeen: now); its memories take its name.
func (db *DB) UpsertCollection(ctx context.Context, c CollectionEntry) error {
	c.LastSeen = db.nowOr(c.LastSeen)
	return db.write(ctx, "save the collection", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, upsertCollection, c.fields()...); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE memories SET collection_name = ? WHERE account_id = ? AND collection_id = ?`,
			c.Name, c.AccountID, c.ID)
		return err
	})
}

// NoteCollection records a collection known only by id, keeping a known name.
func (db *DB) NoteCollection(ctx context.Context, accountID, id string) error {
	return db.write(ctx, "save the collection", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO collections (account_id, id, name, last_seen) VALUES (?, ?, '', ?)
			ON CONFLICT(account_id, id) DO UPDATE SET last_seen = excluded.last_seen`,
			accountID, id, millis(db.nowOr(time.Time{})))
		return err
	})
}

// Collections returns an account's collections by name.
func (db *DB) Collections(ctx context.Context, accountID string) ([]CollectionEntry, error) {
	return queryAll(ctx, db, "read the collections", scanRecord[CollectionEntry], `SELECT account_id, id, name, last_seen FROM collections
		WHERE account_id = ? ORDER BY name COLLATE NOCASE, id`, accountID)
}

func (c *CollectionEntry) fields() []any {
	return []any{&c.AccountID, &c.ID, &c.Name, msCol{&c.LastSeen}}
}

// DeleteCollectionEntry forgets a collection locally.
func (db *DB) DeleteCollectionEntry(ctx context.Context, accountID, id string) error {
	return db.update(ctx, "remove the collection from the list", `DELETE FROM collections WHERE account_id = ? AND id = ?`, accountID, id)
}

func (m *MemoryEntry) fields() []any {
	return []any{&m.AccountID, &m.ID, &m.Content, jsonCol{&m.Metadata, true}, &m.CollectionID, &m.CollectionName, &m.Variant,
		creditsCol{&m.Credits}, msCol{&m.LastSeen}, &m.Draft}
}

func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// SaveNewMemoryDraft keeps an account's not-yet-created memory ("" forgets it).
func (db *DB) SaveNewMemoryDraft(ctx context.Context, accountID, content, collectionID string) error {
	return db.write(ctx, "save the new memory draft", func(tx *sql.Tx) error {
		if content == "" {
			_, err := tx.ExecContext(ctx, `DELETE FROM new_memory_drafts WHERE account_id = ?`, accountID)
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO new_memory_drafts(account_id, content, collection_id, updated_at) VALUES (?, ?, ?, ?)
			ON CONFLICT(account_id) DO UPDATE SET content = excluded.content, collection_id = excluded.collection_id, updated_at = excluded.updated_at`,
			accountID, content, collectionID, db.now().UnixMilli())
		return err
	})
}

// NewMemoryDraft returns the account's unsent new memory, if any.
func (db *DB) NewMemoryDraft(ctx context.Context, accountID string) (content, collectionID string, err error) {
	err = db.sql.QueryRowContext(ctx, `SELECT content, collection_id FROM new_memory_drafts WHERE account_id = ?`, accountID).Scan(&content, &collectionID)
	if err == sql.ErrNoRows {
		return "", "", nil
	}
	return content, collectionID, wrap("read the new memory draft", db.path, err)
}

// SyncMemoryIndex makes the index match the service's lists, keeping
// memories with unsaved drafts.
func (db *DB) SyncMemoryIndex(ctx context.Context, accountID string, mems []MemoryEntry, cols []CollectionEntry) error {
	seen := db.nowOr(time.Time{})
	return db.write(ctx, "save the memories", func(tx *sql.Tx) error {
		colIDs, memIDs := []string{}, []string{}
		for _, c := range cols {
			c.AccountID, c.LastSeen = accountID, seen
			if _, err := tx.ExecContext(ctx, upsertCollection, c.fields()...); err != nil {
				return err
			}
			colIDs = append(colIDs, c.ID)
		}
		for _, m := range mems {
			m.AccountID, m.LastSeen, m.Draft = accountID, seen, ""
			if _, err := tx.ExecContext(ctx, upsertMemory, m.fields()...); err != nil {
				return err
			}
			memIDs = append(memIDs, m.ID)
		}
		keptMems, _ := json.Marshal(memIDs)
		keptCols, _ := json.Marshal(colIDs)
		if _, err := tx.ExecContext(ctx, `DELETE FROM memories WHERE account_id = ? AND draft = ''
			AND id NOT IN (SELECT value FROM json_each(?))`, accountID, string(keptMems)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM collections WHERE account_id = ?
			AND id NOT IN (SELECT value FROM json_each(?))`, accountID, string(keptCols))
		return err
	})
}

// DeleteCollectionAndMemories forgets a collection and its memories, as the service does.
func (db *DB) DeleteCollectionAndMemories(ctx context.Context, accountID, id string) error {
	return db.write(ctx, "remove the collection from the list", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM memories WHERE account_id = ? AND collection_id = ?`, accountID, id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM collections WHERE account_id = ? AND id = ?`, accountID, id)
		return err
	})
}
