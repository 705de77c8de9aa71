package demoservice

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Execution modes recorded on ExecutionRecord.Mode.
const (
	ModeWait            = "wait"
	ModePoll            = "poll"
	ModeStream          = "stream"
	ModeChatCompletions = "chat-completions"
)

// Execution statuses. A finished run is StatusCompleted internally and in
// streams; the real reading shows StatusSucceeded when polled or waited for.
const (
	StatusStarting  = "starting"
	StatusRunning   = "running"
	StatusCompleted = "completed"
	StatusSucceeded = "succeeded"
	StatusFailed    = "failed"
)

const failedRunMessage = "The agent could not finish: the model did not answer in time."

// maxFilesPerSend is the real service's limit on file_ids in one execution.
const maxFilesPerSend = 5

// startingCredits is the small figure an accepted execution reports.
const startingCredits = 0.01

type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// ExecutionRecord is a read-only snapshot of one execution received.
type ExecutionRecord struct {
	ID          int64
	AgentID     int64
	WorkspaceID int64
	RootID      int64
	Mode        string // ModeWait, ModePoll, ModeStream or ModeChatCompletions
	Answers     map[string]any
	Messages    []Message
	FileIDs     []int64
	Input       string
	Status      string
	Output      string   // the whole text produced so far
	Credits     *float64 // nil while running; never written through
	Error       string   // why a StatusFailed run failed
	// Stopped is true when the client left before completion; generation stopped then.
	Stopped   bool
	CreatedAt time.Time
	UpdatedAt time.Time
}

// execution is the live state of one run; fields are guarded by Service.mu.
type execution struct {
	rec       ExecutionRecord
	fragments []string
	final     float64       // credits once completed
	fail      bool          // Faults.FailExecutions: the run fails halfway
	done      chan struct{} // closed when the progression ends
}

// recordJSON is the execution response record on the wire.
// Assumption: error is always present: null (the shown flow), or, in the
// spec reading, {"message": ...} on a failed run; input is present on
// blocking and polled records only. The real service has no error on its
// records: a failed run's reason is its output, which clients show as the
// description.
type recordJSON struct {
	ID         int64    `json:"id"`
	Status     string   `json:"status"`
	Input      *string  `json:"input,omitempty"`
	Output     string   `json:"output"`
	Error      any      `json:"error"`
	Credits    *float64 `json:"credits"`
	RootID     int64    `json:"root_id"`
	CreatedAt  string   `json:"created_at"`
	UpdatedAt  string   `json:"updated_at"`
	TemplateID int64    `json:"template_id"`
}

// wire renders the record (call it under the lock); withInput adds input,
// polled shows a completed run as the real reading's polled and blocking
// answers do: succeeded.
func (s *Service) wire(e *execution, withInput, polled bool) recordJSON {
	j := recordJSON{
		ID: e.rec.ID, Status: e.rec.Status, Output: e.rec.Output, Credits: e.rec.Credits,
		RootID: e.rec.RootID, CreatedAt: microZ(e.rec.CreatedAt), UpdatedAt: microZ(e.rec.UpdatedAt),
		TemplateID: e.rec.AgentID,
	}
	if polled && s.real && j.Status == StatusCompleted {
		j.Status = StatusSucceeded
	}
	switch {
	case e.rec.Error != "" && s.real:
		j.Output = e.rec.Error
	case e.rec.Error != "":
		j.Error = map[string]string{"message": e.rec.Error}
	}
	if withInput {
		in := e.rec.Input
		j.Input = &in
	}
	return j
}

func (s *Service) recordOf(e *execution, withInput, polled bool) recordJSON {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.wire(e, withInput, polled)
}

type executeRequest struct {
	answers  map[string]any
	messages []Message
	fileIDs  []int64
	rootID   int64
	wait     bool
	stream   bool
	fail     bool
}

// execute answers POST /agents/{id}/execute in its three modes.
// Assumption: the real reading's non-stream answer is the spec one,
// {"template_id": "<id as a string>", "responses": [record]}; its docs show
// only that clients read responses[0].
func (s *Service) execute(w http.ResponseWriter, r *http.Request) {
	a := s.agentFromPath(r)
	body := readJSONObject(w, r)
	refuseInactive(a)
	req := s.validateExecute(r, a, body)
	req.fail = s.takeFailedRun()
	mode := ModePoll
	if req.stream {
		mode = ModeStream
	} else if req.wait {
		mode = ModeWait
	}
	e := s.startExecution(r, a, req, mode)
	if mode == ModeStream {
		s.streamExecution(w, r, e)
		return
	}
	rec := s.recordOf(e, false, false)
	if s.opts.Pace <= 0 && s.currentFaults().RunFor <= 0 {
		s.progress(e)
	} else {
		s.goBackground(func() { s.progress(e) })
	}
	if mode == ModeWait {
		// Waits up to the wait cap and answers with the record as it stands,
		// so the client can switch to polling.
		timer := time.NewTimer(s.opts.WaitCap)
		defer timer.Stop()
		select {
		case <-e.done:
		case <-timer.C:
		case <-s.ctx.Done():
		case <-r.Context().Done():
			return
		}
		rec = s.recordOf(e, true, true)
	}
	writeJSON(w, http.StatusOK, map[string]any{"template_id": strconv.FormatInt(a.ID, 10), "responses": []recordJSON{rec}})
}

// fragmentsOf cuts output into streamed fragments; with ReplyBytes it repeats
// output to that length, in large pieces.
func (s *Service) fragmentsOf(output string) []string {
	f := s.currentFaults()
	n := f.ReplyBytes
	if n <= 0 && f.OneEvent && output != "" {
		return []string{output}
	}
	if n <= 0 || output == "" {
		return splitFragments(output)
	}
	const piece = 256 << 10
	var frags []string
	unit := strings.Repeat(output+"\n\n", max(1, piece/(len(output)+2)))
	for sent := 0; sent < n; {
		f := unit[:min(len(unit), n-sent)]
		frags = append(frags, f)
		sent += len(f)
	}
	return frags
}

// startExecution records a new execution with its output already generated and split.
func (s *Service) startExecution(r *http.Request, a *Agent, req executeRequest, mode string) *execution {
	now := s.now()
	s.mu.Lock()
	s.nextExecID++
	id := s.nextExecID
	s.mu.Unlock()

	input := promptOf(a, req.answers, req.messages)
	output := s.produce(r, a, id, input, req)
	answers := maps.Clone(req.answers) // a chat's conversation is kept once, as Messages
	delete(answers, "messages")
	starting := startingCredits
	e := &execution{
		rec: ExecutionRecord{
			ID: id, AgentID: a.ID, WorkspaceID: a.WorkspaceID, RootID: cmp.Or(req.rootID, id), Mode: mode,
			Answers: answers, Messages: req.messages, FileIDs: req.fileIDs, Input: input,
			Status: StatusStarting, Credits: &starting, CreatedAt: now, UpdatedAt: now,
		},
		fragments: s.fragmentsOf(output),
		final:     executionCredits(a, output),
		fail:      req.fail,
		done:      make(chan struct{}),
	}
	s.mu.Lock()
	s.executions[id] = e
	if old, ok := s.executions[id-keptRequests-1]; ok {
		old.rec.Messages = nil
	}
	s.mu.Unlock()
	return e
}

// keptRequests is how many latest runs keep their messages: a chat resends
// its whole conversation, so keeping all would grow quadratically.
const keptRequests = 3

// produce makes the run's output: text, or the URL of a generated picture or clip.
func (s *Service) produce(r *http.Request, a *Agent, id int64, input string, req executeRequest) string {
	switch a.Type {
	case TypeImage:
		return s.registerImage(r, id, input, req.answers)
	case TypeVideo:
		seed, caption := seedOf(input, fmt.Sprint(req.answers["duration"])), promptAnswer(req.answers)
		return s.registerMedia(r, "videos", id, func() []byte { return renderMP4(seed, caption) })
	default:
		if reply := s.currentFaults().Reply; reply != "" {
			return reply
		}
		if reply, ok := factsReply(input, req.messages); ok {
			return reply
		}
		// The long reply with everything agents write is for trying a
		// client out; asked for a table or code, the reply has one that fits.
		words := s.speech.words
		if a.Type == TypeChat && asksFor(req.messages, words.Asks.Long...) {
			return RichReply()
		}
		out := words.reply(a, input, s.speech.inEnglish(req.answers), req.messages, req.fileIDs)
		if a.Type == TypeChat && asksFor(req.messages, words.Asks.Picture...) {
			// A chat agent asked for a picture names one in markdown, as real agents do.
			out += "\n\n![" + words.Sketch + "](" + s.registerImage(r, id, input, nil) + ")\n"
		}
		return out
	}
}

// asksFor reports whether the last message names any of words, accents aside.
func asksFor(msgs []Message, words ...string) bool {
	if len(msgs) == 0 {
		return false
	}
	last := folded(msgs[len(msgs)-1].Content)
	return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(last, folded(w)) })
}

// executionCredits prices a run in proportion to what it produced.
func executionCredits(a *Agent, output string) float64 {
	switch a.Type {
	case TypeImage:
		return 0.04
	case TypeVideo:
		return 0.25
	}
	return roundCredits(0.002 + float64(len(output))*0.00002)
}

func (s *Service) takeFailedRun() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.faults.FailExecutions > 0 {
		s.faults.FailExecutions--
		return true
	}
	return false
}

// poll answers a poll of an execution: GET /agent-responses/{id} (real)
// or GET /agents/{id}/responses/{responseId} (spec).
// Assumption: the polled record carries input, like the blocking answer, and
// its output is the text produced so far.
func (s *Service) poll(w http.ResponseWriter, r *http.Request) {
	name, mine := "id", func(e *execution) bool { return e.rec.WorkspaceID == workspaceOf(r) }
	if !s.real {
		a := s.agentFromPath(r)
		name, mine = "responseId", func(e *execution) bool { return e.rec.AgentID == a.ID }
	}
	e := byPath(s, r, name, s.executions, mine, "Response not found")
	writeJSON(w, http.StatusOK, s.recordOf(e, true, true))
}

// validateExecute checks the body against the questions and chat rules. The
// spec wants an answers object (root names merged) and wait_execution; the
// real reading takes questions at the root or, in its older documentation's
// style, in an answers object, and the wait flag in either spelling, body or
// query.
// Assumption: a name both at the root and in answers takes the reading's
// own place: answers in the spec reading, the root in the real one (where
// its newer documentation puts every input).
func (s *Service) validateExecute(r *http.Request, a *Agent, body map[string]any) executeRequest {
	var req executeRequest
	var errs fieldErrors

	waits := []string{"wait_execution"}
	if s.real {
		waits = []string{"waitExecution", "wait_execution"}
	}
	for _, flag := range waits {
		req.wait = boolField(&errs, body, flag) || req.wait
	}
	req.stream = boolField(&errs, body, "stream")
	for _, flag := range waits {
		on, ok := flagValue(r.URL.Query().Get(flag))
		req.wait = req.wait || (on && s.real)
		if !ok && s.real {
			errs.add(flag, "The "+flag+" field must be true or false.")
		}
	}

	answers := map[string]any{}
	switch m, isObj := body["answers"].(map[string]any); {
	case body["answers"] == nil && !s.real:
		// Even with every input at the root: so a client learns this server wants answers.
		errs.add("answers", "The answers field is required.")
	case body["answers"] == nil:
	case isObj:
		maps.Copy(answers, m)
	default:
		errs.add("answers", "The answers field must be an object.")
	}
	// fromRoot says whether name's value is the root's.
	fromRoot := func(name string) bool {
		_, atRoot := body[name]
		_, set := answers[name]
		return atRoot && (s.real || !set)
	}
	for _, q := range a.Questions {
		if fromRoot(q.Name) {
			answers[q.Name] = body[q.Name]
		}
		checkAnswer(&errs, q, answers[q.Name])
	}

	// Chat history: the top-level messages field, else the messages answer.
	rawMessages, hasMessages := body["messages"]
	if !hasMessages {
		rawMessages = answers["messages"]
	}
	decoded := true
	if rawMessages != nil {
		req.messages, decoded = decodeMessages(rawMessages, &errs)
		if len(req.messages) > 0 && !chatRulesHold(req.messages) {
			invalid("messages", chatRuleMessage)
		}
	}
	if decoded && a.Type == TypeChat && len(req.messages) == 0 {
		errs.addOnce("messages", "The messages field is required.")
	}

	if raw := body["file_ids"]; raw != nil {
		if list, isList := raw.([]any); s.real && isList && len(list) > maxFilesPerSend {
			errs.add("file_ids", fmt.Sprintf("You can attach at most %d files per send.", maxFilesPerSend))
		} else {
			req.fileIDs = s.checkFileIDs(&errs, workspaceOf(r), raw)
		}
	}

	// Assumption: root_id is not checked against earlier executions, so a
	// conversation kept by the app outlives a restart of this service.
	root := answers["root_id"]
	if fromRoot("root_id") {
		root = body["root_id"]
	}
	if root != nil && root != "" {
		if id, ok := asInt(root); ok && id > 0 {
			req.rootID = id
		} else {
			errs.addOnce("root_id", "The root_id field must be a positive integer.")
		}
	}

	errs.check()
	req.answers = answers
	return req
}

// flagValue reads a form or query flag: true, false, 1, 0 or "" (false).
func flagValue(v string) (on, ok bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "false", "0":
		return false, true
	case "true", "1":
		return true, true
	}
	return false, false
}

func boolField(errs *fieldErrors, body map[string]any, name string) bool {
	b, isBool := body[name].(bool)
	if body[name] != nil && !isBool {
		errs.add(name, "The "+name+" field must be true or false.")
	}
	return b
}

// answerKinds check the question types whose rule is the answer's kind: the
// check, and what the answer must be.
var answerKinds = map[string]struct {
	ok   func(any) bool
	must string
}{
	"number":         {isNumeric, "a number"},
	"array":          {is[[]any], "an array"},
	QuestionText:     {is[string], "a string"},
	QuestionTextarea: {is[string], "a string"},
	QuestionDate:     {isDate, "a valid date"},
	QuestionBoolean:  {isBoolean, "true or false"},
	QuestionObject:   {is[map[string]any], "an object"},
	QuestionFile:     {func(v any) bool { return is[json.Number](v) || is[string](v) || is[[]any](v) }, "a file id"},
}

func is[T any](v any) bool {
	_, ok := v.(T)
	return ok
}

// checkAnswer validates one answer; unknown types take any answer, as free text.
func checkAnswer(errs *fieldErrors, q Question, v any) {
	if list, isList := v.([]any); v == nil || v == "" || (isList && len(list) == 0 && q.Type != "array") {
		if q.Required && q.Name != "messages" {
			errs.add(q.Name, "The "+q.Name+" field is required.")
		}
		return
	}
	if kind, ok := answerKinds[q.Type]; ok && !kind.ok(v) {
		errs.add(q.Name, "The "+q.Name+" field must be "+kind.must+".")
		return
	}
	switch q.Type {
	case "select":
		if len(q.Options) == 0 {
			errs.add(q.Name, "The "+q.Name+" field has no options to choose from.")
		} else if str, isStr := v.(string); !isStr || !slices.Contains(q.Options, str) {
			errs.add(q.Name, fmt.Sprintf("The selected %s is invalid. Allowed values: %s.", q.Name, strings.Join(q.Options, ", ")))
		}
	case "number":
		n, _ := json.Number(strings.TrimSpace(fmt.Sprint(v))).Float64()
		switch {
		case q.Min != nil && q.Max != nil && (n < *q.Min || n > *q.Max):
			errs.add(q.Name, fmt.Sprintf("The %s field must be between %s and %s.", q.Name, numText(*q.Min), numText(*q.Max)))
		case q.Min != nil && n < *q.Min:
			errs.add(q.Name, fmt.Sprintf("The %s field must be at least %s.", q.Name, numText(*q.Min)))
		case q.Max != nil && n > *q.Max:
			errs.add(q.Name, fmt.Sprintf("The %s field must not be greater than %s.", q.Name, numText(*q.Max)))
		}
	case QuestionMultiselect:
		// Options, else the description read comma-separated, as real agents carry them.
		allowed := q.Options
		if len(allowed) == 0 {
			allowed = splitList(q.Description)
		}
		picked, ok := multiselectValues(v)
		if !ok || (len(allowed) > 0 && slices.ContainsFunc(picked, func(p string) bool { return !slices.Contains(allowed, p) })) {
			errs.add(q.Name, fmt.Sprintf("The selected %s is invalid. Allowed values: %s.", q.Name, strings.Join(allowed, ", ")))
		}
	}
}

// numText writes a bound without a needless fraction: 5, 0.5.
func numText(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// isDate accepts a string with an ISO date (2024-05-01) or date and time (RFC 3339).
func isDate(v any) bool {
	s, isStr := v.(string)
	if !isStr {
		return false
	}
	s = strings.TrimSpace(s)
	_, err := time.Parse(time.DateOnly, s)
	_, err2 := time.Parse(time.RFC3339, s)
	return err == nil || err2 == nil
}

// isBoolean accepts what a form sends for yes or no.
func isBoolean(v any) bool {
	switch x := v.(type) {
	case bool:
		return true
	case json.Number:
		return x == "0" || x == "1"
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "true", "false", "1", "0":
			return true
		}
	}
	return false
}

func splitList(s string) []string {
	var out []string
	for p := range strings.SplitSeq(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func multiselectValues(v any) ([]string, bool) {
	switch x := v.(type) {
	case string:
		return splitList(x), true
	case []any:
		out := make([]string, 0, len(x))
		for _, item := range x {
			str, isStr := item.(string)
			if !isStr {
				return nil, false
			}
			out = append(out, strings.TrimSpace(str))
		}
		return out, true
	}
	return nil, false
}

// chatRuleMessage is the interface's text for broken chat message rules.
const chatRuleMessage = "Chat messages must be a pair of user/assistant"

func decodeMessages(raw any, errs *fieldErrors) ([]Message, bool) {
	list, ok := raw.([]any)
	if !ok {
		errs.addOnce("messages", "The messages field must be an array.")
		return nil, false
	}
	msgs := make([]Message, 0, len(list))
	for i, item := range list {
		obj, isObj := item.(map[string]any)
		role, roleOK := obj["role"].(string)
		content, contentOK := obj["content"].(string)
		if !isObj || !roleOK || !contentOK {
			errs.add(fmt.Sprintf("messages.%d", i), "Each message must be an object with a role and a content string.")
			return nil, false
		}
		msgs = append(msgs, Message{Role: role, Content: content})
	}
	return msgs, true
}

// chatRulesHold checks: an optional developer message first, then user and
// assistant alternating, starting and ending with user; no system role.
// Assumption: the history must end with a user message (the turn to answer),
// and a role other than developer, user or assistant breaks the rules too.
func chatRulesHold(msgs []Message) bool {
	if len(msgs) > 0 && msgs[0].Role == "developer" {
		msgs = msgs[1:]
	}
	if len(msgs) == 0 {
		return false
	}
	for i, m := range msgs {
		want := "user"
		if i%2 == 1 {
			want = "assistant"
		}
		if m.Role != want {
			return false
		}
	}
	return msgs[len(msgs)-1].Role == "user"
}

func (s *Service) checkFileIDs(errs *fieldErrors, ws int64, raw any) []int64 {
	list, ok := raw.([]any)
	if !ok {
		errs.add("file_ids", "The file_ids field must be an array of file ids.")
		return nil
	}
	ids := make([]int64, 0, len(list))
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range list {
		id, ok := asInt(v)
		f, found := s.files[id]
		if !ok || !found || f.WorkspaceID != ws {
			shown, _ := json.Marshal(v)
			errs.add("file_ids", fmt.Sprintf("The selected file_ids is invalid: no file %s in this workspace.", shown))
			return nil
		}
		ids = append(ids, id)
	}
	return ids
}

// promptOf is the execution's input: the last user message, else the prompt
// answer, else a sentence from the answers.
func promptOf(a *Agent, answers map[string]any, msgs []Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			return msgs[i].Content
		}
	}
	if p := promptAnswer(answers); p != "" {
		return p
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(answers)) {
		if k != "messages" && k != "root_id" {
			parts = append(parts, fmt.Sprintf("%s: %v", k, answers[k]))
		}
	}
	if len(parts) == 0 {
		return a.Title
	}
	return a.Title + " — " + strings.Join(parts, ", ")
}

func promptAnswer(answers map[string]any) string {
	p, _ := answers["prompt"].(string)
	return strings.TrimSpace(p)
}

// Executions returns a snapshot of every execution received, oldest first.
func (s *Service) Executions() []ExecutionRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]ExecutionRecord, 0, len(s.executions))
	for _, id := range slices.Sorted(maps.Keys(s.executions)) {
		rec := s.executions[id].rec
		rec.Messages = slices.Clone(rec.Messages)
		rec.FileIDs = slices.Clone(rec.FileIDs)
		rec.Answers = maps.Clone(rec.Answers)
		out = append(out, rec)
	}
	return out
}
