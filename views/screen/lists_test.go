package screen

import (
	"strings"
	"testing"
)

// A confirmation for many files names the first five and counts the rest.
func TestNameListNamesFiveAndCountsTheRest(t *testing.T) {
	names := []string{"a.pdf", "b.pdf", "c.pdf", "d.pdf", "e.pdf", "f.pdf", "g.pdf"}
	got := NameList(names)
	if lines := strings.Split(got, "\n"); len(lines) != 6 || lines[4] != "e.pdf" || lines[5] != "and 2 more" {
		t.Fatalf("seven names read %q", got)
	}
	if got := NameList(names[:2]); got != "a.pdf\nb.pdf" {
		t.Fatalf("two names read %q", got)
	}
}
