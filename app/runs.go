package app

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/safe"
	"github.com/agentdesk/agentdesk/storage"
)

// Run statuses kept in history beyond the service's own.
const (
	RunRunning   = "running"
	RunFailed    = "failed"
	RunCancelled = "cancelled"
	// RunStillRunning is a run Agent Desk stopped polling while the service still
	// worked on it; Check again polls it, never reruns it.
	RunStillRunning = "still running"
)

// CanCheckAgain reports whether a past run may still have a result to fetch.
func CanCheckAgain(r storage.Run) bool {
	return (r.Status == RunStillRunning || r.Status == RunRunning) && r.ResponseID != ""
}

// FormError says which answers must be fixed before a run can start.
type FormError struct {
	Fields map[string]string
}

func (e *FormError) Error() string {
	return lang.L("Some answers need your attention before the agent can run.")
}

// Runner runs image, text and video agents; a result lands in history after the screen is left.
type Runner struct {
	app *App

	mu     sync.Mutex
	active map[client.ID]*ActiveRun
}

// Runner is the app's one runner: runs picked up at start are its too.
func (svc *Runs) Runner() *Runner { return svc.a.runner }

func newRunner(a *App) *Runner { return &Runner{app: a, active: map[client.ID]*ActiveRun{}} }

// resume follows again, by polling, the runs Agent Desk closed on while the
// service worked on them; none is sent again. A run closed on before the
// service named it cannot be looked up, and says so.
func (r *Runner) resume(ctx context.Context) {
	a := r.app
	runs, err := a.db.RunsWithStatus(ctx, a.AccountID(), RunRunning)
	if err != nil {
		return // the history says what it can when it is opened
	}
	for _, run := range runs {
		agent := client.Agent{ID: client.ID(run.AgentID), Title: run.AgentTitle, Type: run.AgentType}
		if r.Active(agent.ID) != nil {
			continue // on its way in this session, or an older run of a resumed agent
		}
		if run.ResponseID != "" {
			_, _ = r.CheckAgain(agent, run)
			continue
		}
		run.Status, run.Error = RunFailed, lang.L("Agent Desk closed before the service said it had started this run, so its result cannot be fetched. The agent may have finished on the service.")
		_ = a.db.UpdateRun(ctx, run)
	}
}

// Active is the run of an agent still going, or nil.
func (r *Runner) Active(agentID client.ID) *ActiveRun {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.active[agentID]
}

// RunProgress is a run as its screen shows it.
type RunProgress struct {
	Started time.Time
	// WaitingUntil is when the service will take the run again after a 429.
	WaitingUntil time.Time
	// Done says the run has ended and its result is saved.
	Done bool
	// Run is the run as kept in history.
	Run Run
	// Err is what ended the run (nil when it completed).
	Err error
	// SaveErr says the run could not be written to history.
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
	state  *live.State[RunProgress]
}

func (ar *ActiveRun) State() live.Observable[RunProgress] { return ar.state }

// Done is closed when the run has ended and its result is saved.
func (ar *ActiveRun) Done() <-chan struct{} { return ar.done }

// Cancel stops waiting for the run.
func (ar *ActiveRun) Cancel() { ar.cancel() }

// Result is the run as kept and the error that ended it; final once Done is closed.
func (ar *ActiveRun) Result() (Run, error) {
	p := ar.state.Get()
	return p.Run, p.Err
}

// Start runs the agent in the background; a *FormError means nothing was started.
func (r *Runner) Start(agent client.Agent, answers map[string]string, fileIDs []client.ID) (*ActiveRun, error) {
	if agent.Type == client.AgentChat {
		return nil, say(func() string { return lang.L("chat agents are run from a chat") })
	}
	if agent.Inactive() {
		return nil, ErrAgentInactive
	}
	if errs := CheckAnswers(agent, answers); errs != nil {
		return nil, &FormError{Fields: errs}
	}
	a := r.app
	ctx, ar, err := r.begin(agent, Run{})
	if err != nil {
		return nil, err
	}

	// Answers or a recent agent not kept cost only the next form's prefill
	// and the Recent list; the run goes on.
	_ = a.Agents().RememberAnswers(ctx, agent.ID, answers)
	_ = a.Agents().Used(ctx, agent)
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
		AccountID: a.AccountID(), AgentID: string(agent.ID), AgentTitle: safe.Text(agent.Title, 0), AgentType: agent.Type,
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
			return c.Run(ctx, agent.ID, params, client.WithRateLimitNotice(ar.rateLimited), client.WithAccepted(ar.accepted(a)))
		})
	})
	return ar, nil
}

// CheckAgain polls a past still-running run for its result; it never sends it again.
func (r *Runner) CheckAgain(agent client.Agent, run storage.Run) (*ActiveRun, error) {
	if !CanCheckAgain(run) {
		return nil, say(func() string { return lang.L("this run has no result left to look for") })
	}
	ctx, ar, err := r.begin(agent, run)
	if err != nil {
		return nil, err
	}
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

// begin makes agent's run active, refusing a second run of an agent that is running.
func (r *Runner) begin(agent client.Agent, run Run) (context.Context, *ActiveRun, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.active[agent.ID] != nil {
		return nil, nil, say(func() string { return lang.L("this agent is already running; wait for it or cancel it") })
	}
	ctx, cancel := context.WithCancel(r.app.life)
	now := time.Now()
	ar := &ActiveRun{Agent: agent, Started: now, cancel: cancel, done: make(chan struct{}),
		state: live.NewState(RunProgress{Started: now, Run: run})}
	r.active[agent.ID] = ar
	return ctx, ar, nil
}

// lookError is a failure to look for a past run's result; the run itself may still finish.
type lookError struct{ err error }

func (e *lookError) Error() string { return e.err.Error() }
func (e *lookError) Unwrap() error { return e.err }

// accepted keeps the id of a run the service goes on with after its wait,
// so that a run Agent Desk closes on is followed again at the next start.
func (ar *ActiveRun) accepted(a *App) func(e *client.Execution) {
	return func(e *client.Execution) {
		var saveErr error
		ar.state.Update(func(p RunProgress) RunProgress {
			p.Run.ResponseID = string(e.ID)
			if p.Run.ID != 0 {
				saveErr = a.db.UpdateRun(context.Background(), p.Run)
			}
			p.SaveErr = cmp.Or(saveErr, p.SaveErr)
			return p
		})
	}
}

// rateLimited publishes the service's wait for the screen's countdown.
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
	a.Accounts().RememberDetected(context.Background())

	before := ar.state.Get()
	run := before.Run
	if exec != nil {
		run.ResponseID = string(exec.ID)
		run.Output = exec.Result()
		run.Status = exec.Outcome()
		if c := creditsOf(exec.Credits); c != nil {
			run.Credits = c // a look that learnt nothing keeps what was known
		}
	}
	var look *lookError
	closing := a.life.Err() != nil && errors.Is(err, context.Canceled)
	switch {
	case errors.As(err, &look):
		run.Status, run.Error = RunStillRunning, lang.L("{{.Why}} The agent may have finished on the service: use Check again later.", map[string]any{"Why": Describe(look.err)})
	case closing && (exec == nil || !exec.Terminal()):
		// Closing, not cancelling: keep the run as last seen, to check again.
		run.Status, run.Error = before.Run.Status, before.Run.Error
	case errors.Is(err, client.ErrStillRunning), errors.Is(err, context.Canceled) && exec != nil && !exec.Terminal():
		// The service has the run; stopping to wait does not stop it.
		run.Status, run.Error = RunStillRunning, Describe(client.ErrStillRunning)
		if errors.Is(err, context.Canceled) {
			run.Error = lang.L("You stopped waiting. The agent may still finish on the service: use Check again later.")
		}
	case errors.Is(err, context.Canceled):
		run.Status, run.Error = RunCancelled, lang.L("You cancelled this run.")
	case err != nil:
		run.Status, run.Error = RunFailed, Describe(err)
	default:
		run.Error = ""
	}
	took := time.Since(ar.Started)

	// Saving must not be cut short by the cancelled run context.
	save := context.Background()
	if exec != nil {
		a.Ledger().Record(save, storage.CreditsExecution, string(ar.Agent.ID), ar.Agent.Title, string(exec.ID), exec.Credits)
	}
	saveErr := before.SaveErr
	if run.ID != 0 {
		if err := a.db.UpdateRun(save, run); err != nil {
			saveErr = err
		}
	}

	// Inactive before Done: whoever hears it may run the agent again at once.
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

// History is an agent's past runs, newest first, read on Reload.
func (svc *Runs) History(agentID client.ID) *live.List[Run] {
	return live.NewList(svc.a, func(ctx context.Context) ([]Run, error) { return svc.a.Runs().List(ctx, agentID) })
}

// List are an agent's past runs in this account, newest first.
func (svc *Runs) List(ctx context.Context, agentID client.ID) ([]storage.Run, error) {
	return svc.a.db.Runs(ctx, svc.a.AccountID(), string(agentID), 100)
}

// IsMediaOutput reports whether a run's output is a file address rather than text.
func IsMediaOutput(agentType, output string) bool {
	if agentType != client.AgentImage && agentType != client.AgentVideo {
		return false
	}
	o := strings.TrimSpace(output)
	return strings.HasPrefix(o, "http://") || strings.HasPrefix(o, "https://")
}

// Caps on a downloaded output: an address the service gave must not fill the disk.
const (
	// MaxImageOutputBytes caps a picture an agent made.
	MaxImageOutputBytes int64 = 50_000_000
	// MaxVideoOutputBytes caps a video.
	MaxVideoOutputBytes int64 = 500_000_000
)

const outputProgressGap = 50 * time.Millisecond

// Output is the local copy of an output, its kind read from its first bytes.
type Output struct {
	// Path is the local copy; its extension is Kind's, so a viewer reads it as what it is.
	Path string
	// Kind is what the file is; only safe.Openable kinds go to the system viewer.
	Kind safe.Kind
	// Ext is the extension Kind goes by ("" for safe.Other).
	Ext string
	// Size is the file's size in bytes.
	Size int64
	// NotShown, for a picture, says why it is not shown (a *PictureError).
	NotShown error
}

// FileName suggests a safe name for saving this output, with its real extension.
func (o Output) FileName(agentType, url string) string {
	return outputFileName(agentType, url, o.Ext)
}

// RunFileName is the name Save as… suggests for r's output named name: a
// name that is only the service's number ("48202.png") says nothing, so
// the agent and the day name it instead.
func RunFileName(r Run, name string) string {
	ext := path.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	// A number, or a hexadecimal id (with a digit: "cafe" is a word).
	if strings.TrimLeft(stem, "0123456789abcdef-") != "" || !strings.ContainsAny(stem, "0123456789") || strings.TrimSpace(r.AgentTitle) == "" {
		return name
	}
	return safe.FileName(r.AgentTitle+" "+r.CreatedAt.Local().Format("2006-01-02"), ext, name)
}

// ErrAgentInactive refuses to run a switched-off agent.
var ErrAgentInactive = errors.New("the agent is switched off")

// OutputTooLargeError says an output exceeded its cap; nothing of it was kept.
type OutputTooLargeError struct {
	// Limit is the cap that was reached, in bytes.
	Limit int64
	// What names the file in words ("picture", "video", "file").
	What string
}

func (e *OutputTooLargeError) Error() string {
	return fmt.Sprintf("output over the %d-byte download limit", e.Limit)
}

func outputLimit(agentType string, k safe.Kind) int64 {
	if agentType == client.AgentImage || k == safe.Image {
		return MaxImageOutputBytes
	}
	return MaxVideoOutputBytes
}

// outputWriter counts a download's bytes and keeps the first ones to tell its kind.
type outputWriter struct {
	w         io.Writer
	agentType string
	progress  func(received int64)

	head    []byte
	sniffed bool
	kind    safe.Kind
	ext     string
	n       int64
}

func (w *outputWriter) Write(p []byte) (int, error) {
	if !w.sniffed {
		take := min(len(p), safe.SniffLen-len(w.head))
		w.head = append(w.head, p[:take]...)
		if len(w.head) >= safe.SniffLen {
			w.sniff()
		}
	}
	if limit := outputLimit(w.agentType, w.kind); w.n+int64(len(p)) > limit {
		what := w.kind.String()
		if w.kind == safe.Other {
			what = cmp.Or(map[string]string{client.AgentImage: "picture", client.AgentVideo: "video"}[w.agentType], "file")
		}
		return 0, &OutputTooLargeError{Limit: limit, What: what}
	}
	n, err := w.w.Write(p)
	w.n += int64(n)
	if w.progress != nil {
		w.progress(w.n)
	}
	return n, err
}

func (w *outputWriter) sniff() {
	if w.sniffed {
		return
	}
	w.sniffed = true
	w.kind, w.ext = safe.Sniff(w.head)
	w.head = nil
}

// sessionDir is Agent Desk's cache folder when it exists, else the system's temp folder.
func (a *App) sessionDir() string {
	if dir := a.cfg.Paths.Cache; dir != "" {
		if info, err := os.Stat(dir); err == nil && info.IsDir() {
			return dir
		}
	}
	return ""
}

// outputDst is where a download goes before commit keeps it with extension
// ext (abort drops it): the cache, or a session-only copy when the cache
// could not be opened.
func (a *App) outputDst(key string) (w io.Writer, commit func(ext string) (string, error), abort func(), err error) {
	if a.cache != nil {
		p, err := a.cache.Create()
		if err != nil {
			return nil, nil, nil, err
		}
		return p, func(ext string) (string, error) { return p.Commit(key, ext) }, p.Abort, nil
	}
	f, err := os.CreateTemp(a.sessionDir(), ".agentdesk-*")
	if err != nil {
		return nil, nil, nil, err
	}
	abort = func() {
		f.Close()
		os.Remove(f.Name())
	}
	commit = func(ext string) (string, error) {
		// Shown under the same unguessable name, with its extension.
		final := filepath.Join(filepath.Dir(f.Name()), filepath.Base(f.Name())[1:]+ext)
		err := f.Close()
		if err == nil {
			err = os.Rename(f.Name(), final)
		}
		if err != nil {
			os.Remove(f.Name())
			return "", err
		}
		return final, nil
	}
	return f, commit, abort, nil
}

// inspectOutput tells what a file already on disk is, as a download would.
func inspectOutput(path string) (Output, error) {
	f, err := os.Open(path)
	if err != nil {
		return Output{}, err
	}
	defer f.Close()
	head := make([]byte, safe.SniffLen)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return Output{}, err
	}
	info, err := f.Stat()
	if err != nil {
		return Output{}, err
	}
	out := Output{Path: path, Size: info.Size()}
	out.Kind, out.Ext = safe.Sniff(head[:n])
	if out.Kind == safe.Image {
		out.NotShown = CheckPictureFile(path)
	}
	return out, nil
}

// CheckPictureFile refuses a picture not shown or beyond MaxPicturePixels.
func CheckPictureFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return &PictureError{Reason: PictureUnreadable}
	}
	defer f.Close()
	_, _, err = readPictureHeader(f)
	return err
}

// FetchOutputFile returns the local copy of an output, downloaded once into
// the cache and stopped past its cap.
func (svc *Runs) FetchOutputFile(ctx context.Context, agentType, url string, progress func(received int64)) (Output, error) {
	a := svc.a
	url = strings.TrimSpace(url)
	key := cacheKey(url)
	if a.cache != nil {
		if p, ok := a.cache.Get(key); ok {
			if out, err := inspectOutput(p); err == nil {
				return out, nil
			}
		}
	}
	dst, commit, abort, err := a.outputDst(key)
	if err != nil {
		return Output{}, err
	}
	w := &outputWriter{w: dst, agentType: agentType, progress: progress}
	if _, err := a.Client().Download(ctx, url, w); err != nil {
		abort()
		// The cap's own words, without the client's wrapping.
		if big, ok := errors.AsType[*OutputTooLargeError](err); ok {
			return Output{}, big
		}
		return Output{}, err
	}
	w.sniff()
	path, err := commit(w.ext)
	if err != nil {
		return Output{}, err
	}
	return inspectOutput(path)
}

// SaveOutput writes an image or video output to w (the user's "Save as…").
func (svc *Runs) SaveOutput(ctx context.Context, url string, w io.Writer) error {
	out, err := svc.FetchOutputFile(ctx, "", url, nil)
	if err != nil {
		return err
	}
	f, err := os.Open(out.Path)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := io.Copy(w, f); err != nil {
		return sayWrapped(err, func() string {
			return lang.L("the file could not be written: {{.Why}}", map[string]any{"Why": why(err)})
		})
	}
	return nil
}

// OutputState is the download of an output as its screen shows it.
type OutputState struct {
	// Loading says the file is on its way; the total size is unknown.
	Loading  bool
	Received int64
	// Loaded says the local copy is ready in Output.
	Loaded bool
	Output Output
	// Err is why the download failed (nil when it did not).
	Err error
	// Cancelled says the download was stopped before it ended.
	Cancelled bool
}

// OutputDownload fetches an output's local copy in the background; closing the app stops it.
type OutputDownload struct {
	a         *App
	agentType string
	url       string
	state     *live.State[OutputState]
	job       live.Newest
}

// OutputFile starts fetching an output's local copy in the background.
func (svc *Runs) OutputFile(agentType, url string) *OutputDownload {
	d := &OutputDownload{a: svc.a, agentType: agentType, url: url, state: live.NewState(OutputState{})}
	d.Retry()
	return d
}

func (d *OutputDownload) State() live.Observable[OutputState] { return d.state }

// Cancel stops the download under way; nothing half downloaded is kept.
func (d *OutputDownload) Cancel() { d.job.Interrupt() }

// Retry starts the download again, stopping one still under way.
func (d *OutputDownload) Retry() {
	ctx, cancel, gen := d.job.Start(d.a.life)
	d.state.Set(OutputState{Loading: true})
	started := d.a.Go(func() {
		defer cancel()
		var last time.Time
		out, err := d.a.Runs().FetchOutputFile(ctx, d.agentType, d.url, func(n int64) {
			if now := time.Now(); now.Sub(last) >= outputProgressGap {
				last = now
				d.publish(gen, func(s OutputState) OutputState { s.Received = n; return s })
			}
		})
		d.publish(gen, func(s OutputState) OutputState {
			s.Loading = false
			switch {
			case err == nil:
				s.Loaded, s.Output, s.Received = true, out, out.Size
			case ctx.Err() != nil:
				s.Cancelled = true
			default:
				s.Err = err
			}
			return s
		})
	})
	if !started { // Agent Desk is closing
		cancel()
		d.publish(gen, func(s OutputState) OutputState { s.Loading, s.Cancelled = false, true; return s })
	}
}

func (d *OutputDownload) publish(gen uint64, change func(OutputState) OutputState) {
	d.job.Publish(gen, func() { d.state.Update(change) })
}

// SaveOutputTo writes an output to w, made the user's only first, and closes
// it, in the background.
func (svc *Runs) SaveOutputTo(url string, w io.WriteCloser) live.Observable[Loaded[bool]] {
	l := NewLoader(svc.a, func(ctx context.Context) (bool, error) {
		err := OwnerOnly(w)
		if err == nil {
			err = svc.a.Runs().SaveOutput(ctx, url, w)
		}
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		return err == nil, err
	})
	l.Reload()
	return l
}

// OutputFileName suggests a name for an output not fetched yet.
func OutputFileName(agentType, url string) string {
	ext := map[string]string{client.AgentImage: ".png", client.AgentVideo: ".mp4"}[agentType]
	return outputFileName(agentType, url, cmp.Or(ext, ".txt"))
}

func outputFileName(agentType, url, ext string) string {
	// Names for a result whose address names none.
	fallback := map[string]string{client.AgentImage: lang.L("image"), client.AgentVideo: lang.L("video")}[agentType]
	fallback = cmp.Or(fallback, lang.L("output"))
	u := strings.TrimSpace(url)
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
		// The host is no name for a file.
		if j := strings.Index(u, "/"); j >= 0 {
			u = u[j:]
		} else {
			u = ""
		}
	}
	return safe.FileName(u[strings.LastIndex(u, "/")+1:], ext, fallback)
}

// cacheKey hashes the address, so no part of it names the file.
func cacheKey(url string) string {
	sum := sha256.Sum256([]byte(url))
	return "output-" + hex.EncodeToString(sum[:12])
}

// Runs are the account's agent runs and their outputs (App.Runs).
type Runs struct{ a *App }

func (a *App) Runs() *Runs { return &Runs{a} }

// OwnerOnly makes a file from a Save dialog (created world-readable) the
// user's only; a file system without modes is left as it is.
func OwnerOnly(f any) error {
	c, ok := f.(interface{ Chmod(os.FileMode) error })
	if !ok {
		return nil
	}
	err := c.Chmod(0o600)
	if errors.Is(err, os.ErrPermission) || errors.Is(err, errors.ErrUnsupported) {
		return nil
	}
	return err
}
