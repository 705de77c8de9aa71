-- 2: a new memory's draft (no id yet to keep it on in memories).
CREATE TABLE new_memory_drafts (
	account_id    TEXT    PRIMARY KEY,
	content       TEXT    NOT NULL,
	collection_id TEXT    NOT NULL DEFAULT '',
	updated_at    INTEGER NOT NULL
);
