package richtext

import "strings"

// Align is a column's alignment from the delimiter row.
type Align int

// The alignments a delimiter row can ask for.
const (
	AlignNone Align = iota
	AlignLeft
	AlignCenter
	AlignRight
)

// Table is a pipe table as written: cells are inline Markdown with `\|`
// unescaped; every row has the header's count.
type Table struct {
	Header []string
	Align  []Align
	Rows   [][]string
}

// locate looks for a pipe table in one block of Markdown: the table is
// block[start:end]; ok is false when there is none. A table may follow a
// paragraph directly, as on GitHub. It never goes back, so it is linear in
// the block's size.
func locate(block string) (start, end int, t Table, ok bool) {
	// prev is the line before the one being read, the candidate header.
	var prev, prevPrev line
	havePrev, havePrevPrev := false, false
	for cur := range lines(block) {
		// A delimiter row reading as a list item starts a list, as on GitHub.
		if havePrev && !blank(prev.text) && isDelimiterRow(cur.text) && !startsBlock(strings.TrimLeft(cur.text, " \t")) {
			aligns := delimiterAligns(cur.text)
			if header, ok := splitRow(prev.text); ok && len(header) == len(aligns) && canBeHeader(prev.text, havePrevPrev && !blank(prevPrev.text)) {
				t = Table{Header: header, Align: aligns}
				end = cur.next
				for row := range lines(block[cur.next:]) {
					if blank(row.text) || startsBlock(row.text) {
						break
					}
					cells, ok := splitRow(row.text)
					if !ok {
						break
					}
					t.Rows = append(t.Rows, fit(cells, len(header)))
					end = cur.next + row.next
				}
				return prev.start, end, t, true
			}
		}
		prevPrev, havePrevPrev = prev, havePrev
		prev, havePrev = cur, true
	}
	return 0, 0, Table{}, false
}

// line is a line's text without its end, its start, and the next line's start.
type line struct {
	text        string
	start, next int
}

// lines yields s's lines, ended by "\n", "\r\n" or "\r" as in CommonMark.
func lines(s string) func(yield func(line) bool) {
	return func(yield func(line) bool) {
		for at := 0; at < len(s); {
			i := strings.IndexAny(s[at:], "\r\n")
			if i < 0 {
				yield(line{s[at:], at, len(s)})
				return
			}
			next := at + i + 1
			if s[at+i] == '\r' && next < len(s) && s[next] == '\n' {
				next++
			}
			if !yield(line{s[at : at+i], at, next}) {
				return
			}
			at = next
		}
	}
}

func trimLineEnd(s string) string {
	if strings.HasSuffix(s, "\r\n") {
		return s[:len(s)-2]
	}
	if strings.HasSuffix(s, "\n") || strings.HasSuffix(s, "\r") {
		return s[:len(s)-1]
	}
	return s
}

func blank(s string) bool { return strings.Trim(s, " \t") == "" }

// fit pads or truncates a row to the header's count, as GitHub does.
func fit(cells []string, n int) []string {
	if len(cells) > n {
		return cells[:n:n]
	}
	for len(cells) < n {
		cells = append(cells, "")
	}
	return cells
}

// splitRow cuts a row into trimmed cells. Outer pipes are optional; `\|` is
// part of a cell even in code. ok is false for a row with no cell, which ends
// a table.
func splitRow(s string) (cells []string, ok bool) {
	s = strings.Trim(s, " \t")
	s = strings.TrimPrefix(s, "|")
	if s == "" {
		return nil, false
	}
	var b strings.Builder
	split := false // the last byte read was a pipe that ends a cell
	for i := 0; i < len(s); i++ {
		split = false
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == '|':
			b.WriteByte('|')
			i++
		case s[i] == '|':
			cells = append(cells, strings.Trim(b.String(), " \t"))
			b.Reset()
			split = true
		default:
			b.WriteByte(s[i])
		}
	}
	// A row ending in a pipe has no empty cell after it.
	if !split {
		cells = append(cells, strings.Trim(b.String(), " \t"))
	}
	return cells, true
}

// isDelimiterRow reports a delimiter row. Hyphens alone underline a heading
// instead, as in GitHub's parser.
func isDelimiterRow(s string) bool {
	s = strings.Trim(s, " \t")
	if strings.Trim(s, "|-: \t") != "" {
		return false // the cheap test, for every line of a block
	}
	if s == "" || strings.Trim(s, "-") == "" && !strings.Contains(s, "|") {
		return false
	}
	if strings.Trim(s, "- \t") == "" {
		return false // "--- ---" is a thematic break
	}
	cells, ok := splitRow(s)
	if !ok {
		return false
	}
	for _, c := range cells {
		c = strings.TrimPrefix(c, ":")
		c = strings.TrimSuffix(c, ":")
		if c == "" || strings.Trim(c, "-") != "" {
			return false
		}
	}
	return true
}

// delimiterAligns is the alignment each cell of a delimiter row asks for.
func delimiterAligns(s string) []Align {
	cells, _ := splitRow(s)
	aligns := make([]Align, len(cells))
	for i, c := range cells {
		left, right := strings.HasPrefix(c, ":"), strings.HasSuffix(c, ":")
		switch {
		case left && right:
			aligns[i] = AlignCenter
		case right:
			aligns[i] = AlignRight
		case left:
			aligns[i] = AlignLeft
		}
	}
	return aligns
}

// canBeHeader reports whether s may be a table's header: a paragraph's line,
// not one starting another block or indented code.
func canBeHeader(s string, afterText bool) bool {
	if indent(s) >= 4 {
		return afterText
	}
	return !startsBlock(s)
}

// indent is s's leading columns of space, tabs to multiples of 4.
func indent(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			n++
		case '\t':
			n += 4 - n%4
		default:
			return n
		}
	}
	return n
}

// startsBlock reports a line starting a non-paragraph block, which ends a
// table as on GitHub.
func startsBlock(s string) bool {
	if indent(s) >= 4 {
		return true
	}
	s = strings.TrimLeft(s, " \t")
	if s == "" {
		return false
	}
	switch c := s[0]; {
	case c == '>':
		return true
	case c == '#':
		n := len(s) - len(strings.TrimLeft(s, "#"))
		return n <= 6 && spaceOrEnd(s, n)
	case c == '`' || c == '~':
		n := len(s) - len(strings.TrimLeft(s, string(c)))
		// "```a|b```" is a code span, not a fence.
		return n >= 3 && (c == '~' || !strings.Contains(s[n:], "`"))
	case c == '-' || c == '*' || c == '_' || c == '+':
		if c != '+' && thematicBreak(s, c) {
			return true
		}
		return c != '_' && spaceOrEnd(s, 1)
	case c >= '0' && c <= '9':
		n := len(s) - len(strings.TrimLeft(s, "0123456789"))
		return n <= 9 && n < len(s) && (s[n] == '.' || s[n] == ')') && spaceOrEnd(s, n+1)
	}
	return false
}

func thematicBreak(s string, c byte) bool {
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case c:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

func spaceOrEnd(s string, i int) bool {
	return i >= len(s) || s[i] == ' ' || s[i] == '\t'
}
