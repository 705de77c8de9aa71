package storage

import (
	"context"
	"database/sql"
	"time"
)

// Run is one execution of a non-chat agent (text, image, video).
type Run struct {
	ID         int64
	AccountID  string
	AgentID    string
	AgentTitle string
	AgentType  string
	Inputs     map[string]string
	FileIDs    []string
	ResponseID string
	Output     string
	Status     string // the service's status (starting, running, completed) or failed
	Error      string
	Credits    *float64
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

const runColumns = `id, account_id, agent_id, agent_title, agent_type, inputs, file_ids, response_id,
	output, status, error, credits, created_at, updated_at`

// AddRun stores r and returns it with its ID and times.
func (db *DB) AddRun(ctx context.Context, r Run) (Run, error) {
	r.CreatedAt = db.nowOr(r.CreatedAt)
	r.UpdatedAt = r.CreatedAt
	err := db.write(ctx, "save the run", func(tx *sql.Tx) error {
		return insert(ctx, tx, "runs", runColumns, r.fields())
	})
	if err != nil {
		return Run{}, err
	}
	return r, nil
}

// UpdateRun saves r's response id, output, status, error, credits, inputs and files.
func (db *DB) UpdateRun(ctx context.Context, r Run) error {
	return db.update(ctx, "save the run", `UPDATE runs SET inputs = ?, file_ids = ?, response_id = ?, output = ?,
		status = ?, error = ?, credits = ?, updated_at = ? WHERE id = ?`,
		jsonCol{&r.Inputs, false}, jsonCol{&r.FileIDs, true}, r.ResponseID, r.Output, r.Status, r.Error, r.Credits, db.now().UnixMilli(), r.ID)
}

// Runs returns runs of agentID (all when empty), newest first; limit 0 means 50.
func (db *DB) Runs(ctx context.Context, accountID, agentID string, limit int) ([]Run, error) {
	limit = listLimit(limit)
	q := `SELECT ` + runColumns + ` FROM runs WHERE account_id = ?`
	args := []any{accountID}
	if agentID != "" {
		q += ` AND agent_id = ?`
		args = append(args, agentID)
	}
	return queryAll(ctx, db, "read the runs", scanRecord[Run], q+` ORDER BY created_at DESC, id DESC LIMIT ?`, append(args, limit)...)
}

// RunsWithStatus returns the account's runs in status, newest first (at most 50).
func (db *DB) RunsWithStatus(ctx context.Context, accountID, status string) ([]Run, error) {
	return queryAll(ctx, db, "read the runs", scanRecord[Run], `SELECT `+runColumns+` FROM runs WHERE account_id = ? AND status = ?
		ORDER BY created_at DESC, id DESC LIMIT ?`, accountID, status, listLimit(0))
}

func (r *Run) fields() []any {
	return []any{&r.ID, &r.AccountID, &r.AgentID, &r.AgentTitle, &r.AgentType, jsonCol{&r.Inputs, false},
		jsonCol{&r.FileIDs, true}, &r.ResponseID, &r.Output, &r.Status, &r.Error, creditsCol{&r.Credits}, msCol{&r.CreatedAt},
		msCol{&r.UpdatedAt}}
}
