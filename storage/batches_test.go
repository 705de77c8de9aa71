package storage

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// A batch's rows are handed out once each, in sheet order, even to
// several runners at once; what became of each is kept across a restart;
// Retry failed rows brings back the failed ones only.
func TestABatchHandsEachRowOutOnceAndKeepsWhatBecameOfIt(t *testing.T) {
	ctx := context.Background()
	p := testPaths(t)
	db := openTestDB(t, p)
	rows := make([]BatchRow, 50)
	for i := range rows {
		rows[i] = BatchRow{Row: i + 2, Cells: []string{fmt.Sprintf("SKU-%d", i), "Write 40 words"}}
	}
	b, err := db.CreateBatch(ctx, Batch{AccountID: "a", AgentID: "7", AgentTitle: "Product writer", Source: "/home/ana/products.csv",
		Header: []string{"sku", "request"}, Columns: map[string]int{"request": 1}, Fixed: map[string]string{"tone": "friendly"}}, rows)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	taken := map[int]int{}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				r, ok, err := db.TakeWaitingRow(ctx, b.ID)
				if err != nil {
					t.Error(err)
					return
				}
				if !ok {
					return
				}
				mu.Lock()
				taken[r.Row]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(taken) != 50 {
		t.Fatalf("%d rows handed out, want 50", len(taken))
	}
	for row, n := range taken {
		if n != 1 {
			t.Fatalf("row %d handed out %d times", row, n)
		}
	}
	cost := 0.02
	for i, r := range rows {
		u := BatchRow{BatchID: b.ID, Row: r.Row, State: RowDone, ExecutionID: fmt.Sprint(900 + i), Credits: &cost, Result: "Text " + r.Cells[0]}
		switch {
		case i == 3:
			u = BatchRow{BatchID: b.ID, Row: r.Row, State: RowFailed, Error: "The service did not accept the answers."}
		case i == 7:
			u = BatchRow{BatchID: b.ID, Row: r.Row, State: RowRunning, ExecutionID: "907"}
		}
		if _, err := db.MoveRow(ctx, RowSending, u); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	db = openTestDB(t, p)
	got, err := db.Batch(ctx, b.ID)
	if err != nil || got.AgentTitle != "Product writer" || got.Columns["request"] != 1 || got.Fixed["tone"] != "friendly" || got.State != BatchRunning {
		t.Fatalf("batch after a restart: %+v %v", got, err)
	}
	counts, credits, err := db.BatchCounts(ctx, b.ID)
	if err != nil || counts[RowDone] != 48 || counts[RowFailed] != 1 || counts[RowRunning] != 1 || credits < 0.959 || credits > 0.961 {
		t.Fatalf("counts %v, credits %v, %v", counts, credits, err)
	}
	running, err := db.AllBatchRows(ctx, b.ID)
	running = slices.DeleteFunc(running, func(r BatchRow) bool { return r.State != RowRunning })
	if err != nil || len(running) != 1 || running[0].ExecutionID != "907" || running[0].Row != 9 {
		t.Fatalf("the row in flight: %+v %v", running, err)
	}
	n, err := db.RetryFailedRows(ctx, b.ID)
	if err != nil || n != 1 {
		t.Fatalf("retried %d rows, %v", n, err)
	}
	r, ok, err := db.TakeWaitingRow(ctx, b.ID)
	if err != nil || !ok || r.Row != 5 || r.Cells[0] != "SKU-3" {
		t.Fatalf("the retried row: %+v %v %v", r, ok, err)
	}
	if _, ok, _ := db.TakeWaitingRow(ctx, b.ID); ok {
		t.Fatal("a done row was handed out again")
	}
	page, err := db.BatchRows(ctx, b.ID, 10, 5)
	if err != nil || len(page) != 5 || page[0].Row != 11 || page[0].Result != "Text SKU-9" || page[0].Credits == nil {
		t.Fatalf("rows after 10: %+v %v", page, err)
	}
	list, err := db.Batches(ctx, "a", 0)
	if err != nil || len(list) != 1 || list[0].ID != b.ID {
		t.Fatalf("batches %+v %v", list, err)
	}
}

// A row whose files went up is marked starting only while it is still
// being sent and its batch was not cancelled meanwhile; a cancelled batch
// stays cancelled; Retry failed rows on a done batch pauses it, changed,
// so that it goes on.
func TestARowStartsOnlyWhileItsBatchMaySendIt(t *testing.T) {
	ctx := context.Background()
	db := openTestDB(t, testPaths(t))
	b, err := db.CreateBatch(ctx, Batch{AccountID: "a", AgentID: "7"}, []BatchRow{{Row: 2}, {Row: 3}, {Row: 4}})
	if err != nil {
		t.Fatal(err)
	}
	r2, _, _ := db.TakeWaitingRow(ctx, b.ID)
	r2.State = RowStarting
	if ok, err := db.MoveRow(ctx, RowSending, r2); err != nil || !ok {
		t.Fatalf("a row being sent: %v %v", ok, err)
	}
	if ok, _ := db.MoveRow(ctx, RowSending, r2); ok {
		t.Fatal("a row already starting was marked again (another runner would send it twice)")
	}
	r3, _, _ := db.TakeWaitingRow(ctx, b.ID)
	if err := db.CancelBatch(ctx, b.ID, "cancelled"); err != nil {
		t.Fatal(err)
	}
	r3.State = RowStarting
	if ok, _ := db.MoveRow(ctx, RowSending, r3); ok {
		t.Fatal("a row of a cancelled batch was marked to be sent")
	}
	if err := db.SetBatchState(ctx, b.ID, BatchDone); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.Batch(ctx, b.ID); got.State != BatchCancelled {
		t.Fatalf("a cancelled batch became %q", got.State)
	}

	d, err := db.CreateBatch(ctx, Batch{AccountID: "a", AgentID: "7"}, []BatchRow{{Row: 2}})
	if err != nil {
		t.Fatal(err)
	}
	r, _, _ := db.TakeWaitingRow(ctx, d.ID)
	r.State, r.Error = RowFailed, "no"
	if _, err := db.MoveRow(ctx, RowSending, r); err != nil {
		t.Fatal(err)
	}
	if err := db.SetBatchState(ctx, d.ID, BatchDone); err != nil {
		t.Fatal(err)
	}
	before, _ := db.Batch(ctx, d.ID)
	db.now = func() time.Time { return before.UpdatedAt.Add(time.Second) }
	if n, err := db.RetryFailedRows(ctx, d.ID); err != nil || n != 1 {
		t.Fatal(n, err)
	}
	if got, _ := db.Batch(ctx, d.ID); got.State != BatchPaused || !got.UpdatedAt.After(before.UpdatedAt) {
		t.Fatalf("after Retry failed rows the done batch is %q, changed %v", got.State, got.UpdatedAt.After(before.UpdatedAt))
	}
}

// A batch that pulls facts out keeps them across a restart: the facts
// asked for, each row's values and whether its agent was asked again; a
// row that needs a look is counted as such and not retried (it answered);
// a failed row retried is asked afresh.
func TestABatchKeepsTheFactsItPullsOut(t *testing.T) {
	ctx := context.Background()
	p := testPaths(t)
	db := openTestDB(t, p)
	fields := []string{"Invoice number", "Date", "Total"}
	b, err := db.CreateBatch(ctx, Batch{AccountID: "a", AgentID: "7", Fields: fields}, []BatchRow{{Row: 2}, {Row: 3}, {Row: 4}})
	if err != nil {
		t.Fatal(err)
	}
	moves := []BatchRow{
		{State: RowDone, Result: `{"Invoice number": "A-1"}`, Values: []string{"A-1", "2024-03-01", "12.50"}, Asked: 1},
		{State: RowLook, Result: "I could not find a total.", Error: "Missing: Total", Asked: 1},
		{State: RowFailed, Error: "The service stopped.", Asked: 1},
	}
	for _, m := range moves {
		r, ok, err := db.TakeWaitingRow(ctx, b.ID)
		if err != nil || !ok {
			t.Fatal(ok, err)
		}
		m.BatchID, m.Row = b.ID, r.Row
		if ok, err := db.MoveRow(ctx, RowSending, m); err != nil || !ok {
			t.Fatal(ok, err)
		}
	}
	db.Close()

	db = openTestDB(t, p)
	got, err := db.Batch(ctx, b.ID)
	if err != nil || !slices.Equal(got.Fields, fields) {
		t.Fatalf("the facts asked for after a restart: %q %v", got.Fields, err)
	}
	rows, err := db.AllBatchRows(ctx, b.ID)
	if err != nil || !slices.Equal(rows[0].Values, moves[0].Values) || rows[0].Asked != 1 || rows[1].State != RowLook || rows[1].Result != moves[1].Result {
		t.Fatalf("rows after a restart: %+v %v", rows, err)
	}
	if counts, _, _ := db.BatchCounts(ctx, b.ID); counts[RowLook] != 1 || counts[RowDone] != 1 || counts[RowFailed] != 1 {
		t.Fatalf("counts %v", counts)
	}
	if n, err := db.RetryFailedRows(ctx, b.ID); err != nil || n != 1 {
		t.Fatalf("retried %d rows, %v", n, err)
	}
	r, ok, err := db.TakeWaitingRow(ctx, b.ID)
	if err != nil || !ok || r.Row != 4 || r.Asked != 0 || len(r.Values) != 0 {
		t.Fatalf("the retried row: %+v %v %v", r, ok, err)
	}
	if _, ok, _ := db.TakeWaitingRow(ctx, b.ID); ok {
		t.Fatal("a row that needs a look was handed out again")
	}
}
