package richtext

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// dump is a compact picture of a segment tree, a segment a line, a block's
// segments indented under it: what the golden trees below are written in.
func dump(segs []widget.RichTextSegment) string {
	var b strings.Builder
	var walk func([]widget.RichTextSegment, string)
	walk = func(segs []widget.RichTextSegment, indent string) {
		for _, s := range segs {
			b.WriteString(indent)
			switch t := s.(type) {
			case *widget.TextSegment:
				fmt.Fprintf(&b, "%s %q\n", styleName(t.Style), t.Text)
			case *widget.HyperlinkSegment:
				u := "<nil>"
				if t.URL != nil {
					u = t.URL.String()
				}
				fmt.Fprintf(&b, "link %q %s\n", t.Text, u)
			case *widget.ImageSegment:
				src := "<nil>"
				if t.Source != nil {
					src = t.Source.String()
				}
				fmt.Fprintf(&b, "image %q %s\n", t.Title, src)
			case *widget.SeparatorSegment:
				b.WriteString("---\n")
			case *widget.ListSegment:
				if t.Ordered {
					fmt.Fprintf(&b, "list %d.\n", t.StartNumber())
				} else {
					b.WriteString("list •\n")
				}
				walk(t.Items, indent+"  ")
			case *widget.ParagraphSegment:
				if len(t.Texts) == 1 {
					if p, ok := t.Texts[0].(*widget.ParagraphSegment); ok && len(p.Texts) == 0 {
						b.WriteString("rowend\n")
						continue
					}
				}
				b.WriteString("p\n")
				walk(t.Texts, indent+"  ")
			default:
				fmt.Fprintf(&b, "%T\n", s)
			}
		}
	}
	walk(segs, "")
	return b.String()
}

// styleName names Fyne's own styles; any other style is named by what it
// adds to inline text ("text+bold+dim") or to a paragraph ("para+bold").
func styleName(s widget.RichTextStyle) string {
	for _, n := range []struct {
		name  string
		style widget.RichTextStyle
	}{
		{"text", widget.RichTextStyleInline}, {"para", widget.RichTextStyleParagraph},
		{"em", widget.RichTextStyleEmphasis}, {"strong", widget.RichTextStyleStrong},
		{"code", widget.RichTextStyleCodeInline}, {"codeblock", widget.RichTextStyleCodeBlock},
		{"h1", widget.RichTextStyleHeading}, {"h2", widget.RichTextStyleSubHeading},
		{"quote", widget.RichTextStyleBlockquote},
	} {
		if s == n.style {
			return n.name
		}
	}
	name := "text"
	if !s.Inline {
		name = "para"
	}
	for _, f := range []struct {
		on   bool
		name string
	}{
		{s.TextStyle.Bold, "bold"}, {s.TextStyle.Italic, "italic"}, {s.TextStyle.Monospace, "mono"},
		{s.ColorName == theme.ColorNamePlaceHolder, "dim"}, {s.SizeName != theme.SizeNameText, string(s.SizeName)},
	} {
		if f.on {
			name += "+" + f.name
		}
	}
	return name
}

// renderCases are Markdown a reply may hold and the tree it is drawn as.
var renderCases = []struct{ name, md, want string }{
	{"a plain paragraph is an inline run closed by an empty paragraph, as Fyne's parser makes it",
		"hello world", `
text "hello world"
para ""`},
	{"a soft line break is a space and ends the segment",
		"one\ntwo", `
text "one "
text "two"
para ""`},
	{"a hard line break, by two spaces or a backslash, is a line end",
		"soft\nhard  \nslash\\\nend", `
text "soft "
text "hard\nslash\nend"
para ""`},
	{"emphasis, strong, strike (dimmed, no tildes) and code, also nested",
		"*em* **strong** ***both*** ~~gone~~ ~one~ `code` **bold `code` ~~x~~**", `
em "em"
text " "
strong "strong"
text " "
text+bold+italic "both"
text " "
text+dim "gone"
text " "
text+dim "one"
text " "
code "code"
text " "
strong "bold "
text+bold+mono "code"
strong " "
text+bold+dim "x"
para ""`},
	{"headings: 1 and 2 in Fyne's heading styles, 3 to 6 bold, setext too; a thematic break",
		"# One *a*\n## Two\n### Three `c` [l](https://l.example)\n#### Four\n##### Five\n###### Six\nSetext\n===\n\n***", `
h1 "One a"
h2 "Two"
para+bold "Three c l"
para+bold "Four"
para+bold "Five"
para+bold "Six"
h1 "Setext"
---`},
	{"a block quote keeps what it holds: paragraphs, a quote in it, a list, code",
		"> quoted *text*\n> more\n>\n> > nested\n>\n> - item\n>\n> ```\n> code\n> ```", `
quote "quoted text more"
quote "nested"
list •
  p
    quote "item"
codeblock "code"`},
	{"fenced (``` and ~~~) and indented code keep their text exactly, less the last line end",
		"```go\nx := 1\n\tif y {}\n\n```\n\n~~~\nz\n~~~\n\n    indented\n      more", `
codeblock "x := 1\n\tif y {}\n"
codeblock "z"
codeblock "indented\n  more"`},
	{"tight lists, and an ordered list keeps its first number",
		"- a\n- b\n\n3. c\n4. d", `
list •
  p
    text "a"
  p
    text "b"
list 3.
  p
    text "c"
  p
    text "d"`},
	{"a loose list closes each paragraph of an item",
		"- a\n\n- b\n\n  second\n", `
list •
  p
    text "a"
    para ""
  p
    text "b"
    para ""
    text "second"
    para ""`},
	{"nested lists: items on rows of their own, indented and marked per level",
		"1. a\n   - b\n     1. c\n     2. d\n   - e\n2. f", `
list 1.
  p
    text "a"
    rowend
    p
      strong "    •  "
      text "b"
      rowend
      p
        strong "        1. "
        text "c"
      rowend
      p
        strong "        2. "
        text "d"
    rowend
    p
      strong "    •  "
      text "e"
  p
    text "f"`},
	{"task lists, nested too",
		"- [ ] todo\n- [x] done\n  - [ ] sub", `
list •
  p
    code "☐ "
    text "todo"
  p
    code "☑ "
    text "done"
    rowend
    p
      strong "    •  "
      code "☐ "
      text "sub"`},
	{"a tight item's code starts a row of its own",
		"- tight\n  ```\n  code\n  ```\n- next", `
list •
  p
    text "tight"
    rowend
    codeblock "code"
  p
    text "next"`},
	{"links: words without styles, an address that does not parse is nil, no words shows the address",
		"[text *x*](https://a.example/p?q=1&amp;r=\\*) [bad](<http://a b>) [](https://e.example)", `
link "text x" https://a.example/p?q=1&r=*
text " "
link "bad" <nil>
text " "
link "https://e.example" https://e.example
para ""`},
	{"autolinks and bare addresses are links named by their address; e-mail goes to mailto",
		"<https://a.example/x> https://b.example/y www.c.example <me@d.example> you@e.example", `
link "https://a.example/x" https://a.example/x
text " "
link "https://b.example/y" https://b.example/y
text " "
link "www.c.example" http://www.c.example
text " "
link "me@d.example" mailto:me@d.example
text " "
link "you@e.example" mailto:you@e.example
para ""`},
	{"entities are decoded and backslash escapes removed, in one run of text",
		"&amp; &copy; &#169; &#x263A; &nosuch; \\* \\| \\&amp; a\\_b \x00", `
text "& © © ☺ &nosuch; * | &amp; a_b �"
para ""`},
	{"raw HTML, blocks and inline, is text as written",
		"<div class=\"x\">\n*not em*\n</div>\n\ntext <b>bold?</b> <!-- c --> end", `
text "<div class=\"x\">\n*not em*\n</div>"
para ""
text "text <b>bold?</b> <!-- c --> end"
para ""`},
	{"footnotes: references as [n], the notes as a numbered list at the end",
		"text[^1] more[^n].\n\n[^1]: first\n[^n]: second *em*\n[^unused]: gone", `
text "text[1] more[2]."
para ""
---
list 1.
  p
    text "first"
    para ""
  p
    text "second "
    em "em"
    para ""`},
	{"a table is not read here (the chat lays tables out): it stays a paragraph",
		"| a | b |\n|---|---|\n| 1 | \\| |", `
text "| a | b | "
text "|---|---| "
text "| 1 | | |"
para ""`},
	{"pictures keep their description as title; a picture in a link follows the link",
		"![alt *words*](https://p.example/a.png \"title\") [![inner](https://p.example/i.png)](https://l.example)", `
image "alt words" https://p.example/a.png
text " "
link "https://l.example" https://l.example
image "inner" https://p.example/i.png`},
	{"nothing is nothing", "", ``},
	{"CR LF and CR end lines",
		"a\r\nb\r\n\r\nc\rd", `
text "a "
text "b"
para ""
text "c "
text "d"
para ""`},
}

// Each kind of Markdown a reply may hold is drawn as the segment tree
// RichText needs to show it.
func TestMarkdownRendersSegmentTrees(t *testing.T) {
	for _, c := range renderCases {
		t.Run(c.name, func(t *testing.T) {
			got := dump(renderMarkdown(c.md))
			if want := strings.TrimPrefix(c.want, "\n"); strings.TrimSuffix(got, "\n") != want {
				t.Errorf("%q is drawn as\n%s\nwant\n%s", c.md, got, want)
			}
		})
	}
}

// textObjects are the words RichText draws under o, by where they are.
func textObjects(o fyne.CanvasObject) map[string]fyne.Position {
	at := map[string]fyne.Position{}
	for _, c := range test.WidgetRenderer(o.(fyne.Widget)).Objects() {
		if t, ok := c.(*canvas.Text); ok {
			at[strings.TrimSpace(t.Text)] = t.Position()
		}
	}
	return at
}

// Fyne draws a ListSegment inside a list item at the left edge, like its
// parent; nested items must be drawn each on a row of its own, further in
// the deeper they are, as close together as the items of a tight list, and
// a hard line break must start a new row.
func TestNestedListsAndLineBreaksAreDrawnAsNested(t *testing.T) {
	test.NewTempApp(t)
	r := widget.NewRichText(renderMarkdown("- parent\n  - child\n    - grandchild\n- sibling\n- last\n\nfirst  \nsecond")...)
	w := test.NewTempWindow(t, r)
	w.Resize(fyne.NewSize(500, 400))
	at := textObjects(r)
	for _, word := range []string{"parent", "child", "grandchild", "sibling", "last", "first", "second"} {
		if _, ok := at[word]; !ok {
			t.Fatalf("%q is not drawn on its own: %v", word, at)
		}
	}
	if !(at["parent"].X < at["child"].X && at["child"].X < at["grandchild"].X) {
		t.Errorf("nested items are not drawn further in: %v", at)
	}
	if at["sibling"].X != at["parent"].X {
		t.Errorf("the next item is not back at its parent's place: %v", at)
	}
	row := at["last"].Y - at["sibling"].Y
	for _, pair := range [][2]string{{"parent", "child"}, {"child", "grandchild"}, {"grandchild", "sibling"}} {
		if gap := at[pair[1]].Y - at[pair[0]].Y; gap != row {
			t.Errorf("%s is %v below %s, the rows of a tight list are %v apart", pair[1], gap, pair[0], row)
		}
	}
	if at["second"].Y <= at["first"].Y || at["second"].X != at["first"].X {
		t.Errorf("a hard line break does not start a new row: %v", at)
	}
}

// Markdown too long or too deep to read at a cost linear in its size is
// shown as written rather than read slowly.
func TestLongAndDeepMarkdownIsShownAsWritten(t *testing.T) {
	long := strings.Repeat("[a](", maxInline/4+1)
	if got := dump(renderMarkdown(long)); got != fmt.Sprintf("text %q\npara \"\"\n", long) {
		t.Errorf("a paragraph past maxInline is drawn as\n%.300s", got)
	}
	heading := "# " + strings.Repeat("*a**b", maxInline/5+1)
	if got := dump(renderMarkdown(heading)); got != fmt.Sprintf("text %q\npara \"\"\n", heading[2:]) {
		t.Errorf("a heading past maxInline is drawn as\n%.300s", got)
	}
	deep := strings.Repeat("> ", maxNesting+5) + "x"
	if got := dump(renderMarkdown(deep)); got != "quote \"> > > > > x\"\n" {
		t.Errorf("quotes past maxNesting are drawn as\n%s", got)
	}
	if got := dump(renderMarkdown(strings.Repeat("- ", maxNesting+5))); got != "---\n" {
		t.Errorf("a long thematic break is drawn as\n%s", got)
	}
}

// BenchmarkRenderMarkdown renders 32 KiB and 256 KiB of each kind of input
// whose cost could grow faster than its size; make bench reports the ratio
// of the two (8 when linear, 64 when quadratic).
func BenchmarkRenderMarkdown(b *testing.B) {
	for _, c := range []struct{ name, unit string }{
		{"plain", "Words words, words. "},
		{"unclosed-links", "[a]("},
		{"unmatched-emphasis", "*a**b"},
		{"code-span-ticks", "`` ` "},
		{"nested-quotes", "> "},
		{"nested-ordered-list", "1. "},
		{"nested-lists", "- a\n  - b\n    - c\n      - d\n"},
	} {
		for _, size := range []int{32 << 10, 256 << 10} {
			md := strings.Repeat(c.unit, size/len(c.unit))
			b.Run(fmt.Sprintf("%s/%dKiB", c.name, size>>10), func(b *testing.B) {
				b.SetBytes(int64(len(md)))
				for b.Loop() {
					renderMarkdown(md)
				}
			})
		}
	}
}

// letters are the letters of s, in order.
func letters(s string) []rune {
	var out []rune
	for _, r := range s {
		if unicode.IsLetter(r) {
			out = append(out, r)
		}
	}
	return out
}

// shown is every word segs show, in order.
func shown(segs []widget.RichTextSegment) string {
	var b strings.Builder
	for _, s := range segs {
		switch t := s.(type) {
		case *widget.TextSegment:
			b.WriteString(t.Text)
		case *widget.HyperlinkSegment:
			b.WriteString(t.Text)
		case *widget.ImageSegment:
			b.WriteString(t.Title)
		case *widget.ParagraphSegment:
			b.WriteString(shown(t.Texts))
		case *widget.ListSegment:
			b.WriteString(shown(t.Items))
		}
	}
	return b.String()
}

// Whatever a server sends, rendering ends quickly without panicking, builds
// a tree without holes, and drops no word: marks are taken out, words are
// not (checked where no mark may hide words: link and footnote syntax,
// HTML, entities, escapes and fence info strings take their words along).
func FuzzRenderMarkdown(f *testing.F) {
	for _, c := range renderCases {
		f.Add(c.md)
	}
	for _, s := range []string{
		"- a\n  - b\n    - c\n  - d\n- e",
		"> - [ ] a\n>   > b *c*",
		"1) a\n\n   b\n\n2) c\n   ```\n   d\n   ```",
		"* a\n* * *\n+ b",
		"**a *b** c*",
		"www.a.example/b_(c) a@b.example",
		"a\\\n  b  \n#",
		strings.Repeat("> ", 40) + "x",
		"\t- a\n\t\t- b\n\t\t\tc",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		start := time.Now()
		segs := renderMarkdown(md)
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("%d bytes took %v", len(md), d)
		}
		var walk func([]widget.RichTextSegment)
		walk = func(ss []widget.RichTextSegment) {
			for _, s := range ss {
				switch x := s.(type) {
				case nil:
					t.Fatalf("%q: a nil segment in\n%s", md, dump(segs))
				case *widget.ParagraphSegment:
					walk(x.Texts)
				case *widget.ListSegment:
					walk(x.Items)
				}
			}
		}
		walk(segs)
		if strings.ContainsAny(md, "[<&\\`") || strings.Contains(md, "~~~") {
			return
		}
		in, out := letters(md), letters(shown(segs))
		i := 0
		for _, r := range out {
			if i < len(in) && r == in[i] {
				i++
			}
		}
		if i < len(in) {
			t.Fatalf("%q: shown as %q, the letters from %q on are missing", md, shown(segs), string(in[i:]))
		}
	})
}
