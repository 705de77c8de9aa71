package richtext

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Markdown shows a reply that may still be growing. Re-parsing everything per
// fragment is quadratic, so finished blocks are frozen into their own widgets
// and only the open block is parsed again. Append is safe from any goroutine;
// Flush applies on the UI goroutine. Text measuring is the cost, so nothing is
// measured twice (openPara, freezing the open widget itself, chunkLayout).
type Markdown struct {
	widget.BaseWidget

	mu      sync.Mutex
	pending strings.Builder

	src       strings.Builder   // everything applied so far
	frozenEnd int               // bytes of src already frozen into blocks
	box       *fyne.Container   // frozen chunks, then the open block
	chunk     *frozenChunk      // the chunk frozen blocks are added to
	open      fyne.CanvasObject // a *CodeBlock, *openPara, a table so far or *widget.RichText
	openTable string            // the complete lines the open table was built from
	pictures  []*Picture        // pictures the frozen blocks name, in order
	outer     func(*fyne.ScrollEvent)
	resized   func()
	wrap      *CodeBlocks     // whether code blocks wrap
	notes     map[string]bool // labels of the footnotes defined so far
	// whole: all text is there and its footnotes were known at build.
	whole bool
	// marked blocks drew footnote marks as written (the note usually comes at
	// the end): Finish rebuilds them once the notes came.
	marked []markedBlock
}

type markedBlock struct {
	src    string // the block's text
	labels map[string]bool
	chunk  *frozenChunk
	obj    fyne.CanvasObject
	pics   []*Picture // the pictures it names
}

// SetResized calls f when a block changed its height by itself.
func (m *Markdown) SetResized(f func()) {
	m.resized = f
	m.each(m.passOuter)
}

// SetOuter passes wheel movement the blocks cannot use to f.
func (m *Markdown) SetOuter(f func(*fyne.ScrollEvent)) {
	m.outer = f
	m.each(m.passOuter)
}

func (m *Markdown) each(f func(fyne.CanvasObject)) {
	for _, o := range m.box.Objects {
		if c, ok := o.(*frozenChunk); ok {
			for _, b := range c.box.Objects {
				f(b)
			}
		} else {
			f(o)
		}
	}
}

// passOuter gives o, or the blocks in it, what SetResized and SetOuter gave.
func (m *Markdown) passOuter(o fyne.CanvasObject) {
	if r, ok := o.(interface{ SetResized(func()) }); ok && m.resized != nil {
		r.SetResized(m.resized)
	}
	switch x := o.(type) {
	case interface{ SetOuter(func(*fyne.ScrollEvent)) }:
		x.SetOuter(m.outer)
	case *fyne.Container: // a table between paragraphs
		for _, c := range x.Objects {
			m.passOuter(c)
		}
	}
}

// Pictures are the pictures the finished blocks name, loaded only on request.
func (m *Markdown) Pictures() []*Picture { return m.pictures }

// chunkSize bounds a chunk so freezing a block re-lays out a few dozen widgets.
const chunkSize = 24

// NewMarkdown shows text, which may grow with Append.
func NewMarkdown(text string, wrap *CodeBlocks) *Markdown {
	m := NewLiveMarkdown("", wrap)
	if text != "" {
		m.whole, m.notes = true, noteLabels(text, nil)
		m.src.WriteString(text)
		m.rebuildTail(true)
	}
	return m
}

// NewLiveMarkdown shows the start of a reply still arriving.
func NewLiveMarkdown(text string, wrap *CodeBlocks) *Markdown {
	m := &Markdown{box: container.NewVBox(), wrap: wrap}
	m.ExtendBaseWidget(m)
	m.src.WriteString(text)
	m.rebuildTail(false)
	return m
}

func (m *Markdown) CreateRenderer() fyne.WidgetRenderer {
	return &markdownRenderer{m: m}
}

// markdownRenderer refreshes only the open block: refreshing all would
// re-measure every frozen block every frame.
type markdownRenderer struct {
	m     *Markdown
	theme fyne.Theme
	dark  fyne.ThemeVariant
}

func (r *markdownRenderer) Layout(s fyne.Size) { r.m.box.Resize(s) }
func (r *markdownRenderer) MinSize() fyne.Size { return r.m.box.MinSize() }
func (r *markdownRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.m.box}
}
func (r *markdownRenderer) Destroy() {}

func (r *markdownRenderer) Refresh() {
	var th fyne.Theme
	var v fyne.ThemeVariant
	if a := fyne.CurrentApp(); a != nil {
		th, v = a.Settings().Theme(), a.Settings().ThemeVariant()
	}
	if th != r.theme || v != r.dark {
		r.theme, r.dark = th, v
		r.m.box.Refresh()
		return
	}
	if r.m.open != nil {
		r.m.open.Refresh()
	}
	canvas.Refresh(r.m)
}

func (m *Markdown) Append(fragment string) {
	m.mu.Lock()
	m.pending.WriteString(fragment)
	m.mu.Unlock()
}

// Flush shows the appended fragments and reports whether anything changed;
// final freezes the open block too.
func (m *Markdown) Flush(final bool) bool {
	m.mu.Lock()
	add := m.pending.String()
	m.pending.Reset()
	m.mu.Unlock()
	if add == "" && !final {
		return false
	}
	m.src.WriteString(add)
	m.rebuildTail(final)
	return true
}

// Finish makes m show text as NewMarkdown(text) would, rebuilding blocks
// whose notes came late. It reports false, changing nothing, when m shows
// other text than the start of text.
func (m *Markdown) Finish(text string) bool {
	m.Flush(false)
	shown := m.Text()
	if m.whole || !strings.HasPrefix(text, shown) {
		return m.whole && text == shown
	}
	m.Append(text[len(shown):])
	m.Flush(true)
	// Blocks whose notes came after them, rebuilt now m.notes is complete.
	replaced := false
	for _, b := range m.marked {
		defined := false
		for l := range b.labels {
			defined = defined || m.notes[l]
		}
		if !defined {
			continue
		}
		o, pics := m.build(b.src, nil)
		if len(b.pics) > 0 {
			if at := slices.Index(m.pictures, b.pics[0]); at >= 0 {
				m.pictures = slices.Replace(m.pictures, at, at+len(b.pics), pics...)
			}
		}
		m.passOuter(o)
		b.chunk.replace(b.obj, o)
		replaced = true
	}
	if replaced {
		m.box.Layout.Layout(m.box.Objects, m.box.Size()) // the chunks' heights may have changed
	}
	m.marked = nil
	m.whole = true
	return true
}

// AwaitsNotes reports blocks that show footnote marks as written, for Finish
// to rebuild once their notes came.
func (m *Markdown) AwaitsNotes() bool { return len(m.marked) > 0 }

func (m *Markdown) Text() string { return m.src.String() }

func (m *Markdown) rebuildTail(final bool) {
	src := m.src.String()
	tail := src[m.frozenEnd:]
	blocks, cut := splitBlocks(tail)
	if final {
		cut = len(tail)
	} else if cut < len(tail) {
		blocks, _ = splitBlocks(tail[:cut])
	}
	if cut > 0 {
		m.notes = noteLabels(tail[:cut], m.notes)
		for i, b := range blocks {
			if i == 0 && (m.freezeOpenPara(b) || m.freezeOpenCode(b)) {
				continue
			}
			m.freeze(b)
		}
		m.frozenEnd += cut
		tail = tail[cut:]
	}
	m.setOpen(tail)
}

func (m *Markdown) freeze(b string) {
	if strings.TrimSpace(b) == "" {
		return
	}
	raw := map[string]bool{}
	o, pics := m.build(b, raw)
	m.pictures = append(m.pictures, pics...)
	m.addFrozen(o)
	m.mark(b, raw, o, pics)
}

func (m *Markdown) mark(b string, raw map[string]bool, o fyne.CanvasObject, pics []*Picture) {
	if len(raw) > 0 && !m.whole {
		m.marked = append(m.marked, markedBlock{src: b, labels: raw, chunk: m.chunk, obj: o, pics: pics})
	}
}

// build makes finished block b's widget; raw gets marks shown as written.
func (m *Markdown) build(b string, raw map[string]bool) (fyne.CanvasObject, []*Picture) {
	_, _, code := finishedCode(b)
	if !code {
		b = footnoteMarks(b, m.notes, raw)
	}
	// Only a one-line block can be a plain paragraph: others are not parsed twice.
	if !code && !strings.Contains(strings.TrimSpace(b), "\n") {
		if text, ok := plainParagraph(parseOnly(b)); ok {
			p := newOpenPara()
			p.text = text
			p.tail.Segments = paraSegments(text)
			return p, nil
		}
	}
	return blockWidget(b, m.wrap)
}

func (m *Markdown) addFrozen(o fyne.CanvasObject) {
	if m.chunk == nil || len(m.chunk.box.Objects) >= chunkSize {
		m.chunk = newFrozenChunk()
		m.insertBeforeOpen(m.chunk)
	}
	m.passOuter(o)
	m.chunk.add(o)
}

// freezeOpenPara freezes the open paragraph widget itself: its lines are
// wrapped already, a new RichText would measure them all again.
func (m *Markdown) freezeOpenPara(b string) bool {
	p, ok := m.open.(*openPara)
	if !ok {
		return false
	}
	text, ok := plainParagraph(parseOnly(b))
	if !ok || !strings.HasPrefix(text, p.text[:p.settled]) {
		return false
	}
	raw := map[string]bool{}
	if footnoteMarks(b, m.notes, raw) != b {
		return false // a mark of a known note: shown as a footnote by freeze
	}
	p.set(text, m.box.Size().Width)
	m.freezeOpen()
	m.mark(b, raw, p, nil)
	return true
}

// frozenChunk holds finished blocks, their sizes kept until the width changes.
type frozenChunk struct {
	widget.BaseWidget
	box *fyne.Container
	lay *chunkLayout
}

func newFrozenChunk() *frozenChunk {
	l := &chunkLayout{}
	c := &frozenChunk{box: container.New(l), lay: l}
	c.ExtendBaseWidget(c)
	return c
}

func (c *frozenChunk) add(o fyne.CanvasObject) {
	c.box.Objects = append(c.box.Objects, o)
	c.changed()
}

func (c *frozenChunk) replace(o, n fyne.CanvasObject) {
	i := slices.Index(c.box.Objects, o)
	if i < 0 {
		return
	}
	c.box.Objects[i] = n
	c.lay.mins = c.lay.mins[:min(i, len(c.lay.mins))]
	c.changed()
	canvas.Refresh(c)
}

// changed lays out the blocks again at the chunk's width.
func (c *frozenChunk) changed() {
	if w := c.lay.width; w > 0 {
		c.box.Resize(fyne.NewSize(w, c.box.MinSize().Height))
		c.lay.Layout(c.box.Objects, c.box.Size())
	}
}

// chunkLayout caches block sizes: Fyne's VBox asks each block twice per
// layout, and each ask measures every line of a RichText.
type chunkLayout struct {
	mins  []fyne.Size
	width float32
}

func (l *chunkLayout) measure(objects []fyne.CanvasObject) {
	for _, o := range objects[len(l.mins):] {
		if l.width > 0 && o.Size().Width != l.width {
			o.Resize(fyne.NewSize(l.width, o.MinSize().Height))
		}
		l.mins = append(l.mins, o.MinSize())
	}
}

func (l *chunkLayout) forget() { l.mins = l.mins[:0] }

func (l *chunkLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	if len(l.mins) > len(objects) {
		l.forget()
	}
	l.measure(objects)
	var min fyne.Size
	for _, m := range l.mins {
		min.Width = max(min.Width, m.Width)
		min.Height += m.Height
	}
	if len(l.mins) > 1 {
		min.Height += theme.Padding() * float32(len(l.mins)-1)
	}
	return min
}

func (l *chunkLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	if size.Width != l.width || len(l.mins) > len(objects) {
		l.width = size.Width
		l.forget()
	}
	l.measure(objects)
	pad := theme.Padding()
	y := float32(0)
	for i, o := range objects {
		h := l.mins[i].Height
		o.Move(fyne.NewPos(0, y))
		o.Resize(fyne.NewSize(size.Width, h))
		y += h + pad
	}
}

func (c *frozenChunk) CreateRenderer() fyne.WidgetRenderer { return &chunkRenderer{c: c} }

type chunkRenderer struct{ c *frozenChunk }

func (r *chunkRenderer) Layout(s fyne.Size) { r.c.box.Resize(s) }

func (r *chunkRenderer) MinSize() fyne.Size { return r.c.box.MinSize() }

func (r *chunkRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.c.box} }
func (r *chunkRenderer) Destroy()                     {}
func (r *chunkRenderer) Refresh() {
	r.c.box.Refresh()
	// A new theme may size text differently: measured again after the refresh.
	r.c.lay.forget()
	r.c.lay.Layout(r.c.box.Objects, r.c.box.Size())
}

func (m *Markdown) insertBeforeOpen(o fyne.CanvasObject) {
	// Add and Remove lay out only the chunks; Refresh would re-measure every block.
	open := m.open
	if open != nil {
		m.box.Remove(open)
	}
	m.box.Add(o)
	if open != nil {
		m.box.Add(open)
	}
}

func (m *Markdown) setOpen(text string) {
	if strings.TrimSpace(text) == "" {
		m.openAs(nil)
		return
	}
	if lang, code, ok := openFence(text); ok {
		if c, ok := m.open.(*CodeBlock); ok {
			c.SetCode(code)
		} else {
			m.openAs(newCodeBlock(lang, code, m.wrap))
		}
		return
	}
	// A table shows the rows that have arrived whole, as a table; the row
	// still arriving waits for its line's end.
	if whole, ok := tableSoFar(text); ok {
		if whole != m.openTable {
			o, _ := blockWidget(whole, m.wrap)
			m.openAs(o)
			m.openTable = whole
		}
		return
	}
	segs := parseOnly(text)
	if para, ok := plainParagraph(segs); ok && m.box.Size().Width > 0 {
		p, ok := m.open.(*openPara)
		if !ok {
			p = newOpenPara()
			m.openAs(p)
		}
		p.set(para, m.box.Size().Width)
		return
	}
	r, ok := m.open.(*widget.RichText)
	if !ok {
		r = widget.NewRichText()
		r.Wrapping = fyne.TextWrapWord
		m.openAs(r)
	}
	r.Segments = segs
	r.Refresh()
}

// tableSoFar is the complete lines of text when they hold a pipe table
// (its header and delimiter arrived).
func tableSoFar(text string) (string, bool) {
	end := strings.LastIndexByte(text, '\n')
	if end < 0 || !strings.Contains(text[:end], "|") {
		return "", false
	}
	whole := text[:end]
	_, _, _, ok := locate(whole)
	return whole, ok
}

// openAs shows o (nil for nothing) in place of the open block.
func (m *Markdown) openAs(o fyne.CanvasObject) {
	m.openTable = ""
	if m.open != nil {
		m.box.Remove(m.open)
	}
	m.open = o
	if o != nil {
		m.passOuter(o)
		m.box.Add(o)
	}
}

func (m *Markdown) freezeOpen() {
	o := m.open
	m.openAs(nil)
	m.addFrozen(o)
}

// splitBlocks cuts text into blocks at blank lines and around fenced code,
// leaving blank lines out. finished is the end of the last block a whole
// line closed (a blank line or a closing fence): blocks before it can no
// longer change.
func splitBlocks(text string) (blocks []string, finished int) {
	inFence := false
	start, pos := 0, 0 // the current block is text[start:pos]
	flush := func(end int) {
		if strings.TrimSpace(text[start:end]) != "" {
			blocks = append(blocks, text[start:end])
		}
		start = end
	}
	for line := range strings.Lines(text) {
		whole := strings.HasSuffix(line, "\n")
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "```"):
			if inFence {
				flush(pos + len(line))
				if whole {
					finished = start
				}
			} else {
				flush(pos)
			}
			inFence = !inFence
		case !inFence && trimmed == "":
			if start < pos && whole {
				finished = pos + len(line)
			}
			flush(pos)
			start = pos + len(line)
		}
		pos += len(line)
	}
	flush(pos)
	return blocks, finished
}

func openFence(text string) (lang, code string, ok bool) {
	t := strings.TrimLeft(text, "\n")
	if !strings.HasPrefix(strings.TrimSpace(t), "```") {
		return "", "", false
	}
	first, rest, _ := strings.Cut(t, "\n")
	return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(first), "```")), rest, true
}

func (m *Markdown) freezeOpenCode(b string) bool {
	c, ok := m.open.(*CodeBlock)
	if !ok {
		return false
	}
	lang, code, ok := finishedCode(b)
	if !ok || lang != c.lang {
		return false
	}
	c.SetCode(code)
	m.freezeOpen()
	return true
}

func finishedCode(b string) (lang, code string, ok bool) {
	lang, code, ok = openFence(strings.TrimSpace(b))
	code = strings.TrimSuffix(strings.TrimRight(code, "\n"), "```")
	return lang, strings.TrimRight(code, "\n"), ok
}

// blockWidget builds a finished block's widget (tables may sit mid-block).
func blockWidget(b string, wrap *CodeBlocks) (fyne.CanvasObject, []*Picture) {
	if lang, code, ok := finishedCode(b); ok {
		return newCodeBlock(lang, code, wrap), nil
	}
	var parts []fyne.CanvasObject
	var pics []*Picture
	add := func(o fyne.CanvasObject, p []*Picture) { parts, pics = append(parts, o), append(pics, p...) }
	tablesIn(b, func(md string, last bool) {
		if strings.TrimSpace(md) != "" || last && len(parts) == 0 {
			add(NewMarkdownText(md))
		}
	}, func(t Table) { add(NewTable(t)) })
	if len(parts) == 1 {
		return parts[0], pics
	}
	return container.NewVBox(parts...), pics
}

// tablesIn cuts a block at its pipe tables: text gets the Markdown before
// each table and after the last (last), table each table.
func tablesIn(b string, text func(md string, last bool), table func(Table)) {
	for {
		start, end, t, ok := locate(b)
		if !ok {
			text(b, true)
			return
		}
		text(trimLineEnd(b[:start]), false)
		table(t)
		b = b[end:]
	}
}

// ReplyText is what Copy gives and a results sheet holds: the whole reply made plain at once, tables as
// tab-separated lines so they paste as tables.
func ReplyText(md string) string {
	var src strings.Builder
	var tables []string
	blocks, _ := splitBlocks(md)
	for _, b := range blocks {
		if _, _, code := finishedCode(b); code {
			src.WriteString(b + "\n\n")
			continue
		}
		tablesIn(b, func(md string, _ bool) { src.WriteString(md + "\n\n") }, func(t Table) {
			rows := make([]string, 0, 1+len(t.Rows))
			for _, r := range append([][]string{t.Header}, t.Rows...) {
				cells := make([]string, len(r))
				for i, c := range r {
					cells[i] = strings.Join(strings.Fields(PlainText(c)), " ")
				}
				rows = append(rows, strings.Join(cells, "\t"))
			}
			src.WriteString(tableToken(len(tables)) + "\n\n")
			tables = append(tables, strings.Join(rows, "\n"))
		})
	}
	out := PlainText(src.String())
	for i, t := range tables {
		out = strings.Replace(out, tableToken(i), t, 1)
	}
	return out
}

func tableToken(i int) string { return "AgentDeskTable" + strconv.Itoa(i) + "Here" }

// footnoteMarks shows marks of notes the reply defines as "[1]": blocks are
// parsed apart, so a mark and its note never meet. Code is left alone; raw
// gets the labels of marks left as written.
func footnoteMarks(b string, notes map[string]bool, raw map[string]bool) string {
	if (len(notes) == 0 && raw == nil) || !strings.Contains(b, "[^") {
		return b
	}
	var out strings.Builder
	fence := false
	for _, line := range strings.SplitAfter(b, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if strings.HasPrefix(trimmed, "~~~") || strings.HasPrefix(trimmed, "```") {
			fence = !fence
		}
		if fence || strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t") || !strings.Contains(line, "[^") {
			out.WriteString(line)
			continue
		}
		inCode := false
		for i := 0; i < len(line); i++ {
			c := line[i]
			if c == '`' {
				inCode = !inCode
			}
			if !inCode && c == '[' && i+1 < len(line) && line[i+1] == '^' {
				end := strings.IndexByte(line[i:], ']')
				if end > 2 && !notes[line[i+2:i+end]] && raw != nil {
					raw[line[i+2:i+end]] = true
				}
				if end > 2 && notes[line[i+2:i+end]] {
					out.WriteString("\\[" + line[i+2:i+end] + "\\]")
					i += end
					if strings.TrimSpace(line[:i-end]) == "" && i+1 < len(line) && line[i+1] == ':' {
						i++ // the note itself: "[1] its text"
					}
					continue
				}
			}
			out.WriteByte(c)
		}
	}
	return out.String()
}

func noteLabels(text string, into map[string]bool) map[string]bool {
	for line := range strings.Lines(text) {
		line = strings.TrimLeft(line, " ")
		if strings.HasPrefix(line, "[^") {
			if close := strings.Index(line, "]:"); close > 2 && !strings.ContainsAny(line[2:close], " \t[]") {
				if into == nil {
					into = map[string]bool{}
				}
				into[line[2:close]] = true
			}
		}
	}
	return into
}
