package kit

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/app/safe"
	"github.com/agentdesk/agentdesk/client"
)

// QuestionName is a question's name as a label shows it: "due_date" as
// "Due date", on one line, at most max characters (0: no limit), and
// "Question" when the agent gave it no name.
func QuestionName(q client.Question, max int) string {
	name := strings.TrimSpace(safe.Text(strings.ReplaceAll(q.Name, "_", " "), max))
	if name == "" {
		return "Question"
	}
	r, size := utf8.DecodeRuneInString(name)
	return string(unicode.ToUpper(r)) + name[size:]
}
