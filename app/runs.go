package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/storage"
)

// Run statuses kept in history beyond the service's own.
const (
	RunRunning   = "running"
	RunFailed    = "failed"
	RunCancelled = "cancelled"
	// RunStillRunning is a run Agent Desk stopped checking on (after ten
	// minutes of polling) while the service was still working on it; Check
	// again polls it, never runs it again.
	RunStillRunning = "still running"
)

// CanCheckAgain reports whether a past run may still have a result on the
// service to fetch: it was still going when last seen and has the id to
// poll.
func CanCheckAgain(r storage.Run) bool {
	return (r.Status == RunStillRunning || r.Status == RunRunning) && r.ResponseID != ""
}

// FormError says which answers must be fixed before a run can start.
type FormError struct {
	Fields map[string]string
}

func (e *FormError) Error() string {
	return "Some answers need your attention before the agent can run."
}

// Runner runs image, text and video agents. A run belongs to the runner,
// not to the screen that started it: the user may leave, and the result
// still lands in history.
type Runner struct {
	app *App

	mu        sync.Mutex
	active    map[client.ID]*ActiveRun
	listeners []func(*ActiveRun)
}

// NewRunner makes the runner a screen keeps for the app's lifetime.
func (a *App) NewRunner() *Runner {
	return &Runner{app: a, active: map[client.ID]*ActiveRun{}}
}

// OnFinished calls fn (on the run's goroutine) whenever a run ends, before
// its Done channel closes.
func (r *Runner) OnFinished(fn func(*ActiveRun)) {
	r.mu.Lock()
	r.listeners = append(r.listeners, fn)
	r.mu.Unlock()
}

// Active is the run of an agent still going, or nil.
func (r *Runner) Active(agentID client.ID) *ActiveRun {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.active[agentID]
}

// ActiveRun is one run on its way.
type ActiveRun struct {
	Agent   client.Agent
	Started time.Time

	cancel context.CancelFunc
	done   chan struct{}

	mu      sync.Mutex
	run     storage.Run
	err     error
	saveErr error
	took    time.Duration
	wait    serviceWait // a 429's wait, for the countdown
}

// Done is closed when the run has ended and its result is saved.
func (ar *ActiveRun) Done() <-chan struct{} { return ar.done }

// Cancel stops waiting for the run.
func (ar *ActiveRun) Cancel() { ar.cancel() }

// Result is the run as kept in history and the error that ended it (nil
// when it completed). Valid once Done is closed.
func (ar *ActiveRun) Result() (storage.Run, error) {
	ar.mu.Lock()
	defer ar.mu.Unlock()
	return ar.run, ar.err
}

// SaveErr is set when the run could not be written to history; the
// result is still shown.
func (ar *ActiveRun) SaveErr() error {
	ar.mu.Lock()
	defer ar.mu.Unlock()
	return ar.saveErr
}

// Took is how long the run lasted.
func (ar *ActiveRun) Took() time.Duration {
	ar.mu.Lock()
	defer ar.mu.Unlock()
	return ar.took
}

// Start checks the answers, remembers them for next time, and runs the
// agent in the background (waiting on the service, then polling past its
// 100-second cap). A *FormError comes back when answers must be fixed
// first; the run is then not started.
func (r *Runner) Start(agent client.Agent, answers map[string]string, fileIDs []client.ID) (*ActiveRun, error) {
	if agent.Type == client.AgentChat {
		return nil, errors.New("chat agents are run from a chat")
	}
	if errs := CheckAnswers(agent, answers); errs != nil {
		return nil, &FormError{Fields: errs}
	}
	r.mu.Lock()
	if old := r.active[agent.ID]; old != nil {
		r.mu.Unlock()
		return nil, errors.New("this agent is already running; wait for it or cancel it")
	}
	ctx, cancel := context.WithCancel(context.Background())
	ar := &ActiveRun{Agent: agent, Started: time.Now(), cancel: cancel, done: make(chan struct{})}
	r.active[agent.ID] = ar
	r.mu.Unlock()

	a := r.app
	_ = a.RememberAnswers(ctx, agent.ID, answers)
	files := make([]string, len(fileIDs))
	for i, id := range fileIDs {
		files[i] = string(id)
	}
	inputs := map[string]string{}
	for k, v := range answers {
		if strings.TrimSpace(v) != "" {
			inputs[k] = v
		}
	}
	rec := storage.Run{
		AccountID: a.AccountID(), AgentID: string(agent.ID), AgentTitle: agent.Title, AgentType: agent.Type,
		Inputs: inputs, FileIDs: files, Status: RunRunning,
	}
	saved, err := a.db.AddRun(ctx, rec)
	if err == nil {
		rec = saved
	} else {
		ar.saveErr = err
	}
	ar.run = rec

	params := client.ExecuteParams{Answers: ExecuteAnswers(agent, answers), FileIDs: fileIDs}
	go r.finish(ctx, ar, func(ctx context.Context, c *client.Client) (*client.Execution, error) {
		return c.Run(ctx, agent.ID, params, client.WithRateLimitNotice(ar.rateLimited))
	})
	return ar, nil
}

// CheckAgain looks on the service for the result of a past run that was
// still going (see CanCheckAgain): it polls the execution, as long as a
// run is waited for, and never sends it again.
func (r *Runner) CheckAgain(agent client.Agent, run storage.Run) (*ActiveRun, error) {
	if !CanCheckAgain(run) {
		return nil, errors.New("this run has no result left to look for")
	}
	r.mu.Lock()
	if old := r.active[agent.ID]; old != nil {
		r.mu.Unlock()
		return nil, errors.New("this agent is already running; wait for it or cancel it")
	}
	ctx, cancel := context.WithCancel(context.Background())
	ar := &ActiveRun{Agent: agent, Started: time.Now(), cancel: cancel, done: make(chan struct{}), run: run}
	r.active[agent.ID] = ar
	r.mu.Unlock()
	go r.finish(ctx, ar, func(ctx context.Context, c *client.Client) (*client.Execution, error) {
		e, err := c.Wait(ctx, agent.ID, client.ID(run.ResponseID), client.WithRateLimitNotice(ar.rateLimited))
		if e == nil && err != nil {
			// Nothing new was learnt: the run stays one to check again.
			e = &client.Execution{ID: client.ID(run.ResponseID), Status: RunStillRunning, Output: run.Output}
			if !errors.Is(err, client.ErrStillRunning) && !errors.Is(err, context.Canceled) {
				err = &lookError{err}
			}
		}
		return e, err
	})
	return ar, nil
}

// lookError is a failure to look for a past run's result; the run itself
// may still finish on the service.
type lookError struct{ err error }

func (e *lookError) Error() string { return e.err.Error() }
func (e *lookError) Unwrap() error { return e.err }

// rateLimited records that the service asked to wait, for the screen's
// countdown.
func (ar *ActiveRun) rateLimited(wait time.Duration) { ar.wait.set(wait) }

// WaitingUntil is when the service said it would take requests again
// (after a 429), or the zero time when it asked for no wait. A screen
// shows the time left; Cancel stops the run.
func (ar *ActiveRun) WaitingUntil() time.Time { return ar.wait.Until() }

func (r *Runner) finish(ctx context.Context, ar *ActiveRun, call func(context.Context, *client.Client) (*client.Execution, error)) {
	a := r.app
	exec, err := call(ctx, a.Client())
	a.RememberDetected(context.Background())

	ar.mu.Lock()
	run := ar.run
	if exec != nil {
		run.ResponseID = string(exec.ID)
		run.Output = exec.Output
		run.Status = exec.Status
		if exec.Succeeded() {
			// One word in history for success, whichever the service says
			// (completed, or succeeded when polled).
			run.Status = client.StatusCompleted
		}
		if exec.Credits.Valid {
			v := exec.Credits.Value
			run.Credits = &v
		}
	}
	var look *lookError
	switch {
	case errors.As(err, &look):
		run.Status, run.Error = RunStillRunning, Describe(look.err)+" The agent may have finished on the service: use Check again later."
	case errors.Is(err, client.ErrStillRunning), errors.Is(err, context.Canceled) && exec != nil && !exec.Terminal():
		// The service has the run; stopping to wait does not stop it.
		run.Status, run.Error = RunStillRunning, Describe(client.ErrStillRunning)
		if errors.Is(err, context.Canceled) {
			run.Error = "You stopped waiting. The agent may still finish on the service: use Check again later."
		}
	case errors.Is(err, context.Canceled):
		run.Status, run.Error = RunCancelled, "You cancelled this run."
	case err != nil:
		run.Status, run.Error = RunFailed, Describe(err)
	default:
		run.Error = ""
	}
	ar.run, ar.err, ar.took = run, err, time.Since(ar.Started)
	ar.mu.Unlock()

	// Saving must not be cut short by the cancelled run context.
	save := context.Background()
	if exec != nil {
		a.RecordCredits(save, storage.CreditsExecution, string(ar.Agent.ID), ar.Agent.Title, string(exec.ID), exec.Credits)
	}
	if run.ID != 0 {
		if err := a.db.UpdateRun(save, run); err != nil {
			ar.mu.Lock()
			ar.saveErr = err
			ar.mu.Unlock()
		}
	}

	r.mu.Lock()
	delete(r.active, ar.Agent.ID)
	ls := append([]func(*ActiveRun){}, r.listeners...)
	r.mu.Unlock()
	for _, fn := range ls {
		fn(ar)
	}
	ar.cancel()
	close(ar.done)
}

// Runs are an agent's past runs in this account, newest first.
func (a *App) Runs(ctx context.Context, agentID client.ID) ([]storage.Run, error) {
	return a.db.Runs(ctx, a.AccountID(), string(agentID), 100)
}

// IsMediaOutput reports whether a run's output is the address of a file
// (an image or a video) rather than text.
func IsMediaOutput(agentType, output string) bool {
	if agentType != client.AgentImage && agentType != client.AgentVideo {
		return false
	}
	o := strings.TrimSpace(output)
	return strings.HasPrefix(o, "http://") || strings.HasPrefix(o, "https://")
}

// FetchOutput returns a local copy of an image or video output,
// downloading it once into the preview cache. The client sends the API
// key only to the service's own host.
func (a *App) FetchOutput(ctx context.Context, url string) (string, error) {
	url = strings.TrimSpace(url)
	key := cacheKey(url)
	if a.cache != nil {
		if p, ok := a.cache.Get(key); ok {
			return p, nil
		}
	}
	tmp, err := os.CreateTemp("", "agentdesk-output-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	if _, err := a.Client().Download(ctx, url, tmp); err != nil {
		return "", err
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	if a.cache != nil {
		if p, err := a.cache.Put(ctx, key, tmp); err == nil {
			return p, nil
		}
		if _, err := tmp.Seek(0, io.SeekStart); err != nil {
			return "", err
		}
	}
	// Without a cache, keep a copy in the temporary folder for this session.
	keep := filepath.Join(os.TempDir(), "agentdesk-"+key)
	f, err := os.Create(keep)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if _, err := io.Copy(f, tmp); err != nil {
		return "", err
	}
	return keep, nil
}

// SaveOutput writes an image or video output to w (the user's "Save as…").
func (a *App) SaveOutput(ctx context.Context, url string, w io.Writer) error {
	p, err := a.FetchOutput(ctx, url)
	if err != nil {
		return err
	}
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := io.Copy(w, f); err != nil {
		return fmt.Errorf("the file could not be written: %w", err)
	}
	return nil
}

// OutputFileName suggests a name for saving an output: the last part of
// its address, or a name made from the agent type.
func OutputFileName(agentType, url string) string {
	u := strings.TrimSpace(url)
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	base := u[strings.LastIndex(u, "/")+1:]
	if strings.Contains(base, ".") {
		return base
	}
	switch agentType {
	case client.AgentVideo:
		return "video.mp4"
	case client.AgentImage:
		return "image.png"
	}
	return "output.txt"
}

func cacheKey(url string) string {
	sum := sha256.Sum256([]byte(url))
	ext := filepath.Ext(strings.SplitN(url, "?", 2)[0])
	if len(ext) > 6 || strings.ContainsAny(ext, "/:") {
		ext = ""
	}
	return hex.EncodeToString(sum[:12]) + ext
}
