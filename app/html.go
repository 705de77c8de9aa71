package app

import (
	"bytes"
	"html"
	"strings"

	"fyne.io/fyne/v2/lang"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// pageMarkdown renders markdown as a web page. Raw HTML is left out, so what
// an agent wrote stays words; a picture becomes a link, so nothing opening
// the page fetches it.
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
		if entering {
			if gmhtml.IsDangerousURL(img.Destination) {
				_, _ = w.WriteString("<span>" + html.EscapeString(before))
			} else {
				_, _ = w.WriteString(`<a href="`)
				_, _ = w.Write(util.EscapeHTML(util.URLEscape(img.Destination, true)))
				_, _ = w.WriteString(`">` + html.EscapeString(before))
			}
			return ast.WalkContinue, nil
		}
		if gmhtml.IsDangerousURL(img.Destination) {
			_, _ = w.WriteString(html.EscapeString(after) + "</span>")
		} else {
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

// MarkdownPage is markdown as a self-contained web page that opens anywhere;
// nothing in it runs or is fetched from elsewhere.
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
