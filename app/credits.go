package app

import (
	"context"
	"encoding/csv"
	"io"
	"strconv"
	"time"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/internal/safe"
	"github.com/agentdesk/agentdesk/storage"
)

// CreditsReport is what the active account spent over a period, by day and by agent.
type CreditsReport struct {
	From, To time.Time
	ByDay    []storage.DayCredits
	ByAgent  []storage.AgentCredits
	// Recent are the period's latest RecentMax charges, newest first.
	Recent []CreditRecord
	Total  float64
}

// RecentMax is how many single charges a report lists.
const RecentMax = 500

// OverDays reports the spending of the last days local days, today included.
func (svc *Ledger) OverDays(ctx context.Context, days int) (CreditsReport, error) {
	a := svc.a
	if days < 1 {
		days = 1
	}
	now := time.Now()
	to := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.Local).AddDate(0, 0, 1)
	from := to.AddDate(0, 0, -days)
	r := CreditsReport{From: from, To: to}
	var err error
	if r.ByDay, err = a.db.CreditsByDay(ctx, a.AccountID(), from, to); err != nil {
		return r, err
	}
	if r.ByAgent, err = a.db.CreditsByAgent(ctx, a.AccountID(), from, to); err != nil {
		return r, err
	}
	if r.Recent, err = a.db.RecentCredits(ctx, a.AccountID(), from, to, RecentMax); err != nil {
		return r, err
	}
	for i, c := range r.Recent {
		if c.AgentTitle == "" || c.AgentID == "" {
			r.Recent[i].AgentTitle = agentLabel(c.AgentID)
		}
	}
	for _, d := range r.ByDay {
		r.Total += d.Credits
	}
	for i, ag := range r.ByAgent {
		if ag.AgentTitle == "" || ag.AgentID == "" {
			r.ByAgent[i].AgentTitle = agentLabel(ag.AgentID)
		}
	}
	return r, nil
}

func agentLabel(id string) string {
	if id == "" {
		return lang.L("Memories and other charges")
	}
	return lang.L("Agent {{.ID}}", map[string]any{"ID": id})
}

// WriteCSV writes the report as CSV, by day and by agent; every cell is text
// a spreadsheet shows and never runs (safe.Cell).
func (r CreditsReport) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	rows := [][]string{{lang.L("Day"), lang.L("Credits")}}
	for _, d := range r.ByDay {
		rows = append(rows, []string{d.Day.Format("2006-01-02"), formatCredits(d.Credits)})
	}
	rows = append(rows, []string{}, []string{lang.L("Agent id"), lang.L("Agent"), lang.L("Calls"), lang.L("Credits")})
	for _, ag := range r.ByAgent {
		rows = append(rows, []string{ag.AgentID, ag.AgentTitle, strconv.Itoa(ag.Calls), formatCredits(ag.Credits)})
	}
	rows = append(rows, []string{}, []string{lang.L("Total"), formatCredits(r.Total)})
	// Agent titles and ids come from the service: text, never a formula.
	for _, row := range rows {
		for i, c := range row {
			row[i] = safe.Cell(c)
		}
	}
	if err := cw.WriteAll(rows); err != nil {
		return sayWrapped(err, func() string {
			return lang.L("the file could not be written: {{.Why}}", map[string]any{"Why": why(err)})
		})
	}
	return nil
}

func formatCredits(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// Ledger is what the account's work has cost, as this computer recorded it (App.Ledger).
type Ledger struct{ a *App }

// Ledger is the account's ledger.
func (a *App) Ledger() *Ledger { return &Ledger{a} }
