// Package ledger keeps what an account's work has cost, as this computer
// recorded it: each run, upload and memory saved, and reports over days.
package ledger

import (
	"context"
	"encoding/csv"
	"io"
	"strconv"
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
}

// Ledger records and reports the charges of the account in use.
type Ledger struct {
	store   Store
	account func() string // the account in use
	charged func()        // after each charge recorded
	now     func() time.Time
}

// New is the ledger of the account account names, kept in store; charged
// is told of each charge recorded, now is the clock.
func New(store Store, account func() string, charged func(), now func() time.Time) *Ledger {
	return &Ledger{store: store, account: account, charged: charged, now: now}
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

// Report is what the account spent over a period, by day and by agent
// (memories and other charges without an agent grouped under their own
// name).
type Report struct {
	From, To time.Time
	ByDay    []storage.DayCredits
	ByAgent  []storage.AgentCredits
	// Recent are the period's charges one by one, newest first, the
	// latest RecentMax of them.
	Recent []storage.CreditRecord
	Total  float64
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
	if r.Recent, err = l.store.RecentCredits(ctx, acct, from, to, RecentMax); err != nil {
		return r, err
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

// WriteCSV writes the report as a spreadsheet-friendly CSV: one section by
// day, one by agent, every cell text a spreadsheet program shows and never
// runs (safe.Cell): agent titles and ids come from the service.
func (r Report) WriteCSV(w io.Writer) error {
	rows := [][]string{{lang.L("Day"), lang.L("Credits")}}
	for _, d := range r.ByDay {
		rows = append(rows, []string{d.Day.Format("2006-01-02"), formatCredits(d.Credits)})
	}
	rows = append(rows, []string{}, []string{lang.L("Agent id"), lang.L("Agent"), lang.L("Calls"), lang.L("Credits")})
	for _, ag := range r.ByAgent {
		rows = append(rows, []string{ag.AgentID, ag.AgentTitle, strconv.Itoa(ag.Calls), formatCredits(ag.Credits)})
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
