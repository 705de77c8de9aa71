package chat

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

	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/mdtable"
)

// Markdown shows a reply that may still be growing. Re-parsing the whole
// text per fragment is quadratic, so finished blocks (paragraphs, lists,
// tables, code) are frozen into their own widgets, parsed once, and only the
// open block at the end is parsed again when new text arrives. Append is
// cheap and safe from any goroutine; Flush applies what arrived, on the UI
// goroutine, at most once per frame.
//
// What a frame costs is measuring text (shaping it), so the rest avoids
// measuring anything twice:
//   - an open plain paragraph (most of a reply) is an openPara: the wrapped
//     lines that can no longer change are kept apart and only the last line
//     or two are wrapped again (see openpara.go);
//   - when the open paragraph or code block finishes, that widget itself is
//     frozen, not rebuilt from its text;
//   - frozen blocks sit in chunks whose layout remembers each block's size
//     until the width or theme changes (chunkLayout).
//
// Each of these draws exactly what one RichText or VBox would
// (openpara_test.go compares the pixels).
type Markdown struct {
	widget.BaseWidget

	mu      sync.Mutex
	pending strings.Builder

	src       strings.Builder // everything applied so far
	frozenEnd int             // bytes of src already frozen into blocks
	box       *fyne.Container // frozen chunks, then the open block
	chunk     *frozenChunk    // the chunk frozen blocks are added to
	open      fyne.CanvasObject
	openRich  *widget.RichText
	openCode  *codeBlock
	openPara  *openPara
	pictures  []*kit.Picture // pictures the frozen blocks name, in order
	outer     func(*fyne.ScrollEvent)
	resized   func()
	wrap      *codeWrap       // whether code blocks wrap
	notes     map[string]bool // labels of the footnotes defined so far
	// whole: the text is all there, and its footnotes were known when
	// its blocks were built
	whole bool
	// marked are the frozen blocks that show footnote marks as written,
	// their notes unknown when they were built (a note usually comes at
	// a reply's end): Finish builds them again if the notes came.
	marked []markedBlock
}

// markedBlock is a frozen block drawn with footnote marks as written.
type markedBlock struct {
	src    string // the block's text
	labels map[string]bool
	chunk  *frozenChunk
	obj    fyne.CanvasObject
	pics   []*kit.Picture // the pictures it names
}

// resizable is a block whose height may change by itself (a code block
// the user chose to wrap).
type resizable interface {
	SetResized(func())
}

// SetResized calls f when a block of the reply changed its height by
// itself, so that the conversation measures the reply again.
func (m *Markdown) SetResized(f func()) {
	m.resized = f
	m.each(func(o fyne.CanvasObject) {
		if r, ok := o.(resizable); ok {
			r.SetResized(f)
		}
	})
}

// each calls f for every block shown.
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

// outerScroller is a block that scrolls inside the reply (a code block, a
// wide table) and passes on the wheel movement it cannot use.
type outerScroller interface {
	SetOuter(func(*fyne.ScrollEvent))
}

// SetOuter passes the wheel movement the reply's code blocks and tables
// cannot use to f (the conversation's scrolling).
func (m *Markdown) SetOuter(f func(*fyne.ScrollEvent)) {
	m.outer = f
	for _, o := range m.box.Objects {
		if c, ok := o.(*frozenChunk); ok {
			for _, b := range c.box.Objects {
				m.passOuter(b)
			}
		} else {
			m.passOuter(o)
		}
	}
}

func (m *Markdown) passOuter(o fyne.CanvasObject) {
	if r, ok := o.(resizable); ok && m.resized != nil {
		r.SetResized(m.resized)
	}
	switch x := o.(type) {
	case outerScroller:
		x.SetOuter(m.outer)
	case *fyne.Container: // a table between paragraphs
		for _, c := range x.Objects {
			m.passOuter(c)
		}
	}
}

// Pictures are the pictures the reply names (in its finished blocks), not
// loaded until the user asks (kit.LoadPictures).
func (m *Markdown) Pictures() []*kit.Picture { return m.pictures }

// chunkSize bounds how many frozen blocks share a container, so freezing a
// block re-lays out a few dozen widgets, not the whole reply.
const chunkSize = 24

// NewMarkdown shows text (which may be empty and grow with Append).
func NewMarkdown(text string, wrap *codeWrap) *Markdown {
	m := &Markdown{box: container.NewVBox(), whole: text != "", wrap: wrap}
	m.ExtendBaseWidget(m)
	if text != "" {
		m.notes = noteLabels(text, nil)
		m.src.WriteString(text)
		m.rebuildTail(true)
	}
	return m
}

// newLiveMarkdown shows the start of a reply that is still arriving: its
// last block stays open.
func newLiveMarkdown(text string, wrap *codeWrap) *Markdown {
	m := &Markdown{box: container.NewVBox(), wrap: wrap}
	m.ExtendBaseWidget(m)
	m.src.WriteString(text)
	m.rebuildTail(false)
	return m
}

// CreateRenderer implements fyne.Widget.
func (m *Markdown) CreateRenderer() fyne.WidgetRenderer {
	return &markdownRenderer{m: m}
}

// markdownRenderer refreshes only the open block: a list or window refresh
// would otherwise re-measure every frozen block of a long reply on every
// frame. Frozen blocks are refreshed when the theme changes.
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

// Append adds a fragment to be shown at the next Flush.
func (m *Markdown) Append(fragment string) {
	m.mu.Lock()
	m.pending.WriteString(fragment)
	m.mu.Unlock()
}

// Flush shows the fragments appended since the last Flush and reports
// whether anything changed. final freezes the open block too (the reply
// ended).
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

// Finish makes m, which showed a reply while it arrived, show text, the
// reply ended, as NewMarkdown(text) would: the rest is added, the last
// block frozen, and the blocks whose footnote marks were drawn before
// their notes arrived are built again. It reports false, changing
// nothing, when m shows other text than the start of text; a Markdown
// built whole reports whether it shows text.
func (m *Markdown) Finish(text string) bool {
	m.Flush(false)
	shown := m.Text()
	if m.whole || !strings.HasPrefix(text, shown) {
		return m.whole && text == shown
	}
	m.Append(text[len(shown):])
	m.Flush(true)
	// the blocks whose marks' notes came after them, built again as
	// footnotes (m.notes now holds every note of the text)
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
		// the same text, so the same pictures, in the same place
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

// Text is everything shown so far.
func (m *Markdown) Text() string { return m.src.String() }

// rebuildTail freezes every finished block after frozenEnd and re-parses
// the open one.
func (m *Markdown) rebuildTail(final bool) {
	src := m.src.String()
	tail := src[m.frozenEnd:]
	cut := lastBoundary(tail)
	if final {
		cut = len(tail)
	}
	if cut > 0 {
		m.notes = noteLabels(tail[:cut], m.notes)
		for i, b := range splitBlocks(tail[:cut]) {
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

// mark remembers block b, frozen as o with pictures pics, when it shows
// footnote marks as written.
func (m *Markdown) mark(b string, raw map[string]bool, o fyne.CanvasObject, pics []*kit.Picture) {
	if len(raw) > 0 && !m.whole {
		m.marked = append(m.marked, markedBlock{src: b, labels: raw, chunk: m.chunk, obj: o, pics: pics})
	}
}

// build makes the widget of finished block b, with the footnotes known
// so far, and gives the pictures it names; raw (when not nil) is given the
// labels of the marks it shows as written.
func (m *Markdown) build(b string, raw map[string]bool) (fyne.CanvasObject, []*kit.Picture) {
	_, _, code := finishedCode(b)
	if !code {
		b = footnoteMarks(b, m.notes, raw)
	}
	// only a block of one line can be a plain paragraph: others are not
	// parsed twice
	if !code && !strings.Contains(strings.TrimSpace(b), "\n") {
		if text, ok := plainParagraph(parseOnly(b)); ok {
			// most of a reply: wrapped from word widths (see openPara)
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

// freezeOpenPara freezes the open paragraph widget itself when b, the
// block that just finished, is that paragraph: its lines are wrapped
// already, and a new RichText would measure the whole paragraph again. It
// looks the same as the RichText blockWidget would make.
func (m *Markdown) freezeOpenPara(b string) bool {
	p := m.openPara
	if p == nil {
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
	m.box.Remove(p)
	m.open, m.openPara = nil, nil
	m.addFrozen(p)
	m.mark(b, raw, p, nil)
	return true
}

// frozenChunk holds finished blocks and remembers its size: measuring
// wrapped text is the costly part of a frame, and finished blocks only need
// measuring again when the width changes.
type frozenChunk struct {
	widget.BaseWidget
	box   *fyne.Container
	lay   *chunkLayout
	min   fyne.Size
	valid bool
	width float32
}

func newFrozenChunk() *frozenChunk {
	l := &chunkLayout{}
	c := &frozenChunk{box: container.New(l), lay: l}
	c.ExtendBaseWidget(c)
	return c
}

// add appends a block: only the new block is wrapped and measured, the
// others keep their place and size.
func (c *frozenChunk) add(o fyne.CanvasObject) {
	c.box.Objects = append(c.box.Objects, o)
	c.valid = false
	if c.width > 0 {
		c.box.Resize(fyne.NewSize(c.width, c.box.MinSize().Height))
		c.lay.Layout(c.box.Objects, c.box.Size())
	}
}

// replace puts block n where block o is, measuring it and the blocks
// after it again.
func (c *frozenChunk) replace(o, n fyne.CanvasObject) {
	i := slices.Index(c.box.Objects, o)
	if i < 0 {
		return
	}
	c.box.Objects[i] = n
	c.lay.mins = c.lay.mins[:min(i, len(c.lay.mins))]
	c.valid = false
	if c.width > 0 {
		c.box.Resize(fyne.NewSize(c.width, c.box.MinSize().Height))
		c.lay.Layout(c.box.Objects, c.box.Size())
	}
	canvas.Refresh(c)
}

// chunkLayout is a VBox layout that remembers each block's minimum size
// until the width changes or the chunk is refreshed: Fyne's VBox asks every
// block twice per layout, and asking a RichText measures all its lines.
type chunkLayout struct {
	mins  []fyne.Size
	width float32
}

// measure finds the sizes of blocks not measured yet, first wrapping new
// blocks at the chunk's width.
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

// CreateRenderer implements fyne.Widget.
func (c *frozenChunk) CreateRenderer() fyne.WidgetRenderer { return &chunkRenderer{c: c} }

type chunkRenderer struct{ c *frozenChunk }

func (r *chunkRenderer) Layout(s fyne.Size) {
	if s.Width != r.c.width {
		r.c.width = s.Width
		r.c.valid = false
	}
	r.c.box.Resize(s)
}

func (r *chunkRenderer) MinSize() fyne.Size {
	if !r.c.valid {
		r.c.min = r.c.box.MinSize()
		r.c.valid = true
	}
	return r.c.min
}

func (r *chunkRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.c.box} }
func (r *chunkRenderer) Destroy()                     {}
func (r *chunkRenderer) Refresh() {
	r.c.valid = false
	r.c.lay.forget()
	r.c.box.Refresh()
	// the blocks were measured before they refreshed (a new theme may
	// size text differently): measure and place them again
	r.c.lay.forget()
	r.c.lay.Layout(r.c.box.Objects, r.c.box.Size())
}

func (m *Markdown) insertBeforeOpen(o fyne.CanvasObject) {
	// Add and Remove only lay out the few chunks; Refresh would re-measure
	// every block.
	open := m.open
	if open != nil {
		m.box.Remove(open)
	}
	m.box.Add(o)
	if open != nil {
		m.box.Add(open)
	}
}

// setOpen shows the unfinished block: code while a fence is open, else
// markdown parsed afresh (it is short: one block).
func (m *Markdown) setOpen(text string) {
	if strings.TrimSpace(text) == "" {
		if m.open != nil {
			m.box.Remove(m.open)
			m.open, m.openRich, m.openCode, m.openPara = nil, nil, nil, nil
		}
		return
	}
	if lang, code, ok := openFence(text); ok {
		if m.openCode == nil {
			m.replaceOpen(nil)
			m.openCode = newCodeBlock(lang, code, m.wrap)
			m.setOpenObject(m.openCode)
		} else {
			m.openCode.SetCode(code)
		}
		return
	}
	segs := parseOnly(text)
	if para, ok := plainParagraph(segs); ok && m.box.Size().Width > 0 {
		if m.openPara == nil {
			m.replaceOpen(nil)
			m.openPara = newOpenPara()
			m.setOpenObject(m.openPara)
		}
		m.openPara.set(para, m.box.Size().Width)
		return
	}
	if m.openRich == nil {
		m.replaceOpen(nil)
		m.openRich = widget.NewRichText()
		m.openRich.Wrapping = fyne.TextWrapWord
		m.setOpenObject(m.openRich)
	}
	m.openRich.Segments = segs
	m.openRich.Refresh()
}

func (m *Markdown) replaceOpen(o fyne.CanvasObject) {
	if m.open != nil {
		m.box.Remove(m.open)
	}
	m.open, m.openRich, m.openCode, m.openPara = o, nil, nil, nil
}

func (m *Markdown) setOpenObject(o fyne.CanvasObject) {
	m.passOuter(o)
	m.open = o
	m.box.Add(o)
}

// lastBoundary is the end of the last finished block in text: after a blank
// line outside a code fence, or after a closing fence line.
func lastBoundary(text string) int {
	inFence := false
	cut := 0
	pos := 0
	prevBlank := false
	for pos < len(text) {
		nl := strings.IndexByte(text[pos:], '\n')
		if nl < 0 {
			break // an unfinished line never ends a block
		}
		line := text[pos : pos+nl]
		end := pos + nl + 1
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "```"):
			if inFence {
				cut = end
			}
			inFence = !inFence
		case !inFence && trimmed == "" && !prevBlank:
			cut = end
		}
		prevBlank = trimmed == ""
		pos = end
	}
	return cut
}

// splitBlocks cuts finished text into blocks at blank lines and fences.
func splitBlocks(text string) []string {
	var out []string
	var cur strings.Builder
	inFence := false
	flush := func() {
		if strings.TrimSpace(cur.String()) != "" {
			out = append(out, cur.String())
		}
		cur.Reset()
	}
	for _, line := range strings.SplitAfter(text, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "```"):
			if !inFence {
				flush()
				cur.WriteString(line)
			} else {
				cur.WriteString(line)
				flush()
			}
			inFence = !inFence
		case inFence:
			cur.WriteString(line)
		case trimmed == "":
			flush()
		default:
			cur.WriteString(line)
		}
	}
	flush()
	return out
}

// openFence reports whether text starts a code block that is not closed
// yet, with its language and the code so far.
func openFence(text string) (lang, code string, ok bool) {
	t := strings.TrimLeft(text, "\n")
	if !strings.HasPrefix(strings.TrimSpace(t), "```") {
		return "", "", false
	}
	first, rest, _ := strings.Cut(t, "\n")
	return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(first), "```")), rest, true
}

// freezeOpenCode freezes the open code block widget itself when b, the
// block that just finished, is that code: building a new one would lay out
// its Copy button and icon again. It shows what blockWidget would.
func (m *Markdown) freezeOpenCode(b string) bool {
	c := m.openCode
	if c == nil {
		return false
	}
	lang, code, ok := finishedCode(b)
	if !ok || lang != c.lang {
		return false
	}
	c.SetCode(code)
	m.box.Remove(c)
	m.open, m.openCode = nil, nil
	m.addFrozen(c)
	return true
}

// finishedCode is the language and code of a finished fenced block.
func finishedCode(b string) (lang, code string, ok bool) {
	trimmed := strings.TrimSpace(b)
	if !strings.HasPrefix(trimmed, "```") {
		return "", "", false
	}
	lang, code, _ = openFence(trimmed)
	code = strings.TrimSuffix(strings.TrimRight(code, "\n"), "```")
	return lang, strings.TrimRight(code, "\n"), true
}

// blockWidget builds the widget of one finished block, and gives the
// pictures it names. A block may hold a table after a paragraph's lines,
// and more after it (GitHub's reading).
func blockWidget(b string, wrap *codeWrap) (fyne.CanvasObject, []*kit.Picture) {
	if lang, code, ok := finishedCode(b); ok {
		return newCodeBlock(lang, code, wrap), nil
	}
	var parts []fyne.CanvasObject
	var pics []*kit.Picture
	rest := b
	for {
		before, t, after, ok := mdtable.Find(rest)
		if !ok {
			break
		}
		if strings.TrimSpace(before) != "" {
			r, p := kit.NewMarkdownText(before)
			parts, pics = append(parts, r), append(pics, p...)
		}
		o, p := mdtable.New(t)
		parts, pics = append(parts, o), append(pics, p...)
		rest = after
	}
	if strings.TrimSpace(rest) != "" || len(parts) == 0 {
		r, p := kit.NewMarkdownText(rest)
		parts, pics = append(parts, r), append(pics, p...)
	}
	if len(parts) == 1 {
		return parts[0], pics
	}
	return container.NewVBox(parts...), pics
}

// plainText is a reply as "Copy as text" gives it: kit.PlainText of the
// whole reply (so footnotes, link definitions and lists read as one
// document), with each table as lines of cells separated by tabs, which
// paste into a spreadsheet or an e-mail as a table.
func plainText(md string) string {
	var src strings.Builder
	var tables []string
	for _, b := range splitBlocks(md) {
		if _, _, ok := finishedCode(b); !ok {
			rest := b
			for {
				before, t, after, ok := mdtable.Find(rest)
				if !ok {
					break
				}
				rows := make([]string, 0, 1+len(t.Rows))
				for _, r := range append([][]string{t.Header}, t.Rows...) {
					cells := make([]string, len(r))
					for i, c := range r {
						cells[i] = strings.Join(strings.Fields(kit.PlainText(c)), " ")
					}
					rows = append(rows, strings.Join(cells, "\t"))
				}
				src.WriteString(before + "\n\n" + tableToken(len(tables)) + "\n\n")
				tables = append(tables, strings.Join(rows, "\n"))
				rest = after
			}
			b = rest
		}
		src.WriteString(b + "\n\n")
	}
	out := kit.PlainText(src.String())
	for i, t := range tables {
		out = strings.Replace(out, tableToken(i), t, 1)
	}
	return out
}

// tableToken stands for table i while the rest of a reply is made plain.
func tableToken(i int) string { return "AgentDeskTable" + strconv.Itoa(i) + "Here" }

// footnoteMarks shows the footnote marks of notes the reply defines as
// "[1]": a reply is parsed block by block, so a mark ([^1]) and its note
// ([^1]: …) are never parsed together and would show as written. Code
// (spans, ~~~ fences, indented lines) is left alone, and so are marks
// without a note.
//
// raw, when not nil, is given the labels of the marks left as written.
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

// noteLabels are the labels of the footnotes text defines ([^label]: …
// at the start of a line).
func noteLabels(text string, into map[string]bool) map[string]bool {
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		line := strings.TrimLeft(text[start:end], " ")
		if strings.HasPrefix(line, "[^") {
			if close := strings.Index(line, "]:"); close > 2 && !strings.ContainsAny(line[2:close], " \t[]") {
				if into == nil {
					into = map[string]bool{}
				}
				into[line[2:close]] = true
			}
		}
		start = end + 1
	}
	return into
}
