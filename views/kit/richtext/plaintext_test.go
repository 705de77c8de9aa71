package richtext_test

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/views/kit/richtext"
)

// Copy gives the words of a reply without markdown's marks.
func TestPlainTextDropsTheMarksAndKeepsTheWords(t *testing.T) {
	md := "# Plan\n\nSome **bold** and *slanted* words, `code`, and [the docs](https://example.com/docs).\n\n- first\n- second\n\n1. one\n2. two\n\n```\nfmt.Println(1)\n```\n"
	got := richtext.PlainText(md)
	for _, mark := range []string{"**", "# ", "`", "](", "```"} {
		if strings.Contains(got, mark) {
			t.Errorf("plain text keeps %q:\n%s", mark, got)
		}
	}
	for _, want := range []string{"Plan", "Some bold and slanted words, code, and the docs (https://example.com/docs).", "• first\n• second", "1. one\n2. two", "fmt.Println(1)"} {
		if !strings.Contains(got, want) {
			t.Errorf("plain text lacks %q:\n%s", want, got)
		}
	}
}
