package app

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/app/sheet"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/storage"
)

// A batch runs one agent over the rows of a sheet, one row at a time
// through the account's pacing. Its queue lives in the history: quitting,
// a crash or a reboot loses nothing, and no row is sent twice: a row is
// marked as being sent before its request leaves, its execution id kept as
// soon as the service answers; on the next start a row with an id is
// looked up on the service, and a row without one (the service may or may
// not have it) waits for the user's Retry failed rows.

// BatchPlan is how a batch runs: which column answers which question, the
// answers the same for every row, how many rows at once (1 unless the
// user asks), and the credits after which it pauses (0: none).
type BatchPlan struct {
	Columns   ColumnMap
	Fixed     map[string]string
	Parallel  int
	CreditCap float64
}

// NewBatch reads the sheet at path and keeps it as a batch of agent's
// runs, every row waiting, to run as plan says. Nothing is sent.
func (a *App) NewBatch(ctx context.Context, agent client.Agent, path string, plan BatchPlan) (storage.Batch, error) {
	t, err := sheet.Open(path)
	if err != nil {
		return storage.Batch{}, err
	}
	defer t.Close()
	var rows []storage.BatchRow
	for {
		r, err := t.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return storage.Batch{}, err
		}
		rows = append(rows, storage.BatchRow{Row: r.Number, Cells: r.Cells})
	}
	return a.newBatch(ctx, agent, path, "", t.Header(), rows, plan)
}

// NewBatchFromLines keeps pasted lines as a batch: each line (blank ones
// left out) answers the question named question; the results sheet goes
// to results (.csv or .xlsx). Nothing is sent.
func (a *App) NewBatchFromLines(ctx context.Context, agent client.Agent, lines []string, question, results string, plan BatchPlan) (storage.Batch, error) {
	var rows []storage.BatchRow
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			rows = append(rows, storage.BatchRow{Row: len(rows) + 2, Cells: []string{l}})
		}
	}
	if len(rows) == 0 {
		return storage.Batch{}, &sheet.Error{Kind: sheet.Empty, Path: results}
	}
	name := question
	for _, q := range FormQuestions(agent) {
		if q.Name == question {
			if l := QuestionLabel(q); l != "" {
				name = l
			}
		}
	}
	plan.Columns = ColumnMap{question: 0}
	return a.newBatch(ctx, agent, "", results, []string{name}, rows, plan)
}

func (a *App) newBatch(ctx context.Context, agent client.Agent, source, results string, header []string, rows []storage.BatchRow, plan BatchPlan) (storage.Batch, error) {
	return a.db.CreateBatch(ctx, storage.Batch{
		AccountID: a.AccountID(), AgentID: string(agent.ID), AgentTitle: agent.Title, Source: source, Results: results,
		Header: header, Columns: plan.Columns, Fixed: plan.Fixed, Parallel: plan.Parallel, CreditCap: plan.CreditCap,
	}, rows)
}

// UnfinishedBatches are the account's batches that were running when
// Agent Desk last closed (or stopped), to offer to go on with.
func (a *App) UnfinishedBatches(ctx context.Context) ([]storage.Batch, error) {
	all, err := a.db.Batches(ctx, a.AccountID(), 100)
	if err != nil {
		return nil, err
	}
	var out []storage.Batch
	for _, b := range all {
		if b.State == storage.BatchRunning {
			out = append(out, b)
		}
	}
	return out, nil
}

// RunBatch runs a batch's rows until none waits, ctx ends (Pause: the
// rows on their way stay on the service and are looked up next time), or
// the batch has cost its credit cap (it is then paused). A row the
// service would refuse (a required answer missing, a choice not offered)
// is skipped with the reason, without being sent. Rows left from a
// previous run are settled first: looked up when the service had them,
// failed (not sent again) when it is unknown whether it had.
func (a *App) RunBatch(ctx context.Context, id int64, agent client.Agent) error {
	b, err := a.db.Batch(ctx, id)
	if err != nil {
		return err
	}
	if err := a.settleBatch(ctx, b, agent); err != nil {
		return err
	}
	if err := a.db.SetBatchState(ctx, id, storage.BatchRunning); err != nil {
		return err
	}
	// Rows go out one at a time, or Parallel at once when the user asked;
	// every request keeps to the account's pace either way. A credit cap
	// is checked before each row is taken (parallel rows already on
	// their way may pass it by a few).
	var (
		mu      sync.Mutex
		written time.Time
		capped  bool
		failure error
	)
	// The sheet is written at most once a second, and never taking more
	// than a tenth of the time (a large sheet is written less often).
	every := time.Second
	results := func(force bool) {
		mu.Lock()
		defer mu.Unlock()
		if force || time.Since(written) >= every {
			start := time.Now()
			if _, err := a.BatchResults(context.WithoutCancel(ctx), id); err != nil && failure == nil {
				failure = err
			}
			written = time.Now()
			every = max(time.Second, 10*written.Sub(start))
		}
	}
	var wg sync.WaitGroup
	for range max(1, b.Parallel) {
		wg.Go(func() {
			for ctx.Err() == nil {
				if b.CreditCap > 0 {
					if _, spent, err := a.db.BatchCounts(ctx, id); err == nil && spent >= b.CreditCap {
						mu.Lock()
						capped = true
						mu.Unlock()
						return
					}
				}
				row, ok, err := a.db.TakeWaitingRow(ctx, id)
				if err != nil || !ok {
					if err != nil && ctx.Err() == nil {
						mu.Lock()
						failure = err
						mu.Unlock()
					}
					return
				}
				rowErr := a.runBatchRow(ctx, b, agent, row)
				a.batchRowDone()
				if rowErr != nil {
					mu.Lock()
					if failure == nil {
						failure = rowErr
					}
					mu.Unlock()
					return
				}
				results(false) // the results sheet follows the rows, at most once a second
			}
		})
	}
	wg.Wait()
	results(true)
	save := context.WithoutCancel(ctx)
	if failure != nil {
		_ = a.db.SetBatchState(save, id, storage.BatchPaused)
		return failure
	}
	// Done, unless stopped, capped, or a row is still going on the service
	// (it is looked up when the batch runs again).
	state := storage.BatchDone
	if counts, _, err := a.db.BatchCounts(save, id); ctx.Err() != nil || capped || (err == nil && (counts[storage.RowRunning] > 0 || counts[storage.RowWaiting] > 0)) {
		state = storage.BatchPaused
	}
	if state == storage.BatchPaused && a.life.Err() != nil {
		// Agent Desk is closing, not the user pausing: the batch stays
		// running, to be offered to go on with at the next start.
		state = storage.BatchRunning
	}
	return a.db.SetBatchState(save, id, state)
}

// runBatchRow sends one row (marked as being sent) and waits for it.
func (a *App) runBatchRow(ctx context.Context, b storage.Batch, agent client.Agent, row storage.BatchRow) error {
	save := context.WithoutCancel(ctx)
	answers, problems := RowAnswers(agent, b.Columns, b.Fixed, row.Cells)
	if problems != nil {
		_ = a.db.UpdateBatchRow(save, b.ID, row.Row, storage.RowUpdate{State: storage.RowSkipped, Error: rowProblems(agent, problems)})
		return nil
	}
	c := a.Client()
	// Once on its way a request is seen through, Pause or quitting
	// included, so that its execution id is kept (the service may charge
	// it): only the wait for its result follows ctx.
	send, cancel := context.WithTimeout(save, 2*time.Minute)
	e, err := c.Start(send, agent.ID, client.ExecuteParams{Answers: ExecuteAnswers(agent, answers)})
	cancel()
	if err != nil {
		// A refusal says the service did not run it; anything else (the
		// connection broke) leaves it unknown: either way the row is not
		// sent again by itself.
		why := Describe(err)
		var apiErr *client.APIError
		if !errors.As(err, &apiErr) {
			why = unknownFate()
		}
		_ = a.db.UpdateBatchRow(save, b.ID, row.Row, storage.RowUpdate{State: storage.RowFailed, Error: why})
		return nil
	}
	_ = a.db.UpdateBatchRow(save, b.ID, row.Row, storage.RowUpdate{State: storage.RowRunning, ExecutionID: string(e.ID)})
	return a.finishBatchRow(ctx, b, agent, row.Row, e)
}

// unknownFate is why a row is not sent again when it is unknown whether
// the service got it.
func unknownFate() string {
	return lang.L("Agent Desk stopped while this row was being sent, so it may or may not have run. It was not sent again: use Retry failed rows to send it.")
}

// finishBatchRow waits for a row's execution e and keeps what became of
// it; when ctx ends first the row stays running, to be looked up.
func (a *App) finishBatchRow(ctx context.Context, b storage.Batch, agent client.Agent, row int, e *client.Execution) error {
	save := context.WithoutCancel(ctx)
	var err error
	if !e.Terminal() {
		var w *client.Execution
		w, err = a.Client().Wait(ctx, agent.ID, e.ID)
		if w != nil {
			e = w
		}
	} else if !e.Succeeded() {
		err = &client.ExecutionError{Execution: *e}
	}
	if e.Terminal() {
		a.RecordCredits(save, storage.CreditsExecution, string(agent.ID), agent.Title, string(e.ID), e.Credits)
	}
	var credits *float64
	if e.Credits.Valid {
		v := e.Credits.Value
		credits = &v
	}
	switch {
	case err == nil && e.Succeeded():
		_ = a.db.UpdateBatchRow(save, b.ID, row, storage.RowUpdate{State: storage.RowDone, Credits: credits, Result: e.Output})
	case !e.Terminal() && client.IsNotFound(err):
		// The service has no such run (any more): nothing to wait for,
		// and nothing was charged twice.
		_ = a.db.UpdateBatchRow(save, b.ID, row, storage.RowUpdate{State: storage.RowFailed,
			Error: lang.L("The service no longer has this run, so its result cannot be fetched. Use Retry failed rows to run the row again.")})
	case !e.Terminal():
		// Paused, closed, or still going after the wait: the service has
		// it; it is looked up next time. A lookup that failed otherwise
		// is told (the batch pauses with it).
		if err != nil && ctx.Err() == nil && !errors.Is(err, client.ErrStillRunning) {
			return err
		}
	default:
		_ = a.db.UpdateBatchRow(save, b.ID, row, storage.RowUpdate{State: storage.RowFailed, Credits: credits, Result: e.Output, Error: Describe(err)})
	}
	return nil
}

// settleBatch deals with the rows a previous run left on their way.
func (a *App) settleBatch(ctx context.Context, b storage.Batch, agent client.Agent) error {
	sending, err := a.db.BatchRowsIn(ctx, b.ID, storage.RowSending, 1_000_000)
	if err != nil {
		return err
	}
	for _, r := range sending {
		err := a.db.UpdateBatchRow(ctx, b.ID, r.Row, storage.RowUpdate{State: storage.RowFailed, Error: unknownFate()})
		if err != nil {
			return err
		}
	}
	running, err := a.db.BatchRowsIn(ctx, b.ID, storage.RowRunning, 1_000_000)
	if err != nil {
		return err
	}
	for _, r := range running {
		if ctx.Err() != nil {
			return nil
		}
		if err := a.finishBatchRow(ctx, b, agent, r.Row, &client.Execution{ID: client.ID(r.ExecutionID), Status: client.StatusRunning}); err != nil {
			return err
		}
	}
	return nil
}

// rowProblems says why a row was not sent: each question and what is
// wrong with its answer.
func rowProblems(agent client.Agent, problems map[string]string) string {
	var parts []string
	for _, q := range FormQuestions(agent) {
		if msg, ok := problems[q.Name]; ok {
			name := QuestionLabel(q)
			if name == "" {
				name = strings.ReplaceAll(q.Name, "_", " ")
			}
			parts = append(parts, lang.L("{{.Question}}: {{.Problem}}", map[string]any{"Question": name, "Problem": msg}))
		}
	}
	return strings.Join(parts, " ")
}

// BatchResults writes the batch's results sheet beside its source, in the
// source's format: the source's columns, then the result (the agent's
// text), the row's status, its credits and the execution's id. The sheet
// is whole at every moment; when the usual name cannot be replaced (open
// in a spreadsheet program) a new name is used and kept. It returns the
// sheet written.
func (a *App) BatchResults(ctx context.Context, id int64) (string, error) {
	b, err := a.db.Batch(ctx, id)
	if err != nil {
		return "", err
	}
	var rows []storage.BatchRow
	for after := 0; ; {
		page, err := a.db.BatchRows(ctx, id, after, 5000)
		if err != nil {
			return "", err
		}
		rows = append(rows, page...)
		if len(page) < 5000 {
			break
		}
		after = page[len(page)-1].Row
	}
	header := append(append([]string{}, b.Header...), lang.L("Result"), lang.L("Status"), lang.L("Credits"), lang.L("Execution"))
	out := make([][]string, len(rows))
	for i, r := range rows {
		cells := make([]string, len(b.Header), len(b.Header)+4)
		copy(cells, r.Cells)
		result := r.Result
		if r.Error != "" {
			result = r.Error
		}
		credits := ""
		if r.Credits != nil {
			credits = CreditsFigure(*r.Credits)
		}
		out[i] = append(cells, result, rowStatus(r.State), credits, r.ExecutionID)
	}
	path := b.Results
	if path == "" {
		ext := filepath.Ext(b.Source)
		if !strings.EqualFold(ext, ".xlsx") {
			ext = ".csv"
		}
		path = strings.TrimSuffix(b.Source, filepath.Ext(b.Source)) + " " + lang.L("results") + ext
	}
	// Spreadsheet programs where numbers take a decimal comma separate a
	// CSV's cells with a semicolon.
	comma := ','
	if decimalComma() {
		comma = ';'
	}
	written, err := sheet.Write(path, header, out, comma)
	if err != nil {
		return "", err
	}
	if written != b.Results {
		if err := a.db.SetBatchResults(ctx, id, written); err != nil {
			return written, err
		}
	}
	return written, nil
}

// rowStatus is a row's state in the results sheet, in words.
func rowStatus(state string) string {
	switch state {
	case storage.RowDone:
		return lang.L("Done")
	case storage.RowFailed:
		return lang.L("Failed")
	case storage.RowSkipped:
		return lang.L("Skipped")
	case storage.RowRunning, storage.RowSending:
		return lang.L("Running")
	}
	return lang.L("Waiting")
}
