package richtext

import (
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"golang.org/x/text/width"

	"github.com/agentdesk/agentdesk/views/kit"
)

const (
	// codeWholeLines: longer blocks show codeBoxLines at a time in a scroll box.
	codeWholeLines = 60
	codeBoxLines   = 24
	// codeMaxCols cuts unwrapped lines so no row is wider than the GPU can draw.
	codeMaxCols = 500
	codeTab     = 4
)

// CodeBlocks is a screen's way with code blocks: the user's last choice to
// wrap lines, kept by save, how a line count is written, and the height of
// the view they scroll in. nil never wraps.
type CodeBlocks struct {
	on     atomic.Bool
	save   func(bool)
	number func(int) string
	// view is the view's height (float32 bits): a box is at most four fifths
	// of it, so the wheel is never caught by a box taller than it.
	viewBits atomic.Uint32
}

// NewCodeBlocks starts with the kept choice on.
func NewCodeBlocks(on bool, save func(bool), number func(int) string) *CodeBlocks {
	w := &CodeBlocks{save: save, number: number}
	w.on.Store(on)
	return w
}

func (w *CodeBlocks) On() bool { return w.on.Load() }

// SetView tells the height of the view the blocks scroll in.
func (w *CodeBlocks) SetView(h float32) { w.viewBits.Store(math.Float32bits(h)) }

// View is the height SetView told (0 for nil).
func (w *CodeBlocks) View() float32 {
	if w == nil {
		return 0
	}
	return math.Float32frombits(w.viewBits.Load())
}

// CodeBlock shows code with its language, Copy and a wrap choice; only the
// rows in view are drawn, so a block of any length shows at once.
type CodeBlock struct {
	widget.BaseWidget
	lang    string
	wrap    *CodeBlocks
	lines   *codeLines
	scroll  *kit.Scroller
	copy    *kit.Button
	wrapBtn *kit.Button
	count   *widget.Label
	header  *fyne.Container
	bg      *canvas.Rectangle
	resized func()
}

// SetResized calls f when the block's height changes by itself.
func (c *CodeBlock) SetResized(f func()) { c.resized = f }

func newCodeBlock(language, code string, wrap *CodeBlocks) *CodeBlock {
	c := &CodeBlock{lang: language, wrap: wrap, lines: newCodeLines(wrap != nil && wrap.on.Load())}
	c.copy = kit.NewButtonWithIcon(lang.L("Copy"), theme.ContentCopyIcon(), func() {
		if a := fyne.CurrentApp(); a != nil {
			a.Clipboard().SetContent(c.lines.src)
		}
		c.copy.SetText(lang.L("Copied"))
	})
	c.copy.Importance = widget.LowImportance
	c.wrapBtn = kit.NewButtonWithIcon("", theme.ViewRestoreIcon(), c.toggleWrap)
	c.wrapBtn.Importance = widget.LowImportance
	c.showWrapChoice()
	c.count = widget.NewLabel("")
	c.count.Importance = widget.LowImportance
	name := widget.NewLabel(kit.Line(language, 40))
	name.Importance = widget.LowImportance
	c.header = container.NewHBox(name, layout.NewSpacer(), c.count, c.wrapBtn, c.copy)
	c.bg = canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	c.bg.CornerRadius = theme.Size(theme.SizeNameInputRadius)
	c.scroll = kit.NewScroller(c.lines, container.ScrollBoth, nil)
	c.scroll.OnScrolled = func(p fyne.Position) { c.lines.scrollTo(p.Y) }
	c.ExtendBaseWidget(c)
	c.lines.set(code)
	c.showCount()
	return c
}

// SetOuter passes wheel movement the block cannot use to the conversation.
func (c *CodeBlock) SetOuter(f func(*fyne.ScrollEvent)) { c.scroll.Outer = f }

func (c *CodeBlock) Code() string { return c.lines.src }

// SetCode shows new code; a box scrolled to its end stays there.
func (c *CodeBlock) SetCode(code string) {
	following := c.atEnd()
	c.lines.set(code)
	c.showCount()
	if following {
		c.scrollToEnd()
	}
	c.Refresh()
}

func (c *CodeBlock) showCount() {
	n := c.lines.lines
	text := ""
	if n > codeWholeLines {
		count := strconv.Itoa(n)
		if c.wrap != nil && c.wrap.number != nil {
			count = c.wrap.number(n)
		}
		text = lang.N("{{.Count}} line", n, map[string]any{"Count": count})
	}
	if c.count.Text != text {
		c.count.SetText(text)
	}
}

func (c *CodeBlock) toggleWrap() {
	wrap := !c.lines.wrap
	if c.wrap != nil {
		c.wrap.on.Store(wrap)
		c.wrap.save(wrap)
	}
	c.lines.wrap = wrap
	c.lines.recut()
	c.showWrapChoice()
	c.scroll.ScrollToOffset(fyne.Position{})
	c.lines.scrollTo(0)
	c.Refresh()
	if c.resized != nil {
		c.resized()
	}
}

func (c *CodeBlock) showWrapChoice() {
	if c.lines.wrap {
		c.wrapBtn.SetText(lang.L("Don't wrap lines"))
	} else {
		c.wrapBtn.SetText(lang.L("Wrap lines"))
	}
}

func (c *CodeBlock) atEnd() bool {
	h := c.scroll.Size().Height
	return h == 0 || c.scroll.Offset.Y+h >= c.lines.MinSize().Height-1
}

func (c *CodeBlock) scrollToEnd() {
	h := c.bodyHeight()
	c.scroll.Resize(fyne.NewSize(c.scroll.Size().Width, h))
	y := max(c.lines.MinSize().Height-h, 0)
	if y != c.scroll.Offset.Y {
		c.scroll.ScrollToOffset(fyne.NewPos(c.scroll.Offset.X, y))
		c.lines.scrollTo(y)
	}
}

const codeBoxMinLines = 6

func (c *CodeBlock) bodyHeight() float32 {
	n, row := len(c.lines.starts), c.lines.rowHeight()
	if n > codeWholeLines {
		n = codeBoxLines
		if view := c.wrap.View(); view > 0 && row > 0 {
			fit := int((view*4/5 - c.header.MinSize().Height - theme.InnerPadding()) / row)
			n = min(max(fit, codeBoxMinLines), codeBoxLines)
		}
	}
	return float32(max(n, 1)) * row
}

func (c *CodeBlock) CreateRenderer() fyne.WidgetRenderer { return &codeRenderer{c: c} }

type codeRenderer struct{ c *CodeBlock }

func (r *codeRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.c.bg, r.c.header, r.c.scroll}
}
func (r *codeRenderer) Destroy() {}

// MinSize is as narrow as the header: code never widens the window.
func (r *codeRenderer) MinSize() fyne.Size {
	h := r.c.header.MinSize()
	return fyne.NewSize(h.Width, h.Height+r.c.bodyHeight()+theme.InnerPadding())
}

func (r *codeRenderer) Layout(size fyne.Size) {
	c := r.c
	pad := theme.InnerPadding() // the code starts where the header's words do
	c.bg.Resize(size)
	hh := c.header.MinSize().Height
	c.header.Move(fyne.Position{})
	c.header.Resize(fyne.NewSize(size.Width, hh))
	inner := size.Width - 2*pad
	c.lines.setViewWidth(inner)
	c.scroll.Move(fyne.NewPos(pad, hh))
	c.scroll.Resize(fyne.NewSize(inner, c.bodyHeight()))
	c.lines.scrollTo(c.scroll.Offset.Y)
}

func (r *codeRenderer) Refresh() {
	c := r.c
	c.bg.FillColor = theme.Color(theme.ColorNameInputBackground)
	c.bg.CornerRadius = theme.Size(theme.SizeNameInputRadius)
	c.bg.Refresh()
	c.lines.Refresh()
	c.scroll.Refresh()
	r.Layout(c.Size())
}

// codeLines is sized for all rows but holds text objects only for those in view.
type codeLines struct {
	widget.BaseWidget
	src    string
	wrap   bool
	view   float32 // width it is shown in (to wrap at)
	cols   int     // columns a row holds
	starts []int   // byte offset where each row starts
	widest int     // most columns of any row
	lines  int     // lines of src (rows before wrapping)
	top    float32 // scroll offset
	cell   fyne.Size
	texts  []*canvas.Text
}

func newCodeLines(wrap bool) *codeLines {
	l := &codeLines{wrap: wrap}
	l.ExtendBaseWidget(l)
	l.measureCell()
	return l
}

func (l *codeLines) measureCell() {
	l.cell = fyne.MeasureText("M", theme.TextSize(), fyne.TextStyle{Monospace: true})
}

func (l *codeLines) rowHeight() float32 { return l.cell.Height }

func (l *codeLines) maxCols() int {
	if !l.wrap || l.view <= 0 || l.cell.Width <= 0 {
		return codeMaxCols
	}
	return min(max(int(l.view/l.cell.Width), 8), codeMaxCols)
}

// set shows src; when it only grew, the rows before the last are kept.
func (l *codeLines) set(src string) {
	if len(l.starts) > 0 && strings.HasPrefix(src, l.src) {
		from := l.starts[len(l.starts)-1]
		l.starts = l.starts[:len(l.starts)-1]
		l.src = src
		l.cut(from)
	} else {
		l.src = src
		l.recut()
	}
	l.lines = strings.Count(src, "\n")
	if src != "" && !strings.HasSuffix(src, "\n") {
		l.lines++
	}
}

func (l *codeLines) setViewWidth(w float32) {
	if w == l.view {
		return
	}
	l.view = w
	if l.wrap && l.maxCols() != l.cols {
		l.recut()
	}
}

func (l *codeLines) recut() {
	l.starts, l.widest = l.starts[:0], 0
	l.cut(0)
}

func (l *codeLines) cut(from int) {
	l.cols = l.maxCols()
	s := l.src
	start, col := from, 0
	l.starts = append(l.starts, start)
	for i := from; i < len(s); {
		if !utf8.FullRuneInString(s[i:]) {
			break // the rest of the letter is still to come
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == '\n' {
			l.widest = max(l.widest, col)
			i += size
			start, col = i, 0
			l.starts = append(l.starts, start)
			continue
		}
		w := runeCols(r, col)
		if col+w > l.cols && col > 0 {
			l.widest = max(l.widest, col)
			start, col = i, 0
			l.starts = append(l.starts, start)
			w = runeCols(r, 0) // a tab is wider at a row's start
		}
		col += w
		i += size
	}
	l.widest = max(l.widest, col)
	if len(s) > 0 && s[len(s)-1] == '\n' && len(l.starts) > 1 {
		// A last line break ends the last line; it starts no row.
		l.starts = l.starts[:len(l.starts)-1]
	}
}

func runeCols(r rune, col int) int {
	switch {
	case r == '\t':
		return codeTab - col%codeTab
	case r < ' ' || r == 0x7f:
		return 1
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

func (l *codeLines) row(i int) string {
	start := l.starts[i]
	end := len(l.src)
	if i+1 < len(l.starts) {
		end = l.starts[i+1]
	}
	raw := strings.TrimSuffix(l.src[start:end], "\n")
	if !strings.ContainsFunc(raw, func(r rune) bool { return r < ' ' || r == 0x7f || r == utf8.RuneError }) {
		return raw
	}
	var b strings.Builder
	col := 0
	for _, r := range raw {
		w := runeCols(r, col)
		switch {
		case r == '\t':
			b.WriteString(strings.Repeat(" ", w))
		case r < ' ' || r == 0x7f:
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
		col += w
	}
	return b.String()
}

func (l *codeLines) scrollTo(y float32) {
	if y != l.top {
		l.top = y
		l.Refresh()
	}
}

// MinSize is every row: the box around it scrolls.
func (l *codeLines) MinSize() fyne.Size {
	w := float32(0)
	if !l.wrap {
		w = float32(l.widest)*l.cell.Width + 1
	}
	return fyne.NewSize(w, float32(max(len(l.starts), 1))*l.cell.Height)
}

func (l *codeLines) CreateRenderer() fyne.WidgetRenderer { return &linesRenderer{l: l} }

type linesRenderer struct {
	l    *codeLines
	objs []fyne.CanvasObject
}

func (r *linesRenderer) Destroy()                     {}
func (r *linesRenderer) Objects() []fyne.CanvasObject { return r.objs }
func (r *linesRenderer) MinSize() fyne.Size           { return r.l.MinSize() }

func (r *linesRenderer) Layout(size fyne.Size) {
	l := r.l
	h := l.cell.Height
	if h <= 0 {
		return
	}
	inView := len(l.starts)
	if inView > codeWholeLines {
		inView = codeBoxLines + 1
	}
	first := 0
	if len(l.starts) > codeWholeLines {
		first = min(max(int(l.top/h), 0), max(len(l.starts)-inView, 0))
	}
	for len(l.texts) < inView {
		t := canvas.NewText("", theme.Color(theme.ColorNameForeground))
		t.TextStyle = fyne.TextStyle{Monospace: true}
		l.texts = append(l.texts, t)
	}
	fg := theme.Color(theme.ColorNameForeground)
	objs := r.objs[:0]
	for i := 0; i < inView && first+i < len(l.starts); i++ {
		t := l.texts[i]
		text := l.row(first + i)
		if t.Text != text || t.TextSize != theme.TextSize() || t.Color != fg {
			t.Text, t.TextSize, t.Color = text, theme.TextSize(), fg
			t.Refresh()
		}
		t.Move(fyne.NewPos(0, float32(first+i)*h))
		t.Resize(fyne.NewSize(max(size.Width, t.MinSize().Width), h))
		objs = append(objs, t)
	}
	r.objs = objs
}

func (r *linesRenderer) Refresh() {
	r.l.measureCell()
	if r.l.wrap && r.l.maxCols() != r.l.cols {
		r.l.recut()
	}
	r.Layout(r.l.Size())
	canvas.Refresh(r.l)
}
