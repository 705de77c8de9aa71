package storage

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// SavedAnswer is a filled form kept under a name for its agent, to run again.
type SavedAnswer struct {
	ID         int64
	AccountID  string
	AgentID    string
	AgentTitle string
	Name       string
	Answers    map[string]string
	// Questions are the agent's questions when the answers were saved: what
	// tells a question since removed or changed from one never asked.
	Questions []SavedQuestion
	CreatedAt time.Time
	UsedAt    time.Time // zero: never run
}

// SavedQuestion is one question of an agent as a saved answer remembers it.
type SavedQuestion struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// ErrNameTaken means the agent already has a saved answer of that name in
// the account (names are compared whatever their case).
var ErrNameTaken = errors.New("that name is taken")

// SavedAnswersMax is the most saved answers a list reads: a list to choose
// from, never a store to page through.
const SavedAnswersMax = 1000

const savedColumns = `id, account_id, agent_id, agent_title, name, answers, questions, created_at, used_at`

func (s *SavedAnswer) fields() []any {
	return []any{&s.ID, &s.AccountID, &s.AgentID, &s.AgentTitle, &s.Name, jsonCol{&s.Answers, false},
		jsonCol{&s.Questions, true}, msCol{&s.CreatedAt}, msCol{&s.UsedAt}}
}

// AddSavedAnswer keeps s (a zero CreatedAt is now) and returns it with its
// id. When its agent has one of that name already it fails with
// ErrNameTaken, unless replace: then that one takes s's name, title,
// answers and questions, keeping its id and when it was last used.
func (db *DB) AddSavedAnswer(ctx context.Context, s SavedAnswer, replace bool) (SavedAnswer, error) {
	s.CreatedAt = db.nowOr(s.CreatedAt)
	err := db.write(ctx, "keep the saved answer", func(tx *sql.Tx) error {
		var id int64
		var used int64
		err := tx.QueryRowContext(ctx, `SELECT id, used_at FROM saved_answers WHERE account_id = ? AND agent_id = ? AND name = ?`,
			s.AccountID, s.AgentID, s.Name).Scan(&id, &used)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return nameTaken(insert(ctx, tx, "saved_answers", savedColumns, s.fields()))
		case err != nil:
			return err
		case !replace:
			return ErrNameTaken
		}
		s.ID, s.UsedAt = id, fromMillis(used)
		_, err = tx.ExecContext(ctx, `UPDATE saved_answers SET name = ?, agent_title = ?, answers = ?, questions = ?, created_at = ? WHERE id = ?`,
			s.Name, s.AgentTitle, jsonCol{&s.Answers, false}, jsonCol{&s.Questions, true}, millis(s.CreatedAt), id)
		return err
	})
	if err != nil {
		return SavedAnswer{}, err
	}
	return s, nil
}

// nameTaken is err, or ErrNameTaken when it broke the one-name rule.
func nameTaken(err error) error {
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE {
		return ErrNameTaken
	}
	return err
}

// SavedAnswers are an account's saved answers for one agent ("" for every
// agent), the one used or saved last first, at most SavedAnswersMax.
func (db *DB) SavedAnswers(ctx context.Context, accountID, agentID string) ([]SavedAnswer, error) {
	q := `SELECT ` + savedColumns + ` FROM saved_answers WHERE account_id = ?`
	args := []any{accountID}
	if agentID != "" {
		q += ` AND agent_id = ?`
		args = append(args, agentID)
	}
	q += ` ORDER BY max(used_at, created_at) DESC, id DESC LIMIT ?`
	return queryAll(ctx, db, "read the saved answers", scanRecord[SavedAnswer], q, append(args, SavedAnswersMax)...)
}

// GetSavedAnswer reads one of the account's saved answers (ErrNotFound when
// there is none).
func (db *DB) GetSavedAnswer(ctx context.Context, accountID string, id int64) (SavedAnswer, error) {
	return queryOne(ctx, db, "read the saved answers", scanRecord[SavedAnswer],
		`SELECT `+savedColumns+` FROM saved_answers WHERE account_id = ? AND id = ?`, accountID, id)
}

// RenameSavedAnswer gives a saved answer another name; ErrNameTaken when its
// agent has one of that name already.
func (db *DB) RenameSavedAnswer(ctx context.Context, accountID string, id int64, name string) error {
	return db.write(ctx, "rename the saved answer", func(tx *sql.Tx) error {
		return nameTaken(mustAffect(tx.ExecContext(ctx, `UPDATE saved_answers SET name = ? WHERE account_id = ? AND id = ?`, name, accountID, id)))
	})
}

// DeleteSavedAnswer removes a saved answer for good.
func (db *DB) DeleteSavedAnswer(ctx context.Context, accountID string, id int64) error {
	return db.update(ctx, "delete the saved answer", `DELETE FROM saved_answers WHERE account_id = ? AND id = ?`, accountID, id)
}

// TouchSavedAnswer notes that a saved answer was run now: it comes first.
func (db *DB) TouchSavedAnswer(ctx context.Context, accountID string, id int64) error {
	return db.update(ctx, "keep the saved answer", `UPDATE saved_answers SET used_at = ? WHERE account_id = ? AND id = ?`,
		db.now().UnixMilli(), accountID, id)
}
