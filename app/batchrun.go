package app

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/safe"
	"github.com/agentdesk/agentdesk/storage"
)

// BatchRunner runs the account's batches in the background (closing Agent
// Desk pauses them) and tells the screens of their progress through News.
type BatchRunner struct {
	a       *App
	mu      sync.Mutex
	running map[int64]context.CancelFunc
	news    *live.State[BatchNews]
	offered atomic.Bool // see FirstOffer
}

// BatchNews counts the rows finished and batches started or ended (Rows),
// and the batches ended (Ends, the last one Ended).
type BatchNews struct {
	Rows  uint64
	Ended BatchEnd
	Ends  uint64
}

// BatchEnd is a batch that stopped running, its state then and why (Err).
type BatchEnd struct {
	Batch  storage.Batch
	Counts map[storage.RowState]int
	Spent  float64
	Err    error
}

// Batches is the app's batch runner.
func (a *App) Batches() *BatchRunner {
	a.batchOnce.Do(func() {
		a.batches.Store(&BatchRunner{a: a, running: map[int64]context.CancelFunc{}, news: live.NewState(BatchNews{})})
	})
	return a.batches.Load()
}

// FirstOffer is true once a start: unfinished batches are offered to go on with once.
func (r *BatchRunner) FirstOffer() bool { return r.offered.CompareAndSwap(false, true) }

// List is the account's latest 200 batches, newest first.
func (r *BatchRunner) List(ctx context.Context) ([]Batch, error) {
	return r.a.db.Batches(ctx, r.a.AccountID(), 200)
}

// Counts is how many of a batch's rows are in each state, and the credits they spent.
func (r *BatchRunner) Counts(ctx context.Context, id int64) (map[storage.RowState]int, float64, error) {
	return r.a.db.BatchCounts(ctx, id)
}

// Rows are a batch's first max rows.
func (r *BatchRunner) Rows(ctx context.Context, id int64, max int) ([]BatchRow, error) {
	return r.a.db.BatchRows(ctx, id, 0, max)
}

// RetryFailed sends a batch's failed rows again (only those).
func (r *BatchRunner) RetryFailed(ctx context.Context, id int64) error {
	if _, err := r.a.db.RetryFailedRows(ctx, id); err != nil {
		return err
	}
	return r.Resume(ctx, id)
}

// News is the runner's progress, for screens to follow (kit.Bind).
func (r *BatchRunner) News() live.Observable[BatchNews] { return r.news }

// Running reports whether batch id runs now.
func (r *BatchRunner) Running(id int64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.running[id]
	return ok
}

// RunningNow are the batches that run at this moment. A screen reads it
// before the history, so a batch ending between never shows stopped in its old state.
func (r *BatchRunner) RunningNow() map[int64]bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[int64]bool, len(r.running))
	for id := range r.running {
		out[id] = true
	}
	return out
}

// Start runs batch id in the background; false when it runs already or the app is closing.
func (r *BatchRunner) Start(id int64, agent client.Agent) bool {
	r.mu.Lock()
	if _, ok := r.running[id]; ok {
		r.mu.Unlock()
		return false
	}
	ctx, cancel := context.WithCancel(r.a.Life())
	r.running[id] = cancel
	r.mu.Unlock()
	stop := func() {
		cancel()
		r.mu.Lock()
		delete(r.running, id)
		r.mu.Unlock()
	}
	ok := r.a.Go(func() {
		end := r.run(ctx, id, agent)
		stop()
		r.news.Update(func(n BatchNews) BatchNews {
			n.Rows, n.Ended, n.Ends = n.Rows+1, end, n.Ends+1
			return n
		})
	})
	if !ok {
		stop()
		return false
	}
	r.bump()
	return true
}

// Resume reads batch id's agent from the service and starts it.
func (r *BatchRunner) Resume(ctx context.Context, id int64) error {
	b, err := r.a.db.Batch(ctx, id)
	if err != nil {
		return err
	}
	agent, err := r.a.Agents().Get(ctx, client.ID(b.AgentID))
	if err != nil {
		return err
	}
	r.Start(id, *agent)
	return nil
}

// Pause stops batch id; the rows on their way are looked up when it goes on.
func (r *BatchRunner) Pause(id int64) {
	r.mu.Lock()
	cancel := r.running[id]
	r.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// Cancel ends batch id for good: the rows not sent yet are skipped, those
// on their way are seen to the end (a paused batch runs again to look them up).
func (r *BatchRunner) Cancel(ctx context.Context, id int64) error {
	if err := r.a.db.CancelBatch(ctx, id, cancelledRow()); err != nil {
		return err
	}
	defer r.bump()
	if r.Running(id) {
		return nil // the runner writes the results as it ends
	}
	counts, _, err := r.a.db.BatchCounts(ctx, id)
	if err != nil {
		return err
	}
	if onTheWay(counts) > 0 {
		if err := r.Resume(ctx, id); err != nil {
			return fmt.Errorf("%w: %w", ErrLookupLater, err)
		}
		return nil
	}
	// The rows not sent now read so in the results sheet too.
	_, _, err = r.a.batchResults(ctx, id)
	return err
}

// ErrLookupLater says a batch was cancelled but its rows on their way are
// looked up only when Agent Desk next offers to go on with it.
var ErrLookupLater = errors.New("the rows on their way will be looked up later")

// cancelledRow is why a row of a cancelled batch did not run.
func cancelledRow() string { return lang.L("Not run: the batch was cancelled.") }

// bump tells the screens a row (or a batch) changed.
func (r *BatchRunner) bump() {
	r.news.Update(func(n BatchNews) BatchNews { n.Rows++; return n })
}

// Run runs a batch's rows until none waits, ctx ends (Pause) or its credit
// cap is reached. A row the service would refuse is skipped unsent; a row
// whose fate a previous run left unknown fails, never sent again by itself.
// A history that cannot be written pauses the batch with the error.
func (r *BatchRunner) Run(ctx context.Context, id int64, agent client.Agent) error {
	return r.run(ctx, id, agent).Err
}

// run is Run, telling how the batch ended.
func (r *BatchRunner) run(ctx context.Context, id int64, agent client.Agent) BatchEnd {
	b, err := r.a.db.Batch(ctx, id)
	if err != nil {
		return BatchEnd{Batch: b, Err: err}
	}
	rows, err := r.a.db.AllBatchRows(ctx, id)
	if err != nil {
		return BatchEnd{Batch: b, Err: err}
	}
	run := &batchRun{a: r.a, ctx: ctx, save: context.WithoutCancel(ctx), b: b, agent: agent, rows: rows, at: make(map[int]int, len(rows)), results: b.Results, every: time.Second}
	for i, row := range rows {
		run.at[row.Row] = i
	}
	_, run.spent = tally(rows)
	lookups, err := run.prepare()
	if err == nil {
		run.work(lookups)
	}
	run.fail(err)
	return run.end()
}

// batchRun is one run of a batch: its rows as last written, and what its
// workers share. A failed write of a row's state stops the run.
type batchRun struct {
	a     *App
	ctx   context.Context // ends with Pause or closing
	save  context.Context // for what is seen through once begun
	b     storage.Batch
	agent client.Agent

	mu      sync.Mutex
	rows    []storage.BatchRow
	at      map[int]int // a row's number → its index in rows
	spent   float64     // what the rows have cost
	capped  bool
	failure error
	results string        // where the results sheet went
	written time.Time     // when, last
	every   time.Duration // how often it is written
}

// fail keeps the first error that stops the run.
func (run *batchRun) fail(err error) {
	run.mu.Lock()
	defer run.mu.Unlock()
	if run.failure == nil {
		run.failure = err
	}
}

func (run *batchRun) err() error {
	run.mu.Lock()
	defer run.mu.Unlock()
	return run.failure
}

// move writes row, now in a new state, if it is still in state from; false
// when it was not (its batch was cancelled, or the history failed).
func (run *batchRun) move(from storage.RowState, row storage.BatchRow) bool {
	ok, err := run.a.db.MoveRow(run.save, from, row)
	return run.kept(row, ok, err)
}

// take marks the next waiting row sending; false when none waits or the run stops.
func (run *batchRun) take() (storage.BatchRow, bool) {
	run.mu.Lock()
	run.capped = run.capped || run.b.CreditCap > 0 && run.spent >= run.b.CreditCap
	stop := run.capped || run.failure != nil || run.ctx.Err() != nil
	run.mu.Unlock()
	if stop {
		return storage.BatchRow{}, false
	}
	row, ok, err := run.a.db.TakeWaitingRow(run.save, run.b.ID)
	return row, run.kept(row, ok, err)
}

// kept keeps in memory a row written to the history; a failed write stops the run.
func (run *batchRun) kept(row storage.BatchRow, ok bool, err error) bool {
	run.mu.Lock()
	defer run.mu.Unlock()
	if err != nil && run.failure == nil {
		run.failure = err
	}
	if ok = ok && err == nil; ok {
		i := run.at[row.Row]
		run.spent += credit(row.Credits) - credit(run.rows[i].Credits)
		run.rows[i] = row
	}
	return ok
}

// prepare settles what a previous run left: a row that may have reached the
// service fails (never sent again by itself), one still sending its files
// waits again, files of ended rows leave the service. It returns the rows to look up.
func (run *batchRun) prepare() ([]storage.BatchRow, error) {
	cancelled := run.b.State == storage.BatchCancelled
	var lookups []storage.BatchRow
	own := 0
	for _, row := range run.rows {
		from := row.State
		switch from {
		case storage.RowWaiting:
			continue
		case storage.RowRunning:
			lookups = append(lookups, row)
			own += len(row.Uploads)
			continue
		case storage.RowSending:
			row.State = storage.RowWaiting
			if cancelled {
				row.State, row.Error = storage.RowSkipped, cancelledRow()
			}
		case storage.RowStarting:
			row.State, row.Error = storage.RowFailed, unknownFate()
		}
		if from != row.State || len(row.Uploads) > 0 {
			row.Uploads = run.removeUploads(row.Uploads)
			if !run.move(from, row) && run.err() != nil {
				return nil, run.err()
			}
		}
		if row.State == storage.RowDone && len(row.Files) == 0 && madeFile(run.agent, row.Result) {
			lookups = append(lookups, row) // its picture or video is still to be saved
		}
	}
	if counts, _ := tally(run.rows); counts[storage.RowWaiting] > 0 && !cancelled {
		if err := run.a.batchRoom(run.ctx, run.agent, planOf(run.b), own); err != nil {
			return nil, err
		}
	}
	if cancelled {
		return lookups, nil // only the rows on their way are looked up
	}
	return lookups, run.a.db.SetBatchState(run.save, run.b.ID, storage.BatchRunning)
}

// work looks up lookups and sends the waiting rows, Parallel at once. The
// credit cap is checked before each row: rows on their way may pass it by a few.
func (run *batchRun) work(lookups []storage.BatchRow) {
	var wg sync.WaitGroup
	// Lookups cost nothing: a few at a time, so a slow one does not hold the batch up.
	few := make(chan struct{}, 4)
	for _, row := range lookups {
		wg.Go(func() {
			few <- struct{}{}
			defer func() { <-few }()
			switch {
			case run.ctx.Err() != nil:
			case row.State == storage.RowDone:
				if row.Files = run.saveOutput(row); row.Files != nil {
					run.move(storage.RowDone, row)
				}
			default:
				run.finish(row, &client.Execution{ID: client.ID(row.ExecutionID), Status: client.StatusRunning})
				run.a.Batches().bump()
			}
		})
	}
	if run.b.State != storage.BatchCancelled {
		for range max(1, run.b.Parallel) {
			wg.Go(func() {
				for row, ok := run.take(); ok; row, ok = run.take() {
					run.send(row)
					run.a.Batches().bump()
					run.writeResults()
				}
			})
		}
	}
	wg.Wait()
}

// send takes row, just marked sending, through its files and its run, and waits for it.
func (run *batchRun) send(row storage.BatchRow) {
	req := planOf(run.b).Request(run.agent, row.Cells)
	if req.Problems != nil {
		row.State, row.Error = storage.RowSkipped, rowProblems(run.agent, req.Problems)
		run.move(storage.RowSending, row)
		return
	}
	params := client.ExecuteParams{}
	if run.agent.Type == client.AgentChat {
		params.Messages = []client.Message{{Role: client.RoleUser, Content: req.Message}}
	}
	// Pause or closing before the files start leaves the row waiting again.
	if len(req.Files) > 0 && run.ctx.Err() != nil {
		row.State = storage.RowWaiting
		run.move(storage.RowSending, row)
		return
	}
	for _, name := range slices.Sorted(maps.Keys(req.Files)) {
		path := req.Files[name]
		// Once begun, uploads are seen through: each one kept is known, none sent twice.
		up, cancel := context.WithTimeout(run.save, 30*time.Minute)
		f, err := run.a.Client().UploadFile(up, client.UploadParams{Path: path, Filename: filepath.Base(path)})
		cancel()
		if err != nil {
			row.State, row.Error = storage.RowFailed, lang.L("{{.File}} could not be sent, so the row did not run: {{.Why}}", map[string]any{"File": filepath.Base(path), "Why": uploadProblem(err, false)})
			run.leave(storage.RowSending, row)
			return
		}
		run.a.Ledger().Record(run.save, storage.CreditsFile, string(run.agent.ID), run.agent.Title, string(f.ID), f.Credits)
		row.Uploads = append(row.Uploads, string(f.ID))
		if !run.move(storage.RowSending, row) {
			run.removeUploads(row.Uploads) // not kept: not left on the service either
			return
		}
		if name == "" {
			params.FileIDs = append(params.FileIDs, f.ID)
		} else {
			req.Answers[name] = string(f.ID)
		}
	}
	params.Answers = ExecuteAnswers(run.agent, req.Answers)
	// From here the service may run it: a crash now leaves its fate
	// unknown, and it is not sent again by itself. The move is refused
	// when the batch was cancelled meanwhile: then it is not sent.
	row.State = storage.RowStarting
	if !run.move(storage.RowSending, row) {
		if run.err() == nil {
			row.State, row.Error = storage.RowSkipped, cancelledRow()
			run.leave(storage.RowSending, row)
		}
		return
	}
	// Once on its way a request is seen through, Pause or quitting
	// included, so that its execution id is kept (the service may charge
	// it): only the wait for its result follows ctx.
	start, cancel := context.WithTimeout(run.save, 2*time.Minute)
	e, err := run.a.Client().Start(start, run.agent.ID, params)
	cancel()
	if err != nil {
		// A refusal says the service did not run it; anything else (the
		// connection broke) leaves it unknown: either way the row is not
		// sent again by itself.
		row.State, row.Error = storage.RowFailed, Describe(err)
		if !errors.As(err, new(*client.APIError)) {
			row.Error = unknownFate()
		}
		run.leave(storage.RowStarting, row)
		return
	}
	row.State, row.ExecutionID = storage.RowRunning, string(e.ID)
	if run.move(storage.RowStarting, row) {
		run.finish(row, e)
	}
}

// finish waits for row's execution e and keeps what became of it; when ctx
// ends first the row stays running, to be looked up.
func (run *batchRun) finish(row storage.BatchRow, e *client.Execution) {
	var err error
	if !e.Terminal() {
		var w *client.Execution
		if w, err = run.a.Client().Wait(run.ctx, run.agent.ID, e.ID); w != nil {
			e = w
		}
	} else if !e.Succeeded() {
		err = &client.ExecutionError{Execution: *e}
	}
	if e.Terminal() {
		run.a.Ledger().Record(run.save, storage.CreditsExecution, string(run.agent.ID), run.agent.Title, string(e.ID), e.Credits)
	}
	if e.Credits.Valid {
		row.Credits = &e.Credits.Value
	}
	switch {
	case err == nil && e.Succeeded():
		row.State, row.Result = storage.RowDone, e.Output
		row.Files = run.saveOutput(row)
	case !e.Terminal() && client.IsNotFound(err):
		// The service has no such run (any more): nothing to wait for.
		row.State, row.Error = storage.RowFailed, lang.L("The service no longer has this run, so its result cannot be fetched. Use Retry failed rows to run the row again.")
	case !e.Terminal():
		// Paused, closed or still going: looked up next time. A lookup that
		// failed otherwise pauses the batch with it.
		if err != nil && run.ctx.Err() == nil && !errors.Is(err, client.ErrStillRunning) {
			run.fail(err)
		}
		return
	default:
		row.State, row.Result, row.Error = storage.RowFailed, e.Output, Describe(err)
	}
	run.leave(storage.RowRunning, row)
}

// leave moves row on from state from, its files removed from the service first.
func (run *batchRun) leave(from storage.RowState, row storage.BatchRow) bool {
	row.Uploads = run.removeUploads(row.Uploads)
	return run.move(from, row)
}

// removeUploads removes files from the service, returning those it could not.
func (run *batchRun) removeUploads(ids []string) []string {
	var left []string
	for _, id := range ids {
		del, cancel := context.WithTimeout(run.save, 30*time.Second)
		err := run.a.Client().DeleteFile(del, client.ID(id))
		cancel()
		if err != nil && !client.IsNotFound(err) {
			left = append(left, id)
		}
	}
	return left
}

// saveOutput saves the picture or video row's run made in the batch's files
// folder; nil when there is none or it cannot be fetched now (the next run tries again).
func (run *batchRun) saveOutput(row storage.BatchRow) []string {
	if !madeFile(run.agent, row.Result) {
		return nil
	}
	get, cancel := context.WithTimeout(run.ctx, 5*time.Minute)
	defer cancel()
	out, err := run.a.Runs().FetchOutputFile(get, run.agent.Type, row.Result, nil)
	if err != nil {
		return nil
	}
	dir := BatchFilesFolder(run.b)
	if err := os.MkdirAll(dir, 0o700); err != nil { // the user's pictures and videos: theirs only
		return nil
	}
	label := ""
	for _, c := range row.Cells {
		if c = strings.TrimSpace(c); c != "" {
			label = c
			break
		}
	}
	// A cell's slashes ("scans/01.pdf", "Poster 16/9") are no folders:
	// each row keeps a name of its own.
	label = strings.NewReplacer("/", "-", "\\", "-").Replace(label)
	dst := filepath.Join(dir, safe.FileName(safe.Text(fmt.Sprintf("%d %s", row.Row, label), 60), out.Ext, strconv.Itoa(row.Row)+out.Ext))
	if err := copyFile(out.Path, dst); err != nil {
		return nil
	}
	return []string{dst}
}

// writeResults writes the results sheet at most once a second, and never
// more than a tenth of the time.
func (run *batchRun) writeResults() {
	run.mu.Lock()
	defer run.mu.Unlock()
	if time.Since(run.written) < run.every {
		return
	}
	start := time.Now()
	b := run.b // the workers read run.b: it stays as it is
	b.Results = run.results
	b, err := run.a.keepResults(run.save, b, run.rows)
	if err != nil && run.failure == nil {
		run.failure = err
	}
	run.results = b.Results
	run.written = time.Now()
	run.every = max(time.Second, 10*run.written.Sub(start))
}

// end writes the results and the batch's state: paused when stopped or a row
// is left, running when Agent Desk is closing (offered at the next start),
// else done; a cancelled batch stays so.
func (run *batchRun) end() BatchEnd {
	if b, rows, err := run.a.batchResults(run.save, run.b.ID); err != nil {
		run.fail(err)
	} else {
		run.b, run.rows = b, rows
	}
	counts, spent := tally(run.rows)
	end := BatchEnd{Batch: run.b, Counts: counts, Spent: spent, Err: run.err()}
	state := storage.BatchDone
	switch {
	case end.Err != nil:
		state = storage.BatchPaused
	case run.ctx.Err() != nil || run.capped || counts[storage.RowWaiting]+onTheWay(counts) > 0:
		state = storage.BatchPaused
		if run.a.life.Err() != nil {
			state = storage.BatchRunning
		}
	}
	if err := run.a.db.SetBatchState(run.save, run.b.ID, state); err != nil && end.Err == nil {
		end.Err = err
	}
	if end.Batch.State != storage.BatchCancelled {
		end.Batch.State = state
	}
	return end
}

// tally counts rows by state, and adds up what they cost.
func tally(rows []storage.BatchRow) (map[storage.RowState]int, float64) {
	counts := map[storage.RowState]int{}
	spent := 0.0
	for _, r := range rows {
		counts[r.State]++
		spent += credit(r.Credits)
	}
	return counts, spent
}

// onTheWay counts the rows sent and not yet back.
func onTheWay(counts map[storage.RowState]int) int {
	return counts[storage.RowSending] + counts[storage.RowStarting] + counts[storage.RowRunning]
}

func credit(c *float64) float64 {
	if c == nil {
		return 0
	}
	return *c
}

// madeFile reports whether output is the address of a picture or video agent's file.
func madeFile(agent client.Agent, output string) bool {
	return (agent.Type == client.AgentImage || agent.Type == client.AgentVideo) && strings.HasPrefix(strings.TrimSpace(output), "http")
}

// unknownFate is why a row the service may or may not have got is not sent again.
func unknownFate() string {
	return lang.L("Agent Desk stopped while this row was being sent, so it may or may not have run. It was not sent again: use Retry failed rows to send it.")
}
