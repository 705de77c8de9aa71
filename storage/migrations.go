package storage

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
)

// migrationFiles are the schema's steps, applied in their names' order,
// each in one transaction with its schema_version row. Never edit a
// released migration: add one. Times are Unix ms.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrations are the steps' statements, the first at index 0.
var migrations = func() []string {
	// Both errors, and no steps, can only come from a broken build.
	names, err := fs.Glob(migrationFiles, "migrations/*.sql")
	if err != nil || len(names) == 0 {
		panic(fmt.Sprintf("storage: no schema steps embedded (%v)", err))
	}
	out := make([]string, len(names))
	for i, name := range names {
		b, err := migrationFiles.ReadFile(name)
		if err != nil {
			panic("storage: " + err.Error())
		}
		out[i] = string(b)
	}
	return out
}()

var latestSchema = len(migrations)

// migrate brings the database to latestSchema, one committed step at a time,
// so a crash leaves a known version.
func migrate(ctx context.Context, db *sql.DB, now int64) error {
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (
		version    INTEGER PRIMARY KEY,
		applied_at INTEGER NOT NULL
	)`); err != nil {
		return err
	}
	v, err := schemaVersion(ctx, db)
	if err != nil {
		return err
	}
	if v > latestSchema {
		return fmt.Errorf("the history was written by a newer Agent Desk (format %d, this version knows up to %d)", v, latestSchema)
	}
	for i := v; i < latestSchema; i++ {
		if err := inTx(ctx, db, func(tx *sql.Tx) error {
			// Another Agent Desk may have migrated since we looked.
			var done int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_version WHERE version = ?`, i+1).Scan(&done); err != nil {
				return err
			}
			if done > 0 {
				return nil
			}
			if _, err := tx.ExecContext(ctx, migrations[i]); err != nil {
				return fmt.Errorf("migration %d: %w", i+1, err)
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO schema_version(version, applied_at) VALUES (?, ?)`, i+1, now)
			return err
		}); err != nil {
			return err
		}
	}
	return nil
}

func schemaVersion(ctx context.Context, db *sql.DB) (int, error) {
	var v sql.NullInt64
	err := db.QueryRowContext(ctx, `SELECT max(version) FROM schema_version`).Scan(&v)
	return int(v.Int64), err
}
