package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/app/sheet"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/safe"
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
	// Folder is where the files the rows name are read from (a sheet's
	// own folder, or the folder chosen); nothing outside it is sent.
	Folder string
	// Attach is the column, counted from 1, whose file goes with each run
	// when no question of the agent takes files (0: none).
	Attach int
	// Seen, when not nil, remembers what the files the rows name were
	// found to be: a dialog that checks its preview again for every key
	// typed asks the disk (perhaps a network folder) once per file.
	Seen *FileChecks
}

// FileChecks remembers, per folder and cell, the file a cell named and
// why it cannot be sent (BatchPlan.Seen).
type FileChecks struct {
	mu sync.Mutex
	m  map[[2]string][2]string
}

// New reads the sheet at path and keeps it as a batch of agent's
// runs, every row waiting, to run as plan says. Nothing is sent.
func (svc *BatchRunner) New(ctx context.Context, agent client.Agent, path string, plan BatchPlan) (storage.Batch, error) {
	a := svc.a
	t, err := sheet.Open(ctx, path)
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
	if plan.Folder == "" {
		plan.Folder = filepath.Dir(path)
	}
	return a.newBatch(ctx, agent, path, "", t.Header(), rows, plan)
}

// NewFromLines keeps pasted lines as a batch: each line (blank ones
// left out) answers the question named question; the results sheet goes
// to results (.csv or .xlsx). Nothing is sent.
func (svc *BatchRunner) NewFromLines(ctx context.Context, agent client.Agent, lines []string, question, results string, plan BatchPlan) (storage.Batch, error) {
	a := svc.a
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
	for _, q := range BatchQuestions(agent) {
		if q.Name == question {
			name = BatchQuestionName(q)
		}
	}
	plan.Columns = ColumnMap{question: 0}
	return a.newBatch(ctx, agent, "", results, []string{name}, rows, plan)
}

// NewFromFiles keeps files as a batch: one run for each, the file
// going with it (answering the agent's file question, or attached to the
// run when it has none). names are the files' names inside folder (the
// only place files are read from); the results sheet goes to results
// (beside the folder when empty). Nothing is sent.
func (svc *BatchRunner) NewFromFiles(ctx context.Context, agent client.Agent, folder string, names []string, results string, plan BatchPlan) (storage.Batch, error) {
	a := svc.a
	if len(names) == 0 {
		return storage.Batch{}, &sheet.Error{Kind: sheet.Empty, Path: folder}
	}
	rows := make([]storage.BatchRow, len(names))
	for i, n := range names {
		rows[i] = storage.BatchRow{Row: i + 2, Cells: []string{n}}
	}
	plan.Folder = folder
	if plan.Columns == nil {
		plan.Columns = ColumnMap{}
	}
	plan.Attach = 0
	if q := FileQuestion(agent); q != "" {
		plan.Columns[q] = 0
	} else {
		plan.Attach = 1
	}
	return a.newBatch(ctx, agent, folder, results, []string{lang.L("File")}, rows, plan)
}

// FolderFile is a file a folder holds, as a batch over the folder would
// send it.
type FolderFile struct {
	Name    string // inside the folder ("scans/01.pdf")
	Ext     string // its extension in lower case (".pdf"), "" for none
	Size    int64
	Problem string // why it cannot be sent, "" when it can
}

// FolderFiles are the files in folder and its folders, by name: hidden
// ones left out, a link leading out of the folder kept with its Problem
// (PlanUpload's rules). It reads names and sizes, never content.
func FolderFiles(folder string) []FolderFile {
	plan := PlanUpload([]string{folder})
	out := make([]FolderFile, 0, len(plan.Files))
	for _, f := range plan.Files {
		name, err := filepath.Rel(folder, f.Path)
		if err != nil || name == "." {
			if f.Problem == "" {
				continue // the folder itself, unreadable as a file
			}
			name = f.Name
		}
		out = append(out, FolderFile{Name: name, Ext: strings.ToLower(filepath.Ext(name)), Size: f.Size, Problem: f.Problem})
	}
	return out
}

// FileQuestion is the agent's first question that takes a file ("" when
// none does: a file then goes with the run as an attachment).
func FileQuestion(agent client.Agent) string {
	for _, q := range FormQuestions(agent) {
		if q.Type == QuestionFile {
			return q.Name
		}
	}
	return ""
}

// filesPerRow is how many files each row of a batch sends.
func (p BatchPlan) filesPerRow(agent client.Agent) int {
	n := 0
	if p.Attach > 0 {
		n++
	}
	for _, q := range FormQuestions(agent) {
		if _, ok := p.Columns[q.Name]; ok && q.Type == QuestionFile {
			n++
		}
	}
	return n
}

// Room checks that the service has room for the files a batch sends
// at once (each row's are removed from it once the row is done); nil when
// it has, or when the service sets no limit.
func (svc *BatchRunner) Room(ctx context.Context, agent client.Agent, p BatchPlan) error {
	a := svc.a
	return a.batchRoom(ctx, agent, p, 0)
}

// batchRoom is BatchRoom for a batch whose rows hold own of the files
// the service keeps (they leave it as those rows end).
func (a *App) batchRoom(ctx context.Context, agent client.Agent, p BatchPlan, own int) error {
	need := p.filesPerRow(agent) * max(1, p.Parallel)
	if need == 0 {
		return nil
	}
	stored, err := a.Files().CheckOnline(ctx)
	if err != nil {
		return err
	}
	if room := a.roomFor(stored); room >= 0 && room+own < need {
		return say(func() string {
			return lang.N("The service keeps at most {{.Most}} files and holds {{.Stored}}; this batch sends {{.Count}} file at a time. Delete some on the Files screen, then try again.", need,
				map[string]any{"Most": Number(client.MaxStoredFiles), "Stored": Number(stored), "Count": Number(need)})
		})
	}
	return nil
}

func (a *App) newBatch(ctx context.Context, agent client.Agent, source, results string, header []string, rows []storage.BatchRow, plan BatchPlan) (storage.Batch, error) {
	b := storage.Batch{
		AccountID: a.AccountID(), AgentID: string(agent.ID), AgentTitle: agent.Title, Source: source, Results: results,
		Header: header, Columns: plan.Columns, Fixed: plan.Fixed, Parallel: plan.Parallel, CreditCap: plan.CreditCap,
		Folder: plan.Folder, Attach: plan.Attach,
	}
	// Where the results and the files made go is chosen once: a second
	// batch over the same sheet writes beside the first one's, never
	// over them.
	if b.Results == "" {
		b.Results = FreePath(batchResultsPath(b))
	}
	b.Outputs = strings.TrimSuffix(b.Results, filepath.Ext(b.Results)) + " " + lang.L("files")
	b.Planned = b.Results
	b, err := a.db.CreateBatch(ctx, b, rows)
	if err != nil {
		return b, err
	}
	// The results sheet is there from the start, every row waiting: the
	// name is taken, and the next batch picks another.
	if written, err := a.Batches().Results(ctx, b.ID); err == nil {
		b.Results = written
	}
	return b, nil
}

// FreePath is path for a batch's results, or when a sheet or its files
// folder ("name files") is there already the first of "name (2).ext",
// "name (3).ext"… for which neither is. A name the disk cannot answer
// for (too long, a drive out of reach) is returned as it is: writing it
// then says what is wrong.
func FreePath(path string) string {
	ext := filepath.Ext(path)
	base := strings.TrimSuffix(path, ext)
	taken := func(p string) (bool, error) {
		for _, q := range []string{p, strings.TrimSuffix(p, ext) + " " + lang.L("files")} {
			if _, err := os.Lstat(q); err == nil {
				return true, nil
			} else if !errors.Is(err, fs.ErrNotExist) {
				return false, err
			}
		}
		return false, nil
	}
	for n := 2; n <= 1000; n++ {
		if t, err := taken(path); err != nil || !t {
			return path
		}
		path = fmt.Sprintf("%s (%d)%s", base, n, ext)
	}
	return path
}

// SetCreditCap changes the credits after which batch id pauses (0:
// none), for going on past the limit it reached.
func (svc *BatchRunner) SetCreditCap(ctx context.Context, id int64, credits float64) error {
	a := svc.a
	return a.db.SetBatchCreditCap(ctx, id, max(0, credits))
}

// planOf is the plan batch b was made with.
func planOf(b storage.Batch) BatchPlan {
	return BatchPlan{Columns: b.Columns, Fixed: b.Fixed, Parallel: b.Parallel, CreditCap: b.CreditCap, Folder: b.Folder, Attach: b.Attach}
}

// Unfinished are the account's batches that were running when
// Agent Desk last closed (or stopped), and cancelled ones whose rows on
// their way were not looked up yet, to offer to go on with.
func (svc *BatchRunner) Unfinished(ctx context.Context) ([]storage.Batch, error) {
	a := svc.a
	all, err := a.db.Batches(ctx, a.AccountID(), 100)
	if err != nil {
		return nil, err
	}
	var out []storage.Batch
	for _, b := range all {
		switch b.State {
		case storage.BatchRunning:
			out = append(out, b)
		case storage.BatchCancelled:
			// Rows on their way when it was cancelled are still to be
			// looked up (nothing new is sent).
			if counts, _, err := a.db.BatchCounts(ctx, b.ID); err == nil && counts[storage.RowRunning]+counts[storage.RowStarting]+counts[storage.RowSending] > 0 {
				out = append(out, b)
			}
		}
	}
	return out, nil
}

// Run runs a batch's rows until none waits, ctx ends (Pause: the
// rows on their way stay on the service and are looked up next time), or
// the batch has cost its credit cap (it is then paused). A row the
// service would refuse (a required answer missing, a choice not offered)
// is skipped with the reason, without being sent. Rows left from a
// previous run are looked up (beside the new ones) when the service had
// them, and failed (not sent again) when it is unknown whether it had.
func (svc *BatchRunner) Run(ctx context.Context, id int64, agent client.Agent) error {
	a := svc.a
	b, err := a.db.Batch(ctx, id)
	if err != nil {
		return err
	}
	leftover, err := a.settleBatch(ctx, b)
	if err != nil {
		return err
	}
	if agent.Type == client.AgentImage || agent.Type == client.AgentVideo {
		done, err := a.db.BatchRowsIn(ctx, id, storage.RowDone, 1_000_000)
		if err != nil {
			return err
		}
		for _, r := range done {
			if len(r.Files) == 0 && strings.HasPrefix(strings.TrimSpace(r.Result), "http") {
				leftover = append(leftover, r)
			}
		}
	}
	if counts, _, err := a.db.BatchCounts(ctx, id); err == nil && counts[storage.RowWaiting] > 0 && b.State != storage.BatchCancelled {
		own := 0
		for _, r := range leftover {
			own += len(r.Uploads)
		}
		if err := a.batchRoom(ctx, agent, planOf(b), own); err != nil {
			_ = a.db.SetBatchState(context.WithoutCancel(ctx), id, storage.BatchPaused)
			return err
		}
	}
	if b.State != storage.BatchCancelled {
		if err := a.db.SetBatchState(ctx, id, storage.BatchRunning); err != nil {
			return err
		}
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
		// spent is what the batch has cost so far, kept as rows end (no
		// count over all its rows before each one).
		spent float64
	)
	if b.CreditCap > 0 {
		if _, spent, err = a.db.BatchCounts(ctx, id); err != nil {
			return err
		}
	}
	// The sheet is written at most once a second, and never taking more
	// than a tenth of the time (a large sheet is written less often).
	every := time.Second
	results := func(force bool) {
		mu.Lock()
		defer mu.Unlock()
		if force || time.Since(written) >= every {
			start := time.Now()
			if _, err := a.Batches().Results(context.WithoutCancel(ctx), id); err != nil && failure == nil {
				failure = err
			}
			written = time.Now()
			every = max(time.Second, 10*written.Sub(start))
		}
	}
	var wg sync.WaitGroup
	// Rows a previous run left on the service are looked up beside the
	// new ones (a few at a time: lookups cost no credits), so that one
	// slow run does not hold the batch up.
	lookups := make(chan struct{}, 4)
	for _, r := range leftover {
		wg.Go(func() {
			lookups <- struct{}{}
			defer func() { <-lookups }()
			if ctx.Err() != nil {
				return
			}
			if r.State == storage.RowDone { // its picture or video is still to be saved
				a.saveRowOutput(ctx, b, agent, r, r.Result)
				return
			}
			cost, err := a.finishBatchRow(ctx, b, agent, r, &client.Execution{ID: client.ID(r.ExecutionID), Status: client.StatusRunning})
			a.batchRowDone()
			mu.Lock()
			spent += cost
			if err != nil && failure == nil {
				failure = err
			}
			mu.Unlock()
		})
	}
	workers := max(1, b.Parallel)
	if b.State == storage.BatchCancelled {
		workers = 0 // only the rows on their way are looked up
	}
	for range workers {
		wg.Go(func() {
			for ctx.Err() == nil {
				mu.Lock()
				capped = capped || b.CreditCap > 0 && spent >= b.CreditCap
				stop := capped
				mu.Unlock()
				if stop {
					return
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
				cost, rowErr := a.runBatchRow(ctx, b, agent, row)
				a.batchRowDone()
				mu.Lock()
				spent += cost
				mu.Unlock()
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
	if counts, _, err := a.db.BatchCounts(save, id); ctx.Err() != nil || capped || (err == nil && (counts[storage.RowRunning]+counts[storage.RowStarting]+counts[storage.RowSending] > 0 || counts[storage.RowWaiting] > 0)) {
		state = storage.BatchPaused
	}
	if state == storage.BatchPaused && a.life.Err() != nil {
		// Agent Desk is closing, not the user pausing: the batch stays
		// running, to be offered to go on with at the next start.
		state = storage.BatchRunning
	}
	if now, err := a.db.Batch(save, id); err == nil && now.State == storage.BatchCancelled {
		return nil // cancelled while it ran: it stays so
	}
	return a.db.SetBatchState(save, id, state)
}

// runBatchRow sends one row (marked as being sent) with its files, and
// waits for it.
func (a *App) runBatchRow(ctx context.Context, b storage.Batch, agent client.Agent, row storage.BatchRow) (credits float64, err error) {
	save := context.WithoutCancel(ctx)
	req := planOf(b).Request(agent, row.Cells)
	if req.Problems != nil {
		_ = a.db.UpdateBatchRow(save, b.ID, row.Row, storage.RowUpdate{State: storage.RowSkipped, Error: rowProblems(agent, req.Problems)})
		return 0, nil
	}
	params := client.ExecuteParams{}
	if agent.Type == client.AgentChat {
		params.Messages = []client.Message{{Role: client.RoleUser, Content: req.Message}}
	}
	// The row's files go first. Pause or closing before they start leaves
	// the row waiting again (no run was asked for).
	waitAgain := func() (float64, error) {
		a.removeRowUploads(save, b.ID, row)
		_ = a.db.UpdateBatchRow(save, b.ID, row.Row, storage.RowUpdate{State: storage.RowWaiting})
		return 0, nil
	}
	if len(req.Files) > 0 && ctx.Err() != nil {
		return waitAgain()
	}
	for _, name := range slices.Sorted(maps.Keys(req.Files)) {
		path := req.Files[name]
		// Once begun, the row's uploads are seen through (each one the
		// service keeps is known, and none is sent twice).
		up, cancel := context.WithTimeout(save, 30*time.Minute)
		f, err := a.Client().UploadFile(up, client.UploadParams{Path: path, Filename: filepath.Base(path)})
		cancel()
		if err != nil {
			row.State = storage.RowFailed
			_ = a.db.UpdateBatchRow(save, b.ID, row.Row, storage.RowUpdate{State: storage.RowFailed,
				Error: lang.L("{{.File}} could not be sent, so the row did not run: {{.Why}}", map[string]any{"File": filepath.Base(path), "Why": uploadProblem(err, false)})})
			a.removeRowUploads(save, b.ID, row)
			return 0, nil
		}
		a.Ledger().Record(save, storage.CreditsFile, string(agent.ID), agent.Title, string(f.ID), f.Credits)
		row.Uploads = append(row.Uploads, string(f.ID))
		_ = a.db.SetRowUploads(save, b.ID, row.Row, row.Uploads)
		if name == "" {
			params.FileIDs = append(params.FileIDs, f.ID)
		} else {
			req.Answers[name] = string(f.ID)
		}
	}
	params.Answers = ExecuteAnswers(agent, req.Answers)
	// From here the service may run it: a crash now leaves its fate
	// unknown, and it is not sent again by itself. The row is marked in
	// one step that also finds whether the batch was cancelled meanwhile
	// (or the row taken by another Agent Desk): then it is not sent.
	switch ok, err := a.db.MarkRowStarting(save, b.ID, row.Row); {
	case err != nil:
		return waitAgain()
	case !ok:
		a.removeRowUploads(save, b.ID, row)
		if now, err := a.db.Batch(save, b.ID); err == nil && now.State == storage.BatchCancelled {
			_ = a.db.UpdateBatchRow(save, b.ID, row.Row, storage.RowUpdate{State: storage.RowSkipped, Error: cancelledRow()})
		}
		return 0, nil
	}
	// Once on its way a request is seen through, Pause or quitting
	// included, so that its execution id is kept (the service may charge
	// it): only the wait for its result follows ctx.
	send, cancel := context.WithTimeout(save, 2*time.Minute)
	e, err := a.Client().Start(send, agent.ID, params)
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
		a.removeRowUploads(save, b.ID, row)
		return 0, nil
	}
	row.ExecutionID = string(e.ID)
	_ = a.db.UpdateBatchRow(save, b.ID, row.Row, storage.RowUpdate{State: storage.RowRunning, ExecutionID: row.ExecutionID})
	return a.finishBatchRow(ctx, b, agent, row, e)
}

// removeRowUploads removes the files sent for a row from the service (it
// keeps only a few: the next rows need the room); those it could not
// remove are kept, to try again when the batch runs next.
func (a *App) removeRowUploads(ctx context.Context, batch int64, row storage.BatchRow) {
	if len(row.Uploads) == 0 {
		return
	}
	var left []string
	for _, id := range row.Uploads {
		del, cancel := context.WithTimeout(ctx, 30*time.Second)
		err := a.Client().DeleteFile(del, client.ID(id))
		cancel()
		if err != nil && !client.IsNotFound(err) {
			left = append(left, id)
		}
	}
	_ = a.db.SetRowUploads(ctx, batch, row.Row, left)
}

// unknownFate is why a row is not sent again when it is unknown whether
// the service got it.
func unknownFate() string {
	return lang.L("Agent Desk stopped while this row was being sent, so it may or may not have run. It was not sent again: use Retry failed rows to send it.")
}

// finishBatchRow waits for a row's execution e and keeps what became of
// it (a picture or video it made is saved beside the results); when ctx
// ends first the row stays running, to be looked up.
func (a *App) finishBatchRow(ctx context.Context, b storage.Batch, agent client.Agent, r storage.BatchRow, e *client.Execution) (float64, error) {
	row := r.Row
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
		a.Ledger().Record(save, storage.CreditsExecution, string(agent.ID), agent.Title, string(e.ID), e.Credits)
	}
	var credits *float64
	if e.Credits.Valid {
		v := e.Credits.Value
		credits = &v
	}
	switch {
	case err == nil && e.Succeeded():
		_ = a.db.UpdateBatchRow(save, b.ID, row, storage.RowUpdate{State: storage.RowDone, Credits: credits, Result: e.Output})
		a.saveRowOutput(ctx, b, agent, r, e.Output)
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
			return 0, err
		}
	default:
		_ = a.db.UpdateBatchRow(save, b.ID, row, storage.RowUpdate{State: storage.RowFailed, Credits: credits, Result: e.Output, Error: Describe(err)})
	}
	if e.Terminal() || client.IsNotFound(err) {
		a.removeRowUploads(save, b.ID, r)
	}
	if credits == nil {
		return 0, nil
	}
	return *credits, nil
}

// saveRowOutput saves the picture or video a row's run made (its output
// is the file's address) into the batch's files folder, named after the
// row, and keeps where. A file that cannot be fetched leaves its address
// in the results, for the user to open; one cut short by Pause or
// closing is fetched when the batch runs next (fetching costs nothing).
func (a *App) saveRowOutput(ctx context.Context, b storage.Batch, agent client.Agent, r storage.BatchRow, output string) {
	if agent.Type != client.AgentImage && agent.Type != client.AgentVideo || !strings.HasPrefix(strings.TrimSpace(output), "http") {
		return
	}
	get, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	out, err := a.Runs().FetchOutputFile(get, agent.Type, output, nil)
	if err != nil {
		return
	}
	dir := BatchFilesFolder(b)
	if err := os.MkdirAll(dir, 0o700); err != nil { // the user's pictures and videos: theirs only
		return
	}
	label := ""
	for _, c := range r.Cells {
		if c = strings.TrimSpace(c); c != "" {
			label = c
			break
		}
	}
	// A cell's slashes ("scans/01.pdf", "Poster 16/9") are no folders:
	// each row keeps a name of its own.
	label = strings.NewReplacer("/", "-", "\\", "-").Replace(label)
	name := safe.FileName(safe.Text(fmt.Sprintf("%d %s", r.Row, label), 60), out.Ext, strconv.Itoa(r.Row)+out.Ext)
	dst := filepath.Join(dir, name)
	if err := copyFile(out.Path, dst); err != nil {
		return
	}
	_ = a.db.SetRowFiles(context.WithoutCancel(ctx), b.ID, r.Row, []string{dst})
}

// BatchFilesFolder is where the files a batch's runs make are saved:
// beside its results sheet, named after it.
func BatchFilesFolder(b storage.Batch) string {
	if b.Outputs != "" {
		return b.Outputs
	}
	res := batchResultsPath(b)
	return strings.TrimSuffix(res, filepath.Ext(res)) + " " + lang.L("files")
}

// copyFile copies src to dst, whole or not at all.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".agentdesk-*")
	if err != nil {
		return err
	}
	if _, err := io.Copy(tmp, in); err != nil {
		_ = tmp.Close()
		_ = os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), dst)
}

// settleBatch deals with the rows a previous run left on their way: a
// row whose run may or may not have reached the service fails (it is not
// sent again by itself), one that was still sending its files waits
// again, and files of rows that ended while Agent Desk was
// closed leave the service. It returns the rows the service has, still
// to look up.
func (a *App) settleBatch(ctx context.Context, b storage.Batch) ([]storage.BatchRow, error) {
	// Rows whose files were on their way asked for no run: they wait
	// again, what was sent removed.
	sending, err := a.db.BatchRowsIn(ctx, b.ID, storage.RowSending, 1_000_000)
	if err != nil {
		return nil, err
	}
	for _, r := range sending {
		a.removeRowUploads(ctx, b.ID, r)
		u := storage.RowUpdate{State: storage.RowWaiting}
		if b.State == storage.BatchCancelled {
			u = storage.RowUpdate{State: storage.RowSkipped, Error: cancelledRow()}
		}
		if err := a.db.UpdateBatchRow(ctx, b.ID, r.Row, u); err != nil {
			return nil, err
		}
	}
	starting, err := a.db.BatchRowsIn(ctx, b.ID, storage.RowStarting, 1_000_000)
	if err != nil {
		return nil, err
	}
	for _, r := range starting {
		err := a.db.UpdateBatchRow(ctx, b.ID, r.Row, storage.RowUpdate{State: storage.RowFailed, Error: unknownFate()})
		if err != nil {
			return nil, err
		}
		a.removeRowUploads(ctx, b.ID, r)
	}
	done, err := a.db.RowsWithUploads(ctx, b.ID)
	if err != nil {
		return nil, err
	}
	for _, r := range done {
		a.removeRowUploads(ctx, b.ID, r)
	}
	return a.db.BatchRowsIn(ctx, b.ID, storage.RowRunning, 1_000_000)
}

// rowProblems says why a row was not sent: each question and what is
// wrong with its answer.
func rowProblems(agent client.Agent, problems map[string]string) string {
	var parts []string
	for _, q := range append(BatchQuestions(agent), client.Question{}) {
		if msg, ok := problems[q.Name]; ok {
			parts = append(parts, lang.L("{{.Question}}: {{.Problem}}", map[string]any{"Question": BatchQuestionName(q), "Problem": msg}))
		}
	}
	return strings.Join(parts, " ")
}

// BatchQuestionName is how a batch names a question: its label, else its
// name in words; the question without a name is the file attached to
// each run.
func BatchQuestionName(q client.Question) string {
	if q.Name == "" {
		return lang.L("File")
	}
	if l := batchLabel(q); l != "" {
		return l
	}
	return strings.ReplaceAll(q.Name, "_", " ")
}

// Results writes the batch's results sheet beside its source, in the
// source's format: the source's columns, then the result (the agent's
// text), the row's status, its credits and the execution's id. The sheet
// is whole at every moment; when the usual name cannot be replaced (open
// in a spreadsheet program) a new name is used and kept. It returns the
// sheet written.
func (svc *BatchRunner) Results(ctx context.Context, id int64) (string, error) {
	a := svc.a
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
	made := slices.ContainsFunc(rows, func(r storage.BatchRow) bool { return len(r.Files) > 0 })
	if made {
		header = append(header, lang.L("Files"))
	}
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
		if made {
			out[i] = append(out[i], strings.Join(r.Files, "\n"))
		}
	}
	path := batchResultsPath(b)
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

// batchResultsPath is where a batch's results sheet goes: where it was
// last written, else beside its sheet in its format (beside a folder, an
// Excel sheet).
func batchResultsPath(b storage.Batch) string {
	if b.Results != "" {
		return b.Results
	}
	ext := filepath.Ext(b.Source)
	switch {
	case b.Source == b.Folder && b.Source != "":
		return filepath.Clean(b.Source) + " " + lang.L("results") + ".xlsx"
	case !strings.EqualFold(ext, ".xlsx"):
		ext = ".csv"
	}
	return strings.TrimSuffix(b.Source, filepath.Ext(b.Source)) + " " + lang.L("results") + ext
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
	case storage.RowRunning, storage.RowSending, storage.RowStarting:
		return lang.L("Running")
	}
	return lang.L("Waiting")
}
