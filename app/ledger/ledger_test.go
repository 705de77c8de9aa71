package ledger

import (
	"bytes"
	"context"
	"encoding/csv"
	"math"
	"slices"
	"strconv"
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
	l := New(db, func() string { return acct }, nil, func() { told++ }, func() time.Time { return now })

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

// A run is guessed to cost what the agent's last runs did, else what the
// account's did; with no run before, only a limit already reached warns;
// without a limit nothing does; a day's total that cannot be read warns.
func TestWouldPassGuessesFromTheRunsBefore(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	now := time.Date(2026, 12, 2, 15, 0, 0, 0, time.Local)
	limit := 10.0
	l := New(db, func() string { return "acct-1" }, func() float64 { return limit }, nil, func() time.Time { return now })
	charge := func(kind, agent string, credits float64, at time.Time) {
		t.Helper()
		if _, err := db.RecordCredits(ctx, storage.CreditRecord{At: at, AccountID: "acct-1", AgentID: agent, Kind: kind, Credits: credits}); err != nil {
			t.Fatal(err)
		}
	}
	check := func(what, agent string, runs int, want bool, wantSpend Spend) {
		t.Helper()
		s, warn := l.WouldPass(ctx, agent, runs)
		if warn != want || s.Today != wantSpend.Today || s.Estimate != wantSpend.Estimate || s.Known != wantSpend.Known || s.Limit != wantSpend.Limit || s.Err != nil {
			t.Errorf("%s: WouldPass(%q, %d) = %+v, %v; want %+v, %v", what, agent, runs, s, warn, wantSpend, want)
		}
	}

	// No run before: only the day's total counts.
	check("no history", "7", 1, false, Spend{Limit: 10})
	charge(storage.CreditsMemory, "", 10, now.Add(-time.Hour))
	check("no history, the limit reached", "7", 1, true, Spend{Today: 10, Limit: 10})

	// Yesterday's runs of agent 7 cost 2 and 4: a run costs about 3.
	limit = 20
	charge(storage.CreditsExecution, "7", 2, now.AddDate(0, 0, -1))
	charge(storage.CreditsExecution, "7", 4, now.AddDate(0, 0, -1))
	check("one run", "7", 1, false, Spend{Today: 10, Estimate: 3, Known: true, Limit: 20})
	check("four runs", "7", 4, true, Spend{Today: 10, Estimate: 12, Known: true, Limit: 20})
	// Agent 9 never ran: the account's runs (3 on average) stand in.
	check("another agent", "9", 4, true, Spend{Today: 10, Estimate: 12, Known: true, Limit: 20})
	charge(storage.CreditsExecution, "9", 0.5, now.AddDate(0, 0, -1))
	check("its own runs", "9", 4, false, Spend{Today: 10, Estimate: 2, Known: true, Limit: 20})

	limit = 0
	check("no limit", "7", 1000, false, Spend{})

	// A history that cannot be read: the limit is set, nothing is known.
	limit = 20
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if s, warn := l.WouldPass(ctx, "7", 1); !warn || s.Err == nil {
		t.Errorf("a closed history: %+v, %v; want a warning with its reason", s, warn)
	}
}

// The report's sheet lists each batch's runs by the sheet's name, each cell
// as text: a sheet named like a formula stays a name.
func TestTheReportAddsUpBatches(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	now := time.Date(2026, 12, 2, 15, 0, 0, 0, time.Local)
	l := New(db, func() string { return "acct-1" }, func() float64 { return 50 }, nil, func() time.Time { return now })
	b, err := db.CreateBatch(ctx, storage.Batch{AccountID: "acct-1", AgentID: "7", AgentTitle: "Invoice reader", Source: "/home/ana/=cmd|calc.xlsx", CreatedAt: now.Add(-time.Hour)},
		[]storage.BatchRow{{Row: 2}})
	if err != nil {
		t.Fatal(err)
	}
	r, _, err := db.TakeWaitingRow(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	r.State, r.ExecutionID = storage.RowDone, "e1"
	if _, err := db.MoveRow(ctx, storage.RowSending, r); err != nil {
		t.Fatal(err)
	}
	l.Record(ctx, storage.CreditsExecution, "7", "Invoice reader", "e1", client.Credits{Value: 2.5, Valid: true})
	l.Record(ctx, storage.CreditsExecution, "7", "Invoice reader", "e2", client.Credits{Value: 1, Valid: true})
	rep, err := l.OverDays(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.ByBatch) != 1 || rep.ByBatch[0].Credits != 2.5 || BatchName(rep.ByBatch[0]) != "=cmd|calc.xlsx" || rep.Today != 3.5 || rep.Limit != 50 {
		t.Fatalf("report = %+v", rep)
	}
	var buf bytes.Buffer
	if err := rep.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	cr := csv.NewReader(strings.NewReader(buf.String()))
	cr.FieldsPerRecord = -1 // sections of their own widths
	rows, err := cr.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(rows, func(row []string) bool {
		return len(row) == 5 && row[0] == "'=cmd|calc.xlsx" && row[3] == "1" && row[4] == "2.5"
	}) {
		t.Fatalf("the batch's row is missing or unsafe:\n%s", buf.String())
	}
}

func TestParseLimit(t *testing.T) {
	for in, want := range map[string]float64{"": 0, " 50 ": 50, "12.5": 12.5, "12,5": 12.5, "0.25": 0.25} {
		if got, ok := ParseLimit(in); !ok || got != want {
			t.Errorf("ParseLimit(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
	for _, in := range []string{"0", "-5", "fifty", "1e3", "Inf", "NaN", "1,000.5", "1.2.3", "5 credits", "2e9"} {
		if got, ok := ParseLimit(in); ok {
			t.Errorf("ParseLimit(%q) = %v; want it refused", in, got)
		}
	}
}

// Whatever is typed, a limit taken is a finite number above zero and at
// most MaxLimit, and writing it back reads the same.
func FuzzParseLimit(f *testing.F) {
	for _, s := range []string{"", "50", "12,5", "0.0001", "-1", "1e9", "0x10", "١٢", "1_000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := ParseLimit(s)
		if !ok {
			return
		}
		if v < 0 || v > MaxLimit || math.IsNaN(v) || (v == 0) != (strings.TrimSpace(s) == "") {
			t.Fatalf("ParseLimit(%q) = %v", s, v)
		}
		if again, ok := ParseLimit(strconv.FormatFloat(v, 'f', -1, 64)); v > 0 && (!ok || again != v) {
			t.Fatalf("%v reads back as %v, %v", v, again, ok)
		}
	})
}

// Whatever the service calls an agent and whatever a sheet is named, the
// report's sheet reads back and no cell starts a formula.
func FuzzWriteCSV(f *testing.F) {
	f.Add("Invoice reader", "7", "/home/ana/invoices.xlsx")
	f.Add("=HYPERLINK(\"x\")", "+1", "@sum.csv")
	f.Add("-2+3", "\t", "a\"b\nc")
	f.Fuzz(func(t *testing.T, title, id, source string) {
		day := time.Date(2026, 12, 2, 0, 0, 0, 0, time.Local)
		r := Report{
			ByDay:   []storage.DayCredits{{Day: day, Credits: 1}},
			ByAgent: []storage.AgentCredits{{AgentID: id, AgentTitle: title, Credits: 1, Calls: 1}},
			ByBatch: []storage.BatchCredits{{AgentID: id, AgentTitle: title, Source: source, CreatedAt: day, Credits: 1, Calls: 1}},
			Total:   1,
		}
		var buf bytes.Buffer
		if err := r.WriteCSV(&buf); err != nil {
			t.Fatal(err)
		}
		cr := csv.NewReader(&buf)
		cr.FieldsPerRecord = -1
		rows, err := cr.ReadAll()
		if err != nil {
			t.Fatalf("the sheet does not read back: %v", err)
		}
		for _, row := range rows {
			for _, c := range row {
				if c != "" && strings.ContainsRune("=+@\t\r", rune(c[0])) {
					t.Fatalf("a cell starts a formula: %q", c)
				}
				if _, err := strconv.ParseFloat(c, 64); c != "" && c[0] == '-' && err != nil {
					t.Fatalf("a cell starts a formula: %q", c)
				}
			}
		}
	})
}
