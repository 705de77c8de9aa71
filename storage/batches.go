package storage

import (
	"context"
	"database/sql"
	"time"
)

// Batch states.
const (
	BatchRunning   = "running"
	BatchPaused    = "paused"
	BatchCancelled = "cancelled"
	BatchDone      = "done"
)

// RowState is where a row is in its life: waiting → sending (its files; after
// a crash it waits again) → starting (its run may have reached the service,
// so after a crash it fails for the user to retry, never resent) → running
// (looked up by execution id) → done or failed, or skipped; a row whose reply
// does not hold the facts its batch asked for needs a look instead of done.
type RowState string

// Batch row states.
const (
	RowWaiting  RowState = "waiting"
	RowSending  RowState = "sending"
	RowStarting RowState = "starting"
	RowRunning  RowState = "running"
	RowDone     RowState = "done"
	RowFailed   RowState = "failed"
	RowSkipped  RowState = "skipped"
	// RowLook answered, but not with the facts asked for: its reply is
	// kept for the user to read; it is not failed, so not sent again.
	RowLook RowState = "look"
)

// Batch is one agent run over the rows of a sheet.
type Batch struct {
	ID         int64
	AccountID  string
	AgentID    string
	AgentTitle string
	Source     string // the sheet (or folder) the rows came from
	// Folder is where a row's files are found; nothing outside it is sent.
	Folder string
	// Attach is the 1-based column whose file goes with each run when no
	// question takes files (0: none).
	Attach  int
	Results string // the sheet the results are written to
	Outputs string
	// Planned is where results were to go (Results differs when it was open elsewhere).
	Planned   string
	Header    []string
	Columns   map[string]int    // question name → column
	Fixed     map[string]string // question name → the same answer for every row
	Parallel  int
	CreditCap float64 // pause when the batch has cost this much (0: no cap)
	// Fields are the facts each reply is asked for, as the user typed them.
	Fields    []string
	State     string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// BatchRow is one row of a batch and what became of it.
type BatchRow struct {
	BatchID     int64
	Row         int // as the spreadsheet program numbers it
	Cells       []string
	State       RowState
	ExecutionID string
	Credits     *float64
	Result      string // the agent's text, or where its files went
	Error       string // why it failed or was skipped, in the user's words
	// Uploads are the service's ids of the row's files, removed once done.
	Uploads []string
	Files   []string
	// Values are the facts its reply held, in the batch's Fields order.
	Values []string
	// Asked is how many times its agent was asked again for the facts (at most once).
	Asked     int
	UpdatedAt time.Time
}

// CreateBatch keeps a new batch and its waiting rows in one transaction.
func (db *DB) CreateBatch(ctx context.Context, b Batch, rows []BatchRow) (Batch, error) {
	b.CreatedAt = db.nowOr(b.CreatedAt)
	b.UpdatedAt = b.CreatedAt
	if b.State == "" {
		b.State = BatchRunning
	}
	if b.Parallel < 1 {
		b.Parallel = 1
	}
	err := db.write(ctx, "keep the batch", func(tx *sql.Tx) error {
		if err := insert(ctx, tx, "batches", batchColumns, b.fields()); err != nil {
			return err
		}
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO batch_rows (batch_id, row, cells, state, updated_at) VALUES (?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for _, r := range rows {
			state := r.State
			if state == "" {
				state = RowWaiting
			}
			if _, err := stmt.ExecContext(ctx, b.ID, r.Row, jsonCol{&r.Cells, false}, state, millis(b.CreatedAt)); err != nil {
				return err
			}
		}
		return nil
	})
	return b, err
}

const batchColumns = `id, account_id, agent_id, agent_title, source, results, header, columns, fixed, parallel, credit_cap, state, created_at, updated_at, folder, attach, outputs, planned, fields`

func (b *Batch) fields() []any {
	return []any{&b.ID, &b.AccountID, &b.AgentID, &b.AgentTitle, &b.Source, &b.Results, jsonCol{&b.Header, false},
		jsonCol{&b.Columns, false}, jsonCol{&b.Fixed, false}, &b.Parallel, &b.CreditCap, &b.State, msCol{&b.CreatedAt},
		msCol{&b.UpdatedAt}, &b.Folder, &b.Attach, &b.Outputs, &b.Planned, jsonCol{&b.Fields, false}}
}

// Batch is the batch of that id (ErrNotFound when there is none).
func (db *DB) Batch(ctx context.Context, id int64) (Batch, error) {
	return queryOne(ctx, db, "read the batch", scanRecord[Batch], `SELECT `+batchColumns+` FROM batches WHERE id = ?`, id)
}

// Batches are an account's batches, the latest first.
func (db *DB) Batches(ctx context.Context, accountID string, limit int) ([]Batch, error) {
	return queryAll(ctx, db, "read the batches", scanRecord[Batch],
		`SELECT `+batchColumns+` FROM batches WHERE account_id = ? ORDER BY updated_at DESC, id DESC LIMIT ?`, accountID, listLimit(limit))
}

// UnfinishedBatches are those of an account's latest 100 batches to go on
// with: running at the last close, or cancelled with rows still on their way
// (to be looked up; nothing new is sent).
func (db *DB) UnfinishedBatches(ctx context.Context, accountID string) ([]Batch, error) {
	return queryAll(ctx, db, "read the batches", scanRecord[Batch], `SELECT `+batchColumns+` FROM batches
		WHERE id IN (SELECT id FROM batches WHERE account_id = ? ORDER BY updated_at DESC, id DESC LIMIT 100)
		AND (state = ? OR state = ? AND EXISTS (SELECT 1 FROM batch_rows WHERE batch_id = batches.id AND state IN (?, ?, ?)))
		ORDER BY updated_at DESC, id DESC`, accountID, BatchRunning, BatchCancelled, RowSending, RowStarting, RowRunning)
}

// SetBatchState changes a batch's state; a cancelled batch stays cancelled.
func (db *DB) SetBatchState(ctx context.Context, id int64, state string) error {
	now := millis(db.nowOr(time.Time{}))
	return db.update(ctx, "change the batch", `UPDATE batches SET updated_at = ?, state = CASE WHEN state = ? THEN state ELSE ? END WHERE id = ?`,
		now, BatchCancelled, state, id)
}

// SetBatchCreditCap changes the credits after which a batch pauses (0: none).
func (db *DB) SetBatchCreditCap(ctx context.Context, id int64, credits float64) error {
	return db.update(ctx, "change the batch", `UPDATE batches SET credit_cap = ? WHERE id = ?`, credits, id)
}

const rowColumns = `batch_id, row, cells, state, execution_id, credits, result, error, updated_at, uploads, files, fields, asked`

func (r *BatchRow) fields() []any {
	return []any{&r.BatchID, &r.Row, jsonCol{&r.Cells, false}, &r.State, &r.ExecutionID, creditsCol{&r.Credits}, &r.Result,
		&r.Error, msCol{&r.UpdatedAt}, jsonCol{&r.Uploads, false}, jsonCol{&r.Files, false}, jsonCol{&r.Values, false}, &r.Asked}
}

// BatchRows are at most limit rows after row after, in sheet order.
func (db *DB) BatchRows(ctx context.Context, batchID int64, after, limit int) ([]BatchRow, error) {
	return queryAll(ctx, db, "read the batch's rows", scanRecord[BatchRow],
		`SELECT `+rowColumns+` FROM batch_rows WHERE batch_id = ? AND row > ? ORDER BY row LIMIT ?`, batchID, after, listLimit(limit))
}

// AllBatchRows are all of a batch's rows, in sheet order.
func (db *DB) AllBatchRows(ctx context.Context, batchID int64) ([]BatchRow, error) {
	return queryAll(ctx, db, "read the batch's rows", scanRecord[BatchRow],
		`SELECT `+rowColumns+` FROM batch_rows WHERE batch_id = ? ORDER BY row`, batchID)
}

// TakeWaitingRow marks the first waiting row as sending and returns it, in
// one step; ok is false when none waits.
func (db *DB) TakeWaitingRow(ctx context.Context, batchID int64) (r BatchRow, ok bool, err error) {
	now := millis(db.nowOr(time.Time{}))
	err = db.write(ctx, "take the next row", func(tx *sql.Tx) error {
		r, err = scanRecord[BatchRow](tx.QueryRowContext(ctx, `UPDATE batch_rows SET state = ?, updated_at = ? WHERE batch_id = ? AND row =
			(SELECT row FROM batch_rows WHERE batch_id = ? AND state = ? ORDER BY row LIMIT 1) RETURNING `+rowColumns, RowSending, now, batchID, batchID, RowWaiting))
		if ok = err == nil; err == sql.ErrNoRows {
			return nil
		}
		return err
	})
	return r, ok, err
}

// MoveRow writes row r only while it is still in state from, never making it
// RowStarting once its batch was cancelled; ok is false when not written.
func (db *DB) MoveRow(ctx context.Context, from RowState, r BatchRow) (ok bool, err error) {
	now := millis(db.nowOr(time.Time{}))
	err = db.write(ctx, "keep the row's result", func(tx *sql.Tx) error {
		n, err := affected(tx.ExecContext(ctx, `UPDATE batch_rows SET state = ?, execution_id = ?, credits = ?, result = ?, error = ?,
			uploads = ?, files = ?, fields = ?, asked = ?, updated_at = ? WHERE batch_id = ? AND row = ? AND state = ?
			AND (? != ? OR (SELECT state FROM batches WHERE id = ?) != ?)`,
			r.State, r.ExecutionID, r.Credits, r.Result, r.Error, jsonCol{&r.Uploads, false}, jsonCol{&r.Files, false}, jsonCol{&r.Values, false}, r.Asked,
			now, r.BatchID, r.Row, from,
			r.State, RowStarting, r.BatchID, BatchCancelled))
		ok = n == 1
		return err
	})
	return ok && err == nil, err
}

// RetryFailedRows puts failed rows back to waiting, to be asked afresh; done
// rows, and those that need a look (they answered), never rerun.
func (db *DB) RetryFailedRows(ctx context.Context, batchID int64) (int, error) {
	now := millis(db.nowOr(time.Time{}))
	var n int64
	err := db.write(ctx, "retry the failed rows", func(tx *sql.Tx) error {
		var err error
		if n, err = affected(tx.ExecContext(ctx, `UPDATE batch_rows SET state = ?, error = '', fields = '[]', asked = 0, updated_at = ? WHERE batch_id = ? AND state = ?`,
			RowWaiting, now, batchID, RowFailed)); err != nil || n == 0 {
			return err
		}
		// A done batch with rows to resend is paused until it goes on.
		_, err = tx.ExecContext(ctx, `UPDATE batches SET updated_at = ?, state = CASE WHEN state = ? THEN ? ELSE state END WHERE id = ?`,
			now, BatchDone, BatchPaused, batchID)
		return err
	})
	return int(n), err
}

// BatchCounts are a batch's rows per state, and the credits they cost.
func (db *DB) BatchCounts(ctx context.Context, batchID int64) (map[RowState]int, float64, error) {
	counts := map[RowState]int{}
	var total float64
	_, err := queryAll(ctx, db, "count the batch's rows", func(s scanner) (n int, err error) {
		var state RowState
		var c float64
		err = s.Scan(&state, &n, &c)
		counts[state] = n
		total += c
		return n, err
	}, `SELECT state, count(*), coalesce(sum(credits), 0) FROM batch_rows WHERE batch_id = ? GROUP BY state`, batchID)
	if err != nil {
		return nil, 0, err
	}
	return counts, total, nil
}

// SetBatchResults keeps where a batch's results sheet is.
func (db *DB) SetBatchResults(ctx context.Context, id int64, path string) error {
	return db.update(ctx, "change the batch", `UPDATE batches SET results = ? WHERE id = ?`, path, id)
}

// CancelBatch ends a batch for good, skipping its waiting rows with why.
func (db *DB) CancelBatch(ctx context.Context, id int64, why string) error {
	now := millis(db.nowOr(time.Time{}))
	return db.write(ctx, "cancel the batch", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE batch_rows SET state = ?, error = ?, updated_at = ? WHERE batch_id = ? AND state = ?`,
			RowSkipped, why, now, id, RowWaiting); err != nil {
			return err
		}
		return mustAffect(tx.ExecContext(ctx, `UPDATE batches SET state = ?, updated_at = ? WHERE id = ?`, BatchCancelled, now, id))
	})
}
