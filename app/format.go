package app

import (
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2/lang"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// CreditsNumber is a credits figure with the decimals it needs, up to four:
// the service charges in ten-thousandths.
func CreditsNumber(v float64) string {
	s := noNegativeZero(strconv.FormatFloat(v, 'f', 4, 64))
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}

// noNegativeZero drops the sign of a figure that rounds to zero.
func noNegativeZero(s string) string {
	if strings.Trim(s, "-0.") == "" {
		return strings.TrimPrefix(s, "-")
	}
	return s
}

// Credits is a credits figure with its unit, in the language in use.
func Credits(v float64) string {
	n := CreditsNumber(v)
	return lang.N("{{.Count}} credit", pluralCount(n), map[string]any{"Count": decimal(n)})
}

// CreditsColumn is a credits figure with four decimals, so a column lines up.
func CreditsColumn(v float64) string {
	n := noNegativeZero(strconv.FormatFloat(v, 'f', 4, 64))
	return lang.N("{{.Count}} credit", 2, map[string]any{"Count": decimal(n)})
}

// pluralCount picks a figure's plural form: a fraction takes the many form
// ("1.5 credits").
func pluralCount(figure string) int {
	if n, err := strconv.Atoi(figure); err == nil {
		return n
	}
	return 2
}

// HowLong is a duration in the words a person would use.
func HowLong(d time.Duration) string {
	if d < 50*time.Millisecond {
		return lang.L("less than a second")
	}
	if d >= time.Hour {
		d = d.Round(time.Minute)
		h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
		out := plural(strconv.Itoa(h), "hour")
		if m > 0 {
			out = both(out, plural(strconv.Itoa(m), "minute"))
		}
		return out
	}
	if d < 10*time.Second {
		s := strconv.FormatFloat(d.Round(100*time.Millisecond).Seconds(), 'f', 1, 64)
		s = strings.TrimSuffix(s, ".0")
		return plural(s, "second")
	}
	d = d.Round(time.Second)
	if d < time.Minute {
		return plural(strconv.Itoa(int(d/time.Second)), "second")
	}
	m, s := int(d/time.Minute), int(d%time.Minute/time.Second)
	out := plural(strconv.Itoa(m), "minute")
	if s > 0 {
		out = both(out, plural(strconv.Itoa(s), "second"))
	}
	return out
}

// both is two spans of time said together ("1 hour 5 minutes").
func both(large, small string) string {
	return lang.L("{{.Large}} {{.Small}}", map[string]any{"Large": large, "Small": small})
}

// plural is n of a unit of time, in the language in use.
func plural(n, unit string) string {
	data := map[string]any{"Count": decimal(n)}
	switch unit {
	case "hour":
		return lang.N("{{.Count}} hour", pluralCount(n), data)
	case "minute":
		return lang.N("{{.Count}} minute", pluralCount(n), data)
	}
	return lang.N("{{.Count}} second", pluralCount(n), data)
}

// Preview is the first line of a markdown text without the markup, for list rows.
func Preview(markdown string) string {
	src := []byte(markdown)
	doc := goldmark.DefaultParser().Parse(text.NewReader(src))
	var b strings.Builder
	done := false
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if done {
			return ast.WalkStop, nil
		}
		if !entering {
			// The first block with words is the line.
			if n.Type() == ast.TypeBlock && strings.TrimSpace(b.String()) != "" {
				done = true
				return ast.WalkStop, nil
			}
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Text:
			b.Write(util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(n.Segment.Value(src)))))
			if n.SoftLineBreak() || n.HardLineBreak() {
				done = true
				return ast.WalkStop, nil
			}
		case *ast.String:
			b.Write(n.Value)
		case *ast.CodeBlock, *ast.FencedCodeBlock:
			for i := 0; i < n.Lines().Len(); i++ {
				line := n.Lines().At(i)
				if v := line.Value(src); len(strings.TrimSpace(string(v))) > 0 {
					b.Write(v)
					done = true
					return ast.WalkStop, nil
				}
			}
		case *ast.AutoLink:
			b.Write(n.URL(src))
		}
		return ast.WalkContinue, nil
	})
	return strings.Join(strings.Fields(b.String()), " ")
}
