package richtext

import (
	"sort"
	"strings"
	"sync"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// openPara shows the open block while it is a plain paragraph, most of a
// streamed reply. RichText rewraps a paragraph from its start on every
// refresh, so cost grows with length; but greedy wrapping means a line the
// text has run past cannot change. Those settled lines get one-line RichTexts
// (measured once) and only the last line or two rewrap. Pieces overlap their
// padding so it looks exactly like one RichText.
type openPara struct {
	widget.BaseWidget

	text    string // the paragraph's text as parsed
	settled int    // bytes of text held in lines
	lines   []*widget.RichText
	tail    *widget.RichText

	width, textSize, pad float32
	words                *wordWidths // widths of words, for guessing where lines end
}

// wordWidths caches word widths at one text size, shared by all paragraphs;
// locked because paragraphs are built off the UI goroutine.
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

// plainParagraph returns the text of segs if it is one plain one-line paragraph.
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

// parseOnly parses without wrapping (an unsized RichText skips measuring).
// Links and pictures follow the server-text rules (kit.Markdown).
func parseOnly(text string) []widget.RichTextSegment {
	segs, _ := Parse(text)
	return segs
}

func paraSegments(text string) []widget.RichTextSegment {
	return []widget.RichTextSegment{
		&widget.TextSegment{Style: widget.RichTextStyleInline, Text: text},
		&widget.TextSegment{Style: widget.RichTextStyleParagraph},
	}
}

func (p *openPara) metrics() (textSize, pad float32) {
	return theme.SizeForWidget(theme.SizeNameText, p.tail), p.tail.Theme().Size(theme.SizeNameInnerPadding)
}

func (p *openPara) set(text string, width float32) {
	// Lines are cut by letters: invalid bytes count as one.
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

// settle moves the tail's lines that can no longer change into lines of
// their own, cutting where RichText's word wrap would. The cut is found from
// remembered word widths, measuring a prefix whole only when the sum is
// within estMargin of the width or holds non-plainRune letters.
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
		if e.whole >= 0 && e.decide(e.whole, maxWidth, func() bool { return fits(0, len(rest)) }) {
			break // the rest is one line
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

// estMargin: summed word widths closer than this to the width are measured.
const estMargin = 2

// widths are summed word widths of prefixes ending at spaces, up to the width.
type widths struct {
	spaces []int     // indexes of the spaces (not at 0)
	at     []float32 // width of text[:spaces[i]]
	whole  float32   // width of the whole text; -1 when past the width
	// exact: non-plainRune letters make sums a guess; measure every answer.
	exact bool
}

// plainRune is a letter as wide alone as in a line, from our own font. Not a
// tab, nor a combining mark; other fonts may change the widths of spaces.
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
		// Past the width no later prefix fits, unless sums are a guess.
		if w > maxWidth+estMargin && !e.exact {
			e.whole = -1
			return e
		}
	}
	e.whole = w + p.wordWidth(string(rest[start:]))
	return e
}

// decide reports est <= maxWidth, measuring only when sums are a guess or
// too close to tell.
func (e widths) decide(est, maxWidth float32, exact func() bool) bool {
	switch {
	case e.exact:
	case est <= maxWidth-estMargin:
		return true
	case est > maxWidth+estMargin:
		return false
	}
	return exact()
}

func (e widths) fitsTo(end int, maxWidth float32, exact func() bool) bool {
	for i, sp := range e.spaces {
		if sp == end {
			return e.decide(e.at[i], maxWidth, exact)
		}
	}
	return exact()
}

// cut is where RichText would end rest's first line.
func (p *openPara) cut(rest []rune, e widths, maxWidth float32, fits func(int, int) bool) int {
	fitsAt := func(k int) bool { return e.decide(e.at[k], maxWidth, func() bool { return fits(0, e.spaces[k]) }) }
	if len(e.spaces) == 0 || !fitsAt(0) {
		n := sort.Search(len(rest)-1, func(n int) bool { return !fits(0, n+1) }) // the most that fits
		space := fallbackSpace(rest, n)
		if space == 0 {
			space = 1
		}
		return space
	}
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

// fallbackSpace is RichText's findSpaceIndex.
func fallbackSpace(text []rune, fallback int) int {
	for i := fallback; i >= 0; i-- {
		if unicode.IsSpace(text[i]) {
			return i
		}
	}
	return fallback
}

func (p *openPara) CreateRenderer() fyne.WidgetRenderer { return &openParaRenderer{p: p} }

type openParaRenderer struct{ p *openPara }

func (r *openParaRenderer) Objects() []fyne.CanvasObject {
	objs := make([]fyne.CanvasObject, 0, len(r.p.lines)+1)
	for _, l := range r.p.lines {
		objs = append(objs, l)
	}
	return append(objs, r.p.tail)
}

// Layout overlaps each piece's inner padding with the next's, so rows land
// where one RichText would put them.
func (r *openParaRenderer) Layout(s fyne.Size) {
	p := r.p
	if s.Width != p.width && s.Width > 0 {
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
		// Not laid out yet: measuring now on one line would be wasted.
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
