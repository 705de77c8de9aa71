package kit

import (
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"

	"github.com/agentdesk/agentdesk/internal/safe"
)

// BidiLines shows server text with right-to-left words as Fyne cannot: it
// wraps or cuts in reading order first, then reorders each line (BidiVisual);
// Fyne would wrap the reordered string wrongly. wrap: as many lines as
// needed, else one cut with "…". For text without right-to-left letters
// use a widget.Label.
func BidiLines(text string, style fyne.TextStyle, size fyne.ThemeSizeName, wrap bool) fyne.CanvasObject {
	t := safe.Text(text, 0)
	c := &fyne.Container{}
	c.Layout = &bidiLayout{owner: c, text: t, rtl: BidiIsRTL(t), style: style, size: size, wrap: wrap, lines: 1,
		colour: theme.ColorNameForeground}
	return c
}

// bidiRLM makes a line's base direction right-to-left when put first.
const bidiRLM = '\u200F'

type bidiLayout struct {
	owner *fyne.Container
	text  string
	rtl   bool
	style fyne.TextStyle
	size  fyne.ThemeSizeName
	wrap  bool
	lines int // how many lines the last layout took
	// colour is the text's colour (a quieter second line of a row).
	colour fyne.ThemeColorName
}

// SetBidiLines shows text in a BidiLines made before (a reused row).
func SetBidiLines(o fyne.CanvasObject, text string) {
	c := o.(*fyne.Container)
	l := c.Layout.(*bidiLayout)
	t := safe.Text(text, 0)
	if t == l.text {
		return
	}
	l.text, l.rtl = t, BidiIsRTL(t)
	c.Refresh()
}

func (l *bidiLayout) textSize() float32 { return theme.Size(l.size) }

func (l *bidiLayout) lineHeight() float32 {
	return fyne.MeasureText("Ag", l.textSize(), l.style).Height
}

func (l *bidiLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	pad := theme.InnerPadding()
	ellipsis := fyne.MeasureText("…", l.textSize(), l.style).Width
	n := float32(max(l.lines, 1))
	return fyne.NewSize(ellipsis+2*pad, n*l.lineHeight()+(n-1)*theme.LineSpacing()+2*pad)
}

func (l *bidiLayout) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	pad := theme.InnerPadding()
	width := size.Width - 2*pad
	var lines []string
	if l.wrap {
		lines = l.wrapLines(width)
	} else {
		lines = []string{l.cut(width)}
	}
	l.lines = len(lines)
	// The container's objects are the lines' texts; reuse what is there.
	c := l.owner
	for len(c.Objects) < len(lines) {
		c.Objects = append(c.Objects, canvas.NewText("", theme.Color(l.colour)))
	}
	c.Objects = c.Objects[:len(lines)]
	mark := string(bidiLRM)
	if l.rtl {
		mark = string(bidiRLM)
	}
	y := pad
	for i, line := range lines {
		t := c.Objects[i].(*canvas.Text)
		t.Text = BidiVisual(mark + line)
		t.TextSize, t.TextStyle = l.textSize(), l.style
		t.Color = theme.Color(l.colour)
		t.Alignment = fyne.TextAlignLeading
		if l.rtl {
			t.Alignment = fyne.TextAlignTrailing
		}
		t.Move(fyne.NewPos(pad, y))
		t.Resize(fyne.NewSize(width, l.lineHeight()))
		t.Refresh()
		y += l.lineHeight() + theme.LineSpacing()
	}
}

func (l *bidiLayout) measure(s string) float32 {
	return fyne.MeasureText(s, l.textSize(), l.style).Width
}

// wrapLines breaks text in reading order into lines no wider than width.
func (l *bidiLayout) wrapLines(width float32) []string {
	var lines []string
	line := ""
	for _, word := range strings.SplitAfter(l.text, " ") {
		if line != "" && l.measure(strings.TrimRight(line+word, " ")) > width {
			lines = append(lines, strings.TrimRight(line, " "))
			line = ""
		}
		for line == "" && l.measure(strings.TrimRight(word, " ")) > width {
			n := l.fit(word, width, "")
			lines = append(lines, word[:n])
			word = word[n:]
		}
		line += word
	}
	if line = strings.TrimRight(line, " "); line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}

// cut is the text on one line of width: whole, or its beginning and "…".
func (l *bidiLayout) cut(width float32) string {
	if l.measure(l.text) <= width {
		return l.text
	}
	return strings.TrimRight(l.text[:l.fit(l.text, width, "…")], " ") + "…"
}

// fit is how many bytes of s, at least one character, fit in width before tail.
func (l *bidiLayout) fit(s string, width float32, tail string) int {
	runes := []rune(s)
	lo := max(1, sort.Search(len(runes), func(n int) bool { return l.measure(string(runes[:n+1])+tail) > width }))
	return len(string(runes[:lo]))
}
