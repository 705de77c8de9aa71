package richtext_test

import (
	"testing"

	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/internal/safe"
	"github.com/agentdesk/agentdesk/views/kit/richtext"
)

// Whatever markdown a server sends, no picture is drawn straight from an
// address (each is a richtext.Picture, loaded only when asked) and every link
// that can be clicked passes the link policy.
func FuzzMarkdownPicturesAndLinks(f *testing.F) {
	for _, s := range []string{
		"![a](http://x/y.png)",
		"![a](\\\\host\\share\\x.png)",
		"[a](file:///etc/passwd)",
		"- [x](javascript:alert(1))\n- ![b](/etc/hostname \"t\")",
		"> ![q](data:image/png;base64,AAAA)\n\n| a | ![c](https://h/c.png) |\n|---|---|\n",
		"[![img](https://h/i.png)](ms-msdt:x)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		segs, pics := richtext.Parse(md)
		found := 0
		var walk func([]widget.RichTextSegment)
		walk = func(ss []widget.RichTextSegment) {
			for _, s := range ss {
				switch x := s.(type) {
				case *widget.ImageSegment:
					t.Fatalf("%q: a picture is drawn from %v without asking", md, x.Source)
				case *richtext.Picture:
					found++
				case *widget.HyperlinkSegment:
					if x.URL == nil || x.OnTapped == nil {
						t.Fatalf("%q: link %q opens without the policy", md, x.Text)
					}
					if _, ok := safe.Link(x.URL.String()); !ok {
						t.Fatalf("%q: link to %v can be clicked", md, x.URL)
					}
				case *widget.ParagraphSegment:
					walk(x.Texts)
				case *widget.ListSegment:
					walk(x.Items)
				}
			}
		}
		walk(segs)
		if found != len(pics) {
			t.Fatalf("%q: %d pictures in the text, %d reported", md, found, len(pics))
		}
	})
}
