-- 3: batches; row state is kept so a crash loses nothing and no row is sent twice.
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
