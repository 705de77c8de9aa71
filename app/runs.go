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

// Runner runs image, text and video agents. A run belongs to the runner and
// the app, not to the screen that started it: the user may leave, and the
// result still lands in history. Closing the app stops waiting for it.
type Runner struct {
	app *App

	mu     sync.Mutex
	active map[client.ID]*ActiveRun
}

// NewRunner makes the runner a screen keeps for the app's lifetime.
func (a *App) NewRunner() *Runner {
	return &Runner{app: a, active: map[client.ID]*ActiveRun{}}
}

// Active is the run of an agent still going, or nil.
func (r *Runner) Active(agentID client.ID) *ActiveRun {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.active[agentID]
}

// RunProgress is a run as its screen shows it, while it goes and once it
// has ended.
type RunProgress struct {
	Started time.Time
	// WaitingUntil is when the service said it would take the run again
	// (after a 429): the screen counts down to it. Zero, or past, when the
	// service asked for no wait.
	WaitingUntil time.Time
	// Done says the run has ended and its result is saved: Run, Err and
	// Took are then final.
	Done bool
	// Run is the run as kept in history.
	Run Run
	// Err is what ended the run (nil when it completed).
	Err error
	// SaveErr says the run could not be written to history; the result is
	// still shown.
	SaveErr error
	// Took is how long the run lasted.
	Took time.Duration
}

// ActiveRun is one run on its way.
type ActiveRun struct {
	Agent   client.Agent
	Started time.Time

	cancel context.CancelFunc
	done   chan struct{}
	state  *State[RunProgress]
}

func newActiveRun(agent client.Agent, cancel context.CancelFunc, run Run) *ActiveRun {
	now := time.Now()
	return &ActiveRun{Agent: agent, Started: now, cancel: cancel, done: make(chan struct{}),
		state: NewState(RunProgress{Started: now, Run: run})}
}

// State is the run's progress, and its changes.
func (ar *ActiveRun) State() Observable[RunProgress] { return ar.state }

// Done is closed when the run has ended and its result is saved (for
// callers that wait, not watch).
func (ar *ActiveRun) Done() <-chan struct{} { return ar.done }

// Cancel stops waiting for the run.
func (ar *ActiveRun) Cancel() { ar.cancel() }

// Result is the run as kept in history and the error that ended it (nil
// when it completed). Final once Done is closed.
func (ar *ActiveRun) Result() (Run, error) {
	p := ar.state.Get()
	return p.Run, p.Err
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
	a := r.app
	r.mu.Lock()
	if old := r.active[agent.ID]; old != nil {
		r.mu.Unlock()
		return nil, errors.New("this agent is already running; wait for it or cancel it")
	}
	ctx, cancel := context.WithCancel(a.life)
	ar := newActiveRun(agent, cancel, Run{})
	r.active[agent.ID] = ar
	r.mu.Unlock()

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
	}
	ar.state.Update(func(p RunProgress) RunProgress { p.Run, p.SaveErr = rec, err; return p })

	params := client.ExecuteParams{Answers: ExecuteAnswers(agent, answers), FileIDs: fileIDs}
	a.Go(func() {
		r.finish(ctx, ar, func(ctx context.Context, c *client.Client) (*client.Execution, error) {
			return c.Run(ctx, agent.ID, params, client.WithRateLimitNotice(ar.rateLimited))
		})
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
	ctx, cancel := context.WithCancel(r.app.life)
	ar := newActiveRun(agent, cancel, run)
	r.active[agent.ID] = ar
	r.mu.Unlock()
	r.app.Go(func() {
		r.finish(ctx, ar, func(ctx context.Context, c *client.Client) (*client.Execution, error) {
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
	})
	return ar, nil
}

// lookError is a failure to look for a past run's result; the run itself
// may still finish on the service.
type lookError struct{ err error }

func (e *lookError) Error() string { return e.err.Error() }
func (e *lookError) Unwrap() error { return e.err }

// rateLimited publishes that the service asked to wait, for the screen's
// countdown (0: no wait).
func (ar *ActiveRun) rateLimited(wait time.Duration) {
	var until time.Time
	if wait > 0 {
		until = time.Now().Add(wait)
	}
	ar.state.Update(func(p RunProgress) RunProgress { p.WaitingUntil = until; return p })
}

func (r *Runner) finish(ctx context.Context, ar *ActiveRun, call func(context.Context, *client.Client) (*client.Execution, error)) {
	a := r.app
	exec, err := call(ctx, a.Client())
	a.RememberDetected(context.Background())

	before := ar.state.Get()
	run := before.Run
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
	closing := a.life.Err() != nil && errors.Is(err, context.Canceled)
	switch {
	case errors.As(err, &look):
		run.Status, run.Error = RunStillRunning, Describe(look.err)+" The agent may have finished on the service: use Check again later."
	case closing && (exec == nil || !exec.Terminal()):
		// Agent Desk is closing, not the user cancelling: history keeps the
		// run as it was last seen (with its id when known), to check again.
		run.Status, run.Error = before.Run.Status, before.Run.Error
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
	took := time.Since(ar.Started)

	// Saving must not be cut short by the cancelled run context.
	save := context.Background()
	if exec != nil {
		a.RecordCredits(save, storage.CreditsExecution, string(ar.Agent.ID), ar.Agent.Title, string(exec.ID), exec.Credits)
	}
	saveErr := before.SaveErr
	if run.ID != 0 {
		if err := a.db.UpdateRun(save, run); err != nil {
			saveErr = err
		}
	}

	// No longer active before it is told to be done: whoever hears it may
	// run the agent again at once.
	r.mu.Lock()
	delete(r.active, ar.Agent.ID)
	r.mu.Unlock()
	ar.state.Update(func(p RunProgress) RunProgress {
		p.Done, p.Run, p.Err, p.SaveErr, p.Took, p.WaitingUntil = true, run, err, saveErr, took, time.Time{}
		return p
	})
	ar.cancel()
	close(ar.done)
}

// RunHistory is an agent's past runs in this account, newest first, read
// in the background on Reload.
func (a *App) RunHistory(agentID client.ID) *List[Run] {
	return NewList(a, func(ctx context.Context) ([]Run, error) { return a.Runs(ctx, agentID) })
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
	// Without a cache, keep a copy in the temporary folder for this
	// session, under a name no one can guess or prepare beforehand (only
	// its extension is kept), readable by the user only.
	f, err := os.CreateTemp("", "agentdesk-*"+filepath.Ext(key))
	if err != nil {
		return "", err
	}
	defer f.Close()
	if _, err := io.Copy(f, tmp); err != nil {
		return "", err
	}
	return f.Name(), nil
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

// OutputFile is the local copy of an image or video output (FetchOutput),
// read in the background from now on.
func (a *App) OutputFile(url string) *Loader[string] {
	l := NewLoader(a, func(ctx context.Context) (string, error) { return a.FetchOutput(ctx, url) })
	l.Reload()
	return l
}

// SaveOutputTo writes an image or video output to w and closes it, in the
// background from now on; its state says when it is done and how it went.
func (a *App) SaveOutputTo(url string, w io.WriteCloser) Observable[Loaded[bool]] {
	l := NewLoader(a, func(ctx context.Context) (bool, error) {
		err := a.SaveOutput(ctx, url, w)
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		return err == nil, err
	})
	l.Reload()
	return l
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
