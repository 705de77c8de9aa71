package ledger

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/storage"
)

func open(t *testing.T) *storage.DB {
	t.Helper()
	dir := t.TempDir()
	db, err := storage.Open(context.Background(), storage.Paths{Config: dir, Data: dir, Cache: dir, State: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// The credits meter counts what the account spent since local midnight
// on the ledger's own clock, each charge told once, charges of nothing
// and of other accounts left out; the report's sheet shows titles a
// server sent as text, never as a formula.
func TestLedgerCountsTheDayOnItsClock(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	now := time.Date(2026, 12, 2, 23, 30, 0, 0, time.Local)
	acct, told := "acct-1", 0
	l := New(db, func() string { return acct }, func() { told++ }, func() time.Time { return now })

	l.Record(ctx, storage.CreditsExecution, "7", "=HYPERLINK(\"x\")", "e1", client.Credits{Value: 1.5, Valid: true})
	l.Record(ctx, storage.CreditsMemory, "", "", "m1", client.Credits{Value: 0, Valid: true})
	l.Record(ctx, storage.CreditsFile, "7", "", "f1", client.Credits{})
	acct = "acct-2"
	l.Record(ctx, storage.CreditsExecution, "7", "", "e2", client.Credits{Value: 4, Valid: true})
	acct = "acct-1"

	if told != 2 {
		t.Fatalf("told of %d charges, want 2 (nothing and unknown charges are not kept)", told)
	}
	if got, err := l.Today(ctx); err != nil || got != 1.5 {
		t.Fatalf("Today = %v, %v; want 1.5", got, err)
	}
	now = now.Add(time.Hour) // past midnight: a new day
	if got, err := l.Today(ctx); err != nil || got != 0 {
		t.Fatalf("Today after midnight = %v, %v; want 0", got, err)
	}
	r, err := l.OverDays(ctx, 2)
	if err != nil || r.Total != 1.5 || len(r.Recent) != 1 {
		t.Fatalf("OverDays(2) = total %v, %d charges, %v; want 1.5, 1", r.Total, len(r.Recent), err)
	}
	var buf bytes.Buffer
	if err := r.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "\n=HYPERLINK") || strings.Contains(buf.String(), ",=HYPERLINK") {
		t.Fatalf("a title from the service is a formula in the sheet:\n%s", buf.String())
	}
}
