package richtext

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
)

// bigCode is about n bytes of code in lines of up to 100 characters.
func bigCode(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString("total_")
		b.WriteString(strings.Repeat("x", i%90))
		b.WriteString(" = sum(row for row in sheet)\n")
	}
	return b.String()
}

// drawnRows are the rows of code a block draws now.
func drawnRows(c *CodeBlock) []string {
	var out []string
	for _, o := range test.WidgetRenderer(c.lines).Objects() {
		out = append(out, o.(*canvas.Text).Text)
	}
	return out
}

func TestA2MiBCodeFragmentShowsInABoxThatDrawsOnlyWhatIsInView(t *testing.T) {
	test.NewTempApp(t)
	code := bigCode(2 << 20)
	m := NewMarkdown("", nil)
	w := test.NewTempWindow(t, container.NewVScroll(m))
	w.Resize(fyne.NewSize(1000, 700))
	m.Append("Here it is:\n\n```python\n" + code + "```\n")
	m.Flush(true)
	m.Resize(fyne.NewSize(900, m.MinSize().Height))

	var c *CodeBlock
	walkObjects(m, func(o fyne.CanvasObject) {
		if x, ok := o.(*CodeBlock); ok {
			c = x
		}
	})
	if c == nil {
		t.Fatal("no code block")
	}
	if c.Code() != strings.TrimSuffix(code, "\n") {
		t.Fatal("the code block lost code")
	}
	rows := drawnRows(c)
	if len(rows) == 0 || len(rows) > codeBoxLines+1 {
		t.Fatalf("%d rows drawn, want the %d in view", len(rows), codeBoxLines+1)
	}
	if rows[0] != "total_ = sum(row for row in sheet)" {
		t.Fatalf("first row %q", rows[0])
	}
	if h := c.MinSize().Height; h > float32(codeBoxLines+4)*c.lines.rowHeight() {
		t.Fatalf("the block is %.0f px tall, want a box of about %d lines", h, codeBoxLines)
	}
	if c.count.Text == "" || !strings.HasSuffix(c.count.Text, " lines") {
		t.Fatalf("a boxed block should say how many lines it has, says %q", c.count.Text)
	}

	// scrolling the box to its end draws the last lines
	c.scroll.ScrollToBottom()
	rows = drawnRows(c)
	lines := strings.Split(strings.TrimSuffix(code, "\n"), "\n")
	if rows[len(rows)-1] != lines[len(lines)-1] {
		t.Fatalf("after scrolling to the end the last row is %q, want %q", rows[len(rows)-1], lines[len(lines)-1])
	}
	test.Tap(c.copy)
	if fyne.CurrentApp().Clipboard().Content() != c.Code() {
		t.Fatal("Copy should copy the whole code")
	}
}

func TestCodeWrapsOrScrollsSidewaysAsTheUserChooses(t *testing.T) {
	test.NewTempApp(t)
	wrap := &CodeBlocks{save: func(bool) {}}
	long := strings.Repeat("word ", 60) + "end"
	c := newCodeBlock("text", "short\n"+long+"\n日本語のテキスト"+strings.Repeat("字", 80), wrap)
	w := test.NewTempWindow(t, c)
	w.Resize(fyne.NewSize(500, 400))
	c.Resize(fyne.NewSize(480, c.MinSize().Height))

	view := c.scroll.Size().Width
	if got := c.lines.MinSize().Width; got <= view {
		t.Fatalf("unwrapped, the long line (%.0f px) should be wider than the box (%.0f px) and scroll sideways", got, view)
	}
	if n := len(drawnRows(c)); n != 3 {
		t.Fatalf("unwrapped, three lines are three rows, got %d", n)
	}

	test.Tap(c.wrapBtn)
	c.Resize(fyne.NewSize(480, c.MinSize().Height))
	if !wrap.on.Load() || c.wrapBtn.Text != "Don't wrap lines" {
		t.Fatalf("after Wrap lines the choice is %v and the button says %q", wrap.on.Load(), c.wrapBtn.Text)
	}
	rows := drawnRows(c)
	if len(rows) < 5 {
		t.Fatalf("wrapped, the long lines should take several rows, got %d", len(rows))
	}
	if strings.Join(rows, "") != strings.ReplaceAll(c.Code(), "\n", "") {
		t.Fatal("wrapping lost or changed characters")
	}
	for _, o := range test.WidgetRenderer(c.lines).Objects() {
		if tw := o.(*canvas.Text).MinSize().Width; tw > view+1 {
			t.Fatalf("wrapped row %q is %.0f px, wider than the box (%.0f px)", o.(*canvas.Text).Text, tw, view)
		}
	}
	if got := c.MinSize().Height; got < float32(len(rows))*c.lines.rowHeight() {
		t.Fatalf("the block (%.0f px) is shorter than its %d rows", got, len(rows))
	}
	// a new block takes the last choice
	if !newCodeBlock("", "x", wrap).lines.wrap {
		t.Fatal("a new code block should wrap as the user last chose")
	}
}

// Rows cut while code arrives in pieces are the rows of the whole code.
func TestCodeRowsCutWhileArrivingMatchTheWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []string{"a", "b", " ", "\t", "\n", "\n", "字", "é", "\r"}
	for round := 0; round < 200; round++ {
		var b strings.Builder
		for b.Len() < 400 {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		src := b.String()
		wrap := round%2 == 0
		whole := newCodeLines(wrap)
		whole.setViewWidth(whole.cell.Width * 13)
		whole.set(src)
		parts := newCodeLines(wrap)
		parts.setViewWidth(parts.cell.Width * 13)
		for i := 0; i < len(src); {
			j := min(i+1+rng.IntN(20), len(src))
			parts.set(src[:j])
			i = j
		}
		if !slices.Equal(whole.starts, parts.starts) || whole.widest != parts.widest || whole.lines != parts.lines {
			t.Fatalf("round %d (wrap %v): rows %v / %d wide / %d lines at once, %v / %d / %d in pieces",
				round, wrap, whole.starts, whole.widest, whole.lines, parts.starts, parts.widest, parts.lines)
		}
		for i := range len(whole.starts) {
			if whole.row(i) != parts.row(i) {
				t.Fatalf("row %d differs", i)
			}
		}
	}
}

// One line of 2 MiB is cut into rows no wider than codeMaxCols, so no
// row is a picture too wide to draw.
func TestAnEndlessLineIsCutIntoRows(t *testing.T) {
	test.NewTempApp(t)
	l := newCodeLines(false)
	l.set(strings.Repeat("0123456789", 200_000))
	if len(l.starts) != 2_000_000/codeMaxCols || l.widest != codeMaxCols || l.lines != 1 {
		t.Fatalf("%d rows, %d columns wide, %d lines", len(l.starts), l.widest, l.lines)
	}
}

// walkObjects calls f for o and everything inside it.
func walkObjects(o fyne.CanvasObject, f func(fyne.CanvasObject)) {
	f(o)
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			walkObjects(c, f)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(x).Objects() {
			walkObjects(c, f)
		}
	}
}

// A code block still arriving follows its end past the lines shown whole,
// into its box.
func TestArrivingCodeFollowsItsEnd(t *testing.T) {
	test.NewTempApp(t)
	c := newCodeBlock("", "line 1", nil)
	w := test.NewTempWindow(t, c)
	w.Resize(fyne.NewSize(600, 900))
	code := "line 1"
	for i := 2; i <= 100; i++ {
		code += fmt.Sprintf("\nline %d", i)
		c.SetCode(code)
		c.Resize(fyne.NewSize(580, c.MinSize().Height))
		rows := drawnRows(c)
		if last := rows[len(rows)-1]; last != fmt.Sprintf("line %d", i) {
			t.Fatalf("with %d lines the last row drawn is %q", i, last)
		}
	}
}
