package app

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"html"
	"strconv"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2/lang"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/renderer"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// MarkdownDocument is markdown as a Word document (.docx); pictures and links
// are written as words with their address, nothing fetched.
func MarkdownDocument(title, markdown string) []byte {
	src := []byte(markdown)
	doc := pageMarkdown.Parser().Parse(text.NewReader(src))
	w := &docxWriter{src: src}
	if strings.TrimSpace(title) != "" {
		w.para("Title", []docxRun{{text: title}})
	}
	w.blocks(doc, 0)
	var body bytes.Buffer
	body.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
		`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`)
	body.Write(w.out.Bytes())
	body.WriteString(`<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr></w:body></w:document>`)

	var b bytes.Buffer
	z := zip.NewWriter(&b)
	for _, f := range []struct{ name, data string }{
		{"[Content_Types].xml", docxContentTypes},
		{"_rels/.rels", docxRels},
		{"word/_rels/document.xml.rels", docxDocRels},
		{"word/styles.xml", docxStyles},
		{"word/document.xml", body.String()},
	} {
		fw, err := z.Create(f.name)
		if err == nil {
			_, err = fw.Write([]byte(f.data))
		}
		if err != nil {
			return nil // writing to memory does not fail
		}
	}
	if z.Close() != nil {
		return nil
	}
	return b.Bytes()
}

type docxRun struct {
	text                string
	bold, italic, code  bool
	strike, superscript bool
}

type docxWriter struct {
	src []byte
	out bytes.Buffer
}

// para writes one paragraph in a style ("" for plain), indented by level.
func (w *docxWriter) para(style string, runs []docxRun, indent ...int) {
	w.out.WriteString("<w:p>")
	in := 0
	if len(indent) > 0 {
		in = indent[0]
	}
	if style != "" || in > 0 {
		w.out.WriteString("<w:pPr>")
		if style != "" {
			w.out.WriteString(`<w:pStyle w:val="` + style + `"/>`)
		}
		if in > 0 {
			// Deep nesting stops at 8 steps: the page is not endless.
			w.out.WriteString(`<w:ind w:left="` + strconv.Itoa(360*min(in, 8)) + `"/>`)
		}
		w.out.WriteString("</w:pPr>")
	}
	for _, r := range runs {
		w.run(r)
	}
	w.out.WriteString("</w:p>")
}

// run writes a run; line breaks inside it become Word's line breaks.
func (w *docxWriter) run(r docxRun) {
	props := ""
	// In the order Word's schema wants them.
	for _, p := range []struct {
		on  bool
		xml string
	}{
		{r.code, `<w:rFonts w:ascii="Consolas" w:hAnsi="Consolas" w:cs="Consolas"/>`}, {r.bold, "<w:b/>"}, {r.italic, "<w:i/>"},
		{r.strike, "<w:strike/>"}, {r.superscript, `<w:vertAlign w:val="superscript"/>`},
	} {
		if p.on {
			props += p.xml
		}
	}
	for i, line := range strings.Split(r.text, "\n") {
		w.out.WriteString("<w:r>")
		if props != "" {
			w.out.WriteString("<w:rPr>" + props + "</w:rPr>")
		}
		if i > 0 {
			w.out.WriteString("<w:br/>")
		}
		for j, part := range strings.Split(line, "\t") {
			if j > 0 {
				w.out.WriteString("<w:tab/>")
			}
			if part != "" {
				w.out.WriteString(`<w:t xml:space="preserve">` + xmlText(part) + "</w:t>")
			}
		}
		w.out.WriteString("</w:r>")
	}
}

// xmlText is s escaped for XML, without characters XML cannot hold.
func xmlText(s string) string {
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		if r >= 0x20 && r != 0xFFFE && r != 0xFFFF && !(r >= 0xD800 && r <= 0xDFFF) {
			b.WriteRune(r)
		}
	}
	var out bytes.Buffer
	_ = xml.EscapeText(&out, []byte(b.String()))
	return out.String()
}

func (w *docxWriter) blocks(n ast.Node, level int) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		w.block(c, level)
	}
}

func (w *docxWriter) block(n ast.Node, level int) {
	switch n := n.(type) {
	case *ast.Heading:
		w.para("Heading"+strconv.Itoa(min(n.Level, 3)), w.inlines(n, docxRun{}))
	case *ast.Paragraph, *ast.TextBlock:
		w.para("", w.inlines(n, docxRun{}), level)
	case *ast.List:
		i := n.Start // "0." starts at 0
		for item := n.FirstChild(); item != nil; item = item.NextSibling() {
			mark := "•\t"
			if n.IsOrdered() {
				mark = strconv.Itoa(i) + ".\t"
				i++
			}
			if !w.marked(item, mark, level+1) { // an empty item
				w.para("", []docxRun{{text: mark}}, level+1)
			}
		}
	case *ast.Blockquote:
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if p, ok := c.(*ast.Paragraph); ok {
				runs := w.inlines(p, docxRun{italic: true})
				w.para("", runs, level+1)
			} else {
				w.block(c, level+1)
			}
		}
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		w.para("", []docxRun{{text: strings.TrimRight(w.text(n.Lines()), "\n"), code: true}}, level)
	case *ast.ThematicBreak:
		w.para("", []docxRun{{text: "———"}}, level)
	case *ast.HTMLBlock:
		// Raw HTML is the agent's text, shown as written.
		s := w.text(n.Lines())
		if n.HasClosure() {
			s += string(n.ClosureLine.Value(w.src))
		}
		w.para("", []docxRun{{text: strings.TrimRight(s, "\n")}}, level)
	case *east.Table:
		w.table(n)
	case *east.FootnoteList:
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if fn, ok := c.(*east.Footnote); ok {
				w.marked(fn, "["+strconv.Itoa(fn.Index)+"] ", level)
			}
		}
	default:
		w.blocks(n, level)
	}
}

// marked writes n's blocks, mark before the first paragraph's words; false when none.
func (w *docxWriter) marked(n ast.Node, mark string, level int) bool {
	first := true
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c.(type) {
		case *ast.Paragraph, *ast.TextBlock:
			runs := w.inlines(c, docxRun{})
			if first {
				runs = append([]docxRun{{text: mark}}, runs...)
				first = false
			}
			w.para("", runs, level)
		default:
			w.block(c, level) // a code block, a list in an item or a note
		}
	}
	return !first
}

func (w *docxWriter) text(segs *text.Segments) string {
	var b strings.Builder
	for i := 0; i < segs.Len(); i++ {
		seg := segs.At(i)
		b.Write(seg.Value(w.src))
	}
	return b.String()
}

// table writes a GFM table with thin borders and a bold header row.
func (w *docxWriter) table(t *east.Table) {
	w.out.WriteString(`<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/>` +
		`<w:tblBorders><w:top w:val="single" w:sz="4" w:space="0" w:color="999999"/><w:left w:val="single" w:sz="4" w:space="0" w:color="999999"/>` +
		`<w:bottom w:val="single" w:sz="4" w:space="0" w:color="999999"/><w:right w:val="single" w:sz="4" w:space="0" w:color="999999"/>` +
		`<w:insideH w:val="single" w:sz="4" w:space="0" w:color="999999"/><w:insideV w:val="single" w:sz="4" w:space="0" w:color="999999"/></w:tblBorders></w:tblPr>`)
	// The grid Word requires: the page's text width in equal columns.
	cols := max(1, len(t.Alignments))
	w.out.WriteString("<w:tblGrid>")
	for range cols {
		w.out.WriteString(`<w:gridCol w:w="` + strconv.Itoa(9026/cols) + `"/>`)
	}
	w.out.WriteString("</w:tblGrid>")
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		_, header := row.(*east.TableHeader)
		w.out.WriteString("<w:tr>")
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			w.out.WriteString("<w:tc>")
			w.para("", w.inlines(cell, docxRun{bold: header}))
			w.out.WriteString("</w:tc>")
		}
		w.out.WriteString("</w:tr>")
	}
	w.out.WriteString("</w:tbl>")
	w.para("", nil) // Word needs a paragraph between a table and the next
}

// inlines are n's inline children as runs styled on top of base.
func (w *docxWriter) inlines(n ast.Node, base docxRun) []docxRun {
	var runs []docxRun
	// add is a run of text in style st.
	add := func(st docxRun, text string) {
		st.text = text
		runs = append(runs, st)
	}
	var walk func(n ast.Node, st docxRun)
	walk = func(n ast.Node, st docxRun) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.Text:
				text := string(util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(c.Segment.Value(w.src)))))
				if c.HardLineBreak() {
					text += "\n"
				} else if c.SoftLineBreak() {
					text += " "
				}
				add(st, text)
			case *ast.String:
				add(st, string(c.Value))
			case *ast.CodeSpan:
				code := st
				code.code = true
				add(code, plainOf(c, w.src))
			case *ast.Emphasis:
				s := st
				s.bold, s.italic = st.bold || c.Level >= 2, st.italic || c.Level < 2
				walk(c, s)
			case *east.Strikethrough:
				s := st
				s.strike = true
				walk(c, s)
			case *ast.Link:
				walk(c, st)
				if dest := string(c.Destination); dest != "" && dest != plainOf(c, w.src) {
					runs = append(runs, docxRun{text: " (" + dest + ")"})
				}
			case *ast.AutoLink:
				add(st, string(c.Label(w.src)))
			case *ast.Image:
				runs = append(runs, docxRun{text: pictureNamed(plainOf(c, w.src)) + " (" + string(c.Destination) + ")", italic: true})
			case *ast.RawHTML:
				add(st, w.text(c.Segments))
			case *east.FootnoteLink:
				runs = append(runs, docxRun{text: strconv.Itoa(c.Index), superscript: true})
			case *east.TaskCheckBox:
				mark := "☐ "
				if c.IsChecked {
					mark = "☑ "
				}
				runs = append(runs, docxRun{text: mark})
			default:
				walk(c, st)
			}
		}
	}
	walk(n, base)
	return runs
}

// plainOf is the text of n's inline children, without marks.
func plainOf(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(src))
		case *ast.String:
			b.Write(c.Value)
		}
		return ast.WalkContinue, nil
	})
	if !utf8.ValidString(b.String()) {
		return strings.ToValidUTF8(b.String(), "\uFFFD")
	}
	return b.String()
}

const docxContentTypes = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`

const docxRels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`

const docxDocRels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`

const docxStyles = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri" w:cs="Calibri" w:eastAsia="Calibri"/><w:sz w:val="22"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="120" w:line="276" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/><w:rPr><w:b/><w:sz w:val="40"/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:keepNext/><w:spacing w:before="240"/><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/><w:sz w:val="32"/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/><w:pPr><w:keepNext/><w:spacing w:before="200"/><w:outlineLvl w:val="1"/></w:pPr><w:rPr><w:b/><w:sz w:val="28"/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="Heading3"><w:name w:val="heading 3"/><w:basedOn w:val="Normal"/><w:pPr><w:keepNext/><w:spacing w:before="160"/><w:outlineLvl w:val="2"/></w:pPr><w:rPr><w:b/><w:sz w:val="24"/></w:rPr></w:style><w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/></w:style></w:styles>`

// pageMarkdown renders markdown as a web page, without raw HTML, pictures as links.
var pageMarkdown = goldmark.New(
	goldmark.WithExtensions(extension.GFM, extension.Footnote),
	goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(picturesAsLinks{}, 100))),
)

// picturesAsLinks renders a markdown picture as a link: "[picture: the office plan]".
type picturesAsLinks struct{}

func (picturesAsLinks) RegisterFuncs(r renderer.NodeRendererFuncRegisterer) {
	r.Register(ast.KindImage, func(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		img := n.(*ast.Image)
		before, after := pictureWords()
		danger := gmhtml.IsDangerousURL(img.Destination)
		switch {
		case entering && danger:
			_, _ = w.WriteString("<span>" + html.EscapeString(before))
		case entering:
			_, _ = w.WriteString(`<a href="` + string(util.EscapeHTML(util.URLEscape(img.Destination, true))) + `">` + html.EscapeString(before))
		case danger:
			_, _ = w.WriteString(html.EscapeString(after) + "</span>")
		default:
			_, _ = w.WriteString(html.EscapeString(after) + "</a>")
		}
		return ast.WalkContinue, nil
	})
}

// pictureWords are the words around a picture named instead of shown.
func pictureWords() (before, after string) {
	before, after, _ = strings.Cut(pictureNamed("\x00"), "\x00")
	return before, after
}

func pictureNamed(words string) string {
	return lang.L("[picture: {{.Words}}]", map[string]any{"Words": words})
}

// MarkdownPage is markdown as a self-contained web page; nothing in it runs or is fetched.
func MarkdownPage(title, markdown string) []byte {
	var body bytes.Buffer
	if err := pageMarkdown.Convert([]byte(markdown), &body); err != nil {
		body.Reset()
		body.WriteString("<pre>" + html.EscapeString(markdown) + "</pre>")
	}
	var b bytes.Buffer
	b.WriteString(`<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>` + html.EscapeString(title) + `</title>
<style>
body { font-family: system-ui, sans-serif; line-height: 1.5; max-width: 46em; margin: 2em auto; padding: 0 1em; color: #222; }
pre, code { font-family: ui-monospace, monospace; background: #f4f4f4; }
pre { padding: 0.75em; overflow-x: auto; }
table { border-collapse: collapse; } th, td { border: 1px solid #ccc; padding: 0.3em 0.6em; }
blockquote { border-left: 3px solid #ccc; margin-left: 0; padding-left: 1em; color: #555; }
</style>
</head>
<body>
`)
	b.Write(body.Bytes())
	b.WriteString("</body>\n</html>\n")
	return b.Bytes()
}
