package screen

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/safe"
)

// QuestionName is a question's name as a label shows it: plain words, one
// line, at most max characters (0: no limit), "Question" when unnamed.
func QuestionName(q client.Question, max int) string {
	if l := app.QuestionLabel(q); l != "" {
		return l
	}
	name := strings.TrimSpace(safe.Text(strings.ReplaceAll(q.Name, "_", " "), max))
	if name == "" {
		return lang.L("Question")
	}
	r, size := utf8.DecodeRuneInString(name)
	return string(unicode.ToUpper(r)) + name[size:]
}

// ChoiceLabels are q's choices as a select shows them, in order: plain words,
// one safe line of at most max characters, look-alikes told apart.
func ChoiceLabels(q client.Question, choices []string, max int) []string {
	shown := make([]string, 0, len(choices))
	seen := map[string]int{}
	for _, c := range app.ChoiceLabels(q, choices) {
		s := safe.Text(c, max)
		if s == "" {
			s = "–"
		}
		seen[s]++
		if n := seen[s]; n > 1 {
			s += fmt.Sprintf(" (%d)", n)
		}
		shown = append(shown, s)
	}
	return shown
}
