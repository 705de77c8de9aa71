package app

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/safe"
)

// An agent's questions, as the run form asks them and the execution sends
// them. The form keeps every answer as text (drafts, the settings'
// LastAnswers and the history keep text too): a list (array, multiselect)
// as a JSON array of strings, an object as its JSON text, a file as its
// id, a date as 2026-11-25, a yes/no as "true" or "false". CheckAnswers
// says what is wrong before anything is sent, in words for the field;
// ExecuteAnswers turns the text into what the service takes.
//
// The interface names select, number and array; the real service's
// clients also handle textarea, multiselect (its options comma-separated
// in the description), file, text, boolean and object, and the optional
// keys default and placeholder (real-service.md, Question object). Any
// other type is answered as a line of text, so that no question blocks a
// run.

// Question types the form gives their own field, beside the interface's
// client.QuestionSelect, QuestionNumber and QuestionArray; any other type
// is a line of text.
const (
	QuestionText        = "text"
	QuestionTextarea    = "textarea"
	QuestionBoolean     = "boolean"
	QuestionDate        = "date"
	QuestionMultiselect = "multiselect"
	QuestionFile        = "file"
	QuestionObject      = "object"
)

// FormQuestions are the questions the run form shows: a chat agent's
// messages are the chat screen's business.
func FormQuestions(agent client.Agent) []client.Question {
	out := make([]client.Question, 0, len(agent.Questions))
	for _, q := range agent.Questions {
		if q.Type == client.QuestionArray && q.Name == "messages" {
			continue
		}
		out = append(out, q)
	}
	return out
}

// NoChoicesNote says why a required choice with nothing to choose from
// stops a run: the agent is set up wrong, and only its owner can fix it.
func NoChoicesNote() string {
	return lang.L("This question has nothing to choose from, so the agent is set up wrong and cannot run. Ask whoever looks after the agent to add its choices.")
}

// Blocked names the first question no answer can satisfy (a required
// choice without choices) and why, or "" when the agent can be run.
func Blocked(agent client.Agent) (question, why string) {
	for _, q := range FormQuestions(agent) {
		if noChoices(q) && q.Required {
			return q.Name, NoChoicesNote()
		}
	}
	return "", ""
}

// noChoices reports a choice (single or several) with nothing to choose.
func noChoices(q client.Question) bool {
	switch q.Type {
	case client.QuestionSelect, QuestionMultiselect:
		return len(Choices(q)) == 0
	}
	return false
}

// Choices are what a select or multiselect question offers: its options,
// or, for a multiselect without them, the comma-separated words of its
// description, as the real service's clients read it.
func Choices(q client.Question) []string {
	if len(q.Options) > 0 || q.Type != QuestionMultiselect {
		return q.Options
	}
	return splitChoices(q.Description)
}

// ChoicesFromDescription reports a multiselect whose choices are its
// description; the description is then no help text.
func ChoicesFromDescription(q client.Question) bool {
	return q.Type == QuestionMultiselect && len(q.Options) == 0 && len(splitChoices(q.Description)) > 0
}

func splitChoices(s string) []string {
	var out []string
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part != "" && !seen[part] {
			seen[part] = true
			out = append(out, part)
		}
	}
	return out
}

// IsDate reports whether s is a date as the service takes it (2026-11-25).
func IsDate(s string) bool {
	_, err := time.Parse(DateLayout, strings.TrimSpace(s))
	return err == nil
}

// DateLayout is how a date answer is written and sent: 2026-11-25.
const DateLayout = "2006-01-02"

// IsNumber reports whether s is a plain decimal number.
func IsNumber(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil && json.Valid([]byte(s))
}

// Bounds are the smallest and largest number a number question takes, when
// the agent gives them (Extra keys min and max, or minimum and maximum).
// Bounds the wrong way round are ignored: the agent is set up wrong, and
// the service has the last word.
func Bounds(q client.Question) (lo, hi *float64) {
	lo = extraNumber(q, "min", "minimum")
	hi = extraNumber(q, "max", "maximum")
	if lo != nil && hi != nil && *lo > *hi {
		return nil, nil
	}
	return lo, hi
}

func extraNumber(q client.Question, keys ...string) *float64 {
	for _, k := range keys {
		raw, ok := q.Extra[k]
		if !ok {
			continue
		}
		var v any
		if json.Unmarshal(raw, &v) != nil {
			continue
		}
		switch x := v.(type) {
		case float64:
			if b := finite(x); b != nil {
				return b
			}
		case string:
			if f, err := strconv.ParseFloat(strings.TrimSpace(x), 64); err == nil {
				if b := finite(f); b != nil {
					return b
				}
			}
		}
	}
	return nil
}

// finite returns &f, or nil for NaN and the infinities (which
// strconv.ParseFloat reads from "NaN", "Inf" and "infinity"): no bound.
func finite(f float64) *float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	return &f
}

// formatNumber writes a bound as people write it: 5, 0.5, 120 (with a
// point in every language: the field takes numbers written so).
func formatNumber(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// RangeText says which numbers q takes, for its help text ("From 5 to
// 120.", "5 or more."), or "" when the agent gives no bounds.
func RangeText(q client.Question) string {
	lo, hi := Bounds(q)
	switch {
	case lo != nil && hi != nil:
		return lang.L("From {{.Low}} to {{.High}}.", map[string]any{"Low": formatNumber(*lo), "High": formatNumber(*hi)})
	case lo != nil:
		return lang.L("{{.Low}} or more.", map[string]any{"Low": formatNumber(*lo)})
	case hi != nil:
		return lang.L("{{.High}} or less.", map[string]any{"High": formatNumber(*hi)})
	}
	return ""
}

// rangeMessage is the note at a number field whose answer is not a number
// in q's bounds ("Please enter a number from 5 to 120."); "" when q has
// none.
func rangeMessage(q client.Question) string {
	lo, hi := Bounds(q)
	switch {
	case lo != nil && hi != nil:
		return lang.L("Please enter a number from {{.Low}} to {{.High}}.", map[string]any{"Low": formatNumber(*lo), "High": formatNumber(*hi)})
	case lo != nil:
		return lang.L("Please enter a number of {{.Low}} or more.", map[string]any{"Low": formatNumber(*lo)})
	case hi != nil:
		return lang.L("Please enter a number of {{.High}} or less.", map[string]any{"High": formatNumber(*hi)})
	}
	return ""
}

// helpMax is how many characters of a question's description the form
// shows under its name.
const helpMax = 1000

// HelpText is what the form shows under a question's name: its description
// as plain text (control and direction-changing characters removed, line
// breaks kept), and the numbers it takes. A multiselect whose description
// carries its choices has none.
func HelpText(q client.Question) string {
	var parts []string
	if !ChoicesFromDescription(q) {
		if d := SafeLines(q.Description, helpMax); d != "" {
			parts = append(parts, d)
		}
	}
	if q.Type == client.QuestionNumber {
		if r := RangeText(q); r != "" {
			parts = append(parts, r)
		}
	}
	return strings.Join(parts, "\n")
}

// SafeLines is safe.Text for text of several lines: each line made safe,
// blank lines at either end dropped, at most max characters in all
// (0: no limit), followed by "…" when some were cut.
func SafeLines(s string, max int) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	out := make([]string, 0, len(lines))
	n := 0
	for _, l := range lines {
		// The indent stays (an object's layout); the rest is made safe.
		rest := strings.TrimLeft(l, " \t")
		l = strings.Repeat(" ", len(l)-len(rest)) + safe.Text(rest, 0)
		if max > 0 && n+len([]rune(l)) > max {
			if max-n > 1 {
				out = append(out, safe.Text(l, max-n))
			} else {
				out = append(out, "…")
			}
			break
		}
		out = append(out, l)
		n += len([]rune(l)) + 1
	}
	return strings.TrimRight(strings.TrimLeft(strings.Join(out, "\n"), "\n"), "\n ")
}

// Placeholder is the hint the agent gives for q's field (Extra key
// placeholder), as plain text on one line; "" when none.
func Placeholder(q client.Question) string {
	var s string
	if json.Unmarshal(q.Extra["placeholder"], &s) != nil {
		return ""
	}
	return safe.Text(s, 120)
}

// Default is the answer the agent suggests for q (Extra key default), in
// the form's text for q's type; "" when none. The form shows it when there
// is no answer remembered.
func Default(q client.Question) string {
	raw := bytes.TrimSpace(q.Extra["default"])
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	switch x := v.(type) {
	case string:
		switch q.Type {
		case client.QuestionArray, QuestionMultiselect:
			return JoinList(ParseList(q, x))
		case client.QuestionSelect:
			// A choice as the agent spells it, spaces and all: the select
			// takes only one of its options, and shows it made safe.
			return x
		}
		return SafeLines(x, 0)
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return string(raw)
	case []any:
		if q.Type == QuestionObject {
			return ""
		}
		return JoinList(ParseList(q, string(raw)))
	case map[string]any:
		if q.Type != QuestionObject {
			return ""
		}
		var b bytes.Buffer
		if json.Indent(&b, raw, "", "  ") != nil {
			return ""
		}
		return SafeLines(b.String(), 0)
	}
	return ""
}

// ParseList reads a list answer: a JSON array (its strings as they are,
// other values as their JSON text), else, as typed or given by an agent's
// default, the lines of the text (a multiselect's comma-separated words).
// Blank items are left out, and the items of a list typed as text are
// trimmed; a multiselect's choices in a JSON array are kept verbatim
// (" A " is a choice of its own, not "A"), only empty ones left out.
func ParseList(q client.Question, v string) []string {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil
	}
	var items []string
	var list []json.RawMessage
	if strings.HasPrefix(v, "[") && json.Unmarshal([]byte(v), &list) == nil {
		for _, raw := range list {
			var s string
			if json.Unmarshal(raw, &s) != nil {
				s = string(bytes.TrimSpace(raw))
			}
			items = append(items, s)
		}
		if q.Type == QuestionMultiselect {
			var out []string
			for _, s := range items {
				if s != "" {
					out = append(out, s)
				}
			}
			return out
		}
	} else if q.Type == QuestionMultiselect {
		items = strings.Split(v, ",")
	} else {
		items = strings.Split(v, "\n")
	}
	out := items[:0]
	for _, s := range items {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// JoinList is the form's text of a list answer: a JSON array of strings,
// or "" for no items.
func JoinList(items []string) string {
	if len(items) == 0 {
		return ""
	}
	b, _ := json.Marshal(items)
	return string(b)
}

// isObject reports whether s is a JSON object.
func isObject(s string) bool {
	var m map[string]any
	return strings.HasPrefix(strings.TrimSpace(s), "{") && json.Unmarshal([]byte(s), &m) == nil
}

// blank reports an answer that says nothing: empty text, no choice, or a
// list without items.
func blank(q client.Question, v string) bool {
	switch q.Type {
	case client.QuestionArray, QuestionMultiselect:
		return len(ParseList(q, v)) == 0
	case client.QuestionSelect:
		return v == ""
	}
	return strings.TrimSpace(v) == ""
}

// verbatim reports a question whose answer is one of the agent's choices,
// kept and sent exactly as the agent spells it: never trimmed.
func verbatim(q client.Question) bool { return q.Type == client.QuestionSelect }

// trimmed is v as checked and sent: without the spaces around it, except
// for a choice.
func trimmed(q client.Question, v string) string {
	if verbatim(q) {
		return v
	}
	return strings.TrimSpace(v)
}

// DateExample is the date the form's examples show, each written the way
// its field writes dates (DateMessage).
var DateExample = time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)

// DateMessage is the note at a date field whose answer is no date, with
// example the DateExample as the field writes it ("25/11/2026"). CheckAnswers
// gives it with the example as the service takes it (2026-11-25); the form
// gives it with the example its field shows.
func DateMessage(example string) string {
	return lang.L("Please enter a date, for example {{.Example}}, or pick one from the calendar.", map[string]any{"Example": example})
}

// ObjectMessage is the note at an object field whose answer is not one.
func ObjectMessage() string {
	return lang.L("Please write this as in the example, with the curly brackets and quotation marks: {\"city\": \"Lisbon\"}.")
}

// CheckAnswers returns, per question name, what is wrong with the answers
// before anything is sent: a required question left empty, a number that
// is not one or is out of the agent's bounds, a choice that is not among
// the options, a date that is not one, an object that is not one.
func CheckAnswers(agent client.Agent, answers map[string]string) map[string]string {
	errs := map[string]string{}
	for _, q := range FormQuestions(agent) {
		if msg := checkAnswer(q, answers[q.Name]); msg != "" {
			errs[q.Name] = msg
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// checkAnswer is what is wrong with the answer v to q, or "".
func checkAnswer(q client.Question, v string) string {
	v = trimmed(q, v)
	if noChoices(q) && q.Required {
		return NoChoicesNote()
	}
	if blank(q, v) {
		if !q.Required {
			return ""
		}
		switch q.Type {
		case QuestionMultiselect:
			return lang.L("Please choose at least one.")
		case client.QuestionArray:
			return lang.L("Please add at least one line.")
		case QuestionFile:
			return lang.L("Please choose a file.")
		}
		return lang.L("Please fill this in.")
	}
	switch q.Type {
	case client.QuestionNumber:
		if !IsNumber(v) {
			if msg := rangeMessage(q); msg != "" {
				return msg
			}
			return lang.L("Please enter a number, for example 250.")
		}
		f, _ := strconv.ParseFloat(v, 64)
		if lo, hi := Bounds(q); (lo != nil && f < *lo) || (hi != nil && f > *hi) {
			return rangeMessage(q)
		}
	case client.QuestionSelect:
		if opts := Choices(q); len(opts) > 0 && !containsString(opts, v) {
			return lang.L("Please pick one of the choices.")
		}
	case QuestionMultiselect:
		if opts := Choices(q); len(opts) > 0 {
			for _, c := range ParseList(q, v) {
				if !containsString(opts, c) {
					return lang.L("Please pick from the choices shown.")
				}
			}
		}
	case QuestionDate:
		if !IsDate(v) {
			return DateMessage(DateExample.Format(DateLayout))
		}
	case QuestionObject:
		if !isObject(v) {
			return ObjectMessage()
		}
	}
	return ""
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// ExecuteAnswers turns the form's text answers into the execution's
// answers: choices as the option strings, numbers as JSON numbers, yes/no
// as true or false, lists (multiselect, array) as arrays of strings, an
// object as the object, a file as its id (a JSON number when it is one).
// An answer the form did not check is sent as typed, so the service's own
// message comes back beside the field.
func ExecuteAnswers(agent client.Agent, answers map[string]string) map[string]any {
	out := map[string]any{}
	for _, q := range FormQuestions(agent) {
		v := trimmed(q, answers[q.Name])
		if blank(q, v) {
			continue
		}
		switch q.Type {
		case client.QuestionNumber:
			if IsNumber(v) {
				out[q.Name] = json.Number(v)
				continue
			}
		case QuestionBoolean:
			if v == "true" || v == "false" {
				out[q.Name] = v == "true"
				continue
			}
		case client.QuestionArray, QuestionMultiselect:
			out[q.Name] = ParseList(q, v)
			continue
		case QuestionObject:
			if isObject(v) {
				out[q.Name] = json.RawMessage(v)
				continue
			}
		case QuestionFile:
			out[q.Name] = client.ID(v)
			continue
		}
		out[q.Name] = v
	}
	return out
}

// RequestQuestion is the question of agent where a request is written in
// words (its first text question, the longest kind first): where a text a
// user chose elsewhere (a resource used as a template) goes; "" for none.
func RequestQuestion(agent client.Agent) string {
	for _, typ := range []string{QuestionTextarea, QuestionText} {
		for _, q := range FormQuestions(agent) {
			if q.Type == typ {
				return q.Name
			}
		}
	}
	return ""
}

// ResourceRequest is a resource (a template) as the text of a request,
// for the user to finish before running: its title, its description and
// any longer text it carries, a paragraph each.
func ResourceRequest(title, description, long string) string {
	var parts []string
	for _, p := range []string{title, description, long} {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "\n\n")
}
