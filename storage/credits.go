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

// BatchCredits is the credits the runs of one batch cost.
type BatchCredits struct {
	BatchID    int64
	AgentID    string
	AgentTitle string
	Source     string // the sheet or folder the rows came from ("" for lines of text)
	CreatedAt  time.Time
	Credits    float64
	Calls      int
}

// CreditsByBatch is spending on batch runs in [from, to), per batch,
// largest first: the period's charges of runs whose response a batch row
// keeps. A row run again keeps only its last response, so an earlier charge
// of it counts by day and by agent but not here.
//
// Neither table has an index on the response id: the period's charges are
// gathered once (with an index made for the join), then the account's batch
// rows looked up in them, rather than every row read again for each charge.
func (db *DB) CreditsByBatch(ctx context.Context, accountID string, from, to time.Time) ([]BatchCredits, error) {
	return queryAll(ctx, db, "add up the credits", func(s scanner) (BatchCredits, error) {
		var b BatchCredits
		err := s.Scan(&b.BatchID, &b.AgentID, &b.AgentTitle, &b.Source, msCol{&b.CreatedAt}, &b.Credits, &b.Calls)
		return b, err
	}, `SELECT b.id, b.agent_id, b.agent_title, b.source, b.created_at, sum(c.credits), sum(c.calls)
		FROM batches b JOIN batch_rows r ON r.batch_id = b.id
		JOIN (SELECT ref, sum(credits) AS credits, count(*) AS calls FROM credits
			WHERE account_id = ? AND at >= ? AND at < ? AND kind = ? AND ref != '' GROUP BY ref) c ON c.ref = r.execution_id
		WHERE b.account_id = ? AND b.created_at < ?
		GROUP BY b.id ORDER BY sum(c.credits) DESC, b.id DESC`,
		accountID, from.UnixMilli(), to.UnixMilli(), CreditsExecution, accountID, to.UnixMilli())
}

// RunCredits is the average an account's last runs of an agent cost, over
// at most last of them, and how many there were; agentID "" is any agent.
// Runs that cost nothing are not recorded, so none count here.
func (db *DB) RunCredits(ctx context.Context, accountID, agentID string, last int) (avg float64, runs int, err error) {
	err = db.sql.QueryRowContext(ctx, `SELECT coalesce(avg(credits), 0), count(*) FROM
		(SELECT credits FROM credits WHERE account_id = ? AND kind = ? AND (? = '' OR agent_id = ?) ORDER BY at DESC LIMIT ?)`,
		accountID, CreditsExecution, agentID, agentID, max(last, 1)).Scan(&avg, &runs)
	return avg, runs, wrap("add up the credits", db.path, err)
}
