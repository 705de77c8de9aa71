package richtext

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// FindTable is locate giving the text before the table, without the
// separating line end, and the text after it.
func FindTable(block string) (before string, t Table, after string, ok bool) {
	start, end, t, ok := locate(block)
	if !ok {
		return "", Table{}, "", false
	}
	return trimLineEnd(block[:start]), t, block[end:], true
}

func TestFind(t *testing.T) {
	type row = []string
	tests := []struct {
		name   string
		block  string
		ok     bool
		before string
		table  Table
		after  string
	}{
		{
			name:  "outer pipes",
			block: "| a | b |\n|---|---|\n| 1 | 2 |",
			ok:    true,
			table: Table{Header: row{"a", "b"}, Align: []Align{AlignNone, AlignNone}, Rows: []row{{"1", "2"}}},
		},
		{
			name:  "no outer pipes",
			block: "a | b\n--|--\n1 | 2\n3 | 4",
			ok:    true,
			table: Table{Header: row{"a", "b"}, Align: []Align{AlignNone, AlignNone}, Rows: []row{{"1", "2"}, {"3", "4"}}},
		},
		{
			name:  "alignment row",
			block: "| l | c | r | n |\n| :--- | :-: | --: | --- |\n| 1 | 2 | 3 | 4 |",
			ok:    true,
			table: Table{Header: row{"l", "c", "r", "n"}, Align: []Align{AlignLeft, AlignCenter, AlignRight, AlignNone}, Rows: []row{{"1", "2", "3", "4"}}},
		},
		{
			name:  "escaped pipes stay in their cell, in code too",
			block: "| expr | meaning |\n|---|---|\n| a \\| b | `x \\|\\| y` |",
			ok:    true,
			table: Table{Header: row{"expr", "meaning"}, Align: []Align{AlignNone, AlignNone}, Rows: []row{{"a | b", "`x || y`"}}},
		},
		{
			name:  "a pipe in a code span without a backslash splits the cell",
			block: "| a | b |\n|---|---|\n| `x | y` |",
			ok:    true,
			table: Table{Header: row{"a", "b"}, Align: []Align{AlignNone, AlignNone}, Rows: []row{{"`x", "y`"}}},
		},
		{
			name:  "other escapes are left for the Markdown",
			block: "| a | b |\n|---|---|\n| \\*x\\* | c:\\\\ |",
			ok:    true,
			table: Table{Header: row{"a", "b"}, Align: []Align{AlignNone, AlignNone}, Rows: []row{{`\*x\*`, `c:\\`}}},
		},
		{
			name:  "short rows are padded, long rows cut",
			block: "| a | b | c |\n|---|---|---|\n| 1 |\n| 1 | 2 | 3 | 4 | 5 |\n|  | | |",
			ok:    true,
			table: Table{Header: row{"a", "b", "c"}, Align: []Align{AlignNone, AlignNone, AlignNone},
				Rows: []row{{"1", "", ""}, {"1", "2", "3"}, {"", "", ""}}},
		},
		{
			name:  "header and delimiter counts differ: no table",
			block: "| a | b | c |\n|---|---|\n| 1 | 2 | 3 |",
		},
		{
			name:  "hyphens alone under a line make a heading",
			block: "Title\n---",
		},
		{
			name:  "a delimiter row needs hyphens",
			block: "| a | b |\n| : | : |",
		},
		{
			name:  "a delimiter row that reads as a list item",
			block: "a | b\n- | -",
		},
		{
			name:  "no delimiter row",
			block: "| a | b |\n| 1 | 2 |",
		},
		{
			name:   "a paragraph's lines before the table",
			block:  "Here are the results:\nas of today\n| a | b |\n|---|---|\n| 1 | 2 |",
			ok:     true,
			before: "Here are the results:\nas of today",
			table:  Table{Header: row{"a", "b"}, Align: []Align{AlignNone, AlignNone}, Rows: []row{{"1", "2"}}},
		},
		{
			name:  "a quote right after the last row",
			block: "| a | b |\n|---|---|\n| 1 | 2 |\n> quoted\n> more",
			ok:    true,
			table: Table{Header: row{"a", "b"}, Align: []Align{AlignNone, AlignNone}, Rows: []row{{"1", "2"}}},
			after: "> quoted\n> more",
		},
		{
			name:  "a heading, a fence, a list end the table",
			block: "| a |\n|---|\n| 1 |\n# Next\n| 2 |",
			ok:    true,
			table: Table{Header: row{"a"}, Align: []Align{AlignNone}, Rows: []row{{"1"}}},
			after: "# Next\n| 2 |",
		},
		{
			name:  "a fence ends the table",
			block: "| a |\n|---|\n```go\nx := 1\n```",
			ok:    true,
			table: Table{Header: row{"a"}, Align: []Align{AlignNone}},
			after: "```go\nx := 1\n```",
		},
		{
			name:  "a list item ends the table",
			block: "a | b\n--|--\n1 | 2\n- item",
			ok:    true,
			table: Table{Header: row{"a", "b"}, Align: []Align{AlignNone, AlignNone}, Rows: []row{{"1", "2"}}},
			after: "- item",
		},
		{
			name:  "a line without pipes is a row",
			block: "| a | b |\n|---|---|\nbar",
			ok:    true,
			table: Table{Header: row{"a", "b"}, Align: []Align{AlignNone, AlignNone}, Rows: []row{{"bar", ""}}},
		},
		{
			name:  "a blank line ends the table",
			block: "| a |\n|---|\n| 1 |\n\n| 2 |",
			ok:    true,
			table: Table{Header: row{"a"}, Align: []Align{AlignNone}, Rows: []row{{"1"}}},
			after: "\n| 2 |",
		},
		{
			name:   "CRLF line ends",
			block:  "Intro\r\n| a | b |\r\n|:-|-:|\r\n| 1 | 2 |\r\n> q",
			ok:     true,
			before: "Intro",
			table:  Table{Header: row{"a", "b"}, Align: []Align{AlignLeft, AlignRight}, Rows: []row{{"1", "2"}}},
			after:  "> q",
		},
		{
			name:  "unicode cells",
			block: "| 名前 | الاسم | 😀 |\n|---|---|---|\n| 東京タワー | مرحبا بالعالم | 👍🏽 ok |",
			ok:    true,
			table: Table{Header: row{"名前", "الاسم", "😀"}, Align: []Align{AlignNone, AlignNone, AlignNone},
				Rows: []row{{"東京タワー", "مرحبا بالعالم", "👍🏽 ok"}}},
		},
		{
			name:  "a header only",
			block: "| a | b |\n|---|---|",
			ok:    true,
			table: Table{Header: row{"a", "b"}, Align: []Align{AlignNone, AlignNone}},
		},
		{
			name:  "a header that starts a quote is not one",
			block: "> a | b\n--|--",
		},
		{
			name:   "the second of two delimiter rows when the first does not match",
			block:  "| a | b |\n|---|\n| c |\n|---|\n| 1 |",
			ok:     true,
			before: "| a | b |\n|---|",
			table:  Table{Header: row{"c"}, Align: []Align{AlignNone}, Rows: []row{{"1"}}},
		},
		{
			name:  "indented code is not a header",
			block: "    a | b\n    --|--",
		},
		{
			name:  "empty block",
			block: "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, table, after, ok := FindTable(tt.block)
			if ok != tt.ok {
				t.Fatalf("FindTable(%q) ok = %v, want %v (got %#v)", tt.block, ok, tt.ok, table)
			}
			if !ok {
				return
			}
			if before != tt.before || after != tt.after {
				t.Errorf("before, after = %q, %q; want %q, %q", before, after, tt.before, tt.after)
			}
			if !reflect.DeepEqual(table, tt.table) {
				t.Errorf("table = %#v\nwant    %#v", table, tt.table)
			}
		})
	}
}

// TestFindTakesLinearTime: Find reads a reply of 2 MiB, with or without a
// table, in about the time it takes to read it once. A quadratic scan
// would take hours: the bound only tells that from a busy machine.
func TestFindTakesLinearTime(t *testing.T) {
	blocks := map[string]string{
		"a table of 2 MiB":                    "| a | b |\n|---|---|\n" + strings.Repeat("| 1 | two \\| three |\n", 2<<20/21),
		"delimiter rows that never match":     strings.Repeat("| a | b | c |\n|---|---|\n", 2<<20/26),
		"one line of pipes":                   strings.Repeat("|", 2<<20),
		"one line of hyphens and pipes":       "a\n" + strings.Repeat("-|", 1<<20),
		"escapes":                             strings.Repeat(`\|`, 1<<20) + "\n" + strings.Repeat("-|", 1<<20),
		"a paragraph of 2 MiB before a table": strings.Repeat("words and words\n", 2<<20/16) + "a|b\n-|-\n1|2",
	}
	for name, block := range blocks {
		start := time.Now()
		FindTable(block)
		if d := time.Since(start); d > 2*time.Minute {
			t.Errorf("%s: Find took %v", name, d)
		}
	}
}

// FuzzFind: Find never panics; a table it finds has as many cells in each
// row as in its header; and the block is the text before, the table's
// lines and the text after, in order, the table's cells holding its lines'
// text but for the table's own marks (pipes, spaces, the escape of a pipe,
// cells past the header's count).
func FuzzFind(f *testing.F) {
	for _, s := range []string{
		"| a | b |\n|---|---|\n| 1 | 2 |",
		"intro\n a | b \n :-:|--:\n1|2|3\n> q",
		"|a\\|b|`c|d`|\r\n|-|-|\r\n||",
		"x\n|\n|-|\n|",
		"名前|😀\n-|-\n東京|👍🏽",
		"a|b\n-|-\n    code",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, block string) {
		start, end, table, ok := locate(block)
		before, t2, after, ok2 := FindTable(block)
		if ok != ok2 || !reflect.DeepEqual(table, t2) {
			t.Fatalf("Find and locate disagree")
		}
		if !ok {
			return
		}
		if len(table.Header) == 0 || len(table.Align) != len(table.Header) {
			t.Fatalf("header %q, aligns %v", table.Header, table.Align)
		}
		for _, r := range table.Rows {
			if len(r) != len(table.Header) {
				t.Fatalf("row %q has %d cells, the header %d", r, len(r), len(table.Header))
			}
		}
		if start > end || end > len(block) || !strings.HasPrefix(block, before) || !strings.HasSuffix(block, after) ||
			len(before) > start || len(after) != len(block)-end {
			t.Fatalf("before %q, table [%d:%d], after %q do not make up the block", before, start, end, after)
		}
		if trimLineEnd(block[:start]) != before {
			t.Fatalf("before %q is not the text up to the table", before)
		}
		var ls []string
		for l := range lines(block[start:end]) {
			ls = append(ls, l.text)
		}
		if len(ls) != 2+len(table.Rows) {
			t.Fatalf("%d lines for a header and %d rows", len(ls), len(table.Rows))
		}
		cellsOf := append([][]string{table.Header}, table.Rows...)
		for i, l := range append(ls[:1:1], ls[2:]...) {
			text := cellContent(strings.Join(cellsOf[i], ""))
			kept := lineContent(keptCells(l, len(table.Header)))
			if text != kept {
				t.Fatalf("line %q: cells %q hold %q, want %q", l, cellsOf[i], text, kept)
			}
		}
	})
}

// keptCells is the text of a row's line up to the pipe that starts its
// n+1th cell: the cells a table keeps.
func keptCells(l string, n int) string {
	l = strings.TrimLeft(l, " \t")
	l = strings.TrimPrefix(l, "|")
	cells := 0
	for i := 0; i < len(l); i++ {
		if l[i] == '\\' && i+1 < len(l) && l[i+1] == '|' {
			i++
			continue
		}
		if l[i] == '|' {
			if cells++; cells == n {
				return l[:i]
			}
		}
	}
	return l
}

// cellContent is a cell's text without pipes, spaces and tabs; lineContent
// is a line's the same way, escaped pipes taken out with their backslash:
// what is left is what a table keeps of them.
func cellContent(s string) string {
	return strings.NewReplacer("|", "", " ", "", "\t", "").Replace(s)
}

func lineContent(l string) string {
	var b strings.Builder
	for i := 0; i < len(l); i++ {
		switch {
		case l[i] == '\\' && i+1 < len(l) && l[i+1] == '|':
			i++
		case l[i] == '|' || l[i] == ' ' || l[i] == '\t':
		default:
			b.WriteByte(l[i])
		}
	}
	return b.String()
}
