package chat

import (
	"strings"
	"sync"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/views/kit"
)

// openPara shows the open block while it is a plain paragraph (one run of
// unstyled text), which is what most of a streamed reply is made of.
//
// Fyne's RichText wraps a paragraph from its first character on every
// refresh, and each wrapped line costs a binary search of text measurements
// over everything after it; with the paragraph growing every frame none of
// those measurements are cached, so the open paragraph costs more per frame
// the longer it gets. But word wrapping is greedy: once text runs past the
// end of a wrapped line, that line can no longer change. openPara keeps such
// settled lines in one-line RichTexts of their own (measured once) and
// re-wraps only the unsettled rest, which is at most a line or two long.
//
// It looks the same as one RichText of the whole paragraph: the pieces are
// stacked so that their rows land exactly where that RichText would put
// them (each piece's inner padding overlaps the next one's), and the line
// breaks are computed with the same algorithm and measurements as
// RichText's word wrapping. When the width or the text metrics change the
// settled lines are given back to the tail, which wraps them afresh.
type openPara struct {
	widget.BaseWidget

	text    string // the paragraph's text as parsed
	settled int    // bytes of text held in lines
	lines   []*widget.RichText
	tail    *widget.RichText

	// what the settled lines were measured with
	width, textSize, pad float32
	words                *wordWidths // widths of words, for guessing where lines end
}

// wordWidths are widths of words at one text size, shared by every
// paragraph (the same words come back in every reply, and a conversation
// opened again finds them measured); a new size forgets them, and so does
// reaching wordWidthsMax. Paragraphs are laid out on the UI goroutine and
// built on others, hence the lock.
type wordWidths struct {
	mu   sync.Mutex
	size float32
	w    map[string]float32
}

const wordWidthsMax = 1 << 14

var sharedWords wordWidths

func newOpenPara() *openPara {
	p := &openPara{tail: widget.NewRichText(), words: &sharedWords}
	p.tail.Wrapping = fyne.TextWrapWord
	p.ExtendBaseWidget(p)
	return p
}

// plainParagraph reports whether segs is one unstyled paragraph on one
// source line, the only shape openPara handles, and returns its text. Fyne
// parses such a paragraph into an inline run of text closed by an empty
// paragraph segment.
func plainParagraph(segs []widget.RichTextSegment) (string, bool) {
	if len(segs) != 2 {
		return "", false
	}
	t, ok := segs[0].(*widget.TextSegment)
	end, ok2 := segs[1].(*widget.TextSegment)
	if !ok || !ok2 || t.Style != widget.RichTextStyleInline || end.Style != widget.RichTextStyleParagraph || end.Text != "" ||
		strings.ContainsRune(t.Text, '\n') {
		return "", false
	}
	return t.Text, true
}

// parseOnly parses markdown into segments without wrapping them: a RichText
// that was never given a size skips measuring. Links and pictures follow the
// rules for server text (kit.Markdown); pictures in a block still being
// written are not loaded.
func parseOnly(text string) []widget.RichTextSegment {
	segs, _ := kit.Markdown(text)
	return segs
}

// paraSegments are the segments of a plain paragraph of text, as Fyne's
// markdown parser makes them.
func paraSegments(text string) []widget.RichTextSegment {
	return []widget.RichTextSegment{
		&widget.TextSegment{Style: widget.RichTextStyleInline, Text: text},
		&widget.TextSegment{Style: widget.RichTextStyleParagraph},
	}
}

// metrics are the sizes the tail's wrapping uses now.
func (p *openPara) metrics() (textSize, pad float32) {
	return theme.SizeForWidget(theme.SizeNameText, p.tail), p.tail.Theme().Size(theme.SizeNameInnerPadding)
}

// set shows text (the paragraph so far) at the given width.
func (p *openPara) set(text string, width float32) {
	// lines are cut by letters: bytes that are no letter count as one
	text = strings.ToValidUTF8(text, "\uFFFD")
	textSize, pad := p.metrics()
	changed := false
	if !strings.HasPrefix(text, p.text[:p.settled]) || width != p.width || textSize != p.textSize || pad != p.pad {
		changed = len(p.lines) > 0
		p.lines, p.settled = nil, 0
	}
	p.text = text
	p.width, p.textSize, p.pad = width, textSize, pad
	if p.settle() {
		changed = true
	}
	p.tail.Segments = paraSegments(text[p.settled:])
	p.tail.Refresh()
	if changed && p.Size().Width > 0 {
		p.arrange(p.Size())
		canvas.Refresh(p)
	}
}

// settle moves the lines of the tail that can no longer change into lines
// of their own. It gives the lines RichText's word wrapping (lineBounds
// with TextWrapWord) gives: a line is the longest prefix that fits (n
// characters), cut back to the last space at or before n, and the space
// after the cut is skipped. As text widths grow with length, that cut is
// the last space whose prefix fits, and once the whole rest is too wide it
// cannot change. Rather than RichText's binary search over the whole rest,
// the cut is found from the widths of the words (remembered): a prefix is
// the sum of its words, spaces included, to within a fraction of a pixel,
// so a prefix is measured whole only when that sum is within estMargin of
// the width, or when it holds letters whose width may change beside their
// neighbours (plainRune). A finished reply is laid out with about one
// measurement of a new string a line instead of four.
func (p *openPara) settle() bool {
	maxWidth := p.width - 2*p.pad
	if p.width <= 0 || maxWidth <= 0 {
		return false
	}
	style := fyne.TextStyle{}
	rest := []rune(p.text[p.settled:])
	fits := func(low, high int) bool {
		return fyne.MeasureText(string(rest[low:high]), p.textSize, style).Width <= maxWidth
	}
	added := false
	for len(rest) > 0 {
		e := p.estimate(rest, maxWidth)
		if !e.tooWide(maxWidth, func() bool { return !fits(0, len(rest)) }) {
			break
		}
		space := p.cut(rest, e, maxWidth, fits)
		if space < 1 || !e.fitsTo(space, maxWidth, func() bool { return fits(0, space) }) {
			break // not a plain word wrap: leave it to the tail
		}
		line := widget.NewRichText(paraSegments(string(rest[:space]))...)
		line.Wrapping = fyne.TextWrapWord
		p.lines = append(p.lines, line)
		added = true
		low := space
		if unicode.IsSpace(rest[low]) {
			low++
		}
		p.settled += len(string(rest[:low]))
		rest = rest[low:]
	}
	return added
}

// estMargin is how far from the width a prefix's summed word widths must
// be to be taken without measuring it whole (rounding, and kerning across
// a space, move it by far less).
const estMargin = 2

// widths are the summed word widths of the prefixes of a text that end at
// its spaces, up to the first past the width (and the whole text's, if no
// prefix is, or the sums are only a guess).
type widths struct {
	spaces []int     // indexes of the spaces (not at 0)
	at     []float32 // width of text[:spaces[i]]
	whole  float32   // width of the whole text; -1 when past the width
	// exact: the text holds letters that are not plainRune, and sums are
	// only a guess: every answer is measured.
	exact bool
}

// plainRune is a letter whose width is the same alone as in a line: one
// of the Latin, Greek and Cyrillic letters, digits, punctuation and
// currency signs Agent Desk's own font has. Not a tab (its width depends on
// where it starts), nor a combining mark; letters from other fonts (Arabic,
// Hebrew, Armenian, Chinese, emoji…) may make the spaces beside them take
// those fonts' widths.
func plainRune(r rune) bool {
	switch {
	case r >= 0x20 && r <= 0x7E, r >= 0xA0 && r <= 0x24F: // Latin
		return true
	case r >= 0x370 && r <= 0x4FF: // Greek, Cyrillic
		return true
	case r >= 0x2000 && r <= 0x20CF: // spaces, dashes, quotes, currency
		return true
	}
	return false
}

// estimate sums the widths of rest's words (each with the space before it)
// until past maxWidth+estMargin, or to the end when they are a guess.
func (p *openPara) estimate(rest []rune, maxWidth float32) widths {
	var e widths
	start := 0
	w := float32(0)
	for i, r := range rest {
		if !plainRune(r) {
			e.exact = true
		}
		if i == 0 || !unicode.IsSpace(r) {
			continue
		}
		w += p.wordWidth(string(rest[start:i]))
		e.spaces, e.at = append(e.spaces, i), append(e.at, w)
		start = i
		// past the width, no later prefix fits: unless the sums are only
		// a guess (a tab's alone is wider than in a line)
		if w > maxWidth+estMargin && !e.exact {
			e.whole = -1
			return e
		}
	}
	e.whole = w + p.wordWidth(string(rest[start:]))
	return e
}

// decide answers whether a width estimated as est is at most maxWidth
// (decide), unless the estimate is only a guess.
func (e widths) decide(est, maxWidth float32, exact func() bool) bool {
	if e.exact {
		return exact()
	}
	return decide(est, maxWidth, exact)
}

// decide answers whether a width estimated as est is at most maxWidth,
// measuring (exact) only when est is too close to tell.
func decide(est, maxWidth float32, exact func() bool) bool {
	switch {
	case est <= maxWidth-estMargin:
		return true
	case est > maxWidth+estMargin:
		return false
	}
	return exact()
}

// tooWide reports that the whole text is wider than maxWidth.
func (e widths) tooWide(maxWidth float32, exact func() bool) bool {
	if e.whole < 0 {
		return true
	}
	return !e.decide(e.whole, maxWidth, func() bool { return !exact() })
}

// fitsTo reports that text[:end] fits maxWidth, end being one of the spaces
// estimated (else it is measured).
func (e widths) fitsTo(end int, maxWidth float32, exact func() bool) bool {
	for i, sp := range e.spaces {
		if sp == end {
			return e.decide(e.at[i], maxWidth, exact)
		}
	}
	return exact()
}

// cut is where RichText would end the first line of rest, which is too
// wide for one line: the index of the last space whose prefix fits. Without
// a usable space it does what RichText does (binary search, break in the
// word).
func (p *openPara) cut(rest []rune, e widths, maxWidth float32, fits func(int, int) bool) int {
	fitsAt := func(k int) bool { return e.decide(e.at[k], maxWidth, func() bool { return fits(0, e.spaces[k]) }) }
	if len(e.spaces) == 0 || !fitsAt(0) {
		n := searchFit(fits, 0, len(rest)-1)
		space := fallbackSpace(rest, n)
		if space == 0 {
			space = 1
		}
		return space
	}
	// The sums grow with every word: the last space whose sum fits, then
	// checked where the sums are too close to tell. The sums stop at the
	// first past the width (which does not fit).
	k := 0
	for k+1 < len(e.at) && e.at[k+1] <= maxWidth {
		k++
	}
	for k > 0 && !fitsAt(k) {
		k--
	}
	for k+1 < len(e.at) && fitsAt(k+1) {
		k++
	}
	return e.spaces[k]
}

// wordWidth is the width of a word (with the space before it), remembered.
func (p *openPara) wordWidth(word string) float32 {
	ww := p.words
	ww.mu.Lock()
	defer ww.mu.Unlock()
	if ww.w == nil || ww.size != p.textSize || len(ww.w) >= wordWidthsMax {
		ww.w, ww.size = map[string]float32{}, p.textSize
	}
	w, ok := ww.w[word]
	if !ok {
		w = fyne.MeasureText(word, p.textSize, fyne.TextStyle{}).Width
		ww.w[word] = w
	}
	return w
}

// searchFit is RichText's binarySearch: the largest high in [low, maxHigh]
// for which fits(low, high), given that fits(low, low) holds.
func searchFit(fits func(int, int) bool, low, maxHigh int) int {
	if low >= maxHigh {
		return low
	}
	if fits(low, maxHigh) {
		return maxHigh
	}
	high := low
	delta := maxHigh - low
	for delta > 0 {
		delta /= 2
		if fits(low, high+delta) {
			high += delta
		}
	}
	for high < maxHigh && fits(low, high+1) {
		high++
	}
	return high
}

// fallbackSpace is RichText's findSpaceIndex: the last space at or before
// fallback, or fallback if there is none.
func fallbackSpace(text []rune, fallback int) int {
	for i := fallback; i >= 0; i-- {
		if unicode.IsSpace(text[i]) {
			return i
		}
	}
	return fallback
}

// CreateRenderer implements fyne.Widget.
func (p *openPara) CreateRenderer() fyne.WidgetRenderer { return &openParaRenderer{p: p} }

type openParaRenderer struct{ p *openPara }

func (r *openParaRenderer) Objects() []fyne.CanvasObject {
	objs := make([]fyne.CanvasObject, 0, len(r.p.lines)+1)
	for _, l := range r.p.lines {
		objs = append(objs, l)
	}
	return append(objs, r.p.tail)
}

// Layout stacks the pieces so that each one's first row sits where the
// row would be in one RichText: the inner padding below a piece and above
// the next overlap.
func (r *openParaRenderer) Layout(s fyne.Size) {
	p := r.p
	if s.Width != p.width && s.Width > 0 {
		// wrapped afresh at the new width, line by line from word widths:
		// one RichText of a long paragraph measures all that follows each
		// line break, again at every width
		p.set(p.text, s.Width)
	}
	p.arrange(s)
}

func (p *openPara) arrange(s fyne.Size) {
	_, pad := p.metrics()
	y := float32(0)
	for _, l := range p.lines {
		h := l.MinSize().Height
		l.Move(fyne.NewPos(0, y))
		l.Resize(fyne.NewSize(s.Width, h))
		y += h - 2*pad
	}
	p.tail.Move(fyne.NewPos(0, y))
	p.tail.Resize(fyne.NewSize(s.Width, max(s.Height-y, p.tail.MinSize().Height)))
}

func (r *openParaRenderer) MinSize() fyne.Size {
	p := r.p
	if p.width <= 0 && len(p.lines) == 0 {
		// not laid out yet: its height comes once it has a width; measuring
		// the whole paragraph on one line now would be wasted
		textSize, pad := p.metrics()
		return fyne.NewSize(0, fyne.MeasureText("M", textSize, fyne.TextStyle{}).Height+2*pad)
	}
	_, pad := p.metrics()
	min := p.tail.MinSize()
	for _, l := range p.lines {
		m := l.MinSize()
		min.Width = max(min.Width, m.Width)
		min.Height += m.Height - 2*pad
	}
	return min
}

func (r *openParaRenderer) Refresh() {
	p := r.p
	if textSize, pad := p.metrics(); len(p.lines) > 0 && (textSize != p.textSize || pad != p.pad) {
		p.lines, p.settled = nil, 0
		p.tail.Segments = paraSegments(p.text)
	}
	for _, l := range p.lines {
		l.Refresh()
	}
	p.tail.Refresh()
	r.Layout(p.Size())
}

func (r *openParaRenderer) Destroy() {}
