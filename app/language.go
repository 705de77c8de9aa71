package app

import (
	"encoding/json"
	"os"
	"runtime"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"
	"golang.org/x/text/language"

	"github.com/agentdesk/agentdesk/app/words"
)

// English is loaded at start so plurals read right everywhere (tests too);
// UseLanguage loads the chosen one.
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

// spoken are the tags of Languages; English first, the fallback.
var spoken = []language.Tag{language.English, language.BrazilianPortuguese, language.Spanish}

// languageVars are the variables UseLanguage may set.
var languageVars = []string{"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"}

// UseLanguage has Agent Desk speak chosen ("" for the computer's); call it once
// before the window opens. Fyne reads the environment, so the choice goes
// there: LANGUAGE, and the locale where it is C (which hides LANGUAGE).
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

// useWords loads tag's words also for the language Fyne picks: on Windows and
// macOS Fyne ignores the environment, and would show bare keys.
func useWords(tag string) error {
	file := strings.ReplaceAll(tag, "-", "_")
	if tag != "en" {
		if err := loadWords(tag, file); err != nil {
			return err
		}
	}
	if other := fynePick(); other != "" && other != file {
		if err := loadWordsAs(tag, other); err != nil {
			return err
		}
	}
	// Nothing more to read: Fyne picks its language again.
	return lang.AddTranslationsForLocale([]byte("{}"), fyne.Locale(file))
}

// loadWords loads tag's files for Fyne's language as.
func loadWords(tag, as string) error {
	return eachWordsFile(tag, func(data []byte) error {
		return lang.AddTranslationsForLocale(data, fyne.Locale(as))
	})
}

// loadWordsAs loads tag's words for another language of Fyne's, whose
// plural rules may ask for forms tag's files lack (Czech's "few", French's
// "one" for 0): each plural gets every form, the missing ones as its
// "other".
func loadWordsAs(tag, as string) error {
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

// eachWordsFile gives load the contents of each of tag's files.
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

// LanguageInUse is the language Agent Desk speaks: "en", "pt-BR" or "es".
// Each set of Agent Desk's words names its language ("app.language"), so
// the language in use is the one Fyne reads words in, kept nowhere else.
func LanguageInUse() string { return lang.X("app.language", "en") }

// WouldSpeak is the language Agent Desk would speak with chosen as its setting.
func WouldSpeak(chosen string) string { return matchLanguage(chosen, systemLanguages()) }

// systemLanguages are the computer's languages, most wanted first, from the
// start-up environment and, on Windows and macOS, the system.
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

// inEveryLanguage is key's text in each language, to recognise words the
// history kept in another language.
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
