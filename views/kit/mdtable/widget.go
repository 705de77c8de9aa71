package mdtable

import (
	"math"
	"strings"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/views/kit"
)

// sideways wraps a table wider than the room it is given, so that the user
// can move it sideways while the chat scrolls it up and down with the rest
// of the reply. It is the one place the scroller is made.
func sideways(table fyne.CanvasObject, outer func(*fyne.ScrollEvent)) *kit.Scroller {
	return kit.NewSideways(table, outer)
}

// Column widths are bounded in characters of the body text ("n" wide), so
// that they follow the text size of the theme.
const (
	// wordChars is the most a column needs for its longest word: a longer
	// token (a hash, a path) is broken inside, as RichText does with a
	// word that does not fit its line, rather than widening its column.
	wordChars = 24
	// lineChars is the most a column asks for when there is room to spare:
	// longer text wraps at a width that still reads as a line.
	lineChars = 72
)

// New builds the widget showing t: its columns as wide as their content
// needs in the room the widget is given (see view), its header bold, its
// cells aligned as the delimiter row says. Every cell is inline Markdown
// shown by kit.NewMarkdownText; the pictures the cells name are returned
// in reading order, not loaded.
func New(t Table) (fyne.CanvasObject, []*kit.Picture) {
	v := &view{cols: len(t.Header)}
	var pics []*kit.Picture
	add := func(src string, header bool) {
		col := len(v.cells) % max(v.cols, 1)
		r, p := kit.NewMarkdownText(inline(src))
		r.Segments = dropParagraphEnd(r.Segments)
		align := AlignNone
		if col < len(t.Align) {
			align = t.Align[col]
		}
		v.style(r.Segments, header, textAlign(align))
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
	v.ExtendBaseWidget(v)
	return v, pics
}

// dropParagraphEnd takes away the empty segment that closes a cell's
// paragraph. A cell is one paragraph, and RichText aligns a row of more
// than one segment short of the right edge by its padding: without it a
// cell of one run of text sits flush with its column's padding.
func dropParagraphEnd(segs []widget.RichTextSegment) []widget.RichTextSegment {
	if n := len(segs); n > 1 {
		if t, ok := segs[n-1].(*widget.TextSegment); ok && t.Text == "" && !t.Inline() {
			return segs[:n-1]
		}
	}
	return segs
}

// zwsp is a zero-width space, which opens each run of text after another
// in a cell (flowRuns).
//
// RichText (as of Fyne 2.7) wraps its segments one after another, each
// starting where the last ended. When what is left of a line is narrower
// than the first character of the next run of text, that character stays
// on the line, past its end, and every later character of the run gets a
// line of its own: a cell of a few formatted words could be drawn one
// letter a line at some widths. The same happens to the text after a link
// drawn past the end of a line (RichText never wraps before a link).
//
// A zero-width space opening each run of text after another is narrow
// enough to fit whatever is left, so RichText moves the run to the next
// line when it does not fit, as it should. A link in a cell that wraps is
// put at the start of a line (breakBeforeLinks): there it fits, as the
// column is at least as wide as the cell's longest word or link.
const zwsp = "\u200b"

// flowRuns opens each run of text that follows another segment in segs
// with a zero-width space (see above).
func flowRuns(segs []widget.RichTextSegment) {
	for i, s := range segs {
		if t, ok := s.(*widget.TextSegment); ok && i > 0 && segs[i-1].Inline() && t.Inline() && t.Text != "" {
			t.Text = zwsp + t.Text
		}
	}
}

// rowEnd draws nothing and ends the row, without the space a paragraph
// puts after it.
func rowEnd() widget.RichTextSegment {
	return &widget.ParagraphSegment{Texts: []widget.RichTextSegment{&widget.ParagraphSegment{}}}
}

// breakBeforeLinks is segs with each link that follows other words put at
// the start of a line, for a cell that wraps; ok is false when no link
// follows words.
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

// linkedCell is a cell with a link after words: its segments as written
// (flow) and with its links at the start of lines (broken).
type linkedCell struct {
	cell         int
	flow, broken []widget.RichTextSegment
	natural      float32 // the cell's width on one line
	wraps        bool    // the cell is shown broken
}

// textAlign is the paragraph alignment of a column's cells. A column
// without one reads from the start, as text does.
func textAlign(a Align) fyne.TextAlign {
	switch a {
	case AlignCenter:
		return fyne.TextAlignCenter
	case AlignRight:
		return fyne.TextAlignTrailing
	}
	return fyne.TextAlignLeading
}

// style makes a header cell bold and aligns a cell's paragraph; it notes
// the links, whose words may have to be shortened (see measure).
func (v *view) style(segs []widget.RichTextSegment, bold bool, align fyne.TextAlign) {
	for _, s := range segs {
		switch t := s.(type) {
		case *widget.TextSegment:
			t.Style.Alignment = align
			if bold {
				t.Style.TextStyle.Bold = true
			}
		case *widget.HyperlinkSegment:
			t.Alignment = align
			v.links = append(v.links, link{t, t.Text})
		case *widget.ParagraphSegment:
			v.style(t.Texts, bold, align)
		case *widget.ListSegment:
			v.style(t.Items, bold, align)
		}
	}
}

// inline makes a cell's Markdown read as inline text, as GitHub reads a
// cell: kit.NewMarkdownText reads blocks, so a cell starting with what
// would start a heading, a quote, a list, a rule, a fence or a link
// definition has that mark escaped, and shows it as written.
func inline(s string) string {
	if s == "" {
		return s
	}
	esc := 0 // where the backslash goes, -1 for nowhere
	switch c := s[0]; {
	case c == '#', c == '>':
	case c == '-' || c == '*' || c == '+' || c == '_' || c == '`' || c == '~':
		if !startsBlock(s) {
			esc = -1
		}
	case c >= '0' && c <= '9':
		if !startsBlock(s) {
			esc = -1
		} else {
			esc = len(s) - len(strings.TrimLeft(s, "0123456789"))
		}
	case c == '[':
		if i := strings.IndexByte(s, ']'); i < 2 || i+1 >= len(s) || s[i+1] != ':' {
			esc = -1
		}
	default:
		esc = -1
	}
	if esc < 0 {
		return s
	}
	return s[:esc] + `\` + s[esc:]
}

// link is a link in a cell and its words as written.
type link struct {
	seg   *widget.HyperlinkSegment
	words string
}

// view is a table laid out for the width it is given, in the manner of a
// browser's automatic table layout:
//
//   - each column has a natural width (its widest cell on one line, up to
//     lineChars) and a minimum (its longest word, up to wordChars);
//   - when the natural widths fit, columns get them, and the table is no
//     wider than it needs;
//   - else when the minimums fit, each column gets its minimum and a share
//     of the room left in proportion to how much more it would take;
//   - else columns get their minimum, and the table, wider than the room,
//     is shown in a sideways scroller (see sideways).
//
// Cells wrap at word boundaries; each row is as tall as its tallest cell.
// Like a wrapped RichText, the view's minimum height is its height at the
// width it was last given, and its minimum width is small, so that the
// chat, not the table, decides how wide it is. Measurements are kept until
// the width or the content changes: laying out again at the same width
// costs next to nothing, whatever the size of the table.
type view struct {
	widget.BaseWidget

	cols, rows int
	cells      []*widget.RichText // row by row, the header first
	links      []link
	linked     []linkedCell
	pictured   []int // the cells that show pictures, whose size may change

	// measured: natural and minimum widths, per column; lineH, the height
	// of each row with every cell on one line, which is the view's height
	// until it is given a width.
	measured         bool
	natural, minimum []float32
	lineH            []float32

	geo   geometry
	body  *body
	side  *kit.Scroller // the sideways scroller, once one is needed
	outer func(*fyne.ScrollEvent)
}

// SetOuter passes the up-or-down wheel movement over a table that scrolls
// sideways to f (the scroll area the table is in).
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

// CreateRenderer implements fyne.Widget.
func (v *view) CreateRenderer() fyne.WidgetRenderer {
	return &viewRenderer{v: v}
}

// measure finds each column's natural and minimum width and each row's
// height on one line. It runs when the table is built and after a
// refresh (the theme may have changed the text size).
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
	// The first time, a cell's MinSize makes its renderer from what it
	// is now; later, a cell has to be told that it changed.
	again := v.natural != nil
	v.natural = make([]float32, v.cols)
	v.minimum = make([]float32, v.cols)
	v.lineH = make([]float32, v.rows)
	nats := make([]float32, len(v.cells))
	for i, c := range v.cells {
		row, col := i/v.cols, i%v.cols
		// Measured on one line: RichText reports its width only when it
		// does not wrap.
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
		if showsLoadedPicture(c.Segments) {
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

// ensure makes the geometry that of width avail, measuring what is not
// measured yet.
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

// picturesChanged reports whether a cell's picture was loaded (or failed)
// since the table was laid out: the cell's height at its width changed.
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

// arrange lays the table out for width avail: column widths, then each
// row's height with its cells wrapped at those widths.
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
			// Measured at the height it has (or one line's): a RichText
			// lays its rows out again on every change of size, and most
			// cells keep their height.
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
	v.body.place()
	for k, i := range v.pictured {
		v.geo.pictureH[k] = v.cells[i].MinSize().Height
	}
}

// height is the view's height: the table's at the width last given, and
// room for the scroll bar under a table that scrolls sideways.
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

// viewRenderer shows the table itself when it fits, and the sideways
// scroller holding it when it does not.
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
		r.set(v.body)
		return
	}
	if v.side == nil {
		v.side = sideways(v.body, v.outer)
	}
	v.side.Move(fyne.Position{})
	v.side.Resize(fyne.NewSize(size.Width, v.height()))
	if r.shown != v.geo.gen || len(r.objects) == 0 || r.objects[0] != v.side {
		r.shown = v.geo.gen
		v.side.Refresh() // the table in it changed: its size, its place
	}
	r.set(v.side)
}

func (r *viewRenderer) set(o fyne.CanvasObject) {
	if len(r.objects) != 1 || r.objects[0] != o {
		r.objects = []fyne.CanvasObject{o}
	}
}

// MinSize is small in width, so that a table never widens the window, and
// the table's height at the width the view was last given.
func (r *viewRenderer) MinSize() fyne.Size {
	v := r.v
	if w := v.Size().Width; w > 0 {
		v.ensure(w)
	} else if !v.measured {
		v.measure()
	}
	return fyne.NewSize(2*theme.InnerPadding(), v.height())
}

// Refresh measures the table again (the theme or a picture may have
// changed its cells) and lays it out.
func (r *viewRenderer) Refresh() {
	r.v.measured = false
	r.v.body.Refresh()
	if s := r.v.Size(); s.Width > 0 {
		r.Layout(s)
	}
	canvas.Refresh(r.v)
}

func (r *viewRenderer) Objects() []fyne.CanvasObject {
	if len(r.objects) == 0 {
		return []fyne.CanvasObject{r.v.body}
	}
	return r.objects
}

func (r *viewRenderer) Destroy() {}

// body is the table itself: a tinted background, the header row on a
// stronger tint, a line between rows, and the cells. It is laid out by its
// view's geometry, whatever its own size (a scroller may make it larger).
type body struct {
	widget.BaseWidget
	v      *view
	bg     *canvas.Rectangle
	header *canvas.Rectangle
	seps   []*canvas.Rectangle
}

func newBody(v *view) *body {
	b := &body{v: v, bg: canvas.NewRectangle(nil), header: canvas.NewRectangle(nil)}
	for range max(v.rows-1, 0) {
		b.seps = append(b.seps, canvas.NewRectangle(nil))
	}
	b.colour()
	b.ExtendBaseWidget(b)
	return b
}

// colour takes the colours and corners from the theme.
func (b *body) colour() {
	radius := theme.Size(theme.SizeNameInputRadius)
	b.bg.FillColor = theme.Color(theme.ColorNameInputBackground)
	b.bg.CornerRadius = radius
	// The hover colour is a light veil: darker on a light theme, lighter
	// on a dark one, so the header stands out on either.
	b.header.FillColor = theme.Color(theme.ColorNameHover)
	b.header.TopLeftCornerRadius = radius
	b.header.TopRightCornerRadius = radius
	if b.v.rows <= 1 {
		b.header.BottomLeftCornerRadius = radius
		b.header.BottomRightCornerRadius = radius
	}
	for _, s := range b.seps {
		s.FillColor = theme.Color(theme.ColorNameSeparator)
	}
}

// place puts the parts where the view's geometry says.
func (b *body) place() {
	g := &b.v.geo
	if !g.valid {
		return
	}
	b.bg.Resize(fyne.NewSize(g.width, g.height))
	if b.v.rows > 0 {
		b.header.Resize(fyne.NewSize(g.width, g.rowH[0]))
	}
	sep := theme.SeparatorThicknessSize()
	for i, s := range b.seps {
		s.Move(fyne.NewPos(0, g.rowY[i]+g.rowH[i]))
		s.Resize(fyne.NewSize(g.width, sep))
	}
	for i, c := range b.v.cells {
		row, col := i/b.v.cols, i%b.v.cols
		c.Move(fyne.NewPos(g.colX[col], g.rowY[row]))
		c.Resize(fyne.NewSize(g.colW[col], g.rowH[row]))
	}
}

// MinSize is the table's size at the view's width.
func (b *body) MinSize() fyne.Size {
	return fyne.NewSize(b.v.geo.width, b.v.geo.height)
}

// CreateRenderer implements fyne.Widget.
func (b *body) CreateRenderer() fyne.WidgetRenderer {
	objs := []fyne.CanvasObject{b.bg, b.header}
	for _, s := range b.seps {
		objs = append(objs, s)
	}
	for _, c := range b.v.cells {
		objs = append(objs, c)
	}
	return &bodyRenderer{b: b, objects: objs}
}

type bodyRenderer struct {
	b       *body
	objects []fyne.CanvasObject
}

func (r *bodyRenderer) Layout(fyne.Size) { r.b.place() }

func (r *bodyRenderer) MinSize() fyne.Size { return r.b.MinSize() }

func (r *bodyRenderer) Refresh() {
	r.b.colour()
	r.b.place()
	for _, o := range r.objects[:2+len(r.b.seps)] {
		o.Refresh()
	}
}

func (r *bodyRenderer) Objects() []fyne.CanvasObject { return r.objects }

func (r *bodyRenderer) Destroy() {}

// longestWord is the width of the longest run of a cell's text that
// RichText will not break at a space. Between two Han or kana characters
// a line may break, so each counts alone.
func longestWord(segs []widget.RichTextSegment) float32 {
	var widest float32
	for _, s := range segs {
		switch t := s.(type) {
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
		case *widget.ParagraphSegment:
			widest = max(widest, longestWord(t.Texts))
		case *widget.ListSegment:
			widest = max(widest, longestWord(t.Items))
		}
	}
	return widest
}

// words cuts s where a line may break: at spaces, and around each Han or
// kana character.
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

// showsLoadedPicture reports whether segs hold a picture that is shown,
// which takes its own width.
func showsLoadedPicture(segs []widget.RichTextSegment) bool {
	for _, s := range segs {
		switch t := s.(type) {
		case *kit.Picture:
			if t.Loaded() {
				return true
			}
		case *widget.ParagraphSegment:
			if showsLoadedPicture(t.Texts) {
				return true
			}
		}
	}
	return false
}

// elide shortens a link's words to width, ending them with "…": a link is
// drawn on one line, and one longer than a column would be drawn over the
// next. It still opens the whole address.
func elide(words string, width float32) string {
	size := theme.TextSize()
	if fyne.MeasureText(words, size, fyne.TextStyle{}).Width <= width {
		return words
	}
	runes := []rune(words)
	lo, hi := 0, len(runes) // the longest prefix that fits is in [lo, hi)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if fyne.MeasureText(string(runes[:mid])+"…", size, fyne.TextStyle{}).Width <= width {
			lo = mid
		} else {
			hi = mid
		}
	}
	return string(runes[:lo]) + "…"
}
