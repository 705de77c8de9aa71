package screen

import (
	"strings"
	"testing"

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
