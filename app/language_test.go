package app

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/storage"
)

// speak has Agent Desk speak chosen, started with the environment env,
// for the test's duration; English again afterwards.
func speak(t *testing.T, chosen string, env map[string]string) {
	t.Helper()
	// Registered first, run last: after the environment is put back.
	t.Cleanup(func() {
		_ = useWords("en")
	})
	for _, v := range languageVars {
		t.Setenv(v, env[v])
	}
	if err := UseLanguage(chosen); err != nil {
		t.Fatal(err)
	}
}

// Agent Desk speaks the language chosen in Settings, or else the
// computer's when it is one it knows (English otherwise), words, numbers
// and dates alike; starting again gets the environment it was started
// with.
func TestAgentDeskSpeaksTheChosenLanguage(t *testing.T) {
	day := time.Date(2026, 11, 27, 15, 4, 0, 0, time.Local)
	for _, tc := range []struct {
		chosen string
		env    map[string]string
		want   string // the language in use
		words  []string
	}{
		{"pt-BR", map[string]string{"LANG": "C"}, "pt-BR",
			[]string{"Configurações", "0,5 créditos", "1 crédito", "27 nov. 2026 15:04", "12.345", "1 minuto e 30 segundos"}},
		{"es", map[string]string{"LC_ALL": "C"}, "es",
			[]string{"Configuración", "0,5 créditos", "1 crédito", "27 nov 2026 15:04", "12.345", "1 minuto y 30 segundos"}},
		{"", map[string]string{"LANG": "es_MX.UTF-8"}, "es", nil},
		{"", map[string]string{"LANGUAGE": "pt_BR:en", "LANG": "en_US.UTF-8"}, "pt-BR", nil},
		{"", map[string]string{"LANG": "de_DE.UTF-8"}, "en",
			[]string{"Settings", "0.5 credits", "1 credit", "27 Nov 2026 15:04", "12,345", "1 minute 30 seconds"}},
		{"en", map[string]string{"LANG": "pt_BR.UTF-8"}, "en", []string{"Settings"}},
	} {
		t.Run(tc.chosen+"/"+tc.want, func(t *testing.T) {
			speak(t, tc.chosen, tc.env)
			if got := LanguageInUse(); got != tc.want {
				t.Fatalf("speaks %q, want %q", got, tc.want)
			}
			got := []string{lang.L("Settings"), Credits(0.5), Credits(1), DateTime(day), Number(12345), HowLong(90 * time.Second)}
			if tc.words != nil && !slices.Equal(got[:len(tc.words)], tc.words) {
				t.Fatalf("reads %q, want %q", got[:len(tc.words)], tc.words)
			}
			for _, v := range languageVars {
				if got := os.Getenv(v); got != tc.env[v] {
					t.Errorf("%s is %q once the language is chosen, want %q as it was: programs Agent Desk opens would start in its language", v, got, tc.env[v])
				}
			}
			env := os.Environ()
			for v, was := range tc.env {
				if !slices.Contains(env, v+"="+was) {
					t.Errorf("starting again, %s is not %q as it was: %v", v, was, env)
				}
			}
			if _, set := tc.env["LANGUAGE"]; !set && slices.ContainsFunc(env, func(kv string) bool { return len(kv) > 9 && kv[:9] == "LANGUAGE=" }) {
				t.Errorf("starting again keeps the language chosen this time in the environment: %v", env)
			}
		})
	}
}

// What storage had to do at start (a damaged settings file moved aside,
// the history kept in memory) is told in the language in use.
func TestStartNoticesSpeakTheLanguageInUse(t *testing.T) {
	speak(t, "pt-BR", map[string]string{"LANG": "C"})
	full := &storage.Error{Op: "open the history", Path: "/home/ana/history.db", Reason: "the disk is full"}
	for _, tc := range []struct {
		n    storage.Notice
		want []string
	}{
		{storage.Notice{Kind: storage.SettingsMovedAside, Path: "/home/ana/settings.json.broken-1"}, []string{"foi movido para /home/ana/settings.json.broken-1", "configurações padrão"}},
		{storage.Notice{Kind: storage.HistoryInMemory, Err: full}, []string{"abrir o histórico", "o disco está cheio", "histórico vazio"}},
		{storage.Notice{Kind: storage.HistoryReadOnly, Err: full}, []string{"o disco está cheio.", "nada novo será salvo"}},
	} {
		got := noticeSentence(tc.n)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%v reads %q, want %q in it", tc.n.Kind, got, w)
			}
		}
	}
}

// A chat not yet renamed is recognised by its title in any language, so
// that it is named after its first message even when Agent Desk started
// it in another language.
func TestANewChatsTitleIsKnownInEveryLanguage(t *testing.T) {
	for _, title := range []string{"New chat with Helper", "Nova conversa com Helper", "Nuevo chat con Helper"} {
		if !isNewChatTitle(title) {
			t.Errorf("%q is not known as a new chat's title", title)
		}
	}
	if isNewChatTitle("Budget questions") {
		t.Error("a title the user gave is taken for a new chat's")
	}
}

// Where Fyne speaks the computer's language rather than the one chosen
// (Windows, macOS), Agent Desk's words loaded for that language keep
// every plural form its rules ask for: no bare key ("3 agent") on a Czech
// computer.
func TestWordsLoadedForAnotherLanguageKeepTheirPlurals(t *testing.T) {
	speak(t, "es", map[string]string{"LANG": "C"})
	if err := loadWords("es", "cs"); err != nil {
		t.Fatal(err)
	}
	t.Setenv("LANGUAGE", "cs")
	t.Setenv("LANG", "cs_CZ.UTF-8")
	if err := lang.AddTranslationsForLocale([]byte("{}"), "cs"); err != nil { // Fyne picks Czech
		t.Fatal(err)
	}
	for n, want := range map[int]string{1: "1 crédito", 3: "3 créditos", 5: "5 créditos"} {
		if got := Credits(float64(n)); got != want {
			t.Errorf("%d credits read %q on a Czech computer, want %q", n, got, want)
		}
	}
}
