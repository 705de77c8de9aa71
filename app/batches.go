package app

import (
	"cmp"
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
	"sync/atomic"
	"time"
	"unicode"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/app/sheet"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/safe"
	"github.com/agentdesk/agentdesk/storage"
)

// No row of a batch is sent twice: it is marked sending before its request
// leaves; at the next start a row with an execution id is looked up, one
// without waits for Retry failed rows.

// BatchPlan is how a batch runs; CreditCap pauses it (0: none).
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
	// Seen, when not nil, remembers the files the rows name, so a preview
	// checked on every key asks the disk once per file.
	Seen *FileChecks
	// Fields are the facts to pull out of each reply, one results column
	// each (ParseFields); none: the reply is kept as it is.
	Fields []string
}

// RowLook is a row that answered without the facts asked for: its reply is
// kept for the user to read (records.go names the other states).
const RowLook = storage.RowLook

// FileChecks remembers each cell's file and its problem (BatchPlan.Seen).
type FileChecks struct{ m sync.Map } // [2]string{folder, cell} → [2]string{path, problem}

// New keeps a sheet's rows as a batch, every row waiting; nothing is sent.
func (svc *BatchRunner) New(ctx context.Context, agent client.Agent, t sheet.All, plan BatchPlan) (storage.Batch, error) {
	rows := make([]storage.BatchRow, len(t.Rows))
	for i, r := range t.Rows {
		rows[i] = storage.BatchRow{Row: r.Number, Cells: r.Cells}
	}
	if plan.Folder == "" {
		plan.Folder = filepath.Dir(t.Path)
	}
	return svc.a.newBatch(ctx, agent, t.Path, "", t.Header, rows, plan)
}

// NewFromLines keeps pasted lines as a batch, each answering question.
func (svc *BatchRunner) NewFromLines(ctx context.Context, agent client.Agent, lines []string, question, results string, plan BatchPlan) (storage.Batch, error) {
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
	return svc.a.newBatch(ctx, agent, "", results, []string{name}, rows, plan)
}

// NewFromFiles keeps files inside folder as a batch, one run each.
func (svc *BatchRunner) NewFromFiles(ctx context.Context, agent client.Agent, folder string, names []string, results string, plan BatchPlan) (storage.Batch, error) {
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
	return svc.a.newBatch(ctx, agent, folder, results, []string{lang.L("File")}, rows, plan)
}

// FolderFile is a file a batch over its folder would send.
type FolderFile struct {
	Name    string // inside the folder ("scans/01.pdf")
	Ext     string // its extension in lower case (".pdf"), "" for none
	Size    int64
	Problem string // why it cannot be sent, "" when it can
}

// FolderFiles are the files under folder, by PlanUpload's rules.
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

// FileQuestion is the agent's first file question ("" when none: the file is attached).
func FileQuestion(agent client.Agent) string {
	for _, q := range FormQuestions(agent) {
		if q.Type == QuestionFile {
			return q.Name
		}
	}
	return ""
}

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

// Room checks that the service has room for the files a batch sends at once.
func (svc *BatchRunner) Room(ctx context.Context, agent client.Agent, p BatchPlan) error {
	return svc.a.batchRoom(ctx, agent, p, 0)
}

// batchRoom is Room when own of the files stored are the batch's own.
func (a *App) batchRoom(ctx context.Context, agent client.Agent, p BatchPlan, own int) error {
	need := p.filesPerRow(agent) * max(1, p.Parallel)
	if need == 0 {
		return nil
	}
	stored, err := a.checkOnline(ctx)
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
		Folder: plan.Folder, Attach: plan.Attach, Fields: plan.Fields,
	}
	// Chosen once, and written at once: the next batch picks another name.
	if b.Results == "" {
		b.Results = FreePath(batchResultsPath(b))
	}
	b.Outputs = filesFolder(b.Results)
	b.Planned = b.Results
	written, err := a.writeResults(b, rows)
	if err != nil {
		return b, err
	}
	b.Results = written
	if b, err = a.db.CreateBatch(ctx, b, rows); err != nil {
		_ = os.Remove(written) // no batch, no sheet of its waiting rows
	}
	return b, err
}

// FreePath is path, or when it or its files folder is taken the first free
// "name (2).ext"…; a name the disk cannot answer for is returned as is.
func FreePath(path string) string {
	ext := filepath.Ext(path)
	base := strings.TrimSuffix(path, ext)
	taken := func(p string) (bool, error) {
		for _, q := range []string{p, filesFolder(p)} {
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

// SetCreditCap changes the credits after which batch id pauses (0: none).
func (svc *BatchRunner) SetCreditCap(ctx context.Context, id int64, credits float64) error {
	return svc.a.db.SetBatchCreditCap(ctx, id, max(0, credits))
}

func planOf(b storage.Batch) BatchPlan {
	return BatchPlan{Columns: b.Columns, Fixed: b.Fixed, Parallel: b.Parallel, CreditCap: b.CreditCap, Folder: b.Folder, Attach: b.Attach, Fields: b.Fields}
}

// Unfinished are the batches to offer to go on with (storage.DB.UnfinishedBatches).
func (svc *BatchRunner) Unfinished(ctx context.Context) ([]storage.Batch, error) {
	return svc.a.db.UnfinishedBatches(ctx, svc.a.AccountID())
}

// BatchFilesFolder is where the files a batch's runs make are saved.
func BatchFilesFolder(b storage.Batch) string {
	if b.Outputs != "" {
		return b.Outputs
	}
	return filesFolder(batchResultsPath(b))
}

func filesFolder(results string) string {
	return strings.TrimSuffix(results, filepath.Ext(results)) + " " + lang.L("files")
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

func rowProblems(agent client.Agent, problems map[string]string) string {
	var parts []string
	for _, q := range append(BatchQuestions(agent), client.Question{}) {
		if msg, ok := problems[q.Name]; ok {
			parts = append(parts, lang.L("{{.Question}}: {{.Problem}}", map[string]any{"Question": BatchQuestionName(q), "Problem": msg}))
		}
	}
	return strings.Join(parts, " ")
}

// BatchQuestionName is a question's label, else its name in words ("" is the attached file).
func BatchQuestionName(q client.Question) string {
	if q.Name == "" {
		return lang.L("File")
	}
	if l := batchLabel(q); l != "" {
		return l
	}
	return strings.ReplaceAll(q.Name, "_", " ")
}

// writeResults writes b's results sheet whole, returning where: a name held
// open elsewhere gets a new one. Results are written as plain text: a sheet
// shows Markdown's marks as they are. The facts pulled out of the replies
// come last, a column each, headed as the user named them.
func (a *App) writeResults(b storage.Batch, rows []storage.BatchRow) (string, error) {
	header := append(slices.Clone(b.Header), lang.L("Result"), lang.L("Status"), lang.L("Credits"), lang.L("Run number"))
	made := slices.ContainsFunc(rows, func(r storage.BatchRow) bool { return len(r.Files) > 0 })
	if made {
		header = append(header, lang.L("Files"))
	}
	header = append(header, b.Fields...)
	out := make([][]string, len(rows))
	for i, r := range rows {
		cells := make([]string, len(b.Header), len(b.Header)+5+len(b.Fields))
		copy(cells, r.Cells)
		result := r.Result
		if a.cfg.PlainText != nil {
			result = a.cfg.PlainText(result)
		}
		// A row that needs a look keeps its reply here; why is on the Batches screen.
		if r.Error != "" && (r.State != storage.RowLook || result == "") {
			result = r.Error
		}
		credits := ""
		if r.Credits != nil {
			credits = CreditsFigure(*r.Credits)
		}
		out[i] = append(cells, result, BatchRowState(r.State), credits, r.ExecutionID)
		if made {
			out[i] = append(out[i], strings.Join(r.Files, "\n"))
		}
		facts := make([]string, len(b.Fields))
		if r.State == storage.RowDone {
			copy(facts, r.Values)
		}
		out[i] = append(out[i], facts...)
	}
	// Spreadsheet programs where numbers take a decimal comma separate a
	// CSV's cells with a semicolon.
	comma := ','
	if decimalComma() {
		comma = ';'
	}
	return sheet.Write(batchResultsPath(b), header, out, comma)
}

func (a *App) keepResults(ctx context.Context, b storage.Batch, rows []storage.BatchRow) (storage.Batch, error) {
	written, err := a.writeResults(b, rows)
	if err != nil || written == b.Results {
		return b, err
	}
	b.Results = written
	return b, a.db.SetBatchResults(ctx, b.ID, written)
}

func (a *App) batchResults(ctx context.Context, id int64) (storage.Batch, []storage.BatchRow, error) {
	b, err := a.db.Batch(ctx, id)
	if err != nil {
		return b, nil, err
	}
	rows, err := a.db.AllBatchRows(ctx, id)
	if err != nil {
		return b, nil, err
	}
	b, err = a.keepResults(ctx, b, rows)
	return b, rows, err
}

// batchResultsPath is where it was last written, else beside its source.
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

// BatchRowState is a row's state in words, as the results sheet writes it.
func BatchRowState(state storage.RowState) string {
	switch state {
	case storage.RowDone:
		return lang.L("Done")
	case storage.RowFailed:
		return lang.L("Failed")
	case storage.RowSkipped:
		return lang.L("Skipped")
	case storage.RowLook:
		return lang.L("Needs a look")
	case storage.RowRunning, storage.RowSending, storage.RowStarting:
		return lang.L("Running")
	}
	return lang.L("Waiting")
}

// ColumnMap says which column (by index) answers each question, by name.
type ColumnMap map[string]int

// MatchColumns matches columns to questions by name or label, whatever the
// case, spaces, "_" and "-"; each column answers one question at most.
func MatchColumns(agent client.Agent, header []string) ColumnMap {
	m := ColumnMap{}
	taken := map[int]bool{}
	for _, q := range BatchQuestions(agent) {
		names := []string{columnKey(q.Name)}
		if l := batchLabel(q); l != "" {
			names = append(names, columnKey(l))
		}
		for i, h := range header {
			if key := columnKey(h); !taken[i] && key != "" && slices.Contains(names, key) {
				m[q.Name], taken[i] = i, true
				break
			}
		}
	}
	return m
}

func columnKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// MissingColumns are the required questions neither a column nor a fixed value answers.
func MissingColumns(agent client.Agent, m ColumnMap, fixed map[string]string) []client.Question {
	var out []client.Question
	for _, q := range BatchQuestions(agent) {
		if _, ok := m[q.Name]; q.Required && !ok && strings.TrimSpace(fixed[q.Name]) == "" {
			out = append(out, q)
		}
	}
	return out
}

// ChatMessage is the question a chat agent's one message per row answers.
const ChatMessage = "messages"

// BatchQuestions are the form's questions, and a chat agent's message first.
func BatchQuestions(agent client.Agent) []client.Question {
	qs := FormQuestions(agent)
	if agent.Type != client.AgentChat {
		return qs
	}
	// Each row is a chat of its own: no root_id.
	qs = slices.DeleteFunc(slices.Clone(qs), func(q client.Question) bool { return q.Name == "root_id" })
	return append([]client.Question{{Name: ChatMessage, Type: QuestionTextarea, Required: true, Description: lang.L("Message")}}, qs...)
}

func batchLabel(q client.Question) string {
	if q.Name == ChatMessage && q.Type == QuestionTextarea {
		return q.Description
	}
	return QuestionLabel(q)
}

// RowRequest is what one row of a batch asks of the agent.
type RowRequest struct {
	// Answers are the row's answers as the form writes them; a file
	// question's is the file's path until it is sent.
	Answers map[string]string
	// Files are the files the row sends, by the question they answer
	// ("" for the file attached to the run), as paths on this computer.
	Files map[string]string
	// Message is what a chat agent is sent ("" for other agents).
	Message string
	// Problems are what is wrong with the answers, by question name (""
	// for the attached file), nil when the row can be sent.
	Problems map[string]string
}

// Request is what a row of cells asks of agent under p, and what would be refused.
func (p BatchPlan) Request(agent client.Agent, cells []string) RowRequest {
	r := RowRequest{Answers: map[string]string{}}
	for name, v := range p.Fixed {
		if strings.TrimSpace(v) != "" {
			r.Answers[name] = v
		}
	}
	cell := func(i int) string {
		if i < 0 || i >= len(cells) {
			return ""
		}
		return cells[i]
	}
	for _, q := range BatchQuestions(agent) {
		i, ok := p.Columns[q.Name]
		if !ok || cell(i) == "" {
			continue
		}
		v := cell(i)
		if q.Type == QuestionDate {
			v = SheetDate(v)
		}
		r.Answers[q.Name] = v
	}
	problems := CheckAnswers(agent, r.Answers)
	addProblem := func(name, msg string) {
		if problems == nil {
			problems = map[string]string{}
		}
		problems[name] = msg
	}
	if agent.Type == client.AgentChat {
		r.Message = strings.TrimSpace(r.Answers[ChatMessage])
		delete(r.Answers, ChatMessage)
		if r.Message == "" {
			addProblem(ChatMessage, lang.L("Please fill this in."))
		}
	}
	// The facts are asked for in the request itself, after the row's own words.
	if q := FieldsQuestion(agent); len(p.Fields) > 0 && q != "" && problems[q] == "" {
		if agent.Type == client.AgentChat {
			r.Message = withFieldsRequest(r.Message, p.Fields)
		} else {
			r.Answers[q] = withFieldsRequest(r.Answers[q], p.Fields)
		}
	}
	file := func(name, cell string) {
		path, msg := p.rowFile(cell)
		if msg != "" {
			addProblem(name, msg)
			return
		}
		if r.Files == nil {
			r.Files = map[string]string{}
		}
		r.Files[name] = path
	}
	for _, q := range FormQuestions(agent) {
		if v := strings.TrimSpace(r.Answers[q.Name]); q.Type == QuestionFile && v != "" && problems[q.Name] == "" {
			file(q.Name, v)
		}
	}
	if p.Attach > 0 {
		if v := strings.TrimSpace(cell(p.Attach - 1)); v != "" {
			file("", v)
		} else {
			addProblem("", lang.L("Please choose a file."))
		}
	}
	r.Problems = problems
	return r
}

// rowFile is the file a cell names inside the batch's folder, or why it is
// not sent: a sheet cannot send what the user did not choose. The name is
// judged before the disk is asked (a share must not be connected to).
func (p BatchPlan) rowFile(cell string) (path, problem string) {
	if p.Seen == nil {
		return p.checkFile(cell)
	}
	key := [2]string{p.Folder, cell}
	if v, ok := p.Seen.m.Load(key); ok {
		return v.([2]string)[0], v.([2]string)[1]
	}
	path, problem = p.checkFile(cell)
	p.Seen.m.Store(key, [2]string{path, problem})
	return path, problem
}

func (p BatchPlan) checkFile(cell string) (path, problem string) {
	outside := lang.L("This file is not in the folder {{.Folder}}, so it is not sent.", map[string]any{"Folder": filepath.Base(p.Folder)})
	if p.Folder == "" {
		return "", outside
	}
	folder := filepath.Clean(p.Folder)
	name := filepath.Clean(strings.TrimSpace(cell))
	switch {
	case filepath.IsLocal(name):
		path = filepath.Join(folder, name)
	case filepath.IsAbs(name) && strings.EqualFold(filepath.VolumeName(name), filepath.VolumeName(folder)) && inside(folder, name):
		path = name
	default:
		return "", outside
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", fileProblem(err)
	}
	root, err := filepath.EvalSymlinks(folder)
	if err != nil || !inside(root, real) {
		return "", outside
	}
	st, err := os.Stat(real)
	if err != nil {
		return "", fileProblem(err)
	}
	if problem := sendProblem(st); problem != "" {
		return "", problem
	}
	return real, ""
}

// sheetDateLayouts are dates as written, and as Excel shows them by default.
var sheetDateLayouts = []string{
	DateLayout, "2/1/2006", "02/01/2006", "2-1-2006", "2.1.2006", "2 Jan 2006", "2 January 2006",
	"01-02-06", "1-2-06", "2006/1/2",
}

// SheetDate is a date cell as DateLayout, or the cell as it is.
func SheetDate(cell string) string {
	s := strings.TrimSpace(cell)
	for _, layout := range sheetDateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.Format(DateLayout)
		}
	}
	return cell
}

// BatchRunner runs the account's batches in the background (App.Batches).
type BatchRunner struct {
	a       *App
	running sync.Map // a running batch's id → its context.CancelFunc
	news    *live.State[BatchNews]
	offered atomic.Bool // see FirstOffer
}

// BatchNews counts changes (Rows) and batches ended (Ends, the last Ended).
type BatchNews struct {
	Rows  uint64
	Ended BatchEnd
	Ends  uint64
}

// BatchEnd is a batch that stopped running, and why (Err).
type BatchEnd struct {
	Batch  storage.Batch
	Counts map[storage.RowState]int
	Spent  float64
	Err    error
}

func (a *App) Batches() *BatchRunner { return a.batches }

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
func (r *BatchRunner) Running(id int64) bool { return r.RunningNow()[id] }

// RunningNow are the batches running; read before the history, so none shows stale.
func (r *BatchRunner) RunningNow() map[int64]bool {
	out := map[int64]bool{}
	r.running.Range(func(id, _ any) bool {
		out[id.(int64)] = true
		return true
	})
	return out
}

// Start runs batch id in the background; false when it runs already or the app is closing.
func (r *BatchRunner) Start(id int64, agent client.Agent) bool {
	ctx, cancel := context.WithCancel(r.a.Life())
	if _, runs := r.running.LoadOrStore(id, cancel); runs {
		cancel()
		return false
	}
	stop := func() {
		cancel()
		r.running.Delete(id)
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
	if cancel, ok := r.running.Load(id); ok {
		cancel.(context.CancelFunc)()
	}
}

// Cancel ends batch id: rows not sent are skipped, those on their way seen to the end.
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

// ErrLookupLater: cancelled, its rows on their way are looked up at the next offer.
var ErrLookupLater = errors.New("the rows on their way will be looked up later")

func cancelledRow() string { return lang.L("Not run: the batch was cancelled.") }

func (r *BatchRunner) bump() {
	r.news.Update(func(n BatchNews) BatchNews { n.Rows++; return n })
}

// run runs a batch's rows until none waits, ctx ends (Pause) or its credit
// cap is reached; a history that cannot be written pauses it.
func (r *BatchRunner) run(ctx context.Context, id int64, agent client.Agent) BatchEnd {
	b, err := r.a.db.Batch(ctx, id)
	if err != nil {
		return BatchEnd{Batch: b, Err: err}
	}
	rows, err := r.a.db.AllBatchRows(ctx, id)
	if err != nil {
		return BatchEnd{Batch: b, Err: err}
	}
	run := &batchRun{a: r.a, ctx: ctx, save: context.WithoutCancel(ctx), b: b, agent: agent, rows: rows, results: b.Results, every: time.Second}
	_, run.spent = tally(rows)
	lookups, err := run.prepare()
	if err == nil {
		run.work(lookups)
	}
	run.fail(err)
	return run.end()
}

// batchRun is one run of a batch: its rows as last written, shared by its workers.
type batchRun struct {
	a     *App
	ctx   context.Context // ends with Pause or closing
	save  context.Context // for what is seen through once begun
	b     storage.Batch
	agent client.Agent

	mu      sync.Mutex
	rows    []storage.BatchRow // in sheet order
	spent   float64            // what the rows have cost
	capped  bool
	failure error
	results string        // where the results sheet went
	written time.Time     // when, last
	every   time.Duration // how often it is written
}

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

// move writes row if it is still in state from (false when cancelled or
// failed); a row out of the service's hands takes its files off it first.
func (run *batchRun) move(from storage.RowState, row storage.BatchRow) bool {
	if row.State != storage.RowSending && row.State != storage.RowStarting && row.State != storage.RowRunning {
		row.Uploads = run.removeUploads(row.Uploads)
	}
	ok, err := run.a.db.MoveRow(run.save, from, row)
	return run.kept(row, ok, err)
}

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

func (run *batchRun) kept(row storage.BatchRow, ok bool, err error) bool {
	if err != nil {
		run.fail(err)
		return false
	}
	run.mu.Lock()
	defer run.mu.Unlock()
	if ok {
		i, _ := slices.BinarySearchFunc(run.rows, row.Row, func(r storage.BatchRow, n int) int { return r.Row - n })
		run.spent += credit(row.Credits) - credit(run.rows[i].Credits)
		run.rows[i] = row
	}
	return ok
}

// prepare settles what a previous run left: a row that may have reached the
// service fails, one still sending waits again; it returns the rows to look up.
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
			if row.Asked > 0 {
				// Its first reply was had: kept for a look, not paid for again.
				row.State, row.Error = storage.RowLook, lang.L("Agent Desk stopped while asking the agent again for the facts. Its first reply is kept.")
			}
		}
		if from != row.State || len(row.Uploads) > 0 {
			if !run.move(from, row) && run.err() != nil {
				return nil, run.err()
			}
		}
		if row.State == storage.RowDone && len(row.Files) == 0 && IsMediaOutput(run.agent.Type, row.Result) {
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

// work looks up lookups and sends the waiting rows, Parallel at once; rows on
// their way may pass the credit cap by a few.
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
			run.move(storage.RowSending, row)
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
			run.move(storage.RowSending, row)
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
		run.move(storage.RowStarting, row)
		return
	}
	row.State, row.ExecutionID = storage.RowRunning, string(e.ID)
	if run.move(storage.RowStarting, row) {
		run.finish(row, e)
	}
}

// finish waits for row's execution e; when ctx ends first the row stays running.
func (run *batchRun) finish(row storage.BatchRow, e *client.Execution) {
	var err error
	if !e.Terminal() {
		var w *client.Execution
		if w, err = run.a.Client().Wait(run.ctx, run.agent.ID, e.ID); w != nil {
			e = w
		}
	} else if !e.Succeeded() {
		err = &client.ExecutionError{Execution: *e, Text: e.Reason()}
	}
	if e.Terminal() {
		run.a.Ledger().Record(run.save, storage.CreditsExecution, string(run.agent.ID), run.agent.Title, string(e.ID), e.Credits)
	}
	if e.Credits.Valid {
		// Asked again, a row has cost both questions.
		c := e.Credits.Value
		if row.Asked > 0 {
			c += credit(row.Credits)
		}
		row.Credits = &c
	}
	switch {
	case err == nil && e.Succeeded():
		row.State, row.Result = storage.RowDone, e.Output
		row.Files = run.saveOutput(row)
		if len(run.b.Fields) > 0 && !run.facts(&row, e) {
			return // asked again: that question's answer moves the row on
		}
	case !e.Terminal() && client.IsNotFound(err) && row.Asked > 0:
		row.State, row.Error = storage.RowLook, lang.L("The service no longer has the agent's second reply. Its first reply is kept.")
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
	case row.Asked > 0:
		// Asked again, it did not answer: the first reply is kept for a look.
		row.State, row.Error = storage.RowLook, lang.L("The agent was asked again for the facts and did not answer, so its first reply is kept. {{.Why}}", map[string]any{"Why": Describe(err)})
	default:
		row.State, row.Result, row.Error = storage.RowFailed, e.Result(), Describe(err)
	}
	run.move(storage.RowRunning, row)
}

// facts reads the facts asked for out of row's reply from e: all there, the
// row is done with them; else a chat agent is asked once more in the same
// conversation (false: that question's answer moves the row on), and a row
// still without them needs a look, its reply kept.
func (run *batchRun) facts(row *storage.BatchRow, e *client.Execution) bool {
	got := ReadFields(row.Result, run.b.Fields)
	switch {
	case got.Fits():
		row.Values = got.Values
	case run.agent.Type == client.AgentChat && row.Asked == 0:
		run.askAgain(*row, e, got)
		return false
	default:
		row.State, row.Error = storage.RowLook, got.Problem()
	}
	return true
}

// askAgain asks a chat agent, in the conversation of its reply e, for the
// facts its reply lacked: once, a deliberate second question paid for like
// the first. The row is marked asked before the question leaves, so that
// after a crash it is never asked a third time.
func (run *batchRun) askAgain(row storage.BatchRow, e *client.Execution, got FieldsReply) {
	req := planOf(run.b).Request(run.agent, row.Cells)
	// The row's files went up already: their answers are the same files.
	answers := req.Answers
	for i, name := range slices.Sorted(maps.Keys(req.Files)) {
		if name != "" && i < len(row.Uploads) {
			answers[name] = row.Uploads[i]
		}
	}
	params := client.ExecuteParams{Answers: ExecuteAnswers(run.agent, answers), Messages: []client.Message{
		{Role: client.RoleUser, Content: req.Message},
		{Role: client.RoleAssistant, Content: row.Result},
		{Role: client.RoleUser, Content: fieldsFollowUp(got, run.b.Fields)},
	}}
	params.Answers["root_id"] = string(cmp.Or(e.RootID, e.ID))
	row.State, row.Asked = storage.RowStarting, 1
	if !run.move(storage.RowRunning, row) {
		if run.err() == nil { // cancelled meanwhile: not asked
			row.State, row.Asked, row.Error = storage.RowLook, 0, got.Problem()
			run.move(storage.RowRunning, row)
		}
		return
	}
	ask, cancel := context.WithTimeout(run.save, 2*time.Minute)
	again, err := run.a.Client().Start(ask, run.agent.ID, params)
	cancel()
	if err != nil {
		why := Describe(err)
		if !errors.As(err, new(*client.APIError)) {
			why = lang.L("The connection broke, so it is not known whether the question reached the agent.")
		}
		row.State, row.Error = storage.RowLook, lang.L("The agent was asked again for the facts and did not answer, so its first reply is kept. {{.Why}}", map[string]any{"Why": why})
		run.move(storage.RowStarting, row)
		return
	}
	row.State, row.ExecutionID = storage.RowRunning, string(again.ID)
	if run.move(storage.RowStarting, row) {
		run.finish(row, again)
	}
}

// removeUploads returns the files it could not remove from the service.
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

// saveOutput saves the picture or video a row made; nil when none or not now.
func (run *batchRun) saveOutput(row storage.BatchRow) []string {
	if !IsMediaOutput(run.agent.Type, row.Result) {
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

// writeResults writes the results at most once a second, and a tenth of the time.
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

// end writes the results and the state: paused when stopped or a row is
// left, running when closing (offered at the next start), else done.
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

func tally(rows []storage.BatchRow) (map[storage.RowState]int, float64) {
	counts := map[storage.RowState]int{}
	spent := 0.0
	for _, r := range rows {
		counts[r.State]++
		spent += credit(r.Credits)
	}
	return counts, spent
}

func onTheWay(counts map[storage.RowState]int) int {
	return counts[storage.RowSending] + counts[storage.RowStarting] + counts[storage.RowRunning]
}

func credit(c *float64) float64 {
	if c == nil {
		return 0
	}
	return *c
}

// unknownFate is why a row the service may or may not have got is not sent again.
func unknownFate() string {
	return lang.L("Agent Desk stopped while this row was being sent, so it may or may not have run. It was not sent again: use Retry failed rows to send it.")
}
