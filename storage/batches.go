package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"
)

// Batch states.
const (
	BatchRunning   = "running"
	BatchPaused    = "paused"
	BatchCancelled = "cancelled"
	BatchDone      = "done"
)

// Batch row states. A row is sent only from RowWaiting, and marked
// RowSending in the same breath, before the request leaves: a row found
// RowSending after a crash may have reached the service, so it is never
// sent again by itself (it becomes RowFailed, for the user to retry).
// A row RowRunning has its execution id: it is looked up, not sent again.
const (
	RowWaiting = "waiting"
	RowSending = "sending"
	RowRunning = "running"
	RowDone    = "done"
	RowFailed  = "failed"
	RowSkipped = "skipped"
)

// Batch is one agent run over the rows of a sheet.
type Batch struct {
	ID         int64
	AccountID  string
	AgentID    string
	AgentTitle string
	Source     string // the sheet (or folder) the rows came from
	Results    string // the sheet the results are written to
	Header     []string
	Columns    map[string]int    // question name → column
	Fixed      map[string]string // question name → the same answer for every row
	Parallel   int
	CreditCap  float64 // pause when the batch has cost this much (0: no cap)
	State      string
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// BatchRow is one row of a batch and what became of it.
type BatchRow struct {
	BatchID     int64
	Row         int // as the spreadsheet program numbers it
	Cells       []string
	State       string
	ExecutionID string
	Credits     *float64
	Result      string // the agent's text, or where its files went
	Error       string // why it failed or was skipped, in the user's words
	UpdatedAt   time.Time
}

// CreateBatch keeps a new batch and all its rows, waiting, in one
// transaction: a batch is there whole or not at all.
func (db *DB) CreateBatch(ctx context.Context, b Batch, rows []BatchRow) (Batch, error) {
	b.CreatedAt = db.nowOr(b.CreatedAt)
	b.UpdatedAt = b.CreatedAt
	if b.State == "" {
		b.State = BatchRunning
	}
	if b.Parallel < 1 {
		b.Parallel = 1
	}
	header, _ := json.Marshal(orEmptySlice(b.Header))
	columns, _ := json.Marshal(orEmpty(b.Columns))
	fixed, _ := json.Marshal(orEmpty(b.Fixed))
	err := db.write(ctx, "keep the batch", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO batches (account_id, agent_id, agent_title, source, results, header, columns, fixed, parallel, credit_cap, state, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			b.AccountID, b.AgentID, b.AgentTitle, b.Source, b.Results, string(header), string(columns), string(fixed),
			b.Parallel, b.CreditCap, b.State, millis(b.CreatedAt), millis(b.UpdatedAt))
		if err := insertID(&b.ID, res, err); err != nil {
			return err
		}
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO batch_rows (batch_id, row, cells, state, updated_at) VALUES (?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for _, r := range rows {
			cells, _ := json.Marshal(orEmptySlice(r.Cells))
			state := r.State
			if state == "" {
				state = RowWaiting
			}
			if _, err := stmt.ExecContext(ctx, b.ID, r.Row, string(cells), state, millis(b.CreatedAt)); err != nil {
				return err
			}
		}
		return nil
	})
	return b, err
}

const batchColumns = `id, account_id, agent_id, agent_title, source, results, header, columns, fixed, parallel, credit_cap, state, created_at, updated_at`

func scanBatch(s scanner) (Batch, error) {
	var b Batch
	var header, columns, fixed string
	var created, updated int64
	err := s.Scan(&b.ID, &b.AccountID, &b.AgentID, &b.AgentTitle, &b.Source, &b.Results, &header, &columns, &fixed,
		&b.Parallel, &b.CreditCap, &b.State, &created, &updated)
	if err != nil {
		return b, err
	}
	_ = json.Unmarshal([]byte(header), &b.Header)
	_ = json.Unmarshal([]byte(columns), &b.Columns)
	_ = json.Unmarshal([]byte(fixed), &b.Fixed)
	b.CreatedAt, b.UpdatedAt = fromMillis(created), fromMillis(updated)
	return b, nil
}

// Batch is the batch of that id (ErrNotFound when there is none).
func (db *DB) Batch(ctx context.Context, id int64) (Batch, error) {
	b, err := scanBatch(db.sql.QueryRowContext(ctx, `SELECT `+batchColumns+` FROM batches WHERE id = ?`, id))
	if err == sql.ErrNoRows {
		return b, ErrNotFound
	}
	return b, wrap("read the batch", db.path, err)
}

// Batches are an account's batches, the latest first.
func (db *DB) Batches(ctx context.Context, accountID string, limit int) ([]Batch, error) {
	return queryAll(ctx, db, "read the batches", scanBatch,
		`SELECT `+batchColumns+` FROM batches WHERE account_id = ? ORDER BY updated_at DESC, id DESC LIMIT ?`, accountID, listLimit(limit))
}

// SetBatchState changes a batch's state (running, paused, cancelled, done).
func (db *DB) SetBatchState(ctx context.Context, id int64, state string) error {
	now := millis(db.nowOr(time.Time{}))
	return db.write(ctx, "change the batch", func(tx *sql.Tx) error {
		return mustAffect(tx.ExecContext(ctx, `UPDATE batches SET state = ?, updated_at = ? WHERE id = ?`, state, now, id))
	})
}

const rowColumns = `batch_id, row, cells, state, execution_id, credits, result, error, updated_at`

func scanRow(s scanner) (BatchRow, error) {
	var r BatchRow
	var cells string
	var credits sql.NullFloat64
	var updated int64
	if err := s.Scan(&r.BatchID, &r.Row, &cells, &r.State, &r.ExecutionID, &credits, &r.Result, &r.Error, &updated); err != nil {
		return r, err
	}
	_ = json.Unmarshal([]byte(cells), &r.Cells)
	if credits.Valid {
		r.Credits = &credits.Float64
	}
	r.UpdatedAt = fromMillis(updated)
	return r, nil
}

// BatchRows are a batch's rows from row after on, in sheet order, at
// most limit.
func (db *DB) BatchRows(ctx context.Context, batchID int64, after, limit int) ([]BatchRow, error) {
	return queryAll(ctx, db, "read the batch's rows", scanRow,
		`SELECT `+rowColumns+` FROM batch_rows WHERE batch_id = ? AND row > ? ORDER BY row LIMIT ?`, batchID, after, listLimit(limit))
}

// BatchRowsIn are a batch's rows in state, in sheet order.
func (db *DB) BatchRowsIn(ctx context.Context, batchID int64, state string, limit int) ([]BatchRow, error) {
	return queryAll(ctx, db, "read the batch's rows", scanRow,
		`SELECT `+rowColumns+` FROM batch_rows WHERE batch_id = ? AND state = ? ORDER BY row LIMIT ?`, batchID, state, listLimit(limit))
}

// TakeWaitingRow marks the first waiting row of a batch as being sent and
// returns it; ok is false when no row waits. Taking and marking are one
// step: a row is handed out once.
func (db *DB) TakeWaitingRow(ctx context.Context, batchID int64) (r BatchRow, ok bool, err error) {
	now := millis(db.nowOr(time.Time{}))
	err = db.write(ctx, "take the next row", func(tx *sql.Tx) error {
		r, err = scanRow(tx.QueryRowContext(ctx, `SELECT `+rowColumns+` FROM batch_rows WHERE batch_id = ? AND state = ? ORDER BY row LIMIT 1`, batchID, RowWaiting))
		if err == sql.ErrNoRows {
			return nil
		}
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE batch_rows SET state = ?, updated_at = ? WHERE batch_id = ? AND row = ?`, RowSending, now, batchID, r.Row); err != nil {
			return err
		}
		r.State, ok = RowSending, true
		return nil
	})
	return r, ok, err
}

// RowUpdate is what became of a row: its new state and what goes with it.
type RowUpdate struct {
	State       string
	ExecutionID string   // kept when empty
	Credits     *float64 // kept when nil
	Result      string
	Error       string
}

// UpdateBatchRow records what became of a row.
func (db *DB) UpdateBatchRow(ctx context.Context, batchID int64, row int, u RowUpdate) error {
	now := millis(db.nowOr(time.Time{}))
	var credits any
	if u.Credits != nil {
		credits = *u.Credits
	}
	return db.write(ctx, "keep the row's result", func(tx *sql.Tx) error {
		return mustAffect(tx.ExecContext(ctx, `UPDATE batch_rows SET state = ?,
			execution_id = CASE WHEN ? = '' THEN execution_id ELSE ? END,
			credits = coalesce(?, credits), result = ?, error = ?, updated_at = ?
			WHERE batch_id = ? AND row = ?`,
			u.State, u.ExecutionID, u.ExecutionID, credits, u.Result, u.Error, now, batchID, row))
	})
}

// RetryFailedRows puts a batch's failed rows back to waiting (the user
// asked); done rows are never run again.
func (db *DB) RetryFailedRows(ctx context.Context, batchID int64) (int, error) {
	now := millis(db.nowOr(time.Time{}))
	var n int64
	err := db.write(ctx, "retry the failed rows", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE batch_rows SET state = ?, error = '', updated_at = ? WHERE batch_id = ? AND state = ?`,
			RowWaiting, now, batchID, RowFailed)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return int(n), err
}

// BatchCounts are how many rows of a batch are in each state, and the
// credits they cost.
func (db *DB) BatchCounts(ctx context.Context, batchID int64) (map[string]int, float64, error) {
	counts := map[string]int{}
	var total float64
	rows, err := db.sql.QueryContext(ctx, `SELECT state, count(*), coalesce(sum(credits), 0) FROM batch_rows WHERE batch_id = ? GROUP BY state`, batchID)
	if err != nil {
		return nil, 0, wrap("count the batch's rows", db.path, err)
	}
	defer rows.Close()
	for rows.Next() {
		var state string
		var n int
		var c float64
		if err := rows.Scan(&state, &n, &c); err != nil {
			return nil, 0, wrap("count the batch's rows", db.path, err)
		}
		counts[state] = n
		total += c
	}
	return counts, total, wrap("count the batch's rows", db.path, rows.Err())
}

// SetBatchResults keeps where a batch's results sheet is.
func (db *DB) SetBatchResults(ctx context.Context, id int64, path string) error {
	return db.write(ctx, "change the batch", func(tx *sql.Tx) error {
		return mustAffect(tx.ExecContext(ctx, `UPDATE batches SET results = ? WHERE id = ?`, path, id))
	})
}
