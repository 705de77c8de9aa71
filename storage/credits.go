package storage

import (
	"context"
	"database/sql"
	"time"
)

// Kinds of charged calls.
const (
	CreditsExecution = "execution"
	CreditsFile      = "file"
	CreditsMemory    = "memory"
)

// CreditRecord is one charged call.
type CreditRecord struct {
	ID         int64
	At         time.Time
	AccountID  string
	AgentID    string
	AgentTitle string
	Kind       string // CreditsExecution, CreditsFile or CreditsMemory
	Credits    float64
	Ref        string // the response, file or memory id the charge belongs to
}

// DayCredits is the credits spent on one local calendar day.
type DayCredits struct {
	Day     time.Time // local midnight
	Credits float64
}

// AgentCredits is the credits spent on one agent.
type AgentCredits struct {
	AgentID    string
	AgentTitle string
	Credits    float64
	Calls      int
}

// RecordCredits stores one charge. A zero At means now.
func (db *DB) RecordCredits(ctx context.Context, r CreditRecord) (CreditRecord, error) {
	r.At = db.nowOr(r.At)
	err := db.write(ctx, "record the credits", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO credits (at, account_id, agent_id, agent_title, kind, credits, ref)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, millis(r.At), r.AccountID, r.AgentID, r.AgentTitle, r.Kind, r.Credits, r.Ref)
		if err != nil {
			return err
		}
		r.ID, err = res.LastInsertId()
		return err
	})
	return r, err
}

// CreditsSince is the total an account spent from t on.
func (db *DB) CreditsSince(ctx context.Context, accountID string, t time.Time) (float64, error) {
	var total float64
	err := db.sql.QueryRowContext(ctx, `SELECT coalesce(sum(credits), 0) FROM credits WHERE account_id = ? AND at >= ?`,
		accountID, t.UnixMilli()).Scan(&total)
	return total, wrap("add up the credits", db.path, err)
}

// CreditsByDay is an account's spending per local day in [from, to), days
// without spending left out, oldest first.
func (db *DB) CreditsByDay(ctx context.Context, accountID string, from, to time.Time) ([]DayCredits, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT at, credits FROM credits WHERE account_id = ? AND at >= ? AND at < ? ORDER BY at`,
		accountID, from.UnixMilli(), to.UnixMilli())
	if err != nil {
		return nil, wrap("add up the credits", db.path, err)
	}
	defer rows.Close()
	var out []DayCredits
	for rows.Next() {
		var at int64
		var c float64
		if err := rows.Scan(&at, &c); err != nil {
			return nil, wrap("add up the credits", db.path, err)
		}
		t := time.UnixMilli(at).Local()
		day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.Local)
		if n := len(out); n > 0 && out[n-1].Day.Equal(day) {
			out[n-1].Credits += c
		} else {
			out = append(out, DayCredits{Day: day, Credits: c})
		}
	}
	return out, wrap("add up the credits", db.path, rows.Err())
}

// CreditsByAgent is an account's spending per agent in [from, to), largest
// first.
func (db *DB) CreditsByAgent(ctx context.Context, accountID string, from, to time.Time) ([]AgentCredits, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT agent_id, max(agent_title), sum(credits), count(*) FROM credits
		WHERE account_id = ? AND at >= ? AND at < ? GROUP BY agent_id ORDER BY sum(credits) DESC, agent_id`,
		accountID, from.UnixMilli(), to.UnixMilli())
	if err != nil {
		return nil, wrap("add up the credits", db.path, err)
	}
	defer rows.Close()
	var out []AgentCredits
	for rows.Next() {
		var a AgentCredits
		if err := rows.Scan(&a.AgentID, &a.AgentTitle, &a.Credits, &a.Calls); err != nil {
			return nil, wrap("add up the credits", db.path, err)
		}
		out = append(out, a)
	}
	return out, wrap("add up the credits", db.path, rows.Err())
}
