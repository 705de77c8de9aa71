package app

import (
	"os"
	"runtime"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"
	"golang.org/x/text/language"

	"github.com/agentdesk/agentdesk/app/words"
)

// Agent Desk's words are loaded as soon as the program starts, so that
// English plurals read right everywhere (tests too); UseLanguage picks
// the language when the app opens.
func init() {
	if err := lang.AddTranslationsFS(words.Files, "lang"); err != nil {
		fyne.LogError("Agent Desk's translations", err)
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

// inUse is the language in use ("en", "pt-BR" or "es"), set once by
// UseLanguage before the window opens; startEnv, the environment's
// language variables as the process found them, for a restart.
var (
	inUse    = "en"
	startEnv = map[string]string{}
)

// languageVars are the variables UseLanguage may set.
var languageVars = []string{"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"}

// UseLanguage has Agent Desk speak chosen ("" for the computer's
// language); call it once, before the window opens. Fyne picks the
// language from the environment, so a choice made in Settings is put
// there first: LANGUAGE, and the locale where it is C (which hides
// LANGUAGE).
func UseLanguage(chosen string) error {
	for _, v := range languageVars {
		if _, kept := startEnv[v]; !kept {
			startEnv[v] = os.Getenv(v)
		}
	}
	inUse = WouldSpeak(chosen)
	// Fyne then speaks the same language, even where the computer's is
	// another it knows (German: its dialogs in German, Agent Desk's words
	// in English, its plurals missing).
	if chosen == "" {
		chosen = inUse
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
	return useWords(inUse)
}

// fyneLanguages are the languages Fyne 2.7.1 has words of its own in:
// Fyne speaks the one closest to the computer's, whatever the
// environment says on Windows and macOS.
var fyneLanguages = []string{"cs", "de", "el", "en", "es", "fr", "pl", "pt", "pt_BR", "ru", "sv", "ta", "uk", "zh_Hans"}

// useWords has Agent Desk's words read in tag's language whichever
// language Fyne picked: they are loaded for each of Fyne's languages (a
// German computer reads them in English, with English plurals, not as
// the bare keys), after being loaded for their own.
func useWords(tag string) error {
	if err := lang.AddTranslationsFS(words.Files, "lang"); err != nil {
		return err
	}
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
		for _, l := range fyneLanguages {
			if err := lang.AddTranslationsForLocale(data, fyne.Locale(l)); err != nil {
				return err
			}
		}
	}
	return nil
}

// LanguageInUse is the language Agent Desk speaks: "en", "pt-BR" or "es".
func LanguageInUse() string { return inUse }

// WouldSpeak is the language Agent Desk would speak with chosen as its
// setting ("" for the computer's), on this computer.
func WouldSpeak(chosen string) string { return matchLanguage(chosen, systemLanguages()) }

// startingEnv is a variable as the process found it, before UseLanguage
// changed it.
func startingEnv(v string) string {
	if s, ok := startEnv[v]; ok {
		return s
	}
	return os.Getenv(v)
}

// RestartEnv is the environment for Agent Desk started again: as it was
// found, so that the next start reads the language from the settings
// again ("" there: the computer's).
func RestartEnv() []string {
	env := os.Environ()
	out := env[:0:0]
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if _, set := startEnv[name]; !set {
			out = append(out, kv)
		}
	}
	for name, v := range startEnv {
		if v != "" {
			out = append(out, name+"="+v)
		}
	}
	return out
}

// systemLanguages are the computer's languages, most wanted first: as
// the environment gave them when Agent Desk started (LANGUAGE counts
// where the locale is not C), and where the system keeps them elsewhere
// (Windows, macOS), as it says.
func systemLanguages() []string {
	var out []string
	locale := ""
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if s := startingEnv(v); s != "" {
			locale = s
			break
		}
	}
	if l := startingEnv("LANGUAGE"); l != "" && locale != "C" && locale != "POSIX" {
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
