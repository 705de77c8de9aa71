package app

import (
	"cmp"
	"math"
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

// The service names its questions and options for engineers; staff read them
// here in plain words, while what is sent stays the service's value.

// QuestionLabel is a question's name as staff read it: a plain word for the
// service's technical ones, else its name, "" for none.
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

// IsAdvanced reports whether q waits in the Advanced fold: not required, and
// only engineers tune it.
func IsAdvanced(q client.Question) bool {
	return !q.Required && advancedNames[strings.ToLower(strings.TrimSpace(q.Name))]
}

// knownChoiceLabel words an option of the service's technical questions.
func knownChoiceLabel(q client.Question, value string) (string, bool) {
	v := strings.TrimSpace(value)
	switch strings.ToLower(strings.TrimSpace(q.Name)) {
	case "temperature":
		// The style, and the number that tells two alike apart.
		if t, ok := temperature(v); ok {
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

// ChoiceLabels are how q's options read to staff, in order; unknown options as they are.
func ChoiceLabels(q client.Question, values []string) []string {
	isLang := isLanguageQuestion(q)
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = v
		if l, ok := knownChoiceLabel(q, v); ok {
			out[i] = l
		} else if isLang {
			out[i] = cmp.Or(LanguageName(strings.TrimSpace(v)), v)
		}
	}
	return out
}

// StyleName is a temperature option as a reply style ("Balanced"), or "".
func StyleName(v string) string {
	if t, ok := temperature(v); ok {
		return styleName(t)
	}
	return ""
}

// temperature is v as a finite number.
func temperature(v string) (float64, bool) {
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

// StyleChoices are indexes into q.Options of the lowest, middle and highest
// numeric temperature, offered as three styles; nil with fewer than three.
func StyleChoices(q client.Question) []int {
	var idx []int
	var vals []float64
	for i, o := range q.Options {
		if t, ok := temperature(o); ok {
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

// ModelName is a model id as its maker names it ("gpt-4o-mini" is "GPT-4o
// Mini"); other shapes are shown as they are.
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

// dated appends the version's month to a model's name.
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

// titleWords is "web-search" as "Web search".
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

// LanguageName is a language code as the language's name in the language in
// use; "" for none.
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

// languageNamer names languages in the language in use.
func languageNamer() display.Namer {
	switch LanguageInUse() {
	case "pt-BR":
		return display.Tags(language.BrazilianPortuguese)
	case "es":
		return display.Tags(language.Spanish)
	}
	return display.English.Tags()
}
