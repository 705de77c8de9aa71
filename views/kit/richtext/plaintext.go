package richtext

import (
	"strconv"
	"strings"

	"fyne.io/fyne/v2/widget"
)

// PlainText is markdown typed out without marks, lists bulleted, a link's
// address after differing words: for places that read no markdown.
func PlainText(md string) string {
	segs, _ := Parse(md)
	var b strings.Builder
	writePlain(&b, segs, "")
	out := strings.TrimSpace(b.String())
	for strings.Contains(out, "\n\n\n") {
		out = strings.ReplaceAll(out, "\n\n\n", "\n\n")
	}
	return out
}

func writePlain(b *strings.Builder, segs []widget.RichTextSegment, indent string) {
	for _, s := range segs {
		switch t := s.(type) {
		case *widget.TextSegment:
			b.WriteString(t.Text)
			if !t.Style.Inline {
				b.WriteString("\n\n")
			}
		case *widget.HyperlinkSegment:
			b.WriteString(t.Text)
			if t.URL != nil && t.URL.String() != t.Text {
				b.WriteString(" (" + t.URL.String() + ")")
			}
		case *widget.ListSegment:
			for i, item := range t.Items {
				mark := "• "
				if t.Ordered {
					mark = strconv.Itoa(i+1) + ". "
				}
				b.WriteString(indent + mark)
				var inner strings.Builder
				writePlain(&inner, []widget.RichTextSegment{item}, indent+"   ")
				b.WriteString(strings.TrimSpace(inner.String()) + "\n")
			}
			b.WriteString("\n")
		case *widget.ParagraphSegment:
			writePlain(b, t.Texts, indent)
			b.WriteString("\n")
		case *widget.SeparatorSegment:
			b.WriteString("\n")
		case *Picture:
			b.WriteString("[" + t.Textual() + "]\n")
		default:
			b.WriteString(s.Textual())
		}
	}
}
