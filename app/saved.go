package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/safe"
	"github.com/agentdesk/agentdesk/storage"
)

// SavedAnswers keeps filled forms under a name for their agent, runs them
// again as the Run button does, says what no longer fits when the agent's
// questions changed, and moves them between colleagues as small files
// (App.SavedAnswers).
type SavedAnswers struct{ a *App }

func (a *App) SavedAnswers() *SavedAnswers { return &SavedAnswers{a} }

// ErrSavedNameTaken: the agent already has a saved answer of that name in
// the account. Saving again with replace replaces it.
var ErrSavedNameTaken = storage.ErrNameTaken

// SavedNameMax is the longest name a saved answer takes, in characters.
const SavedNameMax = 80

// Save keeps the agent's answers under name; a file question's answer is
// left out (files are chosen anew for each run). ErrSavedNameTaken when the
// agent has one of that name, unless replace.
func (svc *SavedAnswers) Save(ctx context.Context, agent client.Agent, name string, answers map[string]string, replace bool) (SavedAnswer, error) {
	name, err := savedName(name)
	if err != nil {
		return SavedAnswer{}, err
	}
	keep := map[string]string{}
	for k, v := range answers {
		if q := agent.Question(k); q == nil || q.Type != QuestionFile {
			keep[k] = v
		}
	}
	s := storage.SavedAnswer{
		AccountID: svc.a.AccountID(), AgentID: string(agent.ID), AgentTitle: safe.Text(agent.Title, 0),
		Name: name, Answers: keep, Questions: questionsOf(agent),
	}
	s, err = svc.a.db.AddSavedAnswer(ctx, s, replace)
	if errors.Is(err, storage.ErrNameTaken) {
		// Not the store's failure: the name is the user's to change.
		return SavedAnswer{}, sayWrapped(storage.ErrNameTaken, func() string {
			return lang.L("This agent already has a saved answer called “{{.Name}}”.", map[string]any{"Name": name})
		})
	}
	return s, err
}

// savedName is name made one plain line, or why it cannot be one.
func savedName(name string) (string, error) {
	name = strings.TrimSpace(safe.Text(name, 0))
	switch n := utf8.RuneCountInString(name); {
	case n == 0:
		return "", say(func() string { return lang.L("Give the saved answer a name.") })
	case n > SavedNameMax:
		return "", say(func() string {
			return lang.L("A name can be at most {{.Count}} characters long.", map[string]any{"Count": Number(SavedNameMax)})
		})
	}
	return name, nil
}

// questionsOf are the form's questions as a saved answer remembers them.
func questionsOf(agent client.Agent) []storage.SavedQuestion {
	var out []storage.SavedQuestion
	for _, q := range FormQuestions(agent) {
		out = append(out, storage.SavedQuestion{Name: q.Name, Type: q.Type})
	}
	return out
}

// List are the agent's saved answers, the one used or saved last first.
func (svc *SavedAnswers) List(ctx context.Context, agentID client.ID) ([]SavedAnswer, error) {
	return svc.a.db.SavedAnswers(ctx, svc.a.AccountID(), string(agentID))
}

// Listed is List read in the background on Reload, for a screen to show.
func (svc *SavedAnswers) Listed(agentID client.ID) *live.List[SavedAnswer] {
	return live.NewList(svc.a, func(ctx context.Context) ([]SavedAnswer, error) { return svc.List(ctx, agentID) })
}

// All are the account's saved answers of every agent, the one used or
// saved last first (for the command box).
func (svc *SavedAnswers) All(ctx context.Context) ([]SavedAnswer, error) {
	return svc.a.db.SavedAnswers(ctx, svc.a.AccountID(), "")
}

// Get reads one of the account's saved answers.
func (svc *SavedAnswers) Get(ctx context.Context, id int64) (SavedAnswer, error) {
	return svc.a.db.GetSavedAnswer(ctx, svc.a.AccountID(), id)
}

// Rename gives a saved answer another name; ErrSavedNameTaken when its
// agent has one of that name already.
func (svc *SavedAnswers) Rename(ctx context.Context, id int64, name string) error {
	name, err := savedName(name)
	if err != nil {
		return err
	}
	return svc.a.db.RenameSavedAnswer(ctx, svc.a.AccountID(), id, name)
}

// Delete removes a saved answer for good.
func (svc *SavedAnswers) Delete(ctx context.Context, id int64) error {
	return svc.a.db.DeleteSavedAnswer(ctx, svc.a.AccountID(), id)
}

// Misfit is one way a saved answer no longer fits its agent's questions.
type Misfit struct {
	// Question is the question's name; the question is no longer asked when Gone.
	Question string
	Gone     bool
	// Text says it in plain words.
	Text string
	// Blocks: the form would be refused, so the saved answer cannot run as it is.
	Blocks bool
}

// MisfitError refuses to run a saved answer that no longer fits its agent.
type MisfitError struct{ Misfits []Misfit }

func (e *MisfitError) Error() string {
	for _, m := range e.Misfits {
		if m.Blocks {
			return lang.L("This saved answer no longer fits the agent: open it to change what is needed. {{.Why}}", map[string]any{"Why": m.Text})
		}
	}
	return lang.L("This saved answer no longer fits the agent: open it to change what is needed.")
}

// Blocking reports whether one of misfits keeps the saved answer from running.
func Blocking(misfits []Misfit) bool {
	return slices.ContainsFunc(misfits, func(m Misfit) bool { return m.Blocks })
}

// choicesShown is how many of a question's choices a misfit names.
const choicesShown = 6

// answerShown is how much of an answer a misfit quotes.
const answerShown = 40

// Fit says, question by question in the form's order and then those no
// longer asked, what of saved no longer fits the agent's questions now: a
// question gone, a new or newly required one left empty, a choice no longer
// offered, a question that asks for another kind of answer.
func (svc *SavedAnswers) Fit(agent client.Agent, saved SavedAnswer) []Misfit {
	return fit(agent, saved)
}

func fit(agent client.Agent, saved SavedAnswer) []Misfit {
	var out []Misfit
	was := map[string]string{}
	for _, q := range saved.Questions {
		was[q.Name] = q.Type
	}
	asked := map[string]bool{}
	for _, q := range FormQuestions(agent) {
		asked[q.Name] = true
		if m, ok := misfitOf(q, saved.Answers, was); ok {
			out = append(out, m)
		}
	}
	var gone []string
	for name, v := range saved.Answers {
		if !asked[name] && strings.TrimSpace(v) != "" {
			gone = append(gone, name)
		}
	}
	slices.Sort(gone)
	for _, name := range gone {
		q := client.Question{Name: name}
		out = append(out, Misfit{Question: name, Gone: true, Text: lang.L("“{{.Question}}” is no longer asked, so its saved answer, “{{.Answer}}”, is left out.",
			map[string]any{"Question": questionWord(q), "Answer": safe.Text(saved.Answers[name], answerShown)})})
	}
	return out
}

// misfitOf is how the saved answers fit q now, if they do not.
func misfitOf(q client.Question, answers, was map[string]string) (Misfit, bool) {
	v, had := answers[q.Name]
	oldType, known := was[q.Name]
	words := map[string]any{"Question": questionWord(q)}
	m := Misfit{Question: q.Name, Blocks: true}
	if !had {
		v = Default(q)
	}
	_, problem := readAnswer(q, v)
	opts := Choices(q)
	switch {
	case q.Type == QuestionFile:
		if !q.Required {
			return Misfit{}, false
		}
		m.Text = lang.L("“{{.Question}}” needs a file each time: open the saved answer and choose one.", words)
	case known && oldType != q.Type && had && !blank(q, v):
		words["Kind"], words["Was"] = kindWords(q.Type), kindWords(oldType)
		m.Blocks = problem != ""
		m.Text = lang.L("“{{.Question}}” now asks for {{.Kind}} instead of {{.Was}}.", words)
		if m.Blocks {
			words["Answer"] = safe.Text(v, answerShown)
			m.Text = lang.L("“{{.Question}}” now asks for {{.Kind}} instead of {{.Was}}, so the saved answer, “{{.Answer}}”, does not fit.", words)
		}
	case q.Type == client.QuestionSelect && !blank(q, v) && len(opts) > 0 && !slices.Contains(opts, v):
		words["Choices"], words["Answer"] = choiceList(q, opts), choiceList(q, []string{v})
		m.Text = lang.L("“{{.Question}}” now offers {{.Choices}}; the saved answer says {{.Answer}}.", words)
	case q.Type == QuestionMultiselect && len(opts) > 0 && slices.ContainsFunc(ParseList(q, v), func(c string) bool { return !slices.Contains(opts, c) }):
		var left []string
		for _, c := range ParseList(q, v) {
			if !slices.Contains(opts, c) {
				left = append(left, c)
			}
		}
		words["Choices"] = choiceList(q, left)
		m.Text = lang.L("“{{.Question}}” no longer offers {{.Choices}}, which the saved answer chose.", words)
	case q.Required && blank(q, v) && !known:
		m.Text = lang.L("“{{.Question}}” is a new question that must be answered.", words)
	case q.Required && blank(q, v):
		m.Text = lang.L("“{{.Question}}” must now be answered; the saved answer leaves it empty.", words)
	case problem != "":
		words["Why"] = problem
		m.Text = lang.L("“{{.Question}}”: {{.Why}}", words)
	default:
		return Misfit{}, false
	}
	return m, true
}

// questionWord is a question's name as the form's label reads it.
func questionWord(q client.Question) string {
	if l := QuestionLabel(q); l != "" {
		return l
	}
	name := strings.TrimSpace(safe.Text(strings.ReplaceAll(q.Name, "_", " "), answerShown))
	if name == "" {
		return lang.L("Question")
	}
	r, n := utf8.DecodeRuneInString(name)
	return string(unicode.ToUpper(r)) + name[n:]
}

// choiceList names choices as the form shows them, the first few.
func choiceList(q client.Question, choices []string) string {
	labels := ChoiceLabels(q, choices)
	for i, l := range labels {
		labels[i] = safe.Text(l, answerShown)
	}
	if len(labels) > choicesShown {
		labels = append(labels[:choicesShown], "…")
	}
	return strings.Join(labels, ", ")
}

// kindWords says what a question of type asks for.
func kindWords(typ string) string {
	switch typ {
	case client.QuestionNumber:
		return lang.L("a number")
	case QuestionDate:
		return lang.L("a date")
	case client.QuestionSelect:
		return lang.L("one of its choices")
	case QuestionMultiselect:
		return lang.L("some of its choices")
	case QuestionBoolean:
		return lang.L("yes or no")
	case client.QuestionArray:
		return lang.L("a list")
	case QuestionObject:
		return lang.L("details written in curly brackets")
	case QuestionFile:
		return lang.L("a file")
	case QuestionText, QuestionTextarea:
		return lang.L("text")
	}
	return lang.L("another kind of answer")
}

// Answers are what of saved still fits the agent's form, as Open fills it
// and Run sends it: a choice no longer offered, or an answer of another
// kind that does not fit, is left empty; a question without a saved answer
// gets the agent's suggested one, as a new form does.
func (svc *SavedAnswers) Answers(agent client.Agent, saved SavedAnswer) map[string]string {
	out := map[string]string{}
	was := map[string]string{}
	for _, q := range saved.Questions {
		was[q.Name] = q.Type
	}
	for _, q := range FormQuestions(agent) {
		v, had := saved.Answers[q.Name]
		switch {
		case q.Type == QuestionFile:
			continue
		case !had:
			if d := Default(q); d != "" {
				out[q.Name] = d
			}
			continue
		case q.Type == QuestionMultiselect && len(Choices(q)) > 0:
			opts := Choices(q)
			kept := slices.DeleteFunc(ParseList(q, v), func(c string) bool { return !slices.Contains(opts, c) })
			v = JoinList(kept)
		}
		oldType, known := was[q.Name]
		if _, problem := readAnswer(q, v); problem != "" && !blank(q, v) && (q.Type == client.QuestionSelect || known && oldType != q.Type) {
			v = ""
		}
		out[q.Name] = v
	}
	return out
}

// Run runs the agent with a saved answer as the Run button would (credits,
// history and recent agents as for any run), once: a saved answer that no
// longer fits is refused with a *MisfitError and nothing is sent.
func (svc *SavedAnswers) Run(ctx context.Context, agent client.Agent, saved SavedAnswer) (*ActiveRun, error) {
	if misfits := fit(agent, saved); Blocking(misfits) {
		return nil, &MisfitError{Misfits: misfits}
	}
	ar, err := svc.a.runner.Start(agent, svc.Answers(agent, saved), nil)
	if err != nil {
		return nil, err
	}
	// Not noted costs only its place in the list; the run goes on.
	_ = svc.a.db.TouchSavedAnswer(ctx, svc.a.AccountID(), saved.ID)
	return ar, nil
}

// SavedAnswerFile is a saved answer as a file for a colleague: the agent
// and the answers, never a key, an account or an address.
type SavedAnswerFile struct {
	Version    int               `json:"agent_desk_saved_answer"`
	AgentID    string            `json:"agent_id"`
	AgentTitle string            `json:"agent_title"`
	Name       string            `json:"name"`
	Answers    map[string]string `json:"answers"`
}

// SavedAnswerVersion is the version of the file Agent Desk writes and reads.
const SavedAnswerVersion = 1

// Bounds of a saved answer's file: what is read of it, what it may hold.
const (
	SavedAnswerFileMax = 1 << 20
	savedAnswersMax    = 500 // answers in one file
	savedKeyMax        = 200 // a question's name, in bytes
	savedIDMax         = 128 // an agent's id, in bytes
	savedTitleMax      = 200
)

// Export is saved as its file's bytes.
func (svc *SavedAnswers) Export(saved SavedAnswer) ([]byte, error) {
	f := SavedAnswerFile{Version: SavedAnswerVersion, AgentID: saved.AgentID, AgentTitle: saved.AgentTitle, Name: saved.Name, Answers: saved.Answers}
	if f.Answers == nil {
		f.Answers = map[string]string{}
	}
	b, err := json.MarshalIndent(f, "", "  ")
	return append(b, '\n'), err
}

// ExportName is the file name Export… suggests.
func ExportName(saved SavedAnswer) string { return safe.FileName(saved.Name, ".json", "answers") }

var (
	errNotSavedAnswer = say(func() string {
		return lang.L("This file is not a saved answer from Agent Desk, so nothing was imported.")
	})
	errSavedTooLarge = say(func() string {
		return lang.L("This file is larger than a saved answer can be ({{.Size}}), so it was not read.", map[string]any{"Size": HumanBytes(SavedAnswerFileMax)})
	})
	errSavedNewer = say(func() string {
		return lang.L("This saved answer was written by a newer Agent Desk. Update Agent Desk to import it.")
	})
)

// ParseSavedAnswer reads a saved answer's file, refusing in one plain
// sentence anything but that shape within its bounds; its name and title
// come back made one safe line.
func ParseSavedAnswer(data []byte) (SavedAnswerFile, error) {
	if len(data) > SavedAnswerFileMax {
		return SavedAnswerFile{}, errSavedTooLarge
	}
	var head map[string]json.RawMessage
	if json.Unmarshal(data, &head) != nil {
		return SavedAnswerFile{}, errNotSavedAnswer
	}
	var version int
	if json.Unmarshal(head["agent_desk_saved_answer"], &version) != nil || version < 1 {
		return SavedAnswerFile{}, errNotSavedAnswer
	}
	if version > SavedAnswerVersion {
		return SavedAnswerFile{}, errSavedNewer
	}
	var f SavedAnswerFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if dec.Decode(&f) != nil || dec.Decode(&struct{}{}) != io.EOF {
		return SavedAnswerFile{}, errNotSavedAnswer
	}
	if f.Answers == nil {
		f.Answers = map[string]string{}
	}
	f.Name = strings.TrimSpace(safe.Text(f.Name, SavedNameMax))
	f.AgentTitle = safe.Text(f.AgentTitle, savedTitleMax)
	if f.Name == "" || !agentIDOK(f.AgentID) || len(f.Answers) > savedAnswersMax {
		return SavedAnswerFile{}, errNotSavedAnswer
	}
	for k := range f.Answers {
		if k == "" || len(k) > savedKeyMax || safe.Text(k, 0) != k {
			return SavedAnswerFile{}, errNotSavedAnswer
		}
	}
	return f, nil
}

// agentIDOK: an agent's id is one short plain word, never a path.
func agentIDOK(id string) bool {
	return id != "" && len(id) <= savedIDMax && safe.Text(id, 0) == id && !strings.ContainsAny(id, " /\\?#%")
}

// Import reads a saved answer's file and keeps it for the agent it names,
// when that agent is on the account in use (the service is asked).
// ErrSavedNameTaken when that agent has one of its name, unless replace.
func (svc *SavedAnswers) Import(ctx context.Context, path string, replace bool) (SavedAnswer, error) {
	fh, err := os.Open(path)
	if err != nil {
		return SavedAnswer{}, err
	}
	data, err := io.ReadAll(io.LimitReader(fh, SavedAnswerFileMax+1))
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return SavedAnswer{}, err
	}
	f, err := ParseSavedAnswer(data)
	if err != nil {
		return SavedAnswer{}, err
	}
	agent, err := svc.a.Agents().Get(ctx, client.ID(f.AgentID))
	switch {
	case client.IsNotFound(err):
		who := f.AgentTitle
		if who == "" {
			who = f.AgentID
		}
		return SavedAnswer{}, say(func() string {
			return lang.L("This saved answer is for the agent “{{.Agent}}”, which the account in use does not have, so it was not imported.", map[string]any{"Agent": who})
		})
	case err != nil:
		return SavedAnswer{}, err
	case agent.Type == client.AgentChat:
		return SavedAnswer{}, say(func() string {
			return lang.L("This saved answer is for a chat agent, which is not run from a form, so it was not imported.")
		})
	}
	return svc.Save(ctx, *agent, f.Name, maps.Clone(f.Answers), replace)
}
