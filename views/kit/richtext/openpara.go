package richtext

import (
	"sort"
	"strings"
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
}

func newOpenPara() *openPara {
	p := &openPara{tail: widget.NewRichText()}
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
// their own, cutting where RichText's word wrap would (lineEnd).
func (p *openPara) settle() bool {
	maxWidth := p.width - 2*p.pad
	if p.width <= 0 || maxWidth <= 0 {
		return false
	}
	rest := []rune(p.text[p.settled:])
	fits := func(end int) bool {
		return fyne.MeasureText(string(rest[:end]), p.textSize, fyne.TextStyle{}).Width <= maxWidth
	}
	// Streaming, the tail is a line or two: one measure tells it is one line.
	if len(rest) == 0 || fits(len(rest)) {
		return false
	}
	added := false
	for len(rest) > 0 {
		space, whole := lineEnd(rest, fits)
		if whole {
			break
		}
		if space < 1 || !fits(space) {
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

// lineEnd is where RichText would end rest's first line: at the last space
// the line fits up to, or inside a first word too long; whole when all of
// rest fits. It gallops over the spaces, so each line of a long paragraph
// costs a few measures of about its own length.
func lineEnd(rest []rune, fits func(end int) bool) (end int, whole bool) {
	var ends []int // the spaces (not at 0), then the end of rest
	for i, r := range rest {
		if i > 0 && unicode.IsSpace(r) {
			ends = append(ends, i)
		}
	}
	ends = append(ends, len(rest))
	if !fits(ends[0]) {
		// RichText breaks the first word where the line is full, or after a
		// space leading it.
		if unicode.IsSpace(rest[0]) {
			return 1, false
		}
		full := sort.Search(min(ends[0], len(rest)-1), func(n int) bool { return !fits(n + 1) })
		return max(full, 1), false
	}
	lo, step := 0, 1 // ends[lo] fits
	for lo+step < len(ends) && fits(ends[lo+step]) {
		lo += step
		step *= 2
	}
	hi := min(lo+step, len(ends)) // ends[hi] does not fit, or is past the last
	for hi-lo > 1 {
		if mid := (lo + hi) / 2; fits(ends[mid]) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return ends[lo], lo == len(ends)-1
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
