package app

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

// docxParts opens a document and checks that each of its parts is well
// formed XML; it returns them by name.
func docxParts(t testing.TB, doc []byte) map[string]string {
	t.Helper()
	z, err := zip.NewReader(bytes.NewReader(doc), int64(len(doc)))
	if err != nil {
		t.Fatalf("not a zip: %v", err)
	}
	parts := map[string]string{}
	for _, f := range z.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(r)
		_ = r.Close()
		d := xml.NewDecoder(bytes.NewReader(b))
		for {
			if _, err := d.Token(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("%s is not well formed: %v", f.Name, err)
			}
		}
		parts[f.Name] = string(b)
	}
	for _, name := range []string{"[Content_Types].xml", "_rels/.rels", "word/document.xml", "word/styles.xml"} {
		if _, ok := parts[name]; !ok {
			t.Fatalf("the document lacks %s", name)
		}
	}
	return parts
}

func TestMarkdownDocumentHoldsTheTextWordReads(t *testing.T) {
	md := "# Minutes\n\n**Decided:** move in *May* & keep `budget.xlsx`.\n\n- Ana\n- Ben\n  1. sub\n\n> quoted\n\n```\ncode <b>\n```\n\n| Who | What |\n|---|---|\n| Ana | ~~old~~ new |\n\n![plan](https://x.example/p.png) [site](https://example.com)\n\nNote[^1]\n\n[^1]: The footnote.\n\n<script>alert(1)</script>\n\nBad \x01 byte \xff here."
	parts := docxParts(t, MarkdownDocument("Monday <meeting>", md))
	body := parts["word/document.xml"]
	for _, want := range []string{
		`<w:pStyle w:val="Title"/>`, "Monday &lt;meeting&gt;",
		`<w:pStyle w:val="Heading1"/>`, ">Minutes<",
		"<w:b/>", ">Decided:<", "<w:i/>", ">May<", "&amp; keep ", "Consolas", ">budget.xlsx<",
		">•</w:t><w:tab/>", ">Ana<", ">1.</w:t><w:tab/>", ">sub<", ">quoted<", "code &lt;b&gt;",
		"<w:tbl>", ">Who<", "<w:strike/>", ">old<",
		"[picture: plan] (https://x.example/p.png)", " (https://example.com)",
		`<w:vertAlign w:val="superscript"/>`, "[1] ", "footnote.",
		"&lt;script&gt;", "Bad  byte \uFFFD",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the document lacks %q", want)
		}
	}
}

// Any text from the service makes a document whose parts are well formed.
func FuzzMarkdownDocument(f *testing.F) {
	f.Add("t", "# a\n\n| x |\n|---|\n| y |\n\n- [ ] task\n\n[^1]\n\n[^1]: n")
	f.Add("", "<div>\n```\ncode\x00\n> - **b** *i* `c`")
	f.Fuzz(func(t *testing.T, title, md string) {
		docxParts(t, MarkdownDocument(title, md))
	})
}
