package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/app/sheet"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/storage"
)

// A batch runs one agent over the rows of a sheet. Its queue lives in the
// history, and no row is sent twice: a row is marked as being sent before
// its request leaves, its execution id kept once the service answers; on the
// next start a row with an id is looked up, and one without waits for Retry failed rows.

// BatchPlan is how a batch runs: which column answers which question, the
// answers fixed for every row, rows at once, and the credits after which it pauses (0: none).
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
}

// FileChecks remembers, per folder and cell, the file a cell named and
// why it cannot be sent (BatchPlan.Seen).
type FileChecks struct {
	mu sync.Mutex
	m  map[[2]string][2]string
}

// New keeps the rows of a sheet read whole as a batch of agent's runs,
// every row waiting, to run as plan says. Nothing is sent.
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

// NewFromLines keeps pasted lines as a batch, each answering question; the
// results sheet goes to results (.csv or .xlsx). Nothing is sent.
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

// NewFromFiles keeps files (names inside folder) as a batch: one run each,
// the file answering the agent's file question or attached to the run.
// The results sheet goes to results (beside the folder when empty). Nothing is sent.
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

// FolderFile is a file a folder holds, as a batch over the folder would
// send it.
type FolderFile struct {
	Name    string // inside the folder ("scans/01.pdf")
	Ext     string // its extension in lower case (".pdf"), "" for none
	Size    int64
	Problem string // why it cannot be sent, "" when it can
}

// FolderFiles are the files in folder and its folders, by PlanUpload's rules;
// it reads names and sizes, never content.
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

// Room checks that the service has room for the files a batch sends at once.
func (svc *BatchRunner) Room(ctx context.Context, agent client.Agent, p BatchPlan) error {
	return svc.a.batchRoom(ctx, agent, p, 0)
}

// batchRoom is BatchRoom for a batch whose rows hold own of the files
// the service keeps (they leave it as those rows end).
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
		Folder: plan.Folder, Attach: plan.Attach,
	}
	// Chosen once: a second batch over the same sheet writes beside the first one's.
	if b.Results == "" {
		b.Results = FreePath(batchResultsPath(b))
	}
	b.Outputs = strings.TrimSuffix(b.Results, filepath.Ext(b.Results)) + " " + lang.L("files")
	b.Planned = b.Results
	// The results sheet is there from the start, every row waiting: the
	// name is taken, and the next batch picks another.
	written, err := writeResults(b, rows)
	if err != nil {
		return b, err
	}
	b.Results = written
	if b, err = a.db.CreateBatch(ctx, b, rows); err != nil {
		_ = os.Remove(written) // no batch, no sheet of its waiting rows
	}
	return b, err
}

// FreePath is path for a batch's results, or when it or its files folder
// is taken the first free "name (2).ext", "name (3).ext"…; a name the disk
// cannot answer for is returned as is: writing it then says what is wrong.
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
	return svc.a.db.SetBatchCreditCap(ctx, id, max(0, credits))
}

// planOf is the plan batch b was made with.
func planOf(b storage.Batch) BatchPlan {
	return BatchPlan{Columns: b.Columns, Fixed: b.Fixed, Parallel: b.Parallel, CreditCap: b.CreditCap, Folder: b.Folder, Attach: b.Attach}
}

// Unfinished are the batches running when Agent Desk last closed, and
// cancelled ones with rows still to look up, to offer to go on with.
func (svc *BatchRunner) Unfinished(ctx context.Context) ([]storage.Batch, error) {
	all, err := svc.a.db.Batches(ctx, svc.a.AccountID(), 100)
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
			counts, _, err := svc.a.db.BatchCounts(ctx, b.ID)
			if err != nil {
				return nil, err
			}
			if onTheWay(counts) > 0 {
				out = append(out, b)
			}
		}
	}
	return out, nil
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
// name in words; the nameless question is the file attached to each run.
func BatchQuestionName(q client.Question) string {
	if q.Name == "" {
		return lang.L("File")
	}
	if l := batchLabel(q); l != "" {
		return l
	}
	return strings.ReplaceAll(q.Name, "_", " ")
}

// writeResults writes batch b's results sheet: the source's columns, then
// the result, status, credits and execution id. The sheet is whole at every
// moment; when its name is held (open elsewhere) a new one is used and returned.
func writeResults(b storage.Batch, rows []storage.BatchRow) (string, error) {
	header := append(slices.Clone(b.Header), lang.L("Result"), lang.L("Status"), lang.L("Credits"), lang.L("Execution"))
	made := slices.ContainsFunc(rows, func(r storage.BatchRow) bool { return len(r.Files) > 0 })
	if made {
		header = append(header, lang.L("Files"))
	}
	out := make([][]string, len(rows))
	for i, r := range rows {
		cells := make([]string, len(b.Header), len(b.Header)+5)
		copy(cells, r.Cells)
		result := r.Result
		if r.Error != "" {
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
	}
	// Spreadsheet programs where numbers take a decimal comma separate a
	// CSV's cells with a semicolon.
	comma := ','
	if decimalComma() {
		comma = ';'
	}
	return sheet.Write(batchResultsPath(b), header, out, comma)
}

// keepResults writes b's results sheet from rows and keeps where it went.
func (a *App) keepResults(ctx context.Context, b storage.Batch, rows []storage.BatchRow) (storage.Batch, error) {
	written, err := writeResults(b, rows)
	if err != nil || written == b.Results {
		return b, err
	}
	b.Results = written
	return b, a.db.SetBatchResults(ctx, b.ID, written)
}

// batchResults reads batch id and its rows once and writes its results
// sheet.
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

// batchResultsPath is where a batch's results sheet goes: where it was last
// written, else beside its source in its format (beside a folder, Excel).
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

// BatchRowState is a row's state in words (Done, Failed, Skipped, Running,
// Waiting), as the results sheet writes it.
func BatchRowState(state storage.RowState) string {
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

// Each row of a sheet becomes one request, its columns matched to the
// questions by name; what a row would be refused for is found before sending.

// ColumnMap says which column (by index) answers each question, by the
// question's name; a question no column answers is absent.
type ColumnMap map[string]int

// MatchColumns matches column names to agent's questions, by name or label,
// whatever the case, spaces, "_" and "-" ("Due date", "DUE-DATE"). Each
// column answers one question at most; the first of two alike wins.
func MatchColumns(agent client.Agent, header []string) ColumnMap {
	m := ColumnMap{}
	taken := map[int]bool{}
	for _, q := range BatchQuestions(agent) {
		names := []string{columnKey(q.Name)}
		if l := batchLabel(q); l != "" {
			names = append(names, columnKey(l))
		}
		for i, h := range header {
			if taken[i] {
				continue
			}
			key := columnKey(h)
			if key == "" {
				continue
			}
			for _, n := range names {
				if key == n {
					m[q.Name], taken[i] = i, true
					break
				}
			}
			if _, ok := m[q.Name]; ok {
				break
			}
		}
	}
	return m
}

// columnKey is a name as columns are matched: letters and digits only,
// lower case.
func columnKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// MissingColumns are the required questions of agent that neither a
// column nor a fixed value answers: every row would be refused.
func MissingColumns(agent client.Agent, m ColumnMap, fixed map[string]string) []client.Question {
	var out []client.Question
	for _, q := range BatchQuestions(agent) {
		if !q.Required {
			continue
		}
		if _, ok := m[q.Name]; ok {
			continue
		}
		if strings.TrimSpace(fixed[q.Name]) != "" {
			continue
		}
		out = append(out, q)
	}
	return out
}

// ChatMessage is the name under which a chat agent's message is matched
// to a column: a chat agent runs each row as a chat of one message.
const ChatMessage = "messages"

// BatchQuestions are the questions a batch answers for agent: the form's,
// and for a chat agent the message each row sends first.
func BatchQuestions(agent client.Agent) []client.Question {
	qs := FormQuestions(agent)
	if agent.Type != client.AgentChat {
		return qs
	}
	// Each row is a chat of its own: the conversation to go on with
	// (root_id) is no question of a batch.
	qs = slices.DeleteFunc(slices.Clone(qs), func(q client.Question) bool { return q.Name == "root_id" })
	return append([]client.Question{{Name: ChatMessage, Type: QuestionTextarea, Required: true, Description: lang.L("Message")}}, qs...)
}

// batchLabel is the name a batch question goes by besides its own.
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

// Request is what the row of cells asks of agent under plan p: the matched
// cells, the fixed values for the rest, and what the service would refuse.
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

// rowFile is the file a cell names inside the batch's folder, or why it
// cannot be sent: a sheet made by someone else cannot send what the user did
// not choose. The name is judged before the disk is asked (a cell naming a
// share must not connect to it), then the real file must be inside too.
func (p BatchPlan) rowFile(cell string) (path, problem string) {
	if p.Seen == nil {
		return p.checkFile(cell)
	}
	key := [2]string{p.Folder, cell}
	p.Seen.mu.Lock()
	defer p.Seen.mu.Unlock()
	if v, ok := p.Seen.m[key]; ok {
		return v[0], v[1]
	}
	path, problem = p.checkFile(cell)
	if p.Seen.m == nil {
		p.Seen.m = map[[2]string][2]string{}
	}
	p.Seen.m[key] = [2]string{path, problem}
	return path, problem
}

// checkFile is rowFile, asking the disk.
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

// sheetDateLayouts are the ways a date reaches Agent Desk from a sheet: as
// written, and as Excel shows a date cell by default (month first, two-digit year).
var sheetDateLayouts = []string{
	DateLayout, "2/1/2006", "02/01/2006", "2-1-2006", "2.1.2006", "2 Jan 2006", "2 January 2006",
	"01-02-06", "1-2-06", "2006/1/2",
}

// SheetDate is a date cell as the service reads dates (2026-11-25), or the
// cell as it is when it is no date (the row's check then says so).
func SheetDate(cell string) string {
	s := strings.TrimSpace(cell)
	for _, layout := range sheetDateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.Format(DateLayout)
		}
	}
	return cell
}
