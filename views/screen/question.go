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

// QuestionName is a question's name as a label shows it: a plain word for
// the service's technical names (app.QuestionLabel: "temperature" is
// "Style"), "due_date" as "Due date", on one line, at most max characters
// (0: no limit), and "Question" when the agent gave it no name.
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

// ChoiceLabels are the choices of q as a select or multiselect shows them,
// in the same order: each in plain words (app.ChoiceLabel: a model by its
// name, a language code by the language), as plain text on one line of at
// most max characters (safe.Text), "–" for one with nothing to show, and
// two that look alike told apart ("A", "A (2)").
func ChoiceLabels(q client.Question, choices []string, max int) []string {
	shown := make([]string, 0, len(choices))
	seen := map[string]int{}
	for _, c := range app.ChoiceLabels(q, choices) {
		s := safe.Text(c, max)
		if s == "" {
			s = "–"
		}
		// Two choices that look alike once made safe stay apart.
		seen[s]++
		if n := seen[s]; n > 1 {
			s += fmt.Sprintf(" (%d)", n)
		}
		shown = append(shown, s)
	}
	return shown
}
