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

// Agent Desk's English words are loaded as soon as the program starts,
// so that English plurals read right everywhere (tests too); UseLanguage
// loads the language chosen when the app opens. Only the languages used
// are read: each is a few milliseconds of the start.
func init() {
	if err := loadWords("en", "en"); err != nil {
		fyne.LogError("Agent Desk's words", err)
	}
}

// Languages Agent Desk speaks, by the tag Settings keeps; each is named
// in itself, so that anyone finds their own.
var Languages = []struct{ Tag, Name string }{
	{"en", "English"},
	{"pt-BR", "Português (Brasil)"},
	{"es", "Español"},
}

// spoken are the tags of Languages, English first: the one used when
// the computer's language is none of them.
var spoken = []language.Tag{language.English, language.BrazilianPortuguese, language.Spanish}

// languageVars are the variables UseLanguage may set.
var languageVars = []string{"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"}

// UseLanguage has Agent Desk speak chosen ("" for the computer's
// language); call it once, before the window opens. Fyne picks the
// language from the environment, so a choice made in Settings is put
// there first: LANGUAGE, and the locale where it is C (which hides
// LANGUAGE).
func UseLanguage(chosen string) error {
	found := map[string]string{}
	for _, v := range languageVars {
		found[v] = os.Getenv(v)
	}
	tag := WouldSpeak(chosen)
	// Fyne then speaks the same language, even where the computer's is
	// another it knows (German: its dialogs in German, Agent Desk's words
	// in English, its plurals missing).
	if chosen == "" {
		chosen = tag
	}
	{
		env := strings.ReplaceAll(chosen, "-", "_")
		os.Setenv("LANGUAGE", env)
		// LANGUAGE counts only where the locale is not C: the first of
		// these that is set says which, else LC_MESSAGES is set.
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
	// Fyne has read it: programs Agent Desk opens (the file manager, a
	// browser, a video player) and Agent Desk started again start in the
	// computer's own language.
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

// useWords loads Agent Desk's words in tag's language, for that language
// and, where Fyne speaks another, for that one too: on Windows and macOS
// Fyne picks the computer's language whatever the environment says (a
// German computer would read Agent Desk's words as their bare keys,
// plurals unmade). It has Fyne pick its language again.
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

// loadWords loads the words of tag's files (lang/<part>.<tag>.json) for
// Fyne's language as.
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

// fynePick is the language Fyne speaks where it reads the computer's
// rather than the environment (Windows, macOS), as Fyne names its files;
// "" elsewhere.
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

// WouldSpeak is the language Agent Desk would speak with chosen as its
// setting ("" for the computer's), on this computer.
func WouldSpeak(chosen string) string { return matchLanguage(chosen, systemLanguages()) }

// systemLanguages are the computer's languages, most wanted first: as
// the environment gave them when Agent Desk started (LANGUAGE counts
// where the locale is not C), and where the system keeps them elsewhere
// (Windows, macOS), as it says.
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

// matchLanguage is the language of Languages for chosen, or else the
// closest to the computer's (English when none is close).
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

// inEveryLanguage is key's text in each language Agent Desk speaks, read
// from its files (English: the key): for words kept in the history in the
// language of the day, recognised whatever the language now.
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
