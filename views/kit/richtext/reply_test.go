package richtext

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/agentdesk/agentdesk/views/kit"
)

func TestMarkdownBlocksRendered(t *testing.T) {
	test.NewTempApp(t)
	src := "# Plan\n\nSome **bold** text and a [link](https://example.com).\n\n- one\n- two\n\nSteps:\n| Step | Owner |\n|---|---|\n| Call \\| write | You |\n\n```go\nfmt.Println(1)\n\nfmt.Println(2)\n```\n\nThe end."
	whole := NewMarkdown(src, nil)
	streamed := NewMarkdown("", nil)
	for i := 0; i < len(src); i += 4 {
		streamed.Append(src[i:min(i+4, len(src))])
		streamed.Flush(false)
	}
	streamed.Flush(true)
	for _, m := range []*Markdown{whole, streamed} {
		var codes, tables, riches int
		var walk func(o fyne.CanvasObject)
		walk = func(o fyne.CanvasObject) {
			switch x := o.(type) {
			case *CodeBlock:
				codes++
				if x.Code() != "fmt.Println(1)\n\nfmt.Println(2)" || x.copy.Text != "Copy" {
					t.Fatalf("code block shows %q", x.Code())
				}
				test.Tap(x.copy)
				if fyne.CurrentApp().Clipboard().Content() != x.Code() {
					t.Fatal("Copy should put the code on the clipboard")
				}
			case *widget.RichText:
				riches++
			case *frozenChunk:
				walk(x.box)
			case *fyne.Container:
				for _, c := range x.Objects {
					walk(c)
				}
			default:
				if fmt.Sprintf("%T", o) == "*richtext.view" {
					tables++
					if got := allText(o); !strings.Contains(got, "Call | write") || !strings.Contains(got, "Owner") {
						t.Fatalf("the table shows %q", got)
					}
				}
			}
		}
		walk(m.box)
		if codes != 1 || tables != 1 || riches < 4 {
			t.Fatalf("want 1 code block, 1 table and the other blocks as rich text; got %d, %d, %d", codes, tables, riches)
		}
		if m.Text() != src {
			t.Fatal("the renderer must keep every character")
		}
	}
}

// A reply's links to files and other programs cannot be clicked and its
// pictures wait for the user, whether the reply arrived whole or streamed.
func TestARepliesFileLinksAndPicturesStayInert(t *testing.T) {
	test.NewTempApp(t)
	src := "Open [the report](file:///etc/passwd) or [run it](ms-msdt:/id%20x).\n\n" +
		"![chart](https://images.example/chart.png)\n\n| Cell | Link |\n|---|---|\n| a | [x](smb://host/share) |\n\nRead [the docs](https://example.com/docs)."
	whole := NewMarkdown(src, nil)
	streamed := NewMarkdown("", nil)
	for i := 0; i < len(src); i += 7 {
		streamed.Append(src[i:min(i+7, len(src))])
		streamed.Flush(false)
	}
	streamed.Flush(true)
	for name, m := range map[string]*Markdown{"whole": whole, "streamed": streamed} {
		var web int
		var walk func(o fyne.CanvasObject)
		var segs func([]widget.RichTextSegment)
		segs = func(ss []widget.RichTextSegment) {
			for _, s := range ss {
				switch x := s.(type) {
				case *widget.HyperlinkSegment:
					if x.URL == nil || x.URL.Scheme != "https" || x.OnTapped == nil {
						t.Errorf("%s: %q can be clicked and goes to %v", name, x.Text, x.URL)
					}
					web++
				case *widget.ImageSegment:
					t.Errorf("%s: a picture is drawn from %v before the user asked", name, x.Source)
				case *widget.ParagraphSegment:
					segs(x.Texts)
				case *widget.ListSegment:
					segs(x.Items)
				}
			}
		}
		walk = func(o fyne.CanvasObject) {
			switch x := o.(type) {
			case *widget.RichText:
				segs(x.Segments)
			case *frozenChunk:
				walk(x.box)
			case *fyne.Container:
				for _, c := range x.Objects {
					walk(c)
				}
			}
		}
		walk(m.box)
		if web != 1 {
			t.Errorf("%s: %d web links can be clicked, want 1", name, web)
		}
		if p := m.Pictures(); len(p) != 1 || p[0].Title != "chart" {
			t.Errorf("%s: pictures %v, want the chart, not loaded", name, p)
		}
	}
}

// A footnote's mark and its note show as [1] even though the reply is
// read block by block; a code span keeps what it says.
func TestFootnotesShowAsNumbersAcrossBlocks(t *testing.T) {
	test.NewTempApp(t)
	m := NewMarkdown("Costs rose[^1] as `a[^b]` shows.\n\nMore text.\n\n[^1]: Before tax.", nil)
	got := allText(m.box)
	if strings.Contains(got, "[^1]") || strings.Count(got, "[1]") != 2 || !strings.Contains(got, "a[^b]") || !strings.Contains(got, "Before tax.") {
		t.Fatalf("the reply shows %q", got)
	}
}

// Copy reads the reply as one document: footnotes, link
// definitions and loose numbered lists come out whole; tables as cells
// separated by tabs.
func TestCopyAsTextKeepsEverything(t *testing.T) {
	test.NewTempApp(t)
	got := ReplyText("Costs rose[^1] a lot.\n\nSee [the plan][p] for details.\n\n1. first\n\n2. second\n\n3. third\n\n| A | B |\n|---|---|\n| 1 | 2 |\n\n[p]: https://example.com/plan\n\n[^1]: Before tax.")
	for _, want := range []string{"Before tax.", "https://example.com/plan", "2. second", "3. third", "A\tB\n1\t2"} {
		if !strings.Contains(got, want) {
			t.Fatalf("Copy should hold %q; it gives %q", want, got)
		}
	}
}

// Footnote marks are rewritten only where they are marks of a note the
// reply defines, never in code.
func TestFootnoteMarksLeaveCodeAndUndefinedMarksAlone(t *testing.T) {
	test.NewTempApp(t)
	m := NewMarkdown("Costs rose[^1]: see below.\n\n~~~python\nre.sub(r'[^0-9]', '', s)\n~~~\n\n    grep '[^a-z]' file\n\nIt`s [^x] here.\n\n[^1]: Before tax.", nil)
	got := allText(m.box)
	for _, want := range []string{"rose[1]: see below.", "re.sub(r'[^0-9]', '', s)", "grep '[^a-z]' file", "[^x]", "[1] Before tax."} {
		if !strings.Contains(got, want) {
			t.Fatalf("the reply should show %q; it shows %q", want, got)
		}
	}
}

// allText is kittest.AllText, which this package's own tests cannot import.
func allText(o fyne.CanvasObject) string {
	var b strings.Builder
	var walk func(fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok {
			b.WriteString(l.Text + "\n")
			return
		}
		if t, ok := kit.LineText(o); ok {
			b.WriteString(t + "\n")
			return
		}
		if r, ok := o.(*widget.RichText); ok {
			b.WriteString(r.String() + "\n")
		}
		switch v := o.(type) {
		case *fyne.Container:
			for _, c := range v.Objects {
				walk(c)
			}
		case *container.Scroll:
			walk(v.Content)
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(v).Objects() {
				walk(c)
			}
		}
	}
	walk(o)
	return b.String()
}
