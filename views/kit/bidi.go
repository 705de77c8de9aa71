package kit

// Bidirectional text for Fyne's labels. Fyne (2.7) shapes each bidi run
// right but never reorders runs: "שלום 123" puts the number on the wrong
// side. BidiVisual reorders runs, never letters (UAX #9, L2): each
// right-to-left run is written as pieces in reverse, each in an RLI…PDI
// isolate, and left-to-right runs between LRMs so Fyne's bidi pass cannot
// reread them. The marks draw as nothing.

import (
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/bidi"
)

const (
	bidiLRM = '\u200E' // LEFT-TO-RIGHT MARK
	bidiRLI = '\u2067' // RIGHT-TO-LEFT ISOLATE
	bidiPDI = '\u2069' // POP DIRECTIONAL ISOLATE
	bidiZWJ = '\u200D'
)

// BidiIsRTL reports whether s's first strong character is right-to-left
// (P2–P3), so its label aligns trailing. It does not allocate.
func BidiIsRTL(s string) bool {
	c := bidiFirst(s, func(c bidi.Class) bool { return c == bidi.L || c == bidi.R || c == bidi.AL })
	return c == bidi.R || c == bidi.AL
}

// bidiHasRTL reports a character that can make s right-to-left: class R, AL,
// or an Arabic digit.
func bidiHasRTL(s string) bool {
	return bidiFirst(s, func(c bidi.Class) bool { return c == bidi.R || c == bidi.AL || c == bidi.AN }) != bidi.ON
}

// bidiFirst is the class of the first character of s that stop takes, or ON.
// ASCII is looked up only for letters (L).
func bidiFirst(s string, stop func(bidi.Class) bool) bidi.Class {
	for i := 0; i < len(s); {
		if c := s[i]; c < 0x80 {
			if 'A' <= c&^0x20 && c&^0x20 <= 'Z' && stop(bidi.L) {
				return bidi.L
			}
			i++
			continue
		}
		p, n := lookupBidi(s[i:])
		if stop(p.Class()) {
			return p.Class()
		}
		i += n
	}
	return bidi.ON
}

// BidiVisual returns s in the order Fyne must draw it to read right, each line
// a paragraph with its own base direction. The result is for drawing only: it
// holds invisible marks and is out of reading order, so never edit, copy,
// search, wrap or truncate it. Explicit bidi controls are removed. Text with
// nothing right-to-left comes back as is, without allocating.
func BidiVisual(s string) string {
	if !bidiHasRTL(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/4 + 16)
	var buf bidiBuf
	start := 0
	for i := 0; i < len(s); {
		p, n := lookupBidi(s[i:])
		if p.Class() == bidi.B {
			buf.line(&b, s[start:i])
			b.WriteString(s[i : i+n])
			start = i + n
		}
		i += n
	}
	buf.line(&b, s[start:])
	return b.String()
}

func lookupBidi(s string) (bidi.Properties, int) {
	p, n := bidi.LookupString(s)
	if n <= 0 {
		n = 1
	}
	return p, n
}

// bidiBuf holds the work slices of one BidiVisual call, reused across lines.
type bidiBuf struct {
	runes  []rune
	cls    []bidi.Class // original classes
	types  []bidi.Class // classes as the rules resolve them
	levels []uint8
	idx    []int // positions of the characters that are not BN (rule X9)
	runs   []bidiRun
	order  []int
	pieces [][2]int
}

type bidiRun struct {
	start, end int
	level      uint8
}

// line writes one paragraph (no paragraph separator inside) in draw order.
func (w *bidiBuf) line(b *strings.Builder, s string) {
	if !bidiHasRTL(s) {
		b.WriteString(s)
		return
	}
	w.runes, w.cls = w.runes[:0], w.cls[:0]
	for _, r := range s {
		p, _ := bidi.LookupRune(r)
		c := p.Class()
		if c >= bidi.LRO { // explicit embeddings, overrides, isolates: removed
			continue
		}
		w.runes = append(w.runes, r)
		w.cls = append(w.cls, c)
	}
	w.resolve()
	w.reorder()
	last := -1
	for _, ri := range w.order {
		run := w.runs[ri]
		last = int(run.level)
		if run.level%2 == 0 {
			b.WriteRune(bidiLRM)
			for _, r := range w.runes[run.start:run.end] {
				b.WriteRune(r)
			}
			b.WriteRune(bidiLRM)
			continue
		}
		w.splitPieces(run.start, run.end)
		for k := len(w.pieces) - 1; k >= 0; k-- {
			b.WriteRune(bidiRLI)
			for _, r := range w.runes[w.pieces[k][0]:w.pieces[k][1]] {
				b.WriteRune(r)
			}
			b.WriteRune(bidiPDI)
		}
	}
	if last%2 == 1 {
		// Else Fyne's L1 moves the last isolate's trailing spaces out of their run.
		b.WriteRune(bidiLRM)
	}
}

// strongDir is a resolved type's direction for N0–N2: L, R (also numbers), or ON.
func strongDir(t bidi.Class) bidi.Class {
	switch t {
	case bidi.L:
		return bidi.L
	case bidi.R, bidi.AL, bidi.EN, bidi.AN:
		return bidi.R
	}
	return bidi.ON
}

// resolve computes w.levels: UAX #9 for one paragraph without explicit embeddings.
func (w *bidiBuf) resolve() {
	n := len(w.runes)
	w.levels = slices.Grow(w.levels[:0], n)[:n]
	w.types = append(w.types[:0], w.cls...)
	w.idx = w.idx[:0]
	var para uint8
	for _, c := range w.cls {
		if c == bidi.L {
			break
		}
		if c == bidi.R || c == bidi.AL {
			para = 1
			break
		}
	}
	for i, c := range w.cls {
		if c != bidi.BN {
			w.idx = append(w.idx, i)
		}
	}
	e := bidi.L // embedding direction, also sos and eos: one level run
	if para == 1 {
		e = bidi.R
	}
	t := func(k int) bidi.Class { return w.types[w.idx[k]] }
	set := func(k int, c bidi.Class) { w.types[w.idx[k]] = c }
	m := len(w.idx)

	// W1: a nonspacing mark takes the type of the character before it.
	prev := e
	for k := 0; k < m; k++ {
		if t(k) == bidi.NSM {
			set(k, prev)
		}
		prev = t(k)
	}
	// W2, W3
	last := e
	for k := 0; k < m; k++ {
		switch t(k) {
		case bidi.L, bidi.R:
			last = t(k)
		case bidi.AL:
			last = bidi.AL
			set(k, bidi.R)
		case bidi.EN:
			if last == bidi.AL {
				set(k, bidi.AN)
			}
		}
	}
	// W4: one separator between two numbers of a kind.
	for k := 1; k+1 < m; k++ {
		a, c := t(k-1), t(k+1)
		switch t(k) {
		case bidi.ES:
			if a == bidi.EN && c == bidi.EN {
				set(k, bidi.EN)
			}
		case bidi.CS:
			if a == c && (a == bidi.EN || a == bidi.AN) {
				set(k, a)
			}
		}
	}
	// W5: terminators next to a European number are part of it.
	for k := 0; k < m; {
		if t(k) != bidi.ET {
			k++
			continue
		}
		j := k
		for j < m && t(j) == bidi.ET {
			j++
		}
		if (k > 0 && t(k-1) == bidi.EN) || (j < m && t(j) == bidi.EN) {
			for x := k; x < j; x++ {
				set(x, bidi.EN)
			}
		}
		k = j
	}
	// W6, W7
	last = e
	for k := 0; k < m; k++ {
		switch t(k) {
		case bidi.ES, bidi.ET, bidi.CS:
			set(k, bidi.ON)
		case bidi.L, bidi.R:
			last = t(k)
		case bidi.EN:
			if last == bidi.L {
				set(k, bidi.L)
			}
		}
	}
	w.resolveBrackets(e)
	// N1, N2
	for k := 0; k < m; {
		if strongDir(t(k)) != bidi.ON {
			k++
			continue
		}
		j := k
		for j < m && strongDir(t(j)) == bidi.ON {
			j++
		}
		before, after := e, e
		if k > 0 {
			before = strongDir(t(k - 1))
		}
		if j < m {
			after = strongDir(t(j))
		}
		d := e
		if before == after {
			d = before
		}
		for x := k; x < j; x++ {
			set(x, d)
		}
		k = j
	}
	// I1, I2.
	for i := range w.levels {
		w.levels[i] = para
	}
	for k := 0; k < m; k++ {
		lv := para
		switch c := t(k); {
		case para%2 == 0 && c == bidi.R:
			lv++
		case para%2 == 0 && (c == bidi.AN || c == bidi.EN):
			lv += 2
		case para%2 == 1 && c != bidi.R:
			lv++
		}
		w.levels[w.idx[k]] = lv
	}
	// X9: a boundary neutral goes with the character before it.
	for i, c := range w.cls {
		if c == bidi.BN && i > 0 {
			w.levels[i] = w.levels[i-1]
		}
	}
	// L1
	trailing := true
	for i := n - 1; i >= 0; i-- {
		switch w.cls[i] {
		case bidi.S:
			w.levels[i] = para
			trailing = true
		case bidi.WS, bidi.BN:
			if trailing {
				w.levels[i] = para
			}
		default:
			trailing = false
		}
	}
}

// resolveBrackets applies rule N0 with the pairs of BD16.
func (w *bidiBuf) resolveBrackets(e bidi.Class) {
	type opener struct {
		close rune
		k     int
	}
	var stackArr [16]opener
	stack := stackArr[:0]
	var pairsArr [8][2]int
	pairs := pairsArr[:0]
	m := len(w.idx)
	t := func(k int) bidi.Class { return w.types[w.idx[k]] }
	set := func(k int, c bidi.Class) { w.types[w.idx[k]] = c }
scan:
	for k := 0; k < m; k++ {
		if t(k) != bidi.ON {
			continue
		}
		r := w.runes[w.idx[k]]
		p, _ := bidi.LookupRune(r)
		if !p.IsBracket() {
			continue
		}
		if p.IsOpeningBracket() {
			if len(stack) == 63 {
				break scan
			}
			stack = append(stack, opener{close: canonicalBracket([]rune(bidi.ReverseString(string(r)))[0]), k: k})
			continue
		}
		r = canonicalBracket(r)
		for j := len(stack) - 1; j >= 0; j-- {
			if stack[j].close == r {
				pairs = append(pairs, [2]int{stack[j].k, k})
				stack = stack[:j]
				break
			}
		}
	}
	slices.SortFunc(pairs, func(a, b [2]int) int { return a[0] - b[0] })
	opp := bidi.R
	if e == bidi.R {
		opp = bidi.L
	}
	for _, pr := range pairs {
		o, c := pr[0], pr[1]
		foundE, foundOpp := false, false
		for k := o + 1; k < c; k++ {
			switch strongDir(t(k)) {
			case e:
				foundE = true
			case opp:
				foundOpp = true
			}
		}
		var d bidi.Class
		switch {
		case foundE:
			d = e
		case foundOpp:
			ctx := e
			for k := o - 1; k >= 0; k-- {
				if s := strongDir(t(k)); s != bidi.ON {
					ctx = s
					break
				}
			}
			d = e
			if ctx == opp {
				d = opp
			}
		default:
			continue
		}
		for _, b := range [2]int{o, c} {
			set(b, d)
			// Marks on a bracket follow it (W1 had made them neutral).
			for k := b + 1; k < m && w.cls[w.idx[k]] == bidi.NSM; k++ {
				set(k, d)
			}
		}
	}
}

// canonicalBracket maps U+2329/U+232A to U+3008/U+3009, so either pairs with either.
func canonicalBracket(r rune) rune {
	switch r {
	case '\u2329':
		return '\u3008'
	case '\u232A':
		return '\u3009'
	}
	return r
}

// reorder fills w.runs and their visual order w.order (L2 on whole runs; odd
// levels draw right-to-left).
func (w *bidiBuf) reorder() {
	w.runs = w.runs[:0]
	var maxLevel uint8
	minOdd := uint8(255)
	for i := 0; i < len(w.levels); {
		j := i + 1
		for j < len(w.levels) && w.levels[j] == w.levels[i] {
			j++
		}
		lv := w.levels[i]
		w.runs = append(w.runs, bidiRun{start: i, end: j, level: lv})
		maxLevel = max(maxLevel, lv)
		if lv%2 == 1 {
			minOdd = min(minOdd, lv)
		}
		i = j
	}
	w.order = w.order[:0]
	for i := range w.runs {
		w.order = append(w.order, i)
	}
	for lv := maxLevel; lv >= minOdd && lv > 0; lv-- {
		for i := 0; i < len(w.order); {
			if w.runs[w.order[i]].level < lv {
				i++
				continue
			}
			j := i
			for j < len(w.order) && w.runs[w.order[j]].level >= lv {
				j++
			}
			slices.Reverse(w.order[i:j])
			i = j
		}
	}
}

// Kinds of cluster in a right-to-left run.
const (
	clusterSpace = iota
	clusterWord  // a letter of a right-to-left script, with its marks
	clusterOther // anything else: punctuation, symbols, emoji
)

// splitPieces splits a right-to-left run into the pieces Fyne must shape one
// by one: words of one script, and each other cluster alone. Fyne would draw
// mixed fonts in one run left to right.
func (w *bidiBuf) splitPieces(start, end int) {
	w.pieces = w.pieces[:0]
	curKind, curScript := -1, 0
	for i := start; i < end; {
		j := clusterEnd(w.runes, i, end)
		kind, script := clusterSpace, 0
		switch w.cls[i] {
		case bidi.WS:
		case bidi.R, bidi.AL:
			kind, script = clusterWord, rtlScript(w.runes[i])
		default:
			kind = clusterOther
		}
		switch {
		case kind == clusterSpace && curKind >= 0:
			// trails the current piece
		case kind == clusterWord && curKind == clusterWord &&
			(script == curScript || script == 0 || curScript == 0):
			if curScript == 0 {
				curScript = script
			}
		default:
			w.pieces = append(w.pieces, [2]int{i, i})
			curKind, curScript = kind, script
		}
		w.pieces[len(w.pieces)-1][1] = j
		i = j
	}
}

// clusterEnd returns the end of the cluster at i: a character with its marks,
// selectors, modifiers, tags and ZWJ joins.
func clusterEnd(rs []rune, i, end int) int {
	first := rs[i]
	i++
	if isRegionalIndicator(first) && i < end && isRegionalIndicator(rs[i]) {
		i++
	}
	for i < end {
		r := rs[i]
		switch {
		case r == bidiZWJ:
			i++
			if i < end {
				i++
			}
		case r == '\u200C', // ZWNJ
			'\uFE00' <= r && r <= '\uFE0F', 0xE0100 <= r && r <= 0xE01EF, // variation selectors
			0x1F3FB <= r && r <= 0x1F3FF, // emoji modifiers
			0xE0020 <= r && r <= 0xE007F, // tags
			unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc):
			i++
		default:
			return i
		}
	}
	return i
}

func isRegionalIndicator(r rune) bool { return 0x1F1E6 <= r && r <= 0x1F1FF }

var rtlScripts = []*unicode.RangeTable{
	unicode.Hebrew, unicode.Arabic, unicode.Syriac, unicode.Thaana, unicode.Nko,
	unicode.Samaritan, unicode.Mandaic, unicode.Adlam, unicode.Hanifi_Rohingya,
}

// rtlScript numbers a right-to-left letter's script, 0 for none in particular
// (it goes with any word).
func rtlScript(r rune) int {
	for i, tab := range rtlScripts {
		if unicode.Is(tab, r) {
			return i + 1
		}
	}
	if unicode.In(r, unicode.Common, unicode.Inherited) {
		return 0
	}
	return len(rtlScripts) + 1 // another right-to-left script
}
