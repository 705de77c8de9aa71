package storage

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// DB is the history in one SQLite file (WAL), safe for concurrent use.
type DB struct {
	sql      *sql.DB
	path     string
	readOnly bool
	inMemory bool
	notice   Notice
	now      func() time.Time
	flush    time.Duration
	wmu      sync.Mutex // one writer at a time in this process; SQLite's lock handles other processes
}

// Option changes how Open works.
type Option func(*options)

type options struct {
	busyTimeout time.Duration
	now         func() time.Time
	readOnly    bool
	pragmas     []string // PRAGMAs per connection (tests make a small "disk")
}

// WithReadOnly opens the history for reading only.
func WithReadOnly() Option { return func(o *options) { o.readOnly = true } }

// flushInterval bounds how much of a streamed reply a crash can lose.
const flushInterval = 200 * time.Millisecond

func buildOptions(opts []Option) options {
	o := options{busyTimeout: 5 * time.Second, now: time.Now}
	for _, f := range opts {
		f(&o)
	}
	return o
}

// Open opens or creates <Data>/history.db, migrates it and marks replies a
// crash left "streaming" as "interrupted".
func Open(ctx context.Context, p Paths, opts ...Option) (*DB, error) {
	o := buildOptions(opts)
	path := p.HistoryFile()
	if o.readOnly {
		return openReadOnly(ctx, path, o)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, &Error{Op: "open the history", Path: path, Reason: plainOSError(err), Err: err}
	}
	if err := ownerOnly(path); err != nil {
		return nil, &Error{Op: "open the history", Path: path, Reason: plainOSError(err), Err: err}
	}
	params := []string{
		fmt.Sprintf("_pragma=busy_timeout(%d)", o.busyTimeout.Milliseconds()),
		"_pragma=foreign_keys(1)",
		"_pragma=journal_mode(WAL)",
		"_pragma=synchronous(NORMAL)",
		"_txlock=immediate",
	}
	for _, pr := range o.pragmas {
		params = append(params, "_pragma="+url.QueryEscape(pr))
	}
	sdb, err := sql.Open("sqlite", fileDSN(path, params))
	if err != nil {
		return nil, &Error{Op: "open the history", Path: path, Reason: reason(err), Err: err}
	}
	// One connection kept between uses, as at start: a burst of reads
	// beside a write opens more, which close after it (database/sql keeps
	// two, each holding the file and its log open all day).
	sdb.SetMaxIdleConns(1)
	db := &DB{sql: sdb, path: path, now: o.now, flush: flushInterval}
	if err := db.prepare(ctx); err != nil {
		sdb.Close()
		return nil, wrap("open the history", path, err)
	}
	os.Chmod(path, 0o600)
	return db, nil
}

func (db *DB) prepare(ctx context.Context) error {
	var mode string
	if err := db.sql.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil {
		return err
	}
	if err := migrate(ctx, db.sql, db.now().UnixMilli()); err != nil {
		return err
	}
	_, err := db.sql.ExecContext(ctx,
		`UPDATE messages SET status = ?, updated_at = ? WHERE status = ?`,
		StatusInterrupted, db.now().UnixMilli(), StatusStreaming)
	return err
}

func openReadOnly(ctx context.Context, path string, o options) (*DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, &Error{Op: "open the history", Path: path, Reason: plainOSError(err), Err: err}
	}
	base := []string{
		"mode=ro",
		fmt.Sprintf("_pragma=busy_timeout(%d)", o.busyTimeout.Milliseconds()),
		"_pragma=query_only(1)",
	}
	var lastErr error
	// A WAL database in an unwritable folder needs immutable=1 (no -shm file).
	for _, extra := range [][]string{nil, {"immutable=1"}} {
		sdb, err := sql.Open("sqlite", fileDSN(path, append(append([]string{}, base...), extra...)))
		if err != nil {
			lastErr = err
			continue
		}
		v, err := schemaVersion(ctx, sdb)
		if err == nil && v == 0 {
			err = errors.New("the file holds no history")
		}
		if err != nil {
			sdb.Close()
			lastErr = err
			continue
		}
		// A newer format is read as well as we can: migrations only add.
		return &DB{sql: sdb, path: path, readOnly: true, now: o.now, flush: flushInterval}, nil
	}
	return nil, wrap("open the history for reading", path, lastErr)
}

// OpenOrFallback opens the history, else read-only or in memory; the Notice says which.
func OpenOrFallback(ctx context.Context, p Paths, opts ...Option) (*DB, Notice) {
	db, err := Open(ctx, p, opts...)
	if err == nil {
		return db, Notice{}
	}
	ro, roErr := Open(ctx, p, append(opts[:len(opts):len(opts)], WithReadOnly())...)
	if roErr == nil {
		ro.notice = Notice{Kind: HistoryReadOnly, Path: p.HistoryFile(), Err: err}
		return ro, ro.notice
	}
	mem := openMemory(ctx, p.HistoryFile(), buildOptions(opts))
	mem.notice = Notice{Kind: HistoryInMemory, Path: p.HistoryFile(), Err: err}
	return mem, mem.notice
}

func openMemory(ctx context.Context, path string, o options) *DB {
	sdb, err := sql.Open("sqlite", "file::memory:?_pragma=foreign_keys(1)")
	if err != nil {
		panic(err) // opening an in-memory database cannot fail short of a broken build
	}
	// Every connection to :memory: is a separate database: keep exactly one.
	sdb.SetMaxOpenConns(1)
	sdb.SetMaxIdleConns(1)
	db := &DB{sql: sdb, path: path, inMemory: true, now: o.now, flush: flushInterval}
	if err := migrate(context.WithoutCancel(ctx), sdb, o.now().UnixMilli()); err != nil {
		panic(err)
	}
	return db
}

// fileDSN builds a SQLite URI, escaping '?', '#' and '%' in path.
func fileDSN(path string, params []string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // Windows: /C:/Users/…
	}
	u := url.URL{Scheme: "file", Path: p}
	return u.String() + "?" + strings.Join(params, "&")
}

// Close closes the history. Pending ReplyWriters must be closed first.
func (db *DB) Close() error { return db.sql.Close() }

// ReadOnly reports a read-only history; every write then fails with ErrReadOnly.
func (db *DB) ReadOnly() bool { return db.readOnly }

func (db *DB) write(ctx context.Context, op string, fn func(tx *sql.Tx) error) error {
	if db.readOnly {
		return &Error{Op: op, Path: db.path, Reason: ErrReadOnly.Error(), Err: ErrReadOnly}
	}
	db.wmu.Lock()
	defer db.wmu.Unlock()
	return wrap(op, db.path, inTx(ctx, db.sql, fn))
}

// update runs one statement that must change a row (else ErrNotFound).
func (db *DB) update(ctx context.Context, op, query string, args ...any) error {
	return db.write(ctx, op, func(tx *sql.Tx) error { return mustAffect(tx.ExecContext(ctx, query, args...)) })
}

func inTx(ctx context.Context, sdb *sql.DB, fn func(tx *sql.Tx) error) error {
	tx, err := sdb.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

func mustAffect(res sql.Result, err error) error {
	if n, err := affected(res, err); err != nil || n > 0 {
		return err
	}
	return ErrNotFound
}

// affected is how many rows a statement changed.
func affected(res sql.Result, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// insert adds a record to table, whose columns cols names in the order of
// fields, the id first, and sets the id to the new row's.
func insert(ctx context.Context, tx *sql.Tx, table, cols string, fields []any) error {
	_, rest, _ := strings.Cut(cols, ",")
	res, err := tx.ExecContext(ctx, "INSERT INTO "+table+" ("+rest+") VALUES (?"+strings.Repeat(", ?", len(fields)-2)+")", fields[1:]...)
	if err != nil {
		return err
	}
	*fields[0].(*int64), err = res.LastInsertId()
	return err
}

// record is a stored type whose fields are its columns in order: Scan reads
// them and a statement's arguments write them.
type record[T any] interface {
	*T
	fields() []any
}

// scanRecord reads one record of type T.
func scanRecord[T any, P record[T]](s scanner) (T, error) {
	var v T
	err := s.Scan(P(&v).fields()...)
	return v, err
}

// queryOne reads one record, ErrNotFound when there is none.
func queryOne[T any](ctx context.Context, db *DB, op string, scan func(scanner) (T, error), query string, args ...any) (T, error) {
	v, err := scan(db.sql.QueryRowContext(ctx, query, args...))
	if err == sql.ErrNoRows {
		var zero T
		return zero, ErrNotFound
	}
	return v, wrap(op, db.path, err)
}

// queryAll reads a list, failing as op with no partial list on a bad row.
func queryAll[T any](ctx context.Context, db *DB, op string, scan func(scanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := db.sql.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, wrap(op, db.path, err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, wrap(op, db.path, err)
		}
		out = append(out, v)
	}
	return out, wrap(op, db.path, rows.Err())
}

type scanner interface{ Scan(dest ...any) error }

// Columns in their stored form, read by Scan and written as arguments.
type (
	// msCol is Unix milliseconds (0: the zero Time).
	msCol struct{ t *time.Time }
	// creditsCol is credits that may be NULL.
	creditsCol struct{ f **float64 }
	// jsonCol is JSON text; a nil list or map is written as [] or {}, and
	// with emptyNil an empty one reads back as nil.
	jsonCol struct {
		dst      any
		emptyNil bool
	}
)

func (c msCol) Scan(v any) error {
	var n sql.NullInt64
	err := n.Scan(v)
	*c.t = fromMillis(n.Int64)
	return err
}

func (c msCol) Value() (driver.Value, error) { return millis(*c.t), nil }

func (c creditsCol) Scan(v any) error {
	var n sql.NullFloat64
	if err := n.Scan(v); err != nil || !n.Valid {
		return err
	}
	*c.f = &n.Float64
	return nil
}

func (c creditsCol) Value() (driver.Value, error) {
	if *c.f == nil {
		return nil, nil
	}
	return **c.f, nil
}

func (c jsonCol) Scan(v any) error {
	var s sql.NullString
	if err := s.Scan(v); err != nil || c.emptyNil && (s.String == "" || s.String == "[]" || s.String == "{}") {
		return err
	}
	// A damaged column reads as empty rather than hiding its whole row.
	_ = json.Unmarshal([]byte(s.String), c.dst)
	if m := reflect.ValueOf(c.dst).Elem(); m.Kind() == reflect.Map && m.IsNil() && !c.emptyNil {
		m.Set(reflect.MakeMap(m.Type()))
	}
	return nil
}

func (c jsonCol) Value() (driver.Value, error) {
	switch v := reflect.ValueOf(c.dst).Elem(); {
	case v.Kind() == reflect.Map && v.IsNil():
		return "{}", nil
	case v.Kind() == reflect.Slice && v.IsNil():
		return "[]", nil
	}
	b, err := json.Marshal(c.dst)
	return string(b), err
}

func listLimit(n int) int {
	if n <= 0 {
		return 50
	}
	return n
}

func millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromMillis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}

func (db *DB) nowOr(t time.Time) time.Time {
	if t.IsZero() {
		return db.now().Round(time.Millisecond)
	}
	return t
}

// ownerOnly makes the history owner-only; SQLite gives -wal and -shm its mode.
func ownerOnly(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_ = f.Close()
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Chmod(p, 0o600); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}
