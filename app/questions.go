package app

import (
	"bytes"
	"cmp"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2/lang"
	"golang.org/x/text/language"
	"golang.org/x/text/language/display"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/safe"
)

// Answers are kept as text (a list as a JSON array, a date as 2026-11-25, a
// yes/no as "true"/"false"); a type unknown is a line of text, so no question blocks a run.

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

// NoChoicesNote says why a required choice with no choices stops a run.
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

func noChoices(q client.Question) bool {
	switch q.Type {
	case client.QuestionSelect, QuestionMultiselect:
		return len(Choices(q)) == 0
	}
	return false
}

// Choices are a question's options, or a multiselect's comma-separated description.
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

// Bounds are a number question's limits from Extra; reversed bounds are ignored.
func Bounds(q client.Question) (lo, hi *float64) {
	lo = extraNumber(q, "min", "minimum")
	hi = extraNumber(q, "max", "maximum")
	if lo != nil && hi != nil && *lo > *hi {
		return nil, nil
	}
	return lo, hi
}

// extraNumber is the first of keys in Extra that holds a number, or a text of one.
func extraNumber(q client.Question, keys ...string) *float64 {
	for _, k := range keys {
		var v any
		if json.Unmarshal(q.Extra[k], &v) != nil {
			continue
		}
		f, ok := v.(float64)
		if text, isText := v.(string); isText {
			f, ok = finiteNumber(text)
		}
		if ok {
			return &f
		}
	}
	return nil
}

// formatNumber writes a bound with a point in every language, as the field takes it.
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

const helpMax = 1000

// HelpText is the description shown under a question's name, and the numbers it takes.
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

// SafeLines is safe.Text for several lines, at most max characters (0: no limit).
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

// Default is the agent's suggested answer for q in the form's text, or "".
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

// ParseList reads a list answer: a JSON array, else the lines of the text;
// a multiselect's JSON choices are kept verbatim.
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
			return slices.DeleteFunc(items, func(s string) bool { return s == "" })
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

func isObject(s string) bool {
	var m map[string]any
	return strings.HasPrefix(strings.TrimSpace(s), "{") && json.Unmarshal([]byte(s), &m) == nil
}

func blank(q client.Question, v string) bool {
	switch q.Type {
	case client.QuestionArray, QuestionMultiselect:
		return len(ParseList(q, v)) == 0
	case client.QuestionSelect:
		return v == ""
	}
	return strings.TrimSpace(v) == ""
}

// trimmed is v without surrounding spaces, except for a choice: that is sent
// exactly as the agent spells it.
func trimmed(q client.Question, v string) string {
	if q.Type == client.QuestionSelect {
		return v
	}
	return strings.TrimSpace(v)
}

// DateExample is the date the form's examples show (DateMessage).
var DateExample = time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)

// DateMessage is the note at a date field whose answer is no date.
func DateMessage(example string) string {
	return lang.L("Please enter a date, for example {{.Example}}, or pick one from the calendar.", map[string]any{"Example": example})
}

// ObjectMessage is the note at an object field whose answer is not one.
func ObjectMessage() string {
	return lang.L("Please write this as in the example, with the curly brackets and quotation marks: {\"city\": \"Lisbon\"}.")
}

// CheckAnswers returns, per question name, what is wrong with the answers.
func CheckAnswers(agent client.Agent, answers map[string]string) map[string]string {
	errs := map[string]string{}
	for _, q := range FormQuestions(agent) {
		if _, msg := readAnswer(q, answers[q.Name]); msg != "" {
			errs[q.Name] = msg
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// ExecuteAnswers turns the form's text answers into typed ones; an unchecked
// answer is sent as typed, for the service's own message.
func ExecuteAnswers(agent client.Agent, answers map[string]string) map[string]any {
	out := map[string]any{}
	for _, q := range FormQuestions(agent) {
		if v, _ := readAnswer(q, answers[q.Name]); v != nil {
			out[q.Name] = v
		}
	}
	return out
}

// readAnswer is v typed as the service takes it (nil when blank, as typed
// when wrong) and what is wrong with it ("" when nothing).
func readAnswer(q client.Question, v string) (value any, problem string) {
	v = trimmed(q, v)
	value = v
	switch {
	case blank(q, v):
		value = nil
		if q.Required {
			problem = blankNote(q.Type)
		}
	case q.Type == client.QuestionNumber:
		if !IsNumber(v) {
			problem = cmp.Or(rangeMessage(q), lang.L("Please enter a number, for example 250."))
			break
		}
		value = json.Number(v)
		f, _ := strconv.ParseFloat(v, 64)
		if lo, hi := Bounds(q); (lo != nil && f < *lo) || (hi != nil && f > *hi) {
			problem = rangeMessage(q)
		}
	case q.Type == QuestionBoolean && (v == "true" || v == "false"):
		value = v == "true"
	case q.Type == client.QuestionArray:
		value = ParseList(q, v)
	case q.Type == QuestionMultiselect:
		list := ParseList(q, v)
		value = list
		if opts := Choices(q); len(opts) > 0 && slices.ContainsFunc(list, func(c string) bool { return !slices.Contains(opts, c) }) {
			problem = lang.L("Please pick from the choices shown.")
		}
	case q.Type == client.QuestionSelect:
		if opts := Choices(q); len(opts) > 0 && !slices.Contains(opts, v) {
			problem = lang.L("Please pick one of the choices.")
		}
	case q.Type == QuestionDate && !IsDate(v):
		problem = DateMessage(DateExample.Format(DateLayout))
	case q.Type == QuestionObject && isObject(v):
		value = json.RawMessage(v)
	case q.Type == QuestionObject:
		problem = ObjectMessage()
	case q.Type == QuestionFile:
		value = client.ID(v)
	}
	if noChoices(q) && q.Required {
		problem = NoChoicesNote()
	}
	return value, problem
}

// blankNote is the note at a required field left blank.
func blankNote(questionType string) string {
	switch questionType {
	case QuestionMultiselect:
		return lang.L("Please choose at least one.")
	case client.QuestionArray:
		return lang.L("Please add at least one line.")
	case QuestionFile:
		return lang.L("Please choose a file.")
	}
	return lang.L("Please fill this in.")
}

// RequestQuestion is the agent's first text question, longest kind first, or "".
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

// QuestionLabel is a plain word for the service's technical questions and
// the names agents often give theirs, in the user's language; else "".
func QuestionLabel(q client.Question) string {
	switch strings.ToLower(strings.TrimSpace(q.Name)) {
	case "temperature":
		return lang.L("Style")
	case "tools":
		return lang.L("Looks up")
	case "model":
		return lang.L("Model")
	case "language", "lang", "locale":
		return lang.L("Language")
	// Names agents often give their questions, in the user's language.
	case "prompt":
		return lang.L("Prompt")
	case "tone":
		return lang.L("Tone")
	case "length":
		return lang.L("Length")
	case "format":
		return lang.L("Format")
	case "style":
		return lang.L("Style")
	case "aspect_ratio":
		return lang.L("Aspect ratio")
	case "quality":
		return lang.L("Quality")
	case "duration":
		return lang.L("Duration")
	case "voiceover", "voice_over":
		return lang.L("Voice-over")
	}
	return ""
}

// advancedNames are the questions only engineers tune.
var advancedNames = map[string]bool{
	"seed": true, "top_p": true, "top_k": true, "max_tokens": true,
	"frequency_penalty": true, "presence_penalty": true, "repetition_penalty": true,
	"guidance": true, "guidance_scale": true, "cfg_scale": true, "steps": true,
	"num_inference_steps": true, "sampler": true, "scheduler": true, "stop": true,
}

// IsAdvanced reports whether q waits in the Advanced fold.
func IsAdvanced(q client.Question) bool {
	return !q.Required && advancedNames[strings.ToLower(strings.TrimSpace(q.Name))]
}

// knownChoiceLabel words an option of the service's technical questions.
func knownChoiceLabel(q client.Question, value string) (string, bool) {
	v := strings.TrimSpace(value)
	switch strings.ToLower(strings.TrimSpace(q.Name)) {
	case "temperature":
		// The style, and the number that tells two alike apart.
		if t, ok := finiteNumber(v); ok {
			return styleName(t) + " (" + decimal(v) + ")", true
		}
		return value, true
	case "model":
		return ModelName(v), true
	case "tools":
		return ToolName(v), true
	}
	return "", false
}

// ChoiceLabels are how q's options read to staff, in order: a service's
// value such as "flat-vector" reads "Flat vector" (the value sent stays
// the same); two options that would read alike keep their values.
func ChoiceLabels(q client.Question, values []string) []string {
	isLang := isLanguageQuestion(q)
	out := make([]string, len(values))
	seen := make(map[string]int, len(values))
	for i, v := range values {
		out[i] = v
		if l, ok := knownChoiceLabel(q, v); ok {
			out[i] = l
		} else if isLang {
			out[i] = cmp.Or(LanguageName(strings.TrimSpace(v)), v)
		} else if q.Name != "" {
			out[i] = readableValue(v)
		}
		seen[out[i]]++
	}
	for i, l := range out {
		if seen[l] > 1 && l != values[i] {
			out[i] = values[i]
		}
	}
	return out
}

// readableValue is a value written for programs ("flat-vector",
// "3d_render", "ilustração") in words ("Flat vector", "3D render",
// "Ilustração"); any other, and a
// short code ("md", "xs") that words would not make clearer, as it is.
func readableValue(v string) string {
	written := func(r rune) bool { return unicode.IsLower(r) || ('0' <= r && r <= '9') || r == '-' || r == '_' }
	if utf8.RuneCountInString(v) <= 2 || strings.ContainsFunc(v, func(r rune) bool { return !written(r) }) ||
		strings.Trim(v, "0123456789-_") == "" || strings.HasPrefix(v, "-") || strings.HasPrefix(v, "_") {
		return v
	}
	words := strings.FieldsFunc(v, func(r rune) bool { return r == '-' || r == '_' })
	for i, w := range words {
		// 3d, 4k: a number and its unit letter.
		if n := len(w); n > 1 && strings.Trim(w[:n-1], "0123456789") == "" && w[n-1] >= 'a' {
			words[i] = strings.ToUpper(w)
		}
	}
	s := strings.Join(words, " ")
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// StyleName is a temperature option as a reply style ("Balanced"), or "".
func StyleName(v string) string {
	if t, ok := finiteNumber(v); ok {
		return styleName(t)
	}
	return ""
}

// finiteNumber is v as a finite number (ParseFloat also takes NaN and infinities).
func finiteNumber(v string) (float64, bool) {
	t, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	return t, err == nil && !math.IsNaN(t) && !math.IsInf(t, 0)
}

// styleName is a temperature as the style of the reply it gives.
func styleName(t float64) string {
	switch {
	case t <= 0.1:
		return lang.L("Precise")
	case t < 0.4:
		return lang.L("Mostly precise")
	case t <= 0.6:
		return lang.L("Balanced")
	case t < 0.9:
		return lang.L("Mostly creative")
	case t <= 1.2:
		return lang.L("Creative")
	}
	return lang.L("Very creative")
}

// StyleChoices are indexes of the lowest, middle and highest temperature, or nil.
func StyleChoices(q client.Question) []int {
	var idx []int
	var vals []float64
	for i, o := range q.Options {
		if t, ok := finiteNumber(o); ok {
			idx, vals = append(idx, i), append(vals, t)
		}
	}
	if len(idx) < 3 {
		return nil
	}
	lo, hi := 0, 0
	for i := range vals {
		if vals[i] < vals[lo] {
			lo = i
		}
		if vals[i] > vals[hi] {
			hi = i
		}
	}
	// The middle: the option nearest the mean of the two ends.
	mid, want := -1, (vals[lo]+vals[hi])/2
	for i := range vals {
		if i == lo || i == hi {
			continue
		}
		if mid < 0 || math.Abs(vals[i]-want) < math.Abs(vals[mid]-want) {
			mid = i
		}
	}
	if mid < 0 || vals[lo] == vals[hi] {
		return nil
	}
	// Styles that read alike would hide which is which: show numbers instead.
	if a, b, c := styleName(vals[lo]), styleName(vals[mid]), styleName(vals[hi]); a == b || b == c || a == c {
		return nil
	}
	return []int{idx[lo], idx[mid], idx[hi]}
}

// ToolName is a tools option as the source the agent looks things up in.
func ToolName(v string) string {
	switch strings.ToLower(v) {
	case "no-tools":
		return lang.L("Nothing, only what it knows")
	case "internet":
		return lang.L("The web")
	case "agent":
		return lang.L("Its own tools")
	case "x", "twitter":
		return lang.L("X (Twitter)")
	case "linkedin":
		return "LinkedIn"
	case "youtube":
		return "YouTube"
	case "github":
		return "GitHub"
	}
	return titleWords(v)
}

// modelWords are how the makers write their models' names.
var modelWords = map[string]string{
	"gpt": "GPT", "claude": "Claude", "gemini": "Gemini", "llama": "Llama",
	"cohere": "Cohere", "command": "Command", "tess": "Tess", "ai": "AI",
	"mistral": "Mistral", "mixtral": "Mixtral", "deepseek": "DeepSeek",
	"qwen": "Qwen", "grok": "Grok", "sonar": "Sonar", "o1": "o1", "o3": "o3",
	"o4": "o4", "4o": "4o", "r": "R",
}

// ModelName is a model id as its maker names it ("gpt-4o-mini" is "GPT-4o Mini").
func ModelName(id string) string {
	v := strings.ToLower(strings.TrimSpace(id))
	if v == "" || strings.Trim(v, "abcdefghijklmnopqrstuvwxyz0123456789.-_") != "" {
		return safe.Text(id, 0)
	}
	toks := strings.FieldsFunc(v, func(r rune) bool { return r == '-' || r == '_' })
	if len(toks) > 1 && toks[0] == "meta" && toks[1] == "llama" {
		toks = toks[1:]
	}
	var words []string
	// suffix is what follows the name: its date, or that it is the latest.
	var suffix func(name string) string
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t == "latest":
			suffix = func(name string) string { return lang.L("{{.Model}} (latest)", map[string]any{"Model": name}) }
		case len(t) == 4 && allDigits(t) && i+2 < len(toks) && len(toks[i+1]) == 2 && len(toks[i+2]) == 2:
			// gpt-4o-2024-08-06: a date written with hyphens
			if d, err := time.Parse("2006-01-02", t+"-"+toks[i+1]+"-"+toks[i+2]); err == nil {
				suffix = dated(d)
				i += 2
			} else {
				words = append(words, t)
			}
		case len(t) == 8 && allDigits(t):
			if d, err := time.Parse("20060102", t); err == nil {
				suffix = dated(d)
			} else {
				words = append(words, t)
			}
		case t == "plus" && len(words) > 0:
			words[len(words)-1] += "+"
		case len(t) == 1 && allDigits(t) && len(words) > 0 && len(words[len(words)-1]) == 1 && allDigits(words[len(words)-1]):
			words[len(words)-1] += "." + t // claude-3-5: 3.5
		case len(t) > 1 && strings.HasSuffix(t, "b") && allDigits(strings.TrimSuffix(strings.TrimSuffix(t, "b"), ".")):
			words = append(words, strings.ToUpper(t)) // 405b: 405B
		case modelWords[t] != "":
			words = append(words, modelWords[t])
		default:
			words = append(words, titleWords(t))
		}
	}
	// GPT is joined to its version by a hyphen, as OpenAI writes it.
	if len(words) > 1 && words[0] == "GPT" {
		words = append([]string{"GPT-" + words[1]}, words[2:]...)
	}
	name := strings.Join(words, " ")
	if suffix != nil {
		return suffix(name)
	}
	return name
}

func dated(d time.Time) func(name string) string {
	return func(name string) string { return name + " (" + MonthYear(d) + ")" }
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if (r < '0' || r > '9') && r != '.' {
			return false
		}
	}
	return true
}

func titleWords(s string) string {
	s = strings.TrimSpace(strings.NewReplacer("-", " ", "_", " ").Replace(safe.Text(s, 0)))
	for i, r := range s {
		return string(unicode.ToUpper(r)) + s[i+len(string(r)):]
	}
	return s
}

// isLanguageQuestion reports whether q asks for a language, by name or options.
func isLanguageQuestion(q client.Question) bool {
	switch strings.ToLower(strings.TrimSpace(q.Name)) {
	case "language", "lang", "locale", "target_language", "source_language", "output_language":
		return true
	}
	// Every option a code and one a common language: "hi" and "lo" are no languages.
	if len(q.Options) < 2 {
		return false
	}
	common := false
	for _, o := range q.Options {
		if LanguageName(o) == "" {
			return false
		}
		base, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(strings.ReplaceAll(o, "_", "-"))), "-")
		common = common || commonLanguages[base]
	}
	return common
}

// commonLanguages are the languages agents are most often asked to write in.
var commonLanguages = map[string]bool{
	"en": true, "de": true, "fr": true, "es": true, "pt": true, "it": true, "nl": true,
	"sv": true, "da": true, "pl": true, "cs": true, "ru": true, "uk": true, "tr": true,
	"ar": true, "he": true, "ja": true, "zh": true, "ko": true, "el": true, "fi": true,
}

// LanguageName is a language code's name in the language in use, or "".
func LanguageName(code string) string {
	c := strings.TrimSpace(code)
	// Codes only: two or three letters, a region or script after a hyphen.
	base, _, _ := strings.Cut(strings.ReplaceAll(c, "_", "-"), "-")
	if len(base) < 2 || len(base) > 3 || strings.ToLower(base) != base && strings.ToUpper(base) != base {
		return ""
	}
	for _, r := range base {
		if !unicode.IsLetter(r) || r > unicode.MaxASCII {
			return ""
		}
	}
	tag, err := language.Parse(strings.ReplaceAll(c, "_", "-"))
	if err != nil {
		return ""
	}
	name := languageNamer().Name(tag)
	if name == "" || strings.EqualFold(name, c) {
		return ""
	}
	// As a choice's label, the name starts with a capital.
	r, n := utf8.DecodeRuneInString(name)
	return string(unicode.ToUpper(r)) + name[n:]
}

func languageNamer() display.Namer {
	switch LanguageInUse() {
	case "pt-BR":
		return display.Tags(language.BrazilianPortuguese)
	case "es":
		return display.Tags(language.Spanish)
	}
	return display.English.Tags()
}
