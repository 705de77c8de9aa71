package app

import (
	"bytes"
	"html"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// pageMarkdown renders markdown as a web page: GFM tables, strikethrough,
// task lists, autolinks and footnotes. Raw HTML in the text is left out,
// never passed on (goldmark's default): what an agent wrote stays words.
var pageMarkdown = goldmark.New(goldmark.WithExtensions(extension.GFM, extension.Footnote))

// MarkdownPage is markdown as a web page of its own, titled title, that
// opens in any browser or word processor and can be sent by e-mail: one
// file, UTF-8, a readable line length; a browser runs no script in it and
// fetches nothing from elsewhere (a picture the text links to stays a
// link, as in the app until the user asks).
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
