package storage

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
	"time"
)

// batchWithRuns keeps a batch of account's agent over source whose rows ran
// as the executions named, each row done.
func batchWithRuns(t testing.TB, db *DB, account, agent, source string, at time.Time, executions ...string) Batch {
	t.Helper()
	ctx := context.Background()
	rows := make([]BatchRow, len(executions))
	for i := range rows {
		rows[i] = BatchRow{Row: i + 2, Cells: []string{"x"}}
	}
	b, err := db.CreateBatch(ctx, Batch{AccountID: account, AgentID: agent, AgentTitle: "Agent " + agent, Source: source, CreatedAt: at}, rows)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range executions {
		r, ok, err := db.TakeWaitingRow(ctx, b.ID)
		if err != nil || !ok {
			t.Fatalf("TakeWaitingRow: %v, %v", ok, err)
		}
		r.State, r.ExecutionID = RowDone, id
		if ok, err := db.MoveRow(ctx, RowSending, r); err != nil || !ok {
			t.Fatalf("MoveRow: %v, %v", ok, err)
		}
	}
	return b
}

// Each batch's runs are added up from the charges of the period, whatever
// else was charged then: single runs, files, memories, other accounts'
// runs, and the batch's runs before the period.
func TestCreditsByBatch(t *testing.T) {
	ctx := context.Background()
	db := openTestDB(t, testPaths(t))
	day := time.Date(2026, 5, 1, 9, 0, 0, 0, time.Local)
	invoices := batchWithRuns(t, db, "a", "7", "/home/ana/invoices.xlsx", day.AddDate(0, 0, -1), "e1", "e2", "e3")
	letters := batchWithRuns(t, db, "a", "9", "", day, "e4")
	batchWithRuns(t, db, "b", "7", "/home/bo/other.csv", day, "e9")
	for _, r := range []CreditRecord{
		{At: day.AddDate(0, 0, -1), AccountID: "a", AgentID: "7", Kind: CreditsExecution, Credits: 100, Ref: "e1"}, // before the period
		{At: day, AccountID: "a", AgentID: "7", Kind: CreditsExecution, Credits: 1.5, Ref: "e2"},
		{At: day.Add(time.Hour), AccountID: "a", AgentID: "7", Kind: CreditsExecution, Credits: 2, Ref: "e3"},
		{At: day.Add(time.Hour), AccountID: "a", AgentID: "7", Kind: CreditsFile, Credits: 0.5, Ref: "e3"}, // a file, not the run
		{At: day, AccountID: "a", AgentID: "9", Kind: CreditsExecution, Credits: 5, Ref: "e4"},
		{At: day, AccountID: "a", AgentID: "9", Kind: CreditsExecution, Credits: 7, Ref: "single"},              // a run of its own
		{At: day, AccountID: "a", Kind: CreditsMemory, Credits: 3, Ref: "m1"},                                   // a memory
		{At: day, AccountID: "b", AgentID: "7", Kind: CreditsExecution, Credits: 50, Ref: "e9"},                 // another account
		{At: day, AccountID: "b", AgentID: "7", Kind: CreditsExecution, Credits: 60, Ref: "e2"},                 // its own e2
		{At: day.AddDate(0, 0, 2), AccountID: "a", AgentID: "9", Kind: CreditsExecution, Credits: 9, Ref: "e4"}, // after
	} {
		if _, err := db.RecordCredits(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	got, err := db.CreditsByBatch(ctx, "a", day.Add(-time.Minute), day.AddDate(0, 0, 1))
	if err != nil {
		t.Fatal(err)
	}
	want := []BatchCredits{
		{BatchID: letters.ID, AgentID: "9", AgentTitle: "Agent 9", Source: "", CreatedAt: letters.CreatedAt, Credits: 5, Calls: 1},
		{BatchID: invoices.ID, AgentID: "7", AgentTitle: "Agent 7", Source: "/home/ana/invoices.xlsx", CreatedAt: invoices.CreatedAt, Credits: 3.5, Calls: 2},
	}
	if len(got) != len(want) {
		t.Fatalf("by batch = %+v, want %+v", got, want)
	}
	for i := range want {
		if g, w := got[i], want[i]; g.BatchID != w.BatchID || g.AgentID != w.AgentID || g.AgentTitle != w.AgentTitle || g.Source != w.Source ||
			!g.CreatedAt.Equal(w.CreatedAt) || g.Credits != w.Credits || g.Calls != w.Calls {
			t.Errorf("batch %d = %+v, want %+v", i, g, w)
		}
	}
	if got, err := db.CreditsByBatch(ctx, "a", day.AddDate(0, 0, 5), day.AddDate(0, 0, 6)); err != nil || len(got) != 0 {
		t.Errorf("a period without charges: %+v, %v", got, err)
	}
}

// A run's cost is guessed from the agent's last runs, or any agent's.
func TestRunCredits(t *testing.T) {
	ctx := context.Background()
	db := openTestDB(t, testPaths(t))
	day := time.Date(2026, 5, 1, 9, 0, 0, 0, time.Local)
	for i, r := range []CreditRecord{
		{AgentID: "7", Kind: CreditsExecution, Credits: 100}, // the oldest: left out of the last 2
		{AgentID: "7", Kind: CreditsExecution, Credits: 2},
		{AgentID: "7", Kind: CreditsFile, Credits: 50}, // not a run
		{AgentID: "7", Kind: CreditsExecution, Credits: 4},
		{AgentID: "9", Kind: CreditsExecution, Credits: 6},
	} {
		r.At, r.AccountID = day.Add(time.Duration(i)*time.Minute), "a"
		if _, err := db.RecordCredits(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		agent string
		last  int
		avg   float64
		runs  int
	}{{"7", 2, 3, 2}, {"7", 20, 106.0 / 3, 3}, {"", 2, 5, 2}, {"8", 20, 0, 0}} {
		if avg, runs, err := db.RunCredits(ctx, "a", tc.agent, tc.last); err != nil || avg != tc.avg || runs != tc.runs {
			t.Errorf("RunCredits(%q, %d) = %v, %d, %v; want %v, %d", tc.agent, tc.last, avg, runs, err, tc.avg, tc.runs)
		}
	}
	if avg, runs, err := db.RunCredits(ctx, "b", "", 20); err != nil || avg != 0 || runs != 0 {
		t.Errorf("another account's runs: %v, %d, %v", avg, runs, err)
	}
}

// BenchmarkCreditsByBatch adds up a month of 1,000 batch runs among 5,000
// batch rows and 500 single runs. Beside it, the same month by agent (one
// index range, the cheapest report) and the plain join of charges to rows
// (every row read again for each charge): the ratios show what the join
// costs and what gathering the charges first saves.
func BenchmarkCreditsByBatch(b *testing.B) {
	ctx := context.Background()
	db := benchDB(b)
	start := time.Date(2026, 5, 1, 0, 0, 0, 0, time.Local)
	err := db.write(ctx, "bench fixture", func(tx *sql.Tx) error {
		for batch := 0; batch < 50; batch++ {
			at := start.AddDate(0, 0, -batch/2)
			res, err := tx.ExecContext(ctx, `INSERT INTO batches (account_id, agent_id, state, created_at, updated_at) VALUES ('a', ?, 'done', ?, ?)`,
				fmt.Sprint(batch%7), at.UnixMilli(), at.UnixMilli())
			if err != nil {
				return err
			}
			id, _ := res.LastInsertId()
			for row := 0; row < 100; row++ {
				exec := fmt.Sprintf("b%d-%d", batch, row)
				if _, err := tx.ExecContext(ctx, `INSERT INTO batch_rows (batch_id, row, state, execution_id, credits, updated_at) VALUES (?, ?, 'done', ?, 0.5, ?)`,
					id, row+2, exec, at.UnixMilli()); err != nil {
					return err
				}
				if batch < 10 { // this month's
					if _, err := tx.ExecContext(ctx, `INSERT INTO credits (at, account_id, agent_id, kind, credits, ref) VALUES (?, 'a', ?, 'execution', 0.5, ?)`,
						start.Add(time.Duration(row)*time.Minute).UnixMilli(), fmt.Sprint(batch%7), exec); err != nil {
						return err
					}
				}
			}
		}
		for i := 0; i < 500; i++ {
			if _, err := tx.ExecContext(ctx, `INSERT INTO credits (at, account_id, agent_id, kind, credits, ref) VALUES (?, 'a', '3', 'execution', 1, ?)`,
				start.Add(time.Duration(i)*time.Minute).UnixMilli(), fmt.Sprint("single", i)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	from, to := start, start.AddDate(0, 1, 0)
	plain := func() error {
		rows, err := db.sql.QueryContext(ctx, `SELECT b.id, sum(c.credits), count(*) FROM credits c
			JOIN batch_rows r ON r.execution_id = c.ref JOIN batches b ON b.id = r.batch_id
			WHERE c.account_id = 'a' AND c.at >= ? AND c.at < ? AND c.kind = 'execution' AND b.account_id = 'a' GROUP BY b.id`,
			from.UnixMilli(), to.UnixMilli())
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
		}
		return rows.Err()
	}
	timed := func(n int, f func() error) time.Duration {
		t0 := time.Now()
		for range n {
			if err := f(); err != nil {
				b.Fatal(err)
			}
		}
		return time.Since(t0)
	}
	var byBatch, byAgent, join time.Duration
	for b.Loop() {
		byBatch += timed(1, func() error {
			got, err := db.CreditsByBatch(ctx, "a", from, to)
			if err == nil && (len(got) != 10 || got[0].Calls != 100) {
				err = fmt.Errorf("by batch: %d batches", len(got))
			}
			return err
		})
		byAgent += timed(1, func() error { _, err := db.CreditsByAgent(ctx, "a", from, to); return err })
	}
	join = timed(1, plain) // once: it is the slow one
	n := float64(b.N)
	b.ReportMetric(float64(byBatch.Microseconds())/1000/n, "by-batch-ms")
	b.ReportMetric(float64(byBatch)/float64(byAgent), "by-batch/by-agent")
	b.ReportMetric(float64(join)/(float64(byBatch)/n), "plain-join/by-batch")
}
