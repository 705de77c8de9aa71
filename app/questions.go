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
// them. Answers are kept as text (a list as a JSON array, a date as
// 2026-11-25, a yes/no as "true"/"false"). Types beyond the interface's follow
// the real service's clients (real-service.md); any other type is a line of
// text, so no question blocks a run.

// Question types with their own field beside the interface's; any other is a line of text.
const (
	QuestionText        = "text"
	QuestionTextarea    = "textarea"
	QuestionBoolean     = "boolean"
	QuestionDate        = "date"
	QuestionMultiselect = "multiselect"
	QuestionFile        = "file"
	QuestionObject      = "object"
)

// FormQuestions are the questions the run form shows; chat messages are the chat screen's.
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

// NoChoicesNote says why a required choice with no choices stops a run: only
// the agent's owner can fix it.
func NoChoicesNote() string {
	return lang.L("This question has nothing to choose from, so the agent is set up wrong and cannot run. Ask whoever looks after the agent to add its choices.")
}

// Blocked names the first question no answer can satisfy and why, or "".
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

// Choices are a select or multiselect question's options, or a multiselect's
// comma-separated description words, as the real service's clients read it.
func Choices(q client.Question) []string {
	if len(q.Options) > 0 || q.Type != QuestionMultiselect {
		return q.Options
	}
	return splitChoices(q.Description)
}

// ChoicesFromDescription reports a multiselect whose choices are its description.
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

// Bounds are a number question's limits from Extra (min/max or
// minimum/maximum); reversed bounds are ignored and the service has the last word.
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

// finite returns &f, or nil for NaN and infinities (which ParseFloat accepts).
func finite(f float64) *float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	return &f
}

// formatNumber writes a bound with a point in every language: the field takes numbers so.
func formatNumber(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// RangeText says which numbers q takes, for its help text, or "".
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

// rangeMessage is the note at a number field out of q's bounds, or "".
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

// helpMax caps the description shown under a question's name.
const helpMax = 1000

// HelpText is the plain-text description shown under a question's name, and
// the numbers it takes.
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

// SafeLines is safe.Text for several lines, at most max characters (0: no
// limit), with "…" when cut.
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

// Placeholder is the agent's hint for q's field as one plain line, or "".
func Placeholder(q client.Question) string {
	var s string
	if json.Unmarshal(q.Extra["placeholder"], &s) != nil {
		return ""
	}
	return safe.Text(s, 120)
}

// Default is the agent's suggested answer for q in the form's text, or "";
// shown when nothing is remembered.
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
			// A choice exactly as the agent spells it: the select takes only its options.
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

// ParseList reads a list answer: a JSON array, else the lines of the text.
// Blank items are dropped; typed items are trimmed, but a multiselect's JSON
// choices are kept verbatim (" A " is its own choice).
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

// JoinList is a list answer as a JSON array of strings, or "" for none.
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

// blank reports an answer that says nothing.
func blank(q client.Question, v string) bool {
	switch q.Type {
	case client.QuestionArray, QuestionMultiselect:
		return len(ParseList(q, v)) == 0
	case client.QuestionSelect:
		return v == ""
	}
	return strings.TrimSpace(v) == ""
}

// verbatim reports a question whose answer is sent exactly as the agent spells it.
func verbatim(q client.Question) bool { return q.Type == client.QuestionSelect }

// trimmed is v without surrounding spaces, except for a choice.
func trimmed(q client.Question, v string) string {
	if verbatim(q) {
		return v
	}
	return strings.TrimSpace(v)
}

// DateExample is the date the form's examples show (DateMessage).
var DateExample = time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)

// DateMessage is the note at a date field whose answer is no date, with
// example written as the field writes dates.
func DateMessage(example string) string {
	return lang.L("Please enter a date, for example {{.Example}}, or pick one from the calendar.", map[string]any{"Example": example})
}

// ObjectMessage is the note at an object field whose answer is not one.
func ObjectMessage() string {
	return lang.L("Please write this as in the example, with the curly brackets and quotation marks: {\"city\": \"Lisbon\"}.")
}

// CheckAnswers returns, per question name, what is wrong with the answers
// before anything is sent.
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

// ExecuteAnswers turns the form's text answers into the execution's typed
// answers. An unchecked answer is sent as typed, so the service's own message
// comes back beside the field.
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

// RequestQuestion is the agent's question where a request in words goes
// (its first text question, longest kind first), or "".
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

// ResourceRequest is a resource as a request's text for the user to finish.
func ResourceRequest(title, description, long string) string {
	var parts []string
	for _, p := range []string{title, description, long} {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "\n\n")
}
