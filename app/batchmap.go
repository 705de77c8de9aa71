package app

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/client"
)

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
