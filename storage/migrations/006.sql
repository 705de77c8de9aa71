-- 6: saved answers: a filled form kept under a name for its agent, with
-- the agent's questions (name and type) as they were when it was saved, so
-- a later change of the agent can be told in plain words. A name is the
-- agent's once in an account, whatever its case.
CREATE TABLE saved_answers (
	id          INTEGER PRIMARY KEY,
	account_id  TEXT    NOT NULL DEFAULT '',
	agent_id    TEXT    NOT NULL,
	agent_title TEXT    NOT NULL DEFAULT '',
	name        TEXT    NOT NULL COLLATE NOCASE,
	answers     TEXT    NOT NULL DEFAULT '{}',
	questions   TEXT    NOT NULL DEFAULT '[]',
	created_at  INTEGER NOT NULL,
	used_at     INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX saved_answers_by_name ON saved_answers(account_id, agent_id, name);
