package storage

import (
	"context"
	"database/sql"
	"strings"
	"sync"
	"time"
)

// ReplyWriter saves a streamed reply as it arrives: at each finished block,
// and at most flushInterval after any other text.
type ReplyWriter struct {
	db  *DB
	id  int64
	ctx context.Context

	mu       sync.Mutex
	pending  strings.Builder
	lastByte byte
	closed   bool        // no more Append
	due      *time.Timer // the write planned for the pending text
	err      error

	wmu      sync.Mutex // one write at a time
	finished bool       // the final status is on disk; wmu guards it
}

// NewReplyWriter saves streamed text into message messageID until Finish or Close.
func (db *DB) NewReplyWriter(ctx context.Context, messageID int64) *ReplyWriter {
	return &ReplyWriter{db: db, id: messageID, ctx: context.WithoutCancel(ctx)}
}

// Append adds a fragment without blocking, from any goroutine, until Finish or Close.
func (w *ReplyWriter) Append(fragment string) {
	if fragment == "" {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	blockEnd := strings.Contains(fragment, "\n\n") || (w.lastByte == '\n' && fragment[0] == '\n')
	w.pending.WriteString(fragment)
	w.lastByte = fragment[len(fragment)-1]
	switch {
	case blockEnd && w.due != nil:
		w.due.Reset(0)
	case blockEnd:
		w.planLocked(0)
	case w.due == nil:
		w.planLocked(w.db.flush)
	}
}

// planLocked has the pending text written after d; w.mu is held.
func (w *ReplyWriter) planLocked(d time.Duration) {
	w.due = time.AfterFunc(d, func() { w.Flush() })
}

// Flush writes what has arrived so far now.
func (w *ReplyWriter) Flush() error {
	w.wmu.Lock()
	defer w.wmu.Unlock()
	text := w.take()
	if text == "" {
		return nil
	}
	err := w.db.appendText(w.ctx, w.id, text)
	w.settle(text, err)
	return err
}

func (w *ReplyWriter) take() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.due != nil {
		w.due.Stop()
		w.due = nil
	}
	s := w.pending.String()
	w.pending.Reset()
	return s
}

// settle puts text that could not be written back before what came since,
// to be written at the next flush.
func (w *ReplyWriter) settle(text string, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.err = err
	if err != nil {
		rest := w.pending.String()
		w.pending.Reset()
		w.pending.WriteString(text)
		w.pending.WriteString(rest)
		if !w.closed && w.due == nil {
			w.planLocked(w.db.flush)
		}
	}
}

// Finish writes the rest and the final status, credits and error in one
// transaction; on failure it may be called again, after success it is nil.
func (w *ReplyWriter) Finish(status string, credits *float64, errText string) error {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	w.wmu.Lock()
	defer w.wmu.Unlock()
	if w.finished {
		return nil
	}
	text := w.take()
	err := w.db.write(w.ctx, "save the reply", func(tx *sql.Tx) error {
		return mustAffect(tx.ExecContext(w.ctx, `UPDATE messages SET content = content || ?, status = ?,
			credits = coalesce(?, credits), error = ?, updated_at = ? WHERE id = ?`,
			text, status, credits, errText, w.db.now().UnixMilli(), w.id))
	})
	w.settle(text, err)
	w.finished = err == nil
	return err
}

// Close saves what has arrived; a reply not finished is marked "interrupted".
func (w *ReplyWriter) Close() error {
	return w.Finish(StatusInterrupted, nil, "")
}

func (db *DB) appendText(ctx context.Context, id int64, text string) error {
	return db.update(ctx, "save the reply", `UPDATE messages SET content = content || ?, updated_at = ? WHERE id = ?`,
		text, db.now().UnixMilli(), id)
}
