package richtext

import (
	"math"
	"slices"
	"sort"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/views/kit"
)

// Column widths in body-text characters, so they follow the theme's text size.
const (
	// wordChars caps a column's longest word: a longer token breaks inside
	// rather than widening its column, as RichText does.
	wordChars = 24
	// lineChars is the most a column asks for when there is room to spare.
	lineChars = 72
)

// NewTable builds the widget showing t, its columns as wide as content needs in
// the room given. Cells are inline Markdown; their pictures are returned in
// reading order, not loaded.
func NewTable(t Table) (fyne.CanvasObject, []*Picture) {
	v := &view{cols: len(t.Header)}
	var pics []*Picture
	add := func(src string, header bool) {
		col := len(v.cells) % max(v.cols, 1)
		r, p := newGuardedText(render(cellParser(), src))
		r.Segments = dropParagraphEnd(r.Segments)
		align := AlignNone
		if col < len(t.Align) {
			align = t.Align[col]
		}
		v.style(r.Segments, header, textAlign[align])
		flowRuns(r.Segments)
		if broken, ok := breakBeforeLinks(r.Segments); ok {
			v.linked = append(v.linked, linkedCell{cell: len(v.cells), flow: r.Segments, broken: broken})
		}
		v.cells = append(v.cells, r)
		if len(p) > 0 {
			v.pictured = append(v.pictured, len(v.cells)-1)
			pics = append(pics, p...)
		}
	}
	for _, h := range t.Header {
		add(h, true)
	}
	for _, row := range t.Rows {
		for _, c := range fit(append([]string(nil), row...), v.cols) {
			add(c, false)
		}
	}
	if v.cols > 0 {
		v.rows = len(v.cells) / v.cols
	}
	v.body = newBody(v)
	v.colour()
	v.ExtendBaseWidget(v)
	return v, pics
}

// dropParagraphEnd drops a cell's closing empty segment: RichText aligns a
// row of several segments short of the right edge by its padding.
func dropParagraphEnd(segs []widget.RichTextSegment) []widget.RichTextSegment {
	if n := len(segs); n > 1 {
		if t, ok := segs[n-1].(*widget.TextSegment); ok && t.Text == "" && !t.Inline() {
			return segs[:n-1]
		}
	}
	return segs
}

// zwsp opens each run of text after another in a cell (flowRuns). Fyne quirk:
// RichText leaves a run's first character past the line's end when it does
// not fit, then sets every later character on its own line; a zero-width
// space fits anywhere, so the run wraps properly. Links wrap via breakBeforeLinks.
const zwsp = "\u200b"

// flowRuns opens each run of text after another segment with zwsp.
func flowRuns(segs []widget.RichTextSegment) {
	for i, s := range segs {
		if t, ok := s.(*widget.TextSegment); ok && i > 0 && segs[i-1].Inline() && t.Inline() && t.Text != "" {
			t.Text = zwsp + t.Text
		}
	}
}

// breakBeforeLinks puts each link after words at a line's start, for a cell
// that wraps; ok is false when none follows words.
func breakBeforeLinks(segs []widget.RichTextSegment) (out []widget.RichTextSegment, ok bool) {
	for i, s := range segs {
		if _, link := s.(*widget.HyperlinkSegment); link && i > 0 && segs[i-1].Inline() {
			out = append(out, rowEnd())
			ok = true
		}
		out = append(out, s)
	}
	return out, ok
}

// linkedCell is a cell with a link after words, as written and broken.
type linkedCell struct {
	cell         int
	flow, broken []widget.RichTextSegment
	natural      float32 // the cell's width on one line
	wraps        bool    // the cell is shown broken
}

// textAlign is each column alignment's paragraph alignment; none reads from the start.
var textAlign = [...]fyne.TextAlign{AlignCenter: fyne.TextAlignCenter, AlignRight: fyne.TextAlignTrailing}

// style bolds a header cell, aligns a cell and notes links to elide (measure).
func (v *view) style(segs []widget.RichTextSegment, bold bool, align fyne.TextAlign) {
	visit(segs, func(s *widget.RichTextSegment) {
		switch t := (*s).(type) {
		case *widget.TextSegment:
			t.Style.Alignment = align
			t.Style.TextStyle.Bold = t.Style.TextStyle.Bold || bold
		case *widget.HyperlinkSegment:
			t.Alignment = align
			v.links = append(v.links, link{t, t.Text})
		}
	})
}

// link is a link in a cell and its words as written.
type link struct {
	seg   *widget.HyperlinkSegment
	words string
}

// view lays a table out as a browser's automatic layout does: natural widths
// when they fit, else minimums plus a share of the rest, else minimums in a
// sideways scroller. Like a wrapped RichText its minimum width is small, so
// the chat decides its width. Measurements are kept until width or content change.
type view struct {
	widget.BaseWidget

	cols, rows int
	cells      []*widget.RichText // row by row, the header first
	links      []link
	linked     []linkedCell
	pictured   []int // the cells that show pictures, whose size may change

	// measured: natural and minimum widths per column; lineH, each row's
	// height on one line, the height until a width is given.
	measured         bool
	natural, minimum []float32
	lineH            []float32

	geo   geometry
	body  *fyne.Container
	side  *kit.Scroller // the sideways scroller, once one is needed
	outer func(*fyne.ScrollEvent)
}

// SetOuter passes vertical wheel movement over a sideways table to f.
func (v *view) SetOuter(f func(*fyne.ScrollEvent)) {
	v.outer = f
	if v.side != nil {
		v.side.Outer = f
	}
}

// geometry is where the table's parts go at one width.
type geometry struct {
	valid         bool
	avail         float32 // the width given
	colX, colW    []float32
	rowY, rowH    []float32
	width, height float32   // of the table itself
	scroll        bool      // the table is wider than avail
	pictureH      []float32 // the height of each pictured cell, to see it change
	gen           int       // counts geometries, to see that one changed
}

func (v *view) CreateRenderer() fyne.WidgetRenderer {
	return &viewRenderer{v: v, objects: []fyne.CanvasObject{v.body}}
}

// measure finds columns' natural and minimum widths and rows' one-line
// heights, on build and refresh (the theme may change text size).
func (v *view) measure() {
	pad := theme.InnerPadding()
	nWidth := fyne.MeasureText("n", theme.TextSize(), fyne.TextStyle{}).Width
	wordCap := wordChars * nWidth
	lineCap := lineChars * nWidth
	floor := fyne.MeasureText("M", theme.TextSize(), fyne.TextStyle{}).Width + 2*pad

	for _, l := range v.links {
		l.seg.Text = elide(l.words, wordCap)
	}
	for k := range v.linked {
		v.linked[k].wraps = false
		v.cells[v.linked[k].cell].Segments = v.linked[k].flow // measured on one line, as written
	}
	// Later measures must tell a cell it changed; the first builds its renderer.
	again := v.natural != nil
	v.natural = make([]float32, v.cols)
	v.minimum = make([]float32, v.cols)
	v.lineH = make([]float32, v.rows)
	nats := make([]float32, len(v.cells))
	for i, c := range v.cells {
		row, col := i/v.cols, i%v.cols
		// RichText reports its width only when not wrapping.
		c.Wrapping = fyne.TextWrapOff
		if again {
			c.Refresh()
		}
		m := c.MinSize()
		c.Wrapping = fyne.TextWrapWord
		if again {
			c.Refresh() // wrap again at the size it has
		}
		nat := float32(math.Ceil(float64(m.Width)))
		nats[i] = nat
		word := min(longestWord(c.Segments), wordCap) + 2*pad
		if slices.ContainsFunc(picturesIn(c.Segments), (*Picture).Loaded) {
			word = nat // a picture shown does not shrink
		}
		v.natural[col] = max(v.natural[col], nat)
		v.minimum[col] = max(v.minimum[col], word, floor)
		v.lineH[row] = max(v.lineH[row], m.Height)
	}
	for k := range v.linked {
		v.linked[k].natural = nats[v.linked[k].cell]
	}
	for col := range v.natural {
		v.natural[col] = max(v.natural[col], floor)
		v.minimum[col] = min(v.minimum[col], v.natural[col])
		v.natural[col] = min(v.natural[col], max(v.minimum[col], lineCap+2*pad))
	}
	v.measured = true
	v.geo.valid = false
}

// ensure makes the geometry that of width avail, measuring if needed.
func (v *view) ensure(avail float32) {
	if v.measured && v.picturesChanged() {
		v.measured = false
	}
	if !v.measured {
		v.measure()
	}
	if v.geo.valid && v.geo.avail == avail {
		return
	}
	v.arrange(avail)
}

// picturesChanged reports whether a cell's picture loaded or failed since layout.
func (v *view) picturesChanged() bool {
	if !v.geo.valid {
		return false
	}
	for k, i := range v.pictured {
		if v.cells[i].MinSize().Height != v.geo.pictureH[k] {
			return true
		}
	}
	return false
}

// columnWidths shares avail between the columns (see view).
func columnWidths(natural, minimum []float32, avail float32) []float32 {
	var sumN, sumM float32
	for i := range natural {
		sumN += natural[i]
		sumM += minimum[i]
	}
	w := make([]float32, len(natural))
	switch {
	case sumN <= avail:
		copy(w, natural)
	case sumM <= avail:
		extra, want := avail-sumM, sumN-sumM
		for i := range w {
			w[i] = minimum[i] + extra*(natural[i]-minimum[i])/want
		}
	default:
		copy(w, minimum)
	}
	return w
}

// arrange sets column widths for avail, then row heights with cells wrapped.
func (v *view) arrange(avail float32) {
	sep := theme.SeparatorThicknessSize()
	g := geometry{valid: true, avail: avail, gen: v.geo.gen + 1}
	g.colW = columnWidths(v.natural, v.minimum, avail)
	g.colX = make([]float32, v.cols)
	for i, w := range g.colW {
		g.colX[i] = g.width
		g.width += w
	}
	for k := range v.linked {
		lc := &v.linked[k]
		if wraps := lc.natural > g.colW[lc.cell%v.cols]; wraps != lc.wraps {
			lc.wraps = wraps
			c := v.cells[lc.cell]
			c.Segments = lc.flow
			if wraps {
				c.Segments = lc.broken
			}
			c.Refresh()
		}
	}
	g.rowY = make([]float32, v.rows)
	g.rowH = make([]float32, v.rows)
	for row := range v.rows {
		if row > 0 {
			g.rowY[row] = g.rowY[row-1] + g.rowH[row-1] + sep
		}
		h := v.lineH[row]
		for col := range v.cols {
			c := v.cells[row*v.cols+col]
			// Measure at the current height: RichText relayouts on every
			// size change, and most cells keep their height.
			guess := c.Size().Height
			if guess == 0 {
				guess = v.lineH[row]
			}
			c.Resize(fyne.NewSize(g.colW[col], guess))
			h = max(h, c.MinSize().Height)
		}
		g.rowH[row] = h
	}
	if v.rows > 0 {
		g.height = g.rowY[v.rows-1] + g.rowH[v.rows-1]
	}
	g.scroll = g.width > avail+0.5
	g.pictureH = make([]float32, len(v.pictured))
	v.geo = g
	v.place()
	for k, i := range v.pictured {
		v.geo.pictureH[k] = v.cells[i].MinSize().Height
	}
}

// height is the table's height at the last width, plus a sideways scroll bar.
func (v *view) height() float32 {
	if !v.geo.valid {
		var h float32
		for _, l := range v.lineH {
			h += l
		}
		return h + theme.SeparatorThicknessSize()*float32(max(v.rows-1, 0))
	}
	if v.geo.scroll {
		return v.geo.height + theme.ScrollBarSize()
	}
	return v.geo.height
}

// viewRenderer shows the table, or the sideways scroller holding it.
type viewRenderer struct {
	v       *view
	objects []fyne.CanvasObject
	shown   int // the geometry the scroller last showed
}

func (r *viewRenderer) Layout(size fyne.Size) {
	v := r.v
	v.ensure(size.Width)
	if !v.geo.scroll {
		v.body.Resize(fyne.NewSize(v.geo.width, v.geo.height))
		v.body.Move(fyne.Position{})
		r.objects[0] = v.body
		return
	}
	if v.side == nil {
		v.side = kit.NewScroller(v.body, container.ScrollHorizontalOnly, v.outer) // moves sideways while the chat scrolls it
	}
	v.side.Move(fyne.Position{})
	v.side.Resize(fyne.NewSize(size.Width, v.height()))
	if r.shown != v.geo.gen || r.objects[0] != v.side {
		r.shown = v.geo.gen
		v.side.Refresh() // the table in it changed: its size, its place
	}
	r.objects[0] = v.side
}

// MinSize is narrow, so a table never widens the window, and as tall as the last layout.
func (r *viewRenderer) MinSize() fyne.Size {
	v := r.v
	if w := v.Size().Width; w > 0 {
		v.ensure(w)
	} else if !v.measured {
		v.measure()
	}
	return fyne.NewSize(2*theme.InnerPadding(), v.height())
}

// Refresh measures again (theme or pictures may have changed) and lays out.
func (r *viewRenderer) Refresh() {
	r.v.measured = false
	r.v.colour()
	r.v.body.Refresh()
	if s := r.v.Size(); s.Width > 0 {
		r.Layout(s)
	}
	canvas.Refresh(r.v)
}

func (r *viewRenderer) Objects() []fyne.CanvasObject { return r.objects }

func (r *viewRenderer) Destroy() {}

// newBody is the table itself, laid out by v's geometry whatever its own
// size (a scroller may make it larger): its background, the header's band,
// the separators between rows, then the cells.
func newBody(v *view) *fyne.Container {
	objs := []fyne.CanvasObject{canvas.NewRectangle(nil), canvas.NewRectangle(nil)}
	for range max(v.rows-1, 0) {
		objs = append(objs, canvas.NewRectangle(nil))
	}
	for _, c := range v.cells {
		objs = append(objs, c)
	}
	return &fyne.Container{Layout: bodyLayout{v}, Objects: objs}
}

// bodyLayout asks for the table's size at the view's width and places its parts there.
type bodyLayout struct{ v *view }

func (l bodyLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(l.v.geo.width, l.v.geo.height)
}

func (l bodyLayout) Layout([]fyne.CanvasObject, fyne.Size) { l.v.place() }

// separators are the body's lines between rows.
func (v *view) separators() []fyne.CanvasObject { return v.body.Objects[2 : 2+max(v.rows-1, 0)] }

func (v *view) colour() {
	bg, header := v.body.Objects[0].(*canvas.Rectangle), v.body.Objects[1].(*canvas.Rectangle)
	radius := theme.Size(theme.SizeNameInputRadius)
	bg.FillColor = theme.Color(theme.ColorNameInputBackground)
	bg.CornerRadius = radius
	// Hover is a veil that stands out on light and dark themes alike.
	header.FillColor = theme.Color(theme.ColorNameHover)
	header.TopLeftCornerRadius = radius
	header.TopRightCornerRadius = radius
	if v.rows <= 1 {
		header.BottomLeftCornerRadius = radius
		header.BottomRightCornerRadius = radius
	}
	for _, s := range v.separators() {
		s.(*canvas.Rectangle).FillColor = theme.Color(theme.ColorNameSeparator)
	}
}

func (v *view) place() {
	g := &v.geo
	if !g.valid {
		return
	}
	v.body.Objects[0].Resize(fyne.NewSize(g.width, g.height))
	if v.rows > 0 {
		v.body.Objects[1].Resize(fyne.NewSize(g.width, g.rowH[0]))
	}
	sep := theme.SeparatorThicknessSize()
	for i, s := range v.separators() {
		s.Move(fyne.NewPos(0, g.rowY[i]+g.rowH[i]))
		s.Resize(fyne.NewSize(g.width, sep))
	}
	for i, c := range v.cells {
		row, col := i/v.cols, i%v.cols
		c.Move(fyne.NewPos(g.colX[col], g.rowY[row]))
		c.Resize(fyne.NewSize(g.colW[col], g.rowH[row]))
	}
}

// longestWord is the width of a cell's longest unbreakable run; Han and kana
// characters each count alone.
func longestWord(segs []widget.RichTextSegment) (widest float32) {
	visit(segs, func(s *widget.RichTextSegment) {
		switch t := (*s).(type) {
		case *widget.TextSegment:
			size := theme.Size(t.Style.SizeName)
			if t.Style.SizeName == "" {
				size = theme.TextSize()
			}
			for _, w := range words(t.Text) {
				widest = max(widest, fyne.MeasureText(w, size, t.Style.TextStyle).Width)
			}
		case *widget.HyperlinkSegment:
			// A link is drawn on one line, never broken.
			widest = max(widest, fyne.MeasureText(t.Text, theme.TextSize(), fyne.TextStyle{}).Width)
		}
	})
	return widest
}

// words cuts s where a line may break: spaces, and around Han or kana.
func words(s string) []string {
	var out []string
	start := -1
	for i, r := range s {
		switch {
		case unicode.IsSpace(r):
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana):
			if start >= 0 {
				out = append(out, s[start:i])
			}
			out = append(out, string(r))
			start = -1
		default:
			if start < 0 {
				start = i
			}
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// elide shortens a link's words to width with "…": a link is drawn on one
// line and would overrun the next column. It still opens the whole address.
func elide(words string, width float32) string {
	size := theme.TextSize()
	if fyne.MeasureText(words, size, fyne.TextStyle{}).Width <= width {
		return words
	}
	runes := []rune(words)
	// The longest prefix that fits before "…", the whole words excepted.
	lo := sort.Search(len(runes)-1, func(n int) bool {
		return fyne.MeasureText(string(runes[:n+1])+"…", size, fyne.TextStyle{}).Width > width
	})
	return string(runes[:lo]) + "…"
}
