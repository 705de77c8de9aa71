package storage

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations apply in order, each in one transaction with its schema_version
// row. Never edit a released migration: add one. Times are Unix ms. Streaming
// messages stay out of the full-text index until their status changes.
var migrations = []string{
	`
CREATE TABLE conversations (
	id                   INTEGER PRIMARY KEY,
	account_id           TEXT    NOT NULL DEFAULT '',
	agent_id             TEXT    NOT NULL,
	agent_title          TEXT    NOT NULL DEFAULT '',
	title                TEXT    NOT NULL DEFAULT '',
	root_id              TEXT    NOT NULL DEFAULT '',
	answers              TEXT    NOT NULL DEFAULT '{}',
	developer_message    TEXT    NOT NULL DEFAULT '',
	draft                TEXT    NOT NULL DEFAULT '',
	use_chat_completions INTEGER NOT NULL DEFAULT 0,
	created_at           INTEGER NOT NULL,
	updated_at           INTEGER NOT NULL,
	deleted_at           INTEGER
);
CREATE INDEX conversations_by_account ON conversations(account_id, updated_at DESC);

CREATE TABLE messages (
	id              INTEGER PRIMARY KEY,
	conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
	role            TEXT    NOT NULL,
	content         TEXT    NOT NULL DEFAULT '',
	status          TEXT    NOT NULL DEFAULT 'complete',
	error           TEXT    NOT NULL DEFAULT '',
	credits         REAL,
	file_ids        TEXT    NOT NULL DEFAULT '[]',
	response_id     TEXT    NOT NULL DEFAULT '',
	created_at      INTEGER NOT NULL,
	updated_at      INTEGER NOT NULL
);
CREATE INDEX messages_by_conversation ON messages(conversation_id, id);
CREATE INDEX messages_streaming ON messages(status) WHERE status = 'streaming';

CREATE TABLE runs (
	id          INTEGER PRIMARY KEY,
	account_id  TEXT    NOT NULL DEFAULT '',
	agent_id    TEXT    NOT NULL,
	agent_title TEXT    NOT NULL DEFAULT '',
	agent_type  TEXT    NOT NULL DEFAULT '',
	inputs      TEXT    NOT NULL DEFAULT '{}',
	file_ids    TEXT    NOT NULL DEFAULT '[]',
	response_id TEXT    NOT NULL DEFAULT '',
	output      TEXT    NOT NULL DEFAULT '',
	status      TEXT    NOT NULL DEFAULT '',
	error       TEXT    NOT NULL DEFAULT '',
	credits     REAL,
	created_at  INTEGER NOT NULL,
	updated_at  INTEGER NOT NULL
);
CREATE INDEX runs_by_agent ON runs(account_id, agent_id, created_at DESC);
CREATE INDEX runs_by_account ON runs(account_id, created_at DESC);

CREATE TABLE memories (
	account_id      TEXT    NOT NULL DEFAULT '',
	id              TEXT    NOT NULL,
	content         TEXT    NOT NULL DEFAULT '',
	metadata        TEXT    NOT NULL DEFAULT '{}',
	collection_id   TEXT    NOT NULL DEFAULT '',
	collection_name TEXT    NOT NULL DEFAULT '',
	variant         TEXT    NOT NULL DEFAULT '',
	credits         REAL,
	last_seen       INTEGER NOT NULL,
	draft           TEXT    NOT NULL DEFAULT '',
	PRIMARY KEY (account_id, id)
);

CREATE TABLE collections (
	account_id TEXT    NOT NULL DEFAULT '',
	id         TEXT    NOT NULL,
	name       TEXT    NOT NULL DEFAULT '',
	last_seen  INTEGER NOT NULL,
	PRIMARY KEY (account_id, id)
);

CREATE TABLE credits (
	id          INTEGER PRIMARY KEY,
	at          INTEGER NOT NULL,
	account_id  TEXT    NOT NULL DEFAULT '',
	agent_id    TEXT    NOT NULL DEFAULT '',
	agent_title TEXT    NOT NULL DEFAULT '',
	kind        TEXT    NOT NULL,
	credits     REAL    NOT NULL,
	ref         TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX credits_by_account ON credits(account_id, at);

CREATE VIRTUAL TABLE messages_fts USING fts5(
	content, content='messages', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
);
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages WHEN new.status <> 'streaming' BEGIN
	INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages WHEN old.status <> 'streaming' BEGIN
	INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
END;
-- One trigger, so the old text leaves the index before the new enters.
CREATE TRIGGER messages_fts_update AFTER UPDATE OF content, status ON messages BEGIN
	INSERT INTO messages_fts(messages_fts, rowid, content) SELECT 'delete', old.id, old.content WHERE old.status <> 'streaming';
	INSERT INTO messages_fts(rowid, content) SELECT new.id, new.content WHERE new.status <> 'streaming';
END;

CREATE VIRTUAL TABLE conversations_fts USING fts5(
	title, content='conversations', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
);
CREATE TRIGGER conversations_fts_insert AFTER INSERT ON conversations BEGIN
	INSERT INTO conversations_fts(rowid, title) VALUES (new.id, new.title);
END;
CREATE TRIGGER conversations_fts_delete AFTER DELETE ON conversations BEGIN
	INSERT INTO conversations_fts(conversations_fts, rowid, title) VALUES ('delete', old.id, old.title);
END;
CREATE TRIGGER conversations_fts_update AFTER UPDATE OF title ON conversations BEGIN
	INSERT INTO conversations_fts(conversations_fts, rowid, title) VALUES ('delete', old.id, old.title);
	INSERT INTO conversations_fts(rowid, title) VALUES (new.id, new.title);
END;
`,
	// 2: a new memory's draft (no id yet to keep it on in memories).
	`
CREATE TABLE new_memory_drafts (
	account_id    TEXT    PRIMARY KEY,
	content       TEXT    NOT NULL,
	collection_id TEXT    NOT NULL DEFAULT '',
	updated_at    INTEGER NOT NULL
);
`,
	// 3: batches; row state is kept so a crash loses nothing and no row is sent twice.
	`
CREATE TABLE batches (
	id          INTEGER PRIMARY KEY,
	account_id  TEXT    NOT NULL DEFAULT '',
	agent_id    TEXT    NOT NULL,
	agent_title TEXT    NOT NULL DEFAULT '',
	source      TEXT    NOT NULL DEFAULT '',
	results     TEXT    NOT NULL DEFAULT '',
	header      TEXT    NOT NULL DEFAULT '[]',
	columns     TEXT    NOT NULL DEFAULT '{}',
	fixed       TEXT    NOT NULL DEFAULT '{}',
	parallel    INTEGER NOT NULL DEFAULT 1,
	credit_cap  REAL    NOT NULL DEFAULT 0,
	state       TEXT    NOT NULL,
	created_at  INTEGER NOT NULL,
	updated_at  INTEGER NOT NULL
);
CREATE INDEX batches_by_account ON batches(account_id, updated_at DESC);

CREATE TABLE batch_rows (
	batch_id     INTEGER NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
	row          INTEGER NOT NULL,
	cells        TEXT    NOT NULL DEFAULT '[]',
	state        TEXT    NOT NULL,
	execution_id TEXT    NOT NULL DEFAULT '',
	credits      REAL,
	result       TEXT    NOT NULL DEFAULT '',
	error        TEXT    NOT NULL DEFAULT '',
	updated_at   INTEGER NOT NULL,
	PRIMARY KEY (batch_id, row)
);
CREATE INDEX batch_rows_by_state ON batch_rows(batch_id, state, row);
`,
	// 4: batches over files. Old "sending" rows had their request on its way:
	// they become "starting"; "sending" now means files being sent.
	`
ALTER TABLE batches ADD COLUMN folder TEXT NOT NULL DEFAULT '';
ALTER TABLE batches ADD COLUMN attach INTEGER NOT NULL DEFAULT 0;
ALTER TABLE batch_rows ADD COLUMN uploads TEXT NOT NULL DEFAULT '[]';
ALTER TABLE batch_rows ADD COLUMN files TEXT NOT NULL DEFAULT '[]';
ALTER TABLE batches ADD COLUMN outputs TEXT NOT NULL DEFAULT '';
ALTER TABLE batches ADD COLUMN planned TEXT NOT NULL DEFAULT '';
UPDATE batch_rows SET state = 'starting' WHERE state = 'sending';
`,
}

var latestSchema = len(migrations)

// migrate brings the database to latestSchema, one committed step at a time,
// so a crash leaves a known version.
func migrate(ctx context.Context, db *sql.DB, now int64) error {
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (
		version    INTEGER PRIMARY KEY,
		applied_at INTEGER NOT NULL
	)`); err != nil {
		return err
	}
	v, err := schemaVersion(ctx, db)
	if err != nil {
		return err
	}
	if v > latestSchema {
		return fmt.Errorf("the history was written by a newer Agent Desk (format %d, this version knows up to %d)", v, latestSchema)
	}
	for i := v; i < latestSchema; i++ {
		if err := inTx(ctx, db, func(tx *sql.Tx) error {
			// Another Agent Desk may have migrated since we looked.
			var done int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_version WHERE version = ?`, i+1).Scan(&done); err != nil {
				return err
			}
			if done > 0 {
				return nil
			}
			if _, err := tx.ExecContext(ctx, migrations[i]); err != nil {
				return fmt.Errorf("migration %d: %w", i+1, err)
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO schema_version(version, applied_at) VALUES (?, ?)`, i+1, now)
			return err
		}); err != nil {
			return err
		}
	}
	return nil
}

func schemaVersion(ctx context.Context, db *sql.DB) (int, error) {
	var v sql.NullInt64
	err := db.QueryRowContext(ctx, `SELECT max(version) FROM schema_version`).Scan(&v)
	return int(v.Int64), err
}
