package app

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/storage"
)

// BatchRunner runs the account's batches in the background, as the app's
// own work (closing Agent Desk pauses them: their rows are looked up when
// they go on), and tells the screens of their progress through News,
// which changes only while a batch runs.
type BatchRunner struct {
	a       *App
	mu      sync.Mutex
	running map[int64]context.CancelFunc
	news    *State[BatchNews]
	offered atomic.Bool // see FirstOffer
}

// BatchNews is what changed last: Rows counts the rows finished (and the
// batches started, paused or ended) since start; Ended is the last batch
// that ended, Ends how many have.
type BatchNews struct {
	Rows  uint64
	Ended BatchEnd
	Ends  uint64
}

// BatchEnd is a batch that stopped running: why (Err, nil when it ran out
// of rows or was paused) and its state then.
type BatchEnd struct {
	Batch  storage.Batch
	Counts map[string]int
	Spent  float64
	Err    error
}

// Batches is the app's batch runner.
func (a *App) Batches() *BatchRunner {
	a.batchOnce.Do(func() {
		a.batches.Store(&BatchRunner{a: a, running: map[int64]context.CancelFunc{}, news: NewState(BatchNews{})})
	})
	return a.batches.Load()
}

// FirstOffer reports true the first time it is asked: the batches left
// unfinished when Agent Desk closed are offered to go on with once a start.
func (r *BatchRunner) FirstOffer() bool { return r.offered.CompareAndSwap(false, true) }

// List is the account's latest 200 batches, newest first.
func (r *BatchRunner) List(ctx context.Context) ([]Batch, error) {
	return r.a.db.Batches(ctx, r.a.AccountID(), 200)
}

// Counts is how many of a batch's rows are in each state, and the credits
// its rows have spent.
func (r *BatchRunner) Counts(ctx context.Context, id int64) (map[string]int, float64, error) {
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
func (r *BatchRunner) News() Observable[BatchNews] { return r.news }

// Running reports whether batch id runs now.
func (r *BatchRunner) Running(id int64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.running[id]
	return ok
}

// RunningNow are the batches that run at this moment. A screen reads it
// before it reads the batches from the history: a batch that ends in
// between then shows as running until the next read, never as stopped
// with its old state.
func (r *BatchRunner) RunningNow() map[int64]bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[int64]bool, len(r.running))
	for id := range r.running {
		out[id] = true
	}
	return out
}

// Start runs batch id of agent in the background; false when it runs
// already or the app is closing.
func (r *BatchRunner) Start(id int64, agent client.Agent) bool {
	r.mu.Lock()
	if _, ok := r.running[id]; ok {
		r.mu.Unlock()
		return false
	}
	ctx, cancel := context.WithCancel(r.a.Life())
	r.running[id] = cancel
	r.mu.Unlock()
	ok := r.a.Go(func() {
		err := r.a.Batches().Run(ctx, id, agent)
		cancel()
		r.mu.Lock()
		delete(r.running, id)
		r.mu.Unlock()
		end := BatchEnd{Err: err}
		save := context.WithoutCancel(ctx)
		_ = r.a.db.TouchBatch(save, id)
		end.Batch, _ = r.a.db.Batch(save, id)
		end.Counts, end.Spent, _ = r.a.db.BatchCounts(save, id)
		r.news.Update(func(n BatchNews) BatchNews {
			n.Rows++
			n.Ended = end
			n.Ends++
			return n
		})
	})
	if !ok {
		cancel()
		r.mu.Lock()
		delete(r.running, id)
		r.mu.Unlock()
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

// Pause stops batch id after the rows on their way (they stay on the
// service and are looked up when it goes on).
func (r *BatchRunner) Pause(id int64) {
	r.mu.Lock()
	cancel := r.running[id]
	r.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// Cancel ends batch id for good: the rows not sent yet are skipped, the
// rows on their way are seen to the end (the service runs them anyway,
// and their results are kept). A paused batch whose rows were on their
// way runs again to look them up.
func (r *BatchRunner) Cancel(ctx context.Context, id int64) error {
	if err := r.a.db.CancelBatch(ctx, id, cancelledRow()); err != nil {
		return err
	}
	defer r.bump()
	if r.Running(id) {
		return nil // the runner writes the results as it ends
	}
	counts, _, err := r.a.db.BatchCounts(ctx, id)
	if err == nil && counts[storage.RowRunning]+counts[storage.RowStarting]+counts[storage.RowSending] > 0 {
		if err := r.Resume(ctx, id); err != nil {
			return fmt.Errorf("%w: %w", ErrLookupLater, err)
		}
		return nil
	}
	// The rows not sent now read so in the results sheet too.
	_, _ = r.a.Batches().Results(ctx, id)
	return nil
}

// ErrLookupLater says a batch was cancelled but its rows on their way
// could not be looked up now (the service out of reach): they are when
// Agent Desk next offers to go on with it.
var ErrLookupLater = errors.New("the rows on their way will be looked up later")

// cancelledRow is why a row of a cancelled batch did not run.
func cancelledRow() string { return lang.L("Not run: the batch was cancelled.") }

// bump tells the screens a row (or a batch) changed.
func (r *BatchRunner) bump() {
	r.news.Update(func(n BatchNews) BatchNews { n.Rows++; return n })
}

// batchRowDone is called by RunBatch after each row.
func (a *App) batchRowDone() {
	if r := a.batches.Load(); r != nil {
		r.bump()
	}
}

// BatchRowState is a row's state in words (Done, Failed, Skipped, Running,
// Waiting), as the results sheet writes it.
func BatchRowState(state string) string { return rowStatus(state) }
