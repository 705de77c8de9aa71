package chat

import (
	"strings"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
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
}

func newOpenPara() *openPara {
	p := &openPara{tail: widget.NewRichText()}
	p.tail.Wrapping = fyne.TextWrapWord
	p.ExtendBaseWidget(p)
	return p
}

// plainParagraph reports whether segs is one unstyled paragraph on one
// source line, the only shape openPara handles, and returns its text.
func plainParagraph(segs []widget.RichTextSegment) (string, bool) {
	if len(segs) != 1 {
		return "", false
	}
	t, ok := segs[0].(*widget.TextSegment)
	if !ok || t.Style != widget.RichTextStyleParagraph || strings.ContainsRune(t.Text, '\n') {
		return "", false
	}
	return t.Text, true
}

// parseOnly parses markdown into segments without wrapping them: a RichText
// that was never given a size skips measuring.
func parseOnly(text string) []widget.RichTextSegment {
	return widget.NewRichTextFromMarkdown(text).Segments
}

func paraSegment(text string) *widget.TextSegment {
	return &widget.TextSegment{Style: widget.RichTextStyleParagraph, Text: text}
}

// metrics are the sizes the tail's wrapping uses now.
func (p *openPara) metrics() (textSize, pad float32) {
	return theme.SizeForWidget(theme.SizeNameText, p.tail), p.tail.Theme().Size(theme.SizeNameInnerPadding)
}

// set shows text (the paragraph so far) at the given width.
func (p *openPara) set(text string, width float32) {
	textSize, pad := p.metrics()
	if !strings.HasPrefix(text, p.text[:p.settled]) || width != p.width || textSize != p.textSize || pad != p.pad {
		p.unsettle()
	}
	p.text = text
	p.width, p.textSize, p.pad = width, textSize, pad
	added := p.settle()
	p.tail.Segments = []widget.RichTextSegment{paraSegment(text[p.settled:])}
	p.tail.Refresh()
	if added {
		p.arrange(p.Size())
		canvas.Refresh(p)
	}
}

// unsettle gives every settled line back to the tail.
func (p *openPara) unsettle() {
	if len(p.lines) == 0 {
		p.settled = 0
		return
	}
	p.lines, p.settled = nil, 0
	p.tail.Segments = []widget.RichTextSegment{paraSegment(p.text)}
	p.tail.Refresh()
	p.Refresh()
}

// settle moves the lines of the tail that can no longer change into lines
// of their own. It follows RichText's word wrapping (lineBounds with
// TextWrapWord): a line is the longest prefix that fits (found by the same
// binary search), cut back to its last space, and the space after the cut
// is skipped.
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
	low := 0
	for low < len(rest) {
		sub := rest[low:]
		if fits(low, len(rest)) {
			break // the last line: more text may still join it
		}
		fallback := searchFit(fits, low, len(rest)-1) - low
		if fallback < 1 || fallback >= len(sub)-2 {
			break // a line the next characters could still change
		}
		space := fallbackSpace(sub, fallback)
		if space == 0 {
			space = 1
		}
		high := low + space
		if !fits(low, high) {
			break // not how RichText would cut it: leave it to the tail
		}
		line := widget.NewRichText(paraSegment(string(rest[low:high])))
		line.Wrapping = fyne.TextWrapWord
		p.lines = append(p.lines, line)
		added = true
		low = high
		if low < len(rest) && unicode.IsSpace(rest[low]) {
			low++
		}
		p.settled += len(string(rest[:low]))
		rest = rest[low:]
		low = 0
	}
	return added
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
	if len(p.lines) > 0 && s.Width != p.width {
		p.unsettle()
		return // unsettle refreshed and laid out again
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
		p.tail.Segments = []widget.RichTextSegment{paraSegment(p.text)}
	}
	for _, l := range p.lines {
		l.Refresh()
	}
	p.tail.Refresh()
	r.Layout(p.Size())
}

func (r *openParaRenderer) Destroy() {}
