package richtext

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// mustFind is the table in md.
func mustFind(t testing.TB, md string) Table {
	t.Helper()
	_, table, _, ok := FindTable(md)
	if !ok {
		t.Fatalf("no table in %q", md)
	}
	return table
}

// show puts the table of md in a window width px wide and lays it out
// there, as the chat does: at the width given, as tall as it asks.
func show(t *testing.T, md string, width float32) *view {
	t.Helper()
	o, _ := NewTable(mustFind(t, md))
	w := test.NewTempWindow(t, o)
	w.SetPadded(false)
	w.Resize(fyne.NewSize(width, 1000))
	v := o.(*view)
	if v.Size().Width != width {
		t.Fatalf("the table was given %v px, not %v", v.Size().Width, width)
	}
	return v
}

// cell is the cell at row, col (row 0 is the header).
func (v *view) cell(row, col int) *widget.RichText { return v.cells[row*v.cols+col] }

// cellText is the words a cell shows.
func cellText(r *widget.RichText) string {
	var b strings.Builder
	var walk func([]widget.RichTextSegment)
	walk = func(segs []widget.RichTextSegment) {
		for _, s := range segs {
			switch t := s.(type) {
			case *widget.TextSegment:
				b.WriteString(t.Text)
			case *widget.HyperlinkSegment:
				b.WriteString(t.Text)
			case *widget.ParagraphSegment:
				walk(t.Texts)
			case *Picture:
				b.WriteString("[picture " + t.Title + "]")
			}
		}
	}
	walk(r.Segments)
	return strings.ReplaceAll(b.String(), zwsp, "")
}

// styleOf is whether a cell's text is bold ("bold", "regular" or "mixed")
// and how it is aligned.
func styleOf(r *widget.RichText) (weight string, align fyne.TextAlign) {
	bold, regular := false, false
	for i, s := range r.Segments {
		switch t := s.(type) {
		case *widget.TextSegment:
			if i == 0 {
				align = t.Style.Alignment
			}
			if strings.TrimSpace(t.Text) != "" {
				bold = bold || t.Style.TextStyle.Bold
				regular = regular || !t.Style.TextStyle.Bold
			}
		case *widget.HyperlinkSegment:
			if i == 0 {
				align = t.Alignment
			}
			regular = true
		}
	}
	switch {
	case bold && regular:
		return "mixed", align
	case bold:
		return "bold", align
	}
	return "regular", align
}

var alignNames = map[fyne.TextAlign]string{
	fyne.TextAlignLeading: "left", fyne.TextAlignCenter: "centre", fyne.TextAlignTrailing: "right",
}

const (
	numbers = "| # | Item | Price |\n|--:|---|--:|\n" +
		"| 1 | Coffee beans, freshly roasted, from the hills above the lake | 12.50 |\n" +
		"| 2 | Milk | 0.99 |\n" +
		"| 10 | Oat biscuits | 3.20 |"
	prose = "| Term | What it means |\n|---|---|\n" +
		"| Latency | The time between asking for something and the first part of the answer arriving, which users feel as the pause before anything happens. |\n" +
		"| Throughput | How much work is done per second. |\n" +
		"| Jitter | How much the latency varies from one request to the next; a steady service has little. |"
	wide = "| Region | Owner | Status | Next step | Risks | Notes |\n|---|---|---|---|---|---|\n" +
		"| North-western distribution | Operations and logistics team | Waiting for the contract renewal | Call the supplier about the revised delivery schedule | Shipments may be delayed by two weeks | Review again after the quarterly planning meeting |\n" +
		"| Southern warehouses | Finance department | Budget approved for next year | Hire two more people for the night shift | None known at the moment | Training starts in the spring |"
)

// TestAColumnOfNumbersIsNarrowerThanAColumnOfText: columns take the width
// their content needs, not an equal share.
func TestAColumnOfNumbersIsNarrowerThanAColumnOfText(t *testing.T) {
	test.NewTempApp(t)
	v := show(t, numbers, 600)
	num, item, price := v.cell(1, 0).Size().Width, v.cell(1, 1).Size().Width, v.cell(1, 2).Size().Width
	if num >= item/3 || price >= item/2 {
		t.Fatalf("the columns are %v, %v, %v px wide: the numbers' should be far narrower than the items'", num, item, price)
	}
	if num > 60 {
		t.Fatalf("a column of numbers up to 10 is %v px wide", num)
	}
	// With room to spare the table is only as wide as its content.
	v = show(t, "| a | b |\n|---|---|\n| 1 | 2 |", 600)
	if g := v.geo.width; g > 100 {
		t.Fatalf("a table of single letters is %v px wide in 600 px", g)
	}
}

// TestEachRowIsAsTallAsItsTallestCell: a row whose cell wraps to several
// lines is taller than a row of one line, and no row overlaps the one
// above it.
func TestEachRowIsAsTallAsItsTallestCell(t *testing.T) {
	test.NewTempApp(t)
	v := show(t, prose, 600)
	long, short := v.cell(1, 1).Size().Height, v.cell(2, 1).Size().Height
	if long < short+15 {
		t.Fatalf("the row with a long explanation is %v px tall, the one with a short one %v px", long, short)
	}
	for row := 1; row < v.rows; row++ {
		var bottom float32
		for col := range v.cols {
			c := v.cell(row-1, col)
			bottom = max(bottom, c.Position().Y+c.Size().Height)
		}
		for col := range v.cols {
			if y := v.cell(row, col).Position().Y; y < bottom {
				t.Fatalf("row %d, column %d starts at %v, above the bottom of the row before (%v)", row, col, y, bottom)
			}
			if h := v.cell(row, col).Size().Height; h != v.cell(row, 0).Size().Height {
				t.Fatalf("the cells of row %d are of different heights", row)
			}
		}
	}
}

// TestAWideTableScrollsSidewaysOnlyWhenItMust: at 400 px, six columns of
// text do not fit even broken at every space, and the table scrolls
// sideways, showing all its rows; at 1200 px it fits without a scroller.
func TestAWideTableScrollsSidewaysOnlyWhenItMust(t *testing.T) {
	test.NewTempApp(t)
	v := show(t, wide, 400)
	s, ok := test.WidgetRenderer(v).Objects()[0].(*kit.Scroller)
	if !ok {
		t.Fatalf("at 400 px the table shows %T, not a sideways scroller", test.WidgetRenderer(v).Objects()[0])
	}
	if s.Direction != container.ScrollHorizontalOnly {
		t.Fatalf("the scroller scrolls %v", s.Direction)
	}
	if c, vp := s.Content.Size().Width, s.Size().Width; c <= vp || vp > 400 {
		t.Fatalf("the scroller is %v px wide holding %v px of table", vp, c)
	}
	if s.Size().Height < v.geo.height || v.MinSize().Height < v.geo.height {
		t.Fatalf("the scroller (%v px) or the view (%v px) is shorter than the table (%v px): rows would be hidden",
			s.Size().Height, v.MinSize().Height, v.geo.height)
	}
	// Scrolled to its end, the last column is in view.
	s.ScrollToOffset(fyne.NewPos(s.Content.Size().Width, 0))
	last := v.cell(1, 5)
	if right := last.Position().X + last.Size().Width - s.Offset.X; right > s.Size().Width+1 {
		t.Fatalf("scrolled to its end the last column ends at %v, past the scroller's %v", right, s.Size().Width)
	}

	v = show(t, wide, 1200)
	if test.WidgetRenderer(v).Objects()[0] != v.body {
		t.Fatalf("at 1200 px the table shows %T, not the table itself", test.WidgetRenderer(v).Objects()[0])
	}
	if v.geo.width > 1200 || v.geo.scroll {
		t.Fatalf("at 1200 px the table is %v px wide", v.geo.width)
	}
}

// TestNoCellIsClipped: at every width, each cell is as tall as its text
// needs at its width, and its text stays inside it.
func TestNoCellIsClipped(t *testing.T) {
	test.NewTempApp(t)
	for _, md := range append(goldenTables(), numbers, prose, wide) {
		o, _ := NewTable(mustFind(t, md))
		for width := float32(120); width <= 1300; width += 53 {
			o.Resize(fyne.NewSize(width, o.MinSize().Height))
			v := o.(*view)
			for i, c := range v.cells {
				size := c.Size()
				if need := c.MinSize().Height; need > size.Height {
					t.Fatalf("at %v px cell %d (%q) needs %v px, has %v", width, i, cellText(c), need, size.Height)
				}
				for _, obj := range test.WidgetRenderer(c).Objects() {
					right := obj.Position().X + obj.MinSize().Width // a link
					if txt, ok := obj.(*canvas.Text); ok {
						if invisible(txt) {
							continue
						}
						right = inkRight(txt)
					}
					if right > size.Width+0.5 || obj.Position().Y+obj.Size().Height > size.Height+0.5 {
						t.Fatalf("at %v px the words %q of cell %d (%q) end at %v, %v, outside its %v", width, drawn(obj), i, cellText(c),
							right, obj.Position().Y+obj.Size().Height, size)
					}
				}
			}
		}
	}
}

// inkRight is where the drawn words of txt end, spaces after them not
// counted.
func inkRight(txt *canvas.Text) float32 {
	w := fyne.MeasureText(strings.TrimRight(txt.Text, " "), txt.TextSize, txt.TextStyle).Width
	switch txt.Alignment {
	case fyne.TextAlignTrailing:
		return txt.Position().X + txt.Size().Width
	case fyne.TextAlignCenter:
		return txt.Position().X + (txt.Size().Width+w)/2
	}
	return txt.Position().X + w
}

// invisible reports whether txt draws nothing but spaces.
func invisible(txt *canvas.Text) bool { return strings.Trim(txt.Text, " "+zwsp) == "" }

// drawn is the words obj draws: a text's, or a link's.
func drawn(obj fyne.CanvasObject) string {
	switch o := obj.(type) {
	case *canvas.Text:
		return o.Text
	case *fyne.Container:
		if l, ok := o.Objects[0].(*widget.Hyperlink); ok {
			return l.Text
		}
	}
	return fmt.Sprintf("%T", obj)
}

// TestFormattedCellsWrapAtWords: a cell mixing bold, code, italics and
// links wraps at its words at every width: it never gets taller as its
// column gets wider, never has more lines than words, and its words stay
// inside it.
func TestFormattedCellsWrapAtWords(t *testing.T) {
	test.NewTempApp(t)
	for _, cell := range []string{
		"alpha **bold**, beta `code`; gamma *it*. delta **x**y",
		"see the [docs](https://example.com/x) for details and more, or [the other page](https://example.com/y) here",
	} {
		o, _ := NewTable(mustFind(t, "| a |\n|--|\n| "+cell+" |"))
		v := o.(*view)
		c := v.cell(1, 0)
		words := len(strings.Fields(cellText(c)))
		last := float32(math.MaxFloat32)
		for width := float32(60); width < 420; width++ {
			o.Resize(fyne.NewSize(width, o.MinSize().Height))
			h := c.Size().Height
			if lines := (h - 16) / 19.07; lines > float32(words)+0.5 {
				t.Fatalf("at %v px %q takes %.0f lines for %d words", width, cell, lines, words)
			}
			if h > last {
				t.Fatalf("at %v px %q is %v px tall, taller than at %v px (%v)", width, cell, h, width-1, last)
			}
			last = h
			for _, obj := range test.WidgetRenderer(c).Objects() {
				right := obj.Position().X + obj.MinSize().Width // a link
				if txt, ok := obj.(*canvas.Text); ok {
					if invisible(txt) {
						continue
					}
					right = inkRight(txt)
				}
				if right > c.Size().Width-theme.InnerPadding()+0.5 {
					t.Fatalf("at %v px the words %q end at %v, past the %v px of their cell less its padding", width, drawn(obj), right, c.Size().Width)
				}
			}
		}
	}
}

// TestATableNeverWidensTheWindow: however wide its content, the table asks
// for little width; the chat decides how wide it is.
func TestATableNeverWidensTheWindow(t *testing.T) {
	test.NewTempApp(t)
	token := strings.Repeat("x", 300)
	for _, md := range []string{numbers, wide, "| " + token + " | " + token + " |\n|---|---|\n| " + token + " | b |"} {
		o, _ := NewTable(mustFind(t, md))
		if w := o.MinSize().Width; w > 100 {
			t.Fatalf("before being laid out the table asks for %v px", w)
		}
		for _, width := range []float32{200, 800} {
			o.Resize(fyne.NewSize(width, o.MinSize().Height))
			if w := o.MinSize().Width; w > 100 {
				t.Fatalf("at %v px the table asks for %v px", width, w)
			}
		}
	}
}

// TestALongWordIsBrokenNotGivenItsWidth: a 300-character token asks for a
// column of about 24 characters at the least, and is broken over lines
// inside it.
func TestALongWordIsBrokenNotGivenItsWidth(t *testing.T) {
	test.NewTempApp(t)
	token := strings.Repeat("0123456789", 30)
	v := show(t, "| id | value |\n|---|---|\n| 1 | "+token+" |", 270)
	if v.geo.scroll {
		t.Fatalf("a long token made the table %v px wide, wider than 270 px", v.geo.width)
	}
	c := v.cell(1, 1)
	if lines := c.Size().Height / v.cell(0, 1).Size().Height; lines < 6 {
		t.Fatalf("the token's cell is only %.1f lines tall", lines)
	}
}

// TestALongLinkIsShortenedButOpensItsAddress: a link is drawn on one line;
// one longer than a column may be is shown shortened, and still goes to
// its whole address.
func TestALongLinkIsShortenedButOpensItsAddress(t *testing.T) {
	test.NewTempApp(t)
	addr := "https://example.com/" + strings.Repeat("segment/", 20)
	v := show(t, "| what | where |\n|---|---|\n| docs | "+addr+" |", 400)
	var link *widget.HyperlinkSegment
	for _, s := range v.cell(1, 1).Segments {
		if l, ok := s.(*widget.HyperlinkSegment); ok {
			link = l
		}
	}
	if link == nil {
		t.Fatal("the address is not a link")
	}
	if !strings.HasSuffix(link.Text, "…") || len(link.Text) >= len(addr) {
		t.Fatalf("the link shows %q", link.Text)
	}
	if link.URL.String() != addr {
		t.Fatalf("the link goes to %q, not %q", link.URL, addr)
	}
	if need := fyne.MeasureText(link.Text, 14, fyne.TextStyle{}).Width; need > v.cell(1, 1).Size().Width {
		t.Fatalf("the link's words take %v px in a column of %v", need, v.cell(1, 1).Size().Width)
	}
}

// TestHeaderIsBoldAndColumnsAreAligned: the header's words are bold, the
// body's are not, and each column's cells sit as its delimiter says.
func TestHeaderIsBoldAndColumnsAreAligned(t *testing.T) {
	test.NewTempApp(t)
	v := show(t, "| l | c | r | n |\n|:--|:-:|--:|---|\n| 1 | 2 | 3 | 4 |", 600)
	want := []fyne.TextAlign{fyne.TextAlignLeading, fyne.TextAlignCenter, fyne.TextAlignTrailing, fyne.TextAlignLeading}
	for row := range 2 {
		for col := range 4 {
			weight, align := styleOf(v.cell(row, col))
			if (weight == "bold") != (row == 0) || align != want[col] {
				t.Errorf("cell %d,%d: %s, aligned %s", row, col, weight, alignNames[align])
			}
		}
	}
	// Right-aligned text ends at its cell's right, less the padding.
	c := v.cell(1, 2)
	for _, obj := range test.WidgetRenderer(c).Objects() {
		if txt, ok := obj.(*canvas.Text); ok && txt.Text == "3" {
			if gap := c.Size().Width - (obj.Position().X + obj.Size().Width); gap > 9 {
				t.Errorf("the right-aligned 3 ends %v px from its cell's right", gap)
			}
		}
	}
}

// TestCellsAreInlineText: a cell that starts like a heading, a list, a
// quote or a rule shows those words, not a block.
func TestCellsAreInlineText(t *testing.T) {
	test.NewTempApp(t)
	cells := []string{"# not a heading", "- not a list", "1. nor this", "> nor a quote", "---", "[a]: b", "**bold** `code`"}
	md := "| a |\n|---|\n| " + strings.Join(cells, " |\n| ") + " |"
	v := show(t, md, 600)
	want := []string{"# not a heading", "- not a list", "1. nor this", "> nor a quote", "---", "[a]: b", "bold code"}
	for i, w := range want {
		if got := cellText(v.cell(i+1, 0)); got != w {
			t.Errorf("cell %q shows %q", cells[i], got)
		}
	}
}

// TestPicturesInCellsAreReturned: the pictures the cells name come back,
// for the chat to load when the user asks.
func TestPicturesInCellsAreReturned(t *testing.T) {
	test.NewTempApp(t)
	_, pics := NewTable(mustFind(t, "| a | b |\n|---|---|\n| ![cat](https://example.com/cat.png) | ![dog](https://example.com/dog.png) |"))
	if len(pics) != 2 || pics[0].Title != "cat" || pics[1].Title != "dog" {
		t.Fatalf("pictures %v", pics)
	}
}

// TestMinSizeFollowsTheWidth: as with wrapped text, a narrower table is
// taller, and its minimum height is its height at the width it was given.
func TestMinSizeFollowsTheWidth(t *testing.T) {
	test.NewTempApp(t)
	o, _ := NewTable(mustFind(t, prose))
	heights := map[float32]float32{}
	for _, w := range []float32{900, 300, 900} {
		o.Resize(fyne.NewSize(w, o.MinSize().Height))
		o.Resize(fyne.NewSize(w, o.MinSize().Height))
		heights[w] = o.MinSize().Height
		if v := o.(*view); v.geo.height != heights[w] {
			t.Fatalf("at %v px the table is %v px tall and asks for %v", w, v.geo.height, heights[w])
		}
	}
	if heights[300] <= heights[900] {
		t.Fatalf("at 300 px the table is %v px tall, at 900 px %v", heights[300], heights[900])
	}
}

// TestLayingOutAgainAtTheSameWidthMeasuresNothing: a table laid out again
// at the width it has keeps its measurements; a new width measures again.
func TestLayingOutAgainAtTheSameWidthMeasuresNothing(t *testing.T) {
	test.NewTempApp(t)
	v := show(t, prose, 600)
	gen := v.geo.gen
	r := test.WidgetRenderer(v)
	for range 3 {
		r.Layout(v.Size())
		v.MinSize()
	}
	if v.geo.gen != gen {
		t.Fatalf("laying out at the same width measured the table %d more times", v.geo.gen-gen)
	}
	v.Resize(fyne.NewSize(500, v.Size().Height))
	if v.geo.gen == gen {
		t.Fatal("a new width did not measure the table again")
	}
}

// goldenTables are the tables whose laid-out trees are kept in testdata.
func goldenTables() []string {
	return []string{
		numbers,
		prose,
		"| Left | Centre | Right | None |\n|:-----|:------:|------:|------|\n| a | b | c | d |\n| longer text here | mid | 1,234.56 | plain |",
		"| Flag | Meaning |\n|---|---|\n| `-v` | **verbose**: print every step |\n| `-o` *file* | write to *file* ([docs](https://example.com/o)) |\n| `a \\| b` | either &amp; both |",
		"| 名前 | 説明 | Arabic | Emoji |\n|---|---|---|---|\n| 東京 | 日本の首都で、人口が最も多い都市です。 | مرحبا بالعالم | 👍🏽 ok |\n| 大阪 | 関西 | شكرا | 🎉 |",
		"| a | b | c |\n|---|---|---|\n| 1 |\n| 1 | 2 | 3 | 4 |\n|  | only the middle |  |",
		wide,
	}
}

// dumpTree is a laid-out table in words: its size, its columns' widths,
// each row's place and height, and each cell's words, weight and
// alignment.
func dumpTree(md string, v *view) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", md)
	g := v.geo
	scroll := "no"
	if g.scroll {
		scroll = "yes"
	}
	fmt.Fprintf(&b, "given %.0f px: table %.1f × %.1f, scrolls sideways: %s\n", v.Size().Width, g.width, g.height, scroll)
	b.WriteString("columns:")
	for col := range v.cols {
		fmt.Fprintf(&b, " %.1f", v.cell(0, col).Size().Width)
	}
	b.WriteString("\n")
	for row := range v.rows {
		c := v.cell(row, 0)
		fmt.Fprintf(&b, "row %d: y %.1f, height %.1f\n", row, c.Position().Y, c.Size().Height)
		for col := range v.cols {
			c := v.cell(row, col)
			weight, align := styleOf(c)
			fmt.Fprintf(&b, "  x %6.1f  %-7s %-6s %q\n", c.Position().X, weight, alignNames[align], cellText(c))
		}
	}
	return b.String()
}

// TestGoldenTrees compares tables laid out at 600 px with the trees in
// testdata; go test -update writes them anew.
func TestGoldenTrees(t *testing.T) {
	test.NewTempApp(t)
	names := []string{"numbers", "prose", "alignment", "inline", "unicode", "ragged", "wide"}
	for i, md := range goldenTables() {
		t.Run(names[i], func(t *testing.T) {
			got := dumpTree(md, show(t, md, 600))
			path := filepath.Join("testdata", names[i]+".golden")
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test -update writes it)", err)
			}
			if got != string(want) {
				t.Errorf("the table laid out differs from %s:\n%s\nwant:\n%s", path, got, want)
			}
		})
	}
}

// BenchmarkLayout200Rows: laying a 200-row table out the first time
// measures every cell, and at a new width wraps every cell again; laying it
// out again at the same width costs next to nothing.
func BenchmarkLayout200Rows(b *testing.B) {
	test.NewTempApp(b)
	var sb strings.Builder
	sb.WriteString("| # | Name | Description | Amount |\n|--:|---|---|--:|\n")
	for i := range 200 {
		fmt.Fprintf(&sb, "| %d | item %d | a description of item %d, long enough to wrap in a narrow column | %d.%02d |\n", i, i, i, i*37, i%100)
	}
	table := mustFind(b, sb.String())
	size := fyne.NewSize(800, 1000)

	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			o, _ := NewTable(table)
			b.StartTimer()
			o.Resize(size)
			o.MinSize()
		}
	})
	b.Run("new width", func(b *testing.B) {
		o, _ := NewTable(table)
		o.Resize(size)
		for i := 0; b.Loop(); i++ {
			o.Resize(fyne.NewSize(520-float32(i%2)*40, 1000)) // narrower than the table would like
			o.MinSize()
		}
	})
	b.Run("again", func(b *testing.B) {
		o, _ := NewTable(table)
		o.Resize(size)
		r := test.WidgetRenderer(o.(fyne.Widget))
		for b.Loop() {
			r.Layout(size)
			o.MinSize()
		}
	})
}

// bigTableText is the default theme with larger text.
type bigTableText struct{ fyne.Theme }

func (t bigTableText) Size(n fyne.ThemeSizeName) float32 {
	if n == theme.SizeNameText {
		return 20
	}
	return t.Theme.Size(n)
}

// TestATableFollowsTheThemesTextSize: after the theme's text grows, a
// refreshed table measures its cells again: wider columns, taller rows,
// nothing cut off.
func TestATableFollowsTheThemesTextSize(t *testing.T) {
	a := test.NewTempApp(t)
	v := show(t, numbers, 600)
	before := v.cell(3, 1).Size()
	a.Settings().SetTheme(bigTableText{theme.DefaultTheme()})
	v.Refresh()
	after := v.cell(3, 1).Size()
	if after.Width <= before.Width || after.Height <= before.Height {
		t.Fatalf("with larger text the cell is %v, was %v", after, before)
	}
	for i, c := range v.cells {
		if need := c.MinSize().Height; need > c.Size().Height {
			t.Fatalf("cell %d (%q) needs %v px, has %v", i, cellText(c), need, c.Size().Height)
		}
	}
}

// TestATableArrivingShowsItsRowsAsTheyCome: while a reply streams, a table
// is laid out as a table row by row, never shown as its raw pipes; the row
// still arriving waits for its line's end.
func TestATableArrivingShowsItsRowsAsTheyCome(t *testing.T) {
	test.NewTempApp(t)
	m := NewLiveMarkdown("", nil)
	w := test.NewTempWindow(t, m)
	w.Resize(fyne.NewSize(600, 400))
	rows := func() int {
		v := kittest.Find[*view](m)
		if v == nil {
			return -1
		}
		return v.rows
	}
	m.Append("The action items:\n\n| Owner | Task |\n|---|---|\n| Ana | Book the room |\n| Luís | Send the")
	m.Flush(false)
	if got := rows(); got != 2 {
		t.Fatalf("with a header and one whole row the table shows %d rows (header counted), want 2", got)
	}
	if all := kittest.AllText(m); strings.Contains(all, "|") || strings.Contains(all, "Send the") {
		t.Fatalf("the raw pipes or the row still arriving are shown:\n%s", all)
	}
	m.Append(" agenda |\n")
	m.Flush(false)
	if got := rows(); got != 3 {
		t.Fatalf("the second row once whole: %d rows, want 3", got)
	}
	m.Append("\nThat is all.")
	m.Flush(true)
	if got := rows(); got != 3 || !strings.Contains(kittest.AllText(m), "That is all.") {
		t.Fatalf("the finished reply shows %d rows:\n%s", got, kittest.AllText(m))
	}
}
