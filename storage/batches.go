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

// Batch row states. A row is taken only from RowWaiting, becoming RowSending
// while its files go (after a crash it waits again). RowStarting is set just
// before the run request leaves: found after a crash it may have reached the
// service, so it is never resent by itself but fails for the user to retry.
// RowRunning has its execution id: looked up, never resent.
const (
	RowWaiting  = "waiting"
	RowSending  = "sending"
	RowStarting = "starting"
	RowRunning  = "running"
	RowDone     = "done"
	RowFailed   = "failed"
	RowSkipped  = "skipped"
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
	State     string
	CreatedAt time.Time
	UpdatedAt time.Time
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
	// Uploads are the service's ids of the row's files, removed once done.
	Uploads   []string
	Files     []string
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
	header, _ := json.Marshal(orEmptySlice(b.Header))
	columns, _ := json.Marshal(orEmpty(b.Columns))
	fixed, _ := json.Marshal(orEmpty(b.Fixed))
	err := db.write(ctx, "keep the batch", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO batches (account_id, agent_id, agent_title, source, results, header, columns, fixed, parallel, credit_cap, state, created_at, updated_at, folder, attach, outputs, planned)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			b.AccountID, b.AgentID, b.AgentTitle, b.Source, b.Results, string(header), string(columns), string(fixed),
			b.Parallel, b.CreditCap, b.State, millis(b.CreatedAt), millis(b.UpdatedAt), b.Folder, b.Attach, b.Outputs, b.Planned)
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

const batchColumns = `id, account_id, agent_id, agent_title, source, results, header, columns, fixed, parallel, credit_cap, state, created_at, updated_at, folder, attach, outputs, planned`

func scanBatch(s scanner) (Batch, error) {
	var b Batch
	var header, columns, fixed string
	var created, updated int64
	err := s.Scan(&b.ID, &b.AccountID, &b.AgentID, &b.AgentTitle, &b.Source, &b.Results, &header, &columns, &fixed,
		&b.Parallel, &b.CreditCap, &b.State, &created, &updated, &b.Folder, &b.Attach, &b.Outputs, &b.Planned)
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

// SetBatchState changes a batch's state; a cancelled batch stays cancelled.
func (db *DB) SetBatchState(ctx context.Context, id int64, state string) error {
	now := millis(db.nowOr(time.Time{}))
	return db.write(ctx, "change the batch", func(tx *sql.Tx) error {
		var was string
		if err := tx.QueryRowContext(ctx, `SELECT state FROM batches WHERE id = ?`, id).Scan(&was); err != nil {
			if err == sql.ErrNoRows {
				return ErrNotFound
			}
			return err
		}
		if was == BatchCancelled {
			return nil
		}
		_, err := tx.ExecContext(ctx, `UPDATE batches SET state = ?, updated_at = ? WHERE id = ?`, state, now, id)
		return err
	})
}

// SetBatchCreditCap changes the credits after which a batch pauses (0: none).
func (db *DB) SetBatchCreditCap(ctx context.Context, id int64, credits float64) error {
	return db.write(ctx, "change the batch", func(tx *sql.Tx) error {
		return mustAffect(tx.ExecContext(ctx, `UPDATE batches SET credit_cap = ? WHERE id = ?`, credits, id))
	})
}

const rowColumns = `batch_id, row, cells, state, execution_id, credits, result, error, updated_at, uploads, files`

func scanRow(s scanner) (BatchRow, error) {
	var r BatchRow
	var cells, uploads, files string
	var credits sql.NullFloat64
	var updated int64
	if err := s.Scan(&r.BatchID, &r.Row, &cells, &r.State, &r.ExecutionID, &credits, &r.Result, &r.Error, &updated, &uploads, &files); err != nil {
		return r, err
	}
	_ = json.Unmarshal([]byte(cells), &r.Cells)
	_ = json.Unmarshal([]byte(uploads), &r.Uploads)
	_ = json.Unmarshal([]byte(files), &r.Files)
	if credits.Valid {
		r.Credits = &credits.Float64
	}
	r.UpdatedAt = fromMillis(updated)
	return r, nil
}

// BatchRows are at most limit rows after row after, in sheet order.
func (db *DB) BatchRows(ctx context.Context, batchID int64, after, limit int) ([]BatchRow, error) {
	return queryAll(ctx, db, "read the batch's rows", scanRow,
		`SELECT `+rowColumns+` FROM batch_rows WHERE batch_id = ? AND row > ? ORDER BY row LIMIT ?`, batchID, after, listLimit(limit))
}

// BatchRowsIn are a batch's rows in state, in sheet order.
func (db *DB) BatchRowsIn(ctx context.Context, batchID int64, state string, limit int) ([]BatchRow, error) {
	return queryAll(ctx, db, "read the batch's rows", scanRow,
		`SELECT `+rowColumns+` FROM batch_rows WHERE batch_id = ? AND state = ? ORDER BY row LIMIT ?`, batchID, state, listLimit(limit))
}

// TakeWaitingRow marks the first waiting row as sending and returns it, in
// one step so a row is handed out once; ok is false when none waits.
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

// RowUpdate is what became of a row.
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

// RetryFailedRows puts failed rows back to waiting; done rows never rerun.
func (db *DB) RetryFailedRows(ctx context.Context, batchID int64) (int, error) {
	now := millis(db.nowOr(time.Time{}))
	var n int64
	err := db.write(ctx, "retry the failed rows", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE batch_rows SET state = ?, error = '', updated_at = ? WHERE batch_id = ? AND state = ?`,
			RowWaiting, now, batchID, RowFailed)
		if err != nil {
			return err
		}
		if n, err = res.RowsAffected(); err != nil || n == 0 {
			return err
		}
		// A done batch with rows to resend is paused until it goes on.
		_, err = tx.ExecContext(ctx, `UPDATE batches SET updated_at = ?, state = CASE WHEN state = ? THEN ? ELSE state END WHERE id = ?`,
			now, BatchDone, BatchPaused, batchID)
		return err
	})
	return int(n), err
}

// BatchCounts are a batch's rows per state and the credits they cost.
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

// SetRowUploads keeps the service's ids of a row's files (nil once removed).
func (db *DB) SetRowUploads(ctx context.Context, batchID int64, row int, ids []string) error {
	v, _ := json.Marshal(orEmptySlice(ids))
	return db.write(ctx, "keep the row's files", func(tx *sql.Tx) error {
		return mustAffect(tx.ExecContext(ctx, `UPDATE batch_rows SET uploads = ? WHERE batch_id = ? AND row = ?`, string(v), batchID, row))
	})
}

// SetRowFiles keeps where the files a row's run made were saved.
func (db *DB) SetRowFiles(ctx context.Context, batchID int64, row int, paths []string) error {
	v, _ := json.Marshal(orEmptySlice(paths))
	return db.write(ctx, "keep the row's files", func(tx *sql.Tx) error {
		return mustAffect(tx.ExecContext(ctx, `UPDATE batch_rows SET files = ? WHERE batch_id = ? AND row = ?`, string(v), batchID, row))
	})
}

// RowsWithUploads are finished rows whose files are still on the service.
func (db *DB) RowsWithUploads(ctx context.Context, batchID int64) ([]BatchRow, error) {
	return queryAll(ctx, db, "read the batch's rows", scanRow,
		`SELECT `+rowColumns+` FROM batch_rows WHERE batch_id = ? AND uploads != '[]' AND state IN (?, ?, ?) ORDER BY row`, batchID, RowDone, RowFailed, RowSkipped)
}

// CancelBatch ends a batch for good: waiting rows are skipped with why;
// rows on their way finish.
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

// MarkRowStarting marks a sending row as starting just before its request
// leaves; ok is false when the row was taken over or its batch cancelled,
// and it must not be sent.
func (db *DB) MarkRowStarting(ctx context.Context, batchID int64, row int) (ok bool, err error) {
	now := millis(db.nowOr(time.Time{}))
	err = db.write(ctx, "keep the row's state", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE batch_rows SET state = ?, updated_at = ? WHERE batch_id = ? AND row = ? AND state = ?
			AND (SELECT state FROM batches WHERE id = ?) != ?`, RowStarting, now, batchID, row, RowSending, batchID, BatchCancelled)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		ok = n == 1
		return err
	})
	return ok, err
}

// TouchBatch notes that a batch changed, for screens that cache it.
func (db *DB) TouchBatch(ctx context.Context, id int64) error {
	now := millis(db.nowOr(time.Time{}))
	return db.write(ctx, "change the batch", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE batches SET updated_at = ? WHERE id = ?`, now, id)
		return err
	})
}
