package app

import (
	"encoding/json"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/agentdesk/agentdesk/app/words"
)

// CreditsNumber is a credits figure with the decimals it needs, up to four.
func CreditsNumber(v float64) string {
	s := noNegativeZero(strconv.FormatFloat(v, 'f', 4, 64))
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}

func noNegativeZero(s string) string {
	if strings.Trim(s, "-0.") == "" {
		return strings.TrimPrefix(s, "-")
	}
	return s
}

// Credits is a credits figure with its unit, in the language in use.
func Credits(v float64) string {
	n := CreditsNumber(v)
	return lang.N("{{.Count}} credit", pluralCount(n), map[string]any{"Count": decimal(n)})
}

// CreditsColumn is a credits figure with four decimals, so a column lines up.
func CreditsColumn(v float64) string {
	n := noNegativeZero(strconv.FormatFloat(v, 'f', 4, 64))
	return lang.N("{{.Count}} credit", 2, map[string]any{"Count": decimal(n)})
}

// pluralCount picks a figure's plural form: a fraction takes the many form.
func pluralCount(figure string) int {
	if n, err := strconv.Atoi(figure); err == nil {
		return n
	}
	return 2
}

// HowLong is a duration in the words a person would use.
func HowLong(d time.Duration) string {
	if d < 50*time.Millisecond {
		return lang.L("less than a second")
	}
	if d >= time.Hour {
		d = d.Round(time.Minute)
		h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
		out := plural(strconv.Itoa(h), "hour")
		if m > 0 {
			out = both(out, plural(strconv.Itoa(m), "minute"))
		}
		return out
	}
	if d < 10*time.Second {
		s := strconv.FormatFloat(d.Round(100*time.Millisecond).Seconds(), 'f', 1, 64)
		s = strings.TrimSuffix(s, ".0")
		return plural(s, "second")
	}
	d = d.Round(time.Second)
	if d < time.Minute {
		return plural(strconv.Itoa(int(d/time.Second)), "second")
	}
	m, s := int(d/time.Minute), int(d%time.Minute/time.Second)
	out := plural(strconv.Itoa(m), "minute")
	if s > 0 {
		out = both(out, plural(strconv.Itoa(s), "second"))
	}
	return out
}

func both(large, small string) string {
	return lang.L("{{.Large}} {{.Small}}", map[string]any{"Large": large, "Small": small})
}

func plural(n, unit string) string {
	data := map[string]any{"Count": decimal(n)}
	switch unit {
	case "hour":
		return lang.N("{{.Count}} hour", pluralCount(n), data)
	case "minute":
		return lang.N("{{.Count}} minute", pluralCount(n), data)
	}
	return lang.N("{{.Count}} second", pluralCount(n), data)
}

// Preview is the first line of a markdown text without the markup, for list rows.
func Preview(markdown string) string {
	src := []byte(markdown)
	doc := goldmark.DefaultParser().Parse(text.NewReader(src))
	var b strings.Builder
	done := false
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if done {
			return ast.WalkStop, nil
		}
		if !entering {
			// The first block with words is the line.
			if n.Type() == ast.TypeBlock && strings.TrimSpace(b.String()) != "" {
				done = true
				return ast.WalkStop, nil
			}
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Text:
			b.Write(util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(n.Segment.Value(src)))))
			if n.SoftLineBreak() || n.HardLineBreak() {
				done = true
				return ast.WalkStop, nil
			}
		case *ast.String:
			b.Write(n.Value)
		case *ast.CodeBlock, *ast.FencedCodeBlock:
			for i := 0; i < n.Lines().Len(); i++ {
				line := n.Lines().At(i)
				if v := line.Value(src); len(strings.TrimSpace(string(v))) > 0 {
					b.Write(v)
					done = true
					return ast.WalkStop, nil
				}
			}
		case *ast.AutoLink:
			b.Write(n.URL(src))
		}
		return ast.WalkContinue, nil
	})
	return strings.Join(strings.Fields(b.String()), " ")
}

// calendarName is the i-th of names, the language's "|"-separated list of
// a calendar's names (months, or weekdays Sunday first).
func calendarName(names string, i int) string {
	if list := strings.Split(names, "|"); i < len(list) {
		return list[i]
	}
	return ""
}

func monthName(t time.Time) string {
	return calendarName(lang.X("format.months", "January|February|March|April|May|June|July|August|September|October|November|December"), int(t.Month())-1)
}

func monthShort(t time.Time) string {
	return calendarName(lang.X("format.monthsShort", "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec"), int(t.Month())-1)
}

// Date is a day: "2 Jan 2026", in local time.
func Date(t time.Time) string {
	t = t.Local()
	return strconv.Itoa(t.Day()) + " " + monthShort(t) + " " + strconv.Itoa(t.Year())
}

// DateTime is a day and the time of day, in local time.
func DateTime(t time.Time) string { return Date(t) + " " + t.Local().Format("15:04") }

// DayDate is a day with its weekday, for days already in local time.
func DayDate(t time.Time) string {
	day := calendarName(lang.X("format.days", "Sun|Mon|Tue|Wed|Thu|Fri|Sat"), int(t.Weekday()))
	return day + " " + strconv.Itoa(t.Day()) + " " + monthShort(t) + " " + strconv.Itoa(t.Year())
}

// ShortDateTime is a day of this year and the time: "2 Jan 15:04".
func ShortDateTime(t time.Time) string {
	t = t.Local()
	return strconv.Itoa(t.Day()) + " " + monthShort(t) + " " + t.Format("15:04")
}

// MonthYear is a month: "June 2024", "junho de 2024".
func MonthYear(t time.Time) string {
	return lang.L("{{.Month}} {{.Year}}", map[string]any{"Month": monthName(t), "Year": strconv.Itoa(t.Year())})
}

// longDate is a day written out: "2 June 2024", "2 de junho de 2024".
func longDate(t time.Time) string {
	return lang.L("{{.Day}} {{.Month}} {{.Year}}", map[string]any{"Day": strconv.Itoa(t.Day()), "Month": monthName(t), "Year": strconv.Itoa(t.Year())})
}

// decimalComma tells the languages that write 1.234,5 rather than 1,234.5.
func decimalComma() bool { l := LanguageInUse(); return l == "pt-BR" || l == "es" }

// Number is a whole number with its thousands marked: 12,345 or 12.345.
func Number(n int) string {
	t := language.English
	if decimalComma() {
		t = language.BrazilianPortuguese
	}
	return message.NewPrinter(t).Sprintf("%d", n)
}

func decimal(s string) string {
	if decimalComma() {
		return strings.Replace(s, ".", ",", 1)
	}
	return s
}

// CreditsFigure is CreditsNumber as the language writes numbers (files keep the point).
func CreditsFigure(v float64) string { return decimal(CreditsNumber(v)) }

// English is loaded at start so plurals read right everywhere (tests too).
func init() {
	if err := loadWords("en", "en"); err != nil {
		fyne.LogError("Agent Desk's words", err)
	}
}

// Languages Agent Desk speaks, each named in itself.
var Languages = []struct{ Tag, Name string }{
	{"en", "English"},
	{"pt-BR", "Português (Brasil)"},
	{"es", "Español"},
}

var spoken = []language.Tag{language.English, language.BrazilianPortuguese, language.Spanish}

var languageVars = []string{"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"}

// UseLanguage has Agent Desk speak chosen ("" for the computer's), once before
// the window opens; Fyne reads it from the environment.
func UseLanguage(chosen string) error {
	found := map[string]string{}
	for _, v := range languageVars {
		found[v] = os.Getenv(v)
	}
	tag := WouldSpeak(chosen)
	// Fyne must speak the same language, or its dialogs and ours differ.
	if chosen == "" {
		chosen = tag
	}
	{
		env := strings.ReplaceAll(chosen, "-", "_")
		os.Setenv("LANGUAGE", env)
		// LANGUAGE counts only where the locale is not C.
		set := "LC_MESSAGES"
		for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
			if os.Getenv(v) != "" {
				set = v
				break
			}
		}
		if m := os.Getenv(set); m == "" || m == "C" || m == "POSIX" {
			os.Setenv(set, env+".UTF-8")
		}
	}
	err := useWords(tag)
	// Fyne has read it: programs we open, and a restart, inherit the environment as found.
	for v, was := range found {
		if was == "" {
			os.Unsetenv(v)
		} else {
			os.Setenv(v, was)
		}
	}
	return err
}

// fyneLanguages are the languages Fyne 2.7.1 has words of its own in.
var fyneLanguages = []string{"cs", "de", "el", "en", "es", "fr", "pl", "pt", "pt_BR", "ru", "sv", "ta", "uk", "zh_Hans"}

// useWords loads tag's words also for the language Fyne picks on Windows and macOS.
func useWords(tag string) error {
	file := strings.ReplaceAll(tag, "-", "_")
	for _, as := range []string{file, fynePick()} {
		if as == "" || as == "en" && tag == "en" { // English is loaded at start
			continue
		}
		if err := loadWords(tag, as); err != nil {
			return err
		}
	}
	// Nothing more to read: Fyne picks its language again.
	return lang.AddTranslationsForLocale([]byte("{}"), fyne.Locale(file))
}

// loadWords loads tag's words for language as, each plural given every form
// the rules of as may ask for (Fyne may pick another language than tag's),
// the missing ones as its "other".
func loadWords(tag, as string) error {
	return eachWordsFile(tag, func(data []byte) error {
		var texts map[string]any
		if err := json.Unmarshal(data, &texts); err != nil {
			return err
		}
		for _, v := range texts {
			if forms, ok := v.(map[string]any); ok {
				for _, form := range []string{"zero", "one", "two", "few", "many"} {
					if _, has := forms[form]; !has {
						forms[form] = forms["other"]
					}
				}
			}
		}
		data, err := json.Marshal(texts)
		if err != nil {
			return err
		}
		return lang.AddTranslationsForLocale(data, fyne.Locale(as))
	})
}

func eachWordsFile(tag string, load func(data []byte) error) error {
	suffix := "." + strings.ReplaceAll(tag, "-", "_") + ".json"
	files, err := words.Files.ReadDir("lang")
	if err != nil {
		return err
	}
	for _, f := range files {
		if !strings.HasSuffix(f.Name(), suffix) {
			continue
		}
		data, err := words.Files.ReadFile("lang/" + f.Name())
		if err != nil {
			return err
		}
		if err := load(data); err != nil {
			return err
		}
	}
	return nil
}

// fynePick is the language Fyne picks on Windows and macOS, "" elsewhere.
func fynePick() string {
	if runtime.GOOS != "windows" && runtime.GOOS != "darwin" {
		return ""
	}
	tags := make([]language.Tag, len(fyneLanguages))
	for i, l := range fyneLanguages {
		tags[i] = language.Make(strings.ReplaceAll(l, "_", "-"))
	}
	want, err := language.Parse(string(lang.SystemLocale()))
	if err != nil {
		return ""
	}
	_, i, _ := language.NewMatcher(tags).Match(want)
	return fyneLanguages[i]
}

// LanguageInUse is the language Agent Desk speaks, as its words name it ("app.language").
func LanguageInUse() string { return lang.X("app.language", "en") }

// WouldSpeak is the language Agent Desk would speak with chosen as its setting.
func WouldSpeak(chosen string) string { return matchLanguage(chosen, systemLanguages()) }

// systemLanguages are the computer's languages, most wanted first.
func systemLanguages() []string {
	var out []string
	locale := ""
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if s := os.Getenv(v); s != "" {
			locale = s
			break
		}
	}
	if l := os.Getenv("LANGUAGE"); l != "" && locale != "C" && locale != "POSIX" {
		out = append(out, strings.Split(l, ":")...)
	}
	if locale != "" {
		out = append(out, locale)
	}
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		if loc := lang.SystemLocale(); loc != "" {
			out = append(out, string(loc))
		}
	}
	return out
}

// matchLanguage is chosen, else the closest to the computer's, else English.
func matchLanguage(chosen string, system []string) string {
	wanted := []string{chosen}
	if chosen == "" {
		wanted = system
	}
	var tags []language.Tag
	for _, w := range wanted {
		w, _, _ = strings.Cut(w, ".") // pt_BR.UTF-8
		w = strings.ReplaceAll(w, "_", "-")
		if t, err := language.Parse(w); err == nil {
			tags = append(tags, t)
		}
	}
	_, i, conf := language.NewMatcher(spoken).Match(tags...)
	if conf == language.No {
		return Languages[0].Tag
	}
	return Languages[i].Tag
}

// inEveryLanguage is key's text in each language.
func inEveryLanguage(key string) []string {
	out := []string{key}
	for _, l := range Languages[1:] {
		_ = eachWordsFile(l.Tag, func(data []byte) error {
			var texts map[string]any
			if json.Unmarshal(data, &texts) == nil {
				if s, ok := texts[key].(string); ok && !slices.Contains(out, s) {
					out = append(out, s)
				}
			}
			return nil
		})
	}
	return out
}
