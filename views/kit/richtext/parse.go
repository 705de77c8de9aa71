package richtext

import (
	"bufio"
	"bytes"
	stdhtml "html"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/agentdesk/agentdesk/internal/recovered"
)

// mdParser reads Markdown as services write it: CommonMark plus GitHub's
// extras, but no tables, which the chat view lays out itself. It is stateless,
// so shared. Paragraphs past maxInline are shown as written, as goldmark's
// inline parsing can be quadratic.
var mdParser = sync.OnceValue(func() parser.Parser {
	p := parser.NewParser(
		parser.WithBlockParsers(
			util.Prioritized(parser.NewSetextHeadingParser(), 100),
			util.Prioritized(parser.NewThematicBreakParser(), 200),
			util.Prioritized(parser.NewListParser(), 300),
			util.Prioritized(parser.NewListItemParser(), 400),
			util.Prioritized(parser.NewCodeBlockParser(), 500),
			util.Prioritized(longHeadings{parser.NewATXHeadingParser()}, 600),
			util.Prioritized(parser.NewFencedCodeBlockParser(), 700),
			util.Prioritized(parser.NewBlockquoteParser(), 800),
			util.Prioritized(parser.NewHTMLBlockParser(), 900),
			util.Prioritized(parser.NewParagraphParser(), 1000),
		),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
		parser.WithParagraphTransformers(
			util.Prioritized(parser.LinkReferenceParagraphTransformer, 100),
			util.Prioritized(longParagraphs{}, 10000), // after the link definitions are taken out
		),
	)
	return goldmark.New(goldmark.WithParser(p), goldmark.WithExtensions(
		extension.Strikethrough, extension.TaskList, extension.Linkify, extension.Footnote,
	)).Parser()
})

// cellParser reads a table cell as GitHub does: inline Markdown only, so
// a leading block mark (heading, quote, list, fence…) shows as written.
var cellParser = sync.OnceValue(func() parser.Parser {
	p := parser.NewParser(
		parser.WithBlockParsers(
			util.Prioritized(parser.NewHTMLBlockParser(), 900), // shown as written, as in other text
			util.Prioritized(parser.NewParagraphParser(), 1000),
		),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
		parser.WithParagraphTransformers(util.Prioritized(longParagraphs{}, 10000)),
	)
	return goldmark.New(goldmark.WithParser(p), goldmark.WithExtensions(extension.Strikethrough, extension.Linkify)).Parser()
})

// renderMarkdown turns md into rich-text segments, replacing Fyne's parser,
// which drops autolinks and flattens nested lists. Shapes follow Fyne's, as
// the chat view relies on them; links and pictures are left for Guard. Cost is
// linear.
func renderMarkdown(md string) []widget.RichTextSegment { return render(mdParser(), md) }

// render is md read by p as segments. Should reading fail, even by panic,
// the text is shown as written: what a server sent never ends the program.
func render(p parser.Parser, md string) (segs []widget.RichTextSegment) {
	defer func() {
		if err := recovered.From("a reply's formatting", recover()); err != nil {
			segs = asWritten(md)
		}
	}()
	// A stray \r would be drawn as a box.
	md = strings.ReplaceAll(md, "\r\n", "\n")
	md = strings.ReplaceAll(md, "\r", "\n")
	r := mdRenderer{src: []byte(capNesting(md))}
	doc := p.Parse(text.NewReader(r.src))
	var b blocks
	r.blocks(&b, doc, where{})
	return b.segs
}

// asWritten shows md as plain text under a line saying its formatting was unreadable.
func asWritten(md string) []widget.RichTextSegment {
	note := &widget.TextSegment{Style: widget.RichTextStyleParagraph,
		Text: lang.L("Agent Desk could not read this text's formatting, so it is shown as written.")}
	note.Style.TextStyle.Italic = true
	return []widget.RichTextSegment{note, &widget.TextSegment{Style: widget.RichTextStyleParagraph, Text: md}}
}

// maxInline is the longest paragraph or heading, in bytes, whose Markdown is read.
const maxInline = 8 << 10

// longText is a paragraph or heading past maxInline, left raw.
type longText struct{ ast.BaseBlock }

var kindLongText = ast.NewNodeKind("LongText")

func (n *longText) Kind() ast.NodeKind            { return kindLongText }
func (n *longText) IsRaw() bool                   { return true }
func (n *longText) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

func tooLong(lines *text.Segments) bool {
	size := 0
	for _, line := range lines.Sliced(0, lines.Len()) {
		size += line.Len()
	}
	return size > maxInline
}

// asLongText puts a longText with n's lines in n's place.
func asLongText(n ast.Node) {
	t := &longText{}
	t.SetLines(n.Lines())
	t.SetBlankPreviousLines(n.HasBlankPreviousLines())
	n.Parent().ReplaceChild(n.Parent(), n, t)
}

// longParagraphs turns paragraphs that are too long into longText.
type longParagraphs struct{}

func (longParagraphs) Transform(n *ast.Paragraph, _ text.Reader, _ parser.Context) {
	if n.Parent() != nil && tooLong(n.Lines()) {
		asLongText(n)
	}
}

// longHeadings turns too-long # headings into longText.
type longHeadings struct{ parser.BlockParser }

func (p longHeadings) Close(n ast.Node, reader text.Reader, pc parser.Context) {
	p.BlockParser.Close(n, reader, pc)
	if n.Parent() != nil && tooLong(n.Lines()) {
		asLongText(n)
	}
}

// maxNesting caps the quotes and list items one line may open, as goldmark is
// quadratic in it; markers past it are escaped.
const maxNesting = 32

// capNesting escapes markers past maxNesting, copying md only when it changes.
func capNesting(md string) string {
	var out strings.Builder
	done, start := 0, 0 // bytes of md already copied to out; the line's start
	for line := range strings.Lines(md) {
		if at := pastNesting(strings.TrimSuffix(line, "\n")); at >= 0 {
			out.WriteString(md[done : start+at])
			out.WriteByte('\\')
			done = start + at
		}
		start += len(line)
	}
	if done == 0 {
		return md
	}
	out.WriteString(md[done:])
	return out.String()
}

// pastNesting is the index of the marker past maxNesting in line, or -1.
func pastNesting(line string) int {
	depth, i := 0, 0
	for {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		mark, next := -1, 0
		switch {
		case i >= len(line):
		case line[i] == '>':
			mark, next = i, i+1
		case strings.IndexByte("-+*", line[i]) >= 0 && spaceAt(line, i+1):
			mark, next = i, i+2
		default:
			j := i
			for j < len(line) && j-i < 9 && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j > i && j < len(line) && (line[j] == '.' || line[j] == ')') && spaceAt(line, j+1) {
				mark, next = j, j+2
			}
		}
		if mark < 0 {
			return -1
		}
		if depth++; depth > maxNesting {
			if c := line[mark]; (c == '-' || c == '*') && strings.Trim(line, " \t"+string(c)) == "" {
				return -1 // a thematic break: - - - -
			}
			return mark
		}
		i = next
	}
}

func spaceAt(s string, i int) bool { return i < len(s) && (s[i] == ' ' || s[i] == '\t') }

type mdRenderer struct{ src []byte }

// where says what a block is inside of.
type where struct {
	lists int  // how many lists
	quote bool // a block quote
}

// blocks collects segments. RichText keeps inline segments on one row until
// a non-inline one; open says the last row is open, so the next block must
// end it.
type blocks struct {
	segs []widget.RichTextSegment
	open bool
}

func (b *blocks) add(open bool, segs ...widget.RichTextSegment) {
	if len(segs) > 0 {
		b.segs = append(b.segs, segs...)
		b.open = open
	}
}

// endRow ends an open row without a paragraph's spacing, so a tight item and
// its nested list sit close.
func (b *blocks) endRow() {
	if b.open {
		b.segs = append(b.segs, rowEnd())
		b.open = false
	}
}

// rowEnd is an empty paragraph: it ends the row with no spacing of its own.
func rowEnd() widget.RichTextSegment {
	return &widget.ParagraphSegment{Texts: []widget.RichTextSegment{&widget.ParagraphSegment{}}}
}

// blocks renders parent's blocks each on its own row; the first shares an
// open row (a list item's bullet).
func (r *mdRenderer) blocks(b *blocks, parent ast.Node, w where) {
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		if n != parent.FirstChild() {
			b.endRow()
		}
		r.block(b, n, w)
	}
}

func (r *mdRenderer) block(b *blocks, n ast.Node, w where) {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		segs := r.inlines(n)
		if w.quote {
			segs = quoted(segs)
		}
		b.add(endsOpen(segs), segs...)
		// Closed as Fyne closes it, with spacing; a tight list item's text is not.
		if _, para := n.(*ast.Paragraph); para && b.open {
			b.add(false, &widget.TextSegment{Style: widget.RichTextStyleParagraph})
		}
	case *ast.Heading:
		words, pics := plain(r.inlines(n))
		style := widget.RichTextStyleParagraph
		style.TextStyle.Bold = true
		switch n.Level {
		case 1:
			style = widget.RichTextStyleHeading
		case 2:
			style = widget.RichTextStyleSubHeading
		}
		if words != "" {
			b.add(false, &widget.TextSegment{Style: style, Text: words})
		}
		b.add(false, pics...)
	case *ast.ThematicBreak:
		b.add(false, &widget.SeparatorSegment{})
	case *ast.CodeBlock, *ast.FencedCodeBlock:
		if code := strings.TrimSuffix(r.lines(n), "\n"); code != "" {
			b.add(false, &widget.TextSegment{Style: widget.RichTextStyleCodeBlock, Text: code})
		}
	case *ast.HTMLBlock:
		// Shown as written, never interpreted: it is text a server sent.
		raw := r.lines(n)
		if n.HasClosure() {
			raw += string(n.ClosureLine.Value(r.src))
		}
		if raw = strings.TrimSuffix(raw, "\n"); raw == "" {
			return
		}
		if w.quote {
			b.add(false, &widget.TextSegment{Style: widget.RichTextStyleBlockquote, Text: raw})
			return
		}
		b.add(false, &widget.TextSegment{Style: widget.RichTextStyleInline, Text: raw},
			&widget.TextSegment{Style: widget.RichTextStyleParagraph})
	case *longText:
		// As written, a segment a line; in a quote one segment.
		var o run
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			line := lines.At(i)
			t := strings.TrimSpace(string(line.Value(r.src)))
			if i < lines.Len()-1 {
				t += " "
			}
			o.write(widget.RichTextStyleInline, t)
			if !w.quote {
				o.flush()
			}
		}
		o.flush()
		if w.quote {
			b.add(false, quoted(o.segs)...)
			return
		}
		b.add(false, append(o.segs, &widget.TextSegment{Style: widget.RichTextStyleParagraph})...)
	case *ast.Blockquote:
		w.quote = true
		r.blocks(b, n, w)
	case *ast.List:
		r.list(b, n, w)
	case *east.FootnoteList:
		// The notes close the text, numbered as their references are.
		notes := &widget.ListSegment{Ordered: true}
		for fn := n.FirstChild(); fn != nil; fn = fn.NextSibling() {
			var item blocks
			r.blocks(&item, fn, where{lists: 1})
			notes.Items = append(notes.Items, &widget.ParagraphSegment{Texts: item.segs})
		}
		b.add(false, &widget.SeparatorSegment{}, notes)
	default:
		r.blocks(b, n, w)
	}
}

// maxIndent bounds nested list indenting, lest it cost the square of the depth.
const maxIndent = 8

// list renders a list. Fyne draws a nested ListSegment at the left edge, so
// nested lists are drawn here: each item a paragraph led by its bullet, indented.
func (r *mdRenderer) list(b *blocks, l *ast.List, w where) {
	inner := w
	inner.lists++
	if w.lists == 0 {
		ls := &widget.ListSegment{Ordered: l.IsOrdered()}
		if ls.Ordered {
			ls.SetStartNumber(l.Start)
		}
		for it := l.FirstChild(); it != nil; it = it.NextSibling() {
			var item blocks
			r.blocks(&item, it, inner)
			ls.Items = append(ls.Items, &widget.ParagraphSegment{Texts: item.segs})
		}
		b.add(false, ls)
		return
	}
	indent := strings.Repeat("    ", min(w.lists, maxIndent))
	number := l.Start
	for it := l.FirstChild(); it != nil; it = it.NextSibling() {
		if it != l.FirstChild() {
			b.endRow()
		}
		// The same marks Fyne draws for a ListSegment.
		mark := indent + "•  "
		if l.IsOrdered() {
			mark = indent + strconv.Itoa(number) + ". "
			number++
		}
		item := blocks{segs: []widget.RichTextSegment{&widget.TextSegment{Style: widget.RichTextStyleStrong, Text: mark}}, open: true}
		r.blocks(&item, it, inner)
		b.add(item.open, &widget.ParagraphSegment{Texts: item.segs})
	}
}

// lines is the text of a block as written, line ends included.
func (r *mdRenderer) lines(n ast.Node) string { return string(n.Lines().Value(r.src)) }

func (r *mdRenderer) inlines(n ast.Node) []widget.RichTextSegment {
	var o run
	r.children(&o, n, span{})
	o.flush()
	return o.segs
}

func (r *mdRenderer) children(o *run, n ast.Node, s span) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		r.inline(o, c, s)
	}
}

func (r *mdRenderer) inline(o *run, n ast.Node, s span) {
	switch n := n.(type) {
	case *ast.Text:
		t := string(n.Segment.Value(r.src))
		if !n.IsRaw() {
			t = decode(t)
		}
		switch {
		case n.HardLineBreak():
			t += "\n"
		case n.SoftLineBreak():
			// A trailing space and a segment end: the chat view takes a
			// one-segment paragraph for one line (openpara.go).
			o.write(s.style(), t+" ")
			o.flush()
			return
		}
		o.write(s.style(), t)
	case *ast.String:
		t := string(n.Value)
		if !n.IsCode() && !n.IsRaw() {
			t = decode(t)
		}
		o.write(s.style(), t)
	case *ast.CodeSpan:
		// A code span's words as written; a line end in it is a space.
		var sb strings.Builder
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				sb.Write(t.Segment.Value(r.src))
			}
		}
		s.mono = true
		o.write(s.style(), strings.ReplaceAll(sb.String(), "\n", " "))
	case *ast.Emphasis:
		if n.Level >= 2 {
			s.bold = true
		} else {
			s.italic = true
		}
		r.children(o, n, s)
	case *east.Strikethrough:
		s.struck = true
		r.children(o, n, s)
	case *ast.Link:
		// A HyperlinkSegment has no styles; a picture inside a link follows it.
		words, pics := plain(r.inlines(n))
		dest := decode(string(n.Destination))
		if words == "" {
			words = dest
		}
		u, _ := url.Parse(dest) // nil if it does not parse: Guard shows the words
		o.seg(&widget.HyperlinkSegment{Text: words, URL: u})
		for _, p := range pics {
			o.seg(p)
		}
	case *ast.AutoLink:
		label, dest := string(n.Label(r.src)), string(n.URL(r.src))
		if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(dest), "mailto:") {
			dest = "mailto:" + dest
		}
		u, _ := url.Parse(dest)
		o.seg(&widget.HyperlinkSegment{Text: label, URL: u})
	case *ast.Image:
		alt, _ := plain(r.inlines(n))
		dest := decode(string(n.Destination))
		// As Fyne's parser makes it; Guard turns it into a Picture.
		u, err := storage.ParseURI(dest)
		if err != nil {
			u = storage.NewFileURI(dest)
		}
		o.seg(&widget.ImageSegment{Source: u, Title: alt, Alignment: fyne.TextAlignCenter})
	case *ast.RawHTML:
		// Shown as written, never interpreted.
		o.write(s.style(), string(n.Segments.Value(r.src)))
	case *east.FootnoteLink:
		o.write(s.style(), "["+strconv.Itoa(n.Index)+"]")
	case *east.FootnoteBacklink:
		// Nothing: the note is numbered, and there is nowhere to jump to.
	case *east.TaskCheckBox:
		// Monospace: only the bundled monospace font has ballot boxes.
		box := "☐ "
		if n.IsChecked {
			box = "☑ "
		}
		o.write(widget.RichTextStyleCodeInline, box)
	default:
		r.children(o, n, s)
	}
}

// span is the styling an inline run of text is under.
type span struct{ bold, italic, mono, struck bool }

// style is s's rich-text style, exactly Fyne's own for one styling. Fyne
// cannot strike text through, so struck text is drawn in the dimmer
// placeholder colour.
func (s span) style() widget.RichTextStyle {
	st := widget.RichTextStyleInline
	st.TextStyle = fyne.TextStyle{Bold: s.bold, Italic: s.italic, Monospace: s.mono}
	if s.struck {
		st.ColorName = theme.ColorNamePlaceHolder
	}
	return st
}

// run joins text of one style into one segment: goldmark splits text into
// many nodes, and RichText may wrap between any two segments, even mid-word.
type run struct {
	segs  []widget.RichTextSegment
	text  strings.Builder
	style widget.RichTextStyle
}

func (o *run) write(style widget.RichTextStyle, t string) {
	if t == "" {
		return
	}
	if o.text.Len() > 0 && style != o.style {
		o.flush()
	}
	o.style = style
	o.text.WriteString(t)
}

func (o *run) seg(s widget.RichTextSegment) {
	o.flush()
	o.segs = append(o.segs, s)
}

func (o *run) flush() {
	if o.text.Len() > 0 {
		o.segs = append(o.segs, &widget.TextSegment{Style: o.style, Text: o.text.String()})
		o.text.Reset()
	}
}

// quoted restyles a quoted paragraph: RichText indents only a row starting
// with a Blockquote segment, so its text becomes one (losing other styles).
func quoted(segs []widget.RichTextSegment) []widget.RichTextSegment {
	var o run
	for _, s := range segs {
		if t, ok := s.(*widget.TextSegment); ok {
			o.write(widget.RichTextStyleBlockquote, t.Text)
			continue
		}
		o.seg(s)
	}
	o.flush()
	return o.segs
}

// plain is the words of inline segments, for headings, links and picture
// descriptions, and the pictures among them.
func plain(segs []widget.RichTextSegment) (words string, pictures []widget.RichTextSegment) {
	var sb strings.Builder
	for _, s := range segs {
		switch t := s.(type) {
		case *widget.TextSegment:
			sb.WriteString(t.Text)
		case *widget.HyperlinkSegment:
			sb.WriteString(t.Text)
		default:
			pictures = append(pictures, s)
		}
	}
	return strings.ReplaceAll(sb.String(), "\n", " "), pictures
}

func endsOpen(segs []widget.RichTextSegment) bool {
	return len(segs) > 0 && segs[len(segs)-1].Inline()
}

// decode applies CommonMark escapes and entities as goldmark's HTML writer
// does, then undoes its HTML escaping.
func decode(t string) string {
	if !strings.ContainsAny(t, "\\&\x00") {
		return t
	}
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	html.DefaultWriter.Write(w, []byte(t))
	_ = w.Flush()
	return stdhtml.UnescapeString(buf.String())
}
