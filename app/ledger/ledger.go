// Package ledger keeps what an account's work has cost, as this computer
// recorded it: each run, upload and memory saved, and reports over days.
package ledger

import (
	"context"
	"encoding/csv"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/safe"
	"github.com/agentdesk/agentdesk/storage"
)

// Store is where the charges are kept (the history).
type Store interface {
	RecordCredits(ctx context.Context, r storage.CreditRecord) (storage.CreditRecord, error)
	CreditsSince(ctx context.Context, accountID string, t time.Time) (float64, error)
	CreditsByDay(ctx context.Context, accountID string, from, to time.Time) ([]storage.DayCredits, error)
	CreditsByAgent(ctx context.Context, accountID string, from, to time.Time) ([]storage.AgentCredits, error)
	RecentCredits(ctx context.Context, accountID string, from, to time.Time, limit int) ([]storage.CreditRecord, error)
	CreditsByBatch(ctx context.Context, accountID string, from, to time.Time) ([]storage.BatchCredits, error)
	RunCredits(ctx context.Context, accountID, agentID string, last int) (avg float64, runs int, err error)
}

// Ledger records and reports the charges of the account in use.
type Ledger struct {
	store   Store
	account func() string  // the account in use
	limit   func() float64 // its daily limit in credits; 0 is none
	charged func()         // after each charge recorded
	now     func() time.Time
}

// New is the ledger of the account account names, kept in store; limit is
// that account's daily limit (0: none), charged is told of each charge
// recorded, now is the clock.
func New(store Store, account func() string, limit func() float64, charged func(), now func() time.Time) *Ledger {
	return &Ledger{store: store, account: account, limit: limit, charged: charged, now: now}
}

// Record keeps one charge (kind: storage.Credits…); a charge of nothing
// or an unknown charge is not kept. A charge that cannot be written is
// lost from the ledger only, never charged again: it is the service's.
func (l *Ledger) Record(ctx context.Context, kind, agentID, agentTitle, ref string, credits client.Credits) {
	if !credits.Valid || credits.Value == 0 {
		return
	}
	_, err := l.store.RecordCredits(ctx, storage.CreditRecord{
		At: l.now(), AccountID: l.account(), AgentID: agentID, AgentTitle: safe.Text(agentTitle, 0),
		Kind: kind, Credits: credits.Value, Ref: ref,
	})
	if err == nil && l.charged != nil {
		l.charged()
	}
}

// Today is what the account spent since local midnight.
func (l *Ledger) Today(ctx context.Context) (float64, error) {
	now := l.now()
	midnight := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
	return l.store.CreditsSince(ctx, l.account(), midnight)
}

// Limit is the account's daily limit in credits; 0 is none.
func (l *Ledger) Limit() float64 {
	if l.limit == nil {
		return 0
	}
	return max(l.limit(), 0)
}

// Spend is where a run or batch would take the day's spending, against the
// daily limit.
type Spend struct {
	Today float64 // spent since local midnight
	// Estimate is what the runs would cost, about (when Known).
	Estimate float64
	// Known: the estimate comes from runs before; without any, only the
	// day's total is compared with the limit.
	Known bool
	Limit float64 // the daily limit; 0 is none
	// Err is why the day's total could not be read (nothing else is known).
	Err error
}

// After is the day's spending once the runs are done, about.
func (s Spend) After() float64 { return s.Today + s.Estimate }

// runsAveraged is how many of the last runs a run's cost is guessed from:
// enough to even out long and short answers, few enough to follow a price
// that changed.
const runsAveraged = 20

// WouldPass tells whether runs runs of agent agentID would take the day's
// spending past the daily limit, so that staff are asked first. A run is
// guessed to cost what the agent's last runs cost on average, else what the
// account's did; with no run before, only a limit already reached warns.
// No limit never warns; a day's total that cannot be read always does.
func (l *Ledger) WouldPass(ctx context.Context, agentID string, runs int) (Spend, bool) {
	s := Spend{Limit: l.Limit()}
	if s.Limit == 0 {
		return s, false
	}
	if s.Today, s.Err = l.Today(ctx); s.Err != nil {
		return s, true
	}
	if per, ok := l.perRun(ctx, agentID); ok {
		s.Estimate, s.Known = per*float64(max(runs, 1)), true
		return s, s.After() > s.Limit
	}
	return s, s.Today >= s.Limit
}

// perRun is what a run of agentID costs, about, from the runs before: its
// own, else the account's. A history that cannot be read knows nothing:
// WouldPass then falls back on the day's total, which it did read.
func (l *Ledger) perRun(ctx context.Context, agentID string) (float64, bool) {
	ids := []string{agentID}
	if agentID != "" {
		ids = append(ids, "") // any agent's
	}
	for _, id := range ids {
		avg, n, err := l.store.RunCredits(ctx, l.account(), id, runsAveraged)
		if err != nil {
			return 0, false
		}
		if n > 0 {
			return avg, true
		}
	}
	return 0, false
}

// Report is what the account spent over a period, by day, by agent
// (memories and other charges without an agent grouped under their own
// name) and by batch, and the day's total against the daily limit.
type Report struct {
	From, To time.Time
	ByDay    []storage.DayCredits
	ByAgent  []storage.AgentCredits
	ByBatch  []storage.BatchCredits
	// Recent are the period's charges one by one, newest first, the
	// latest RecentMax of them.
	Recent []storage.CreditRecord
	Total  float64
	// Today is what was spent since local midnight; Limit the daily limit
	// (0: none).
	Today, Limit float64
}

// RecentMax is how many single charges a report lists.
const RecentMax = 500

// OverDays reports the spending of the last days local days, today
// included.
func (l *Ledger) OverDays(ctx context.Context, days int) (Report, error) {
	days = max(days, 1)
	now := l.now()
	to := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.Local).AddDate(0, 0, 1)
	from := to.AddDate(0, 0, -days)
	r := Report{From: from, To: to}
	acct := l.account()
	var err error
	if r.ByDay, err = l.store.CreditsByDay(ctx, acct, from, to); err != nil {
		return r, err
	}
	if r.ByAgent, err = l.store.CreditsByAgent(ctx, acct, from, to); err != nil {
		return r, err
	}
	if r.ByBatch, err = l.store.CreditsByBatch(ctx, acct, from, to); err != nil {
		return r, err
	}
	if r.Recent, err = l.store.RecentCredits(ctx, acct, from, to, RecentMax); err != nil {
		return r, err
	}
	if r.Today, err = l.Today(ctx); err != nil {
		return r, err
	}
	r.Limit = l.Limit()
	for i, b := range r.ByBatch {
		r.ByBatch[i].AgentTitle = agentLabel(b.AgentID, b.AgentTitle)
	}
	for i, c := range r.Recent {
		r.Recent[i].AgentTitle = agentLabel(c.AgentID, c.AgentTitle)
	}
	for _, d := range r.ByDay {
		r.Total += d.Credits
	}
	for i, ag := range r.ByAgent {
		r.ByAgent[i].AgentTitle = agentLabel(ag.AgentID, ag.AgentTitle)
	}
	return r, nil
}

// agentLabel is how a charge's agent is named: its title, else in words.
func agentLabel(id, title string) string {
	switch {
	case id == "":
		return lang.L("Memories and other charges")
	case title == "":
		return lang.L("Agent {{.ID}}", map[string]any{"ID": id})
	}
	return title
}

// BatchName is how a batch is named: its sheet's or folder's name.
func BatchName(b storage.BatchCredits) string {
	if b.Source == "" {
		return lang.L("Lines of text")
	}
	return filepath.Base(b.Source)
}

// WriteCSV writes the report as a spreadsheet-friendly CSV: one section by
// day, one by agent, one by batch, every cell text a spreadsheet program
// shows and never runs (safe.Cell): agent titles and ids come from the
// service, sheet names from anyone's files.
func (r Report) WriteCSV(w io.Writer) error {
	rows := [][]string{{lang.L("Day"), lang.L("Credits")}}
	for _, d := range r.ByDay {
		rows = append(rows, []string{d.Day.Format("2006-01-02"), formatCredits(d.Credits)})
	}
	rows = append(rows, []string{}, []string{lang.L("Agent id"), lang.L("Agent"), lang.L("Calls"), lang.L("Credits")})
	for _, ag := range r.ByAgent {
		rows = append(rows, []string{ag.AgentID, ag.AgentTitle, strconv.Itoa(ag.Calls), formatCredits(ag.Credits)})
	}
	if len(r.ByBatch) > 0 {
		rows = append(rows, []string{}, []string{lang.L("Batch"), lang.L("Agent"), lang.L("Started"), lang.L("Runs"), lang.L("Credits")})
		for _, b := range r.ByBatch {
			rows = append(rows, []string{BatchName(b), b.AgentTitle, b.CreatedAt.Local().Format("2006-01-02 15:04"), strconv.Itoa(b.Calls), formatCredits(b.Credits)})
		}
	}
	rows = append(rows, []string{}, []string{lang.L("Total"), formatCredits(r.Total)})
	for _, row := range rows {
		for i, c := range row {
			row[i] = safe.Cell(c)
		}
	}
	return csv.NewWriter(w).WriteAll(rows)
}

func formatCredits(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// ParseLimit reads a daily limit as staff write it: a number of credits
// above zero, with a decimal point or comma ("50", "12.5", "12,5"); ""
// is no limit (0). ok is false for anything else.
func ParseLimit(s string) (limit float64, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, true
	}
	if strings.Count(s, ",") == 1 && !strings.Contains(s, ".") {
		s = strings.Replace(s, ",", ".", 1)
	}
	for _, r := range s {
		if (r < '0' || r > '9') && r != '.' {
			return 0, false // no sign, exponent, infinity or thousands mark
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v <= 0 || v > MaxLimit {
		return 0, false
	}
	return v, true
}

// MaxLimit is the largest daily limit taken: more is surely a slip.
const MaxLimit = 1e9
