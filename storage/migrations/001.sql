-- 1: conversations, messages, runs, memories, collections and credits, and the
-- full-text indexes. Streaming messages stay out of the messages' index until
-- their status changes.
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
