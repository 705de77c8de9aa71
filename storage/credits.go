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

const creditColumns = `id, at, account_id, agent_id, agent_title, kind, credits, ref`

func (r *CreditRecord) fields() []any {
	return []any{&r.ID, msCol{&r.At}, &r.AccountID, &r.AgentID, &r.AgentTitle, &r.Kind, &r.Credits, &r.Ref}
}

// RecordCredits stores one charge. A zero At means now.
func (db *DB) RecordCredits(ctx context.Context, r CreditRecord) (CreditRecord, error) {
	r.At = db.nowOr(r.At)
	err := db.write(ctx, "record the credits", func(tx *sql.Tx) error {
		return insert(ctx, tx, "credits", creditColumns, r.fields())
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

// CreditsByDay is spending per local day in [from, to), oldest first.
func (db *DB) CreditsByDay(ctx context.Context, accountID string, from, to time.Time) ([]DayCredits, error) {
	spends, err := queryAll(ctx, db, "add up the credits", scanDaySpend, `SELECT at, credits FROM credits WHERE account_id = ? AND at >= ? AND at < ? ORDER BY at`,
		accountID, from.UnixMilli(), to.UnixMilli())
	if spends == nil {
		return nil, err
	}
	var out []DayCredits
	for _, d := range spends {
		if n := len(out); n > 0 && out[n-1].Day.Equal(d.Day) {
			out[n-1].Credits += d.Credits
		} else {
			out = append(out, d)
		}
	}
	return out, err
}

func scanDaySpend(s scanner) (DayCredits, error) {
	var at int64
	var d DayCredits
	err := s.Scan(&at, &d.Credits)
	t := time.UnixMilli(at).Local()
	d.Day = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.Local)
	return d, err
}

// CreditsByAgent is spending per agent in [from, to), largest first.
func (db *DB) CreditsByAgent(ctx context.Context, accountID string, from, to time.Time) ([]AgentCredits, error) {
	return queryAll(ctx, db, "add up the credits", func(s scanner) (AgentCredits, error) {
		var a AgentCredits
		err := s.Scan(&a.AgentID, &a.AgentTitle, &a.Credits, &a.Calls)
		return a, err
	}, `SELECT agent_id, max(agent_title), sum(credits), count(*) FROM credits
		WHERE account_id = ? AND at >= ? AND at < ? GROUP BY agent_id ORDER BY sum(credits) DESC, agent_id`,
		accountID, from.UnixMilli(), to.UnixMilli())
}

// RecentCredits are at most limit charges in [from, to), newest first.
func (db *DB) RecentCredits(ctx context.Context, accountID string, from, to time.Time, limit int) ([]CreditRecord, error) {
	return queryAll(ctx, db, "read the credits", func(s scanner) (CreditRecord, error) {
		var r CreditRecord
		var at int64
		err := s.Scan(&r.ID, &at, &r.AccountID, &r.AgentID, &r.AgentTitle, &r.Kind, &r.Credits, &r.Ref)
		r.At = time.UnixMilli(at)
		return r, err
	}, `SELECT `+creditColumns+` FROM credits
		WHERE account_id = ? AND at >= ? AND at < ? ORDER BY at DESC, id DESC LIMIT ?`,
		accountID, from.UnixMilli(), to.UnixMilli(), limit)
}
