package screen

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
)

func TestQuestionNameReadsAsWords(t *testing.T) {
	for in, want := range map[string]string{
		"due_date":               "Due date",
		"":                       "Question",
		"  ":                     "Question",
		"élan":                   "Élan",
		"line\nbreak":            "Line break",
		strings.Repeat("x", 300): "X" + strings.Repeat("x", 39) + "…",
	} {
		if got := QuestionName(client.Question{Name: in}, 40); got != want {
			t.Errorf("%q is shown as %q, want %q", in, got, want)
		}
	}
}

// The names agents often give their questions read in the user's language;
// a sheet's column may carry either.
func TestCommonQuestionNamesSpeakTheUsersLanguage(t *testing.T) {
	for lang, want := range map[string][]string{
		"en":    {"Prompt", "Tone", "Aspect ratio", "Voice-over", "Due date"},
		"pt-BR": {"Pedido", "Tom", "Proporção", "Narração", "Due date"},
		"es":    {"Petición", "Tono", "Proporción", "Voz en off", "Due date"},
	} {
		apptest.Speak(t, lang)
		for i, name := range []string{"prompt", "tone", "aspect_ratio", "voiceover", "due_date"} {
			if got := QuestionName(client.Question{Name: name}, 40); got != want[i] {
				t.Errorf("%s: %q reads %q, want %q", lang, name, got, want[i])
			}
		}
		agent := client.Agent{Questions: []client.Question{{Name: "tone", Type: "select", Options: []string{"formal"}}}}
		if cols := app.MatchColumns(agent, []string{"x", want[1]}); cols["tone"] != 1 {
			t.Errorf("%s: a column headed %q does not answer tone: %v", lang, want[1], cols)
		}
	}
}
