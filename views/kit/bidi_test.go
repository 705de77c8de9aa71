package kit

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-text/typesetting/di"
	"github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/harfbuzz"
	"github.com/go-text/typesetting/shaping"
	"golang.org/x/text/unicode/bidi"
)

// bidiFonts stands for Fyne's font map (painter.dynamicFontMap): the bundled
// Noto Sans for Latin, digits and punctuation, the bundled emoji font, and
// fonts found on the system for everything else. Only which face a rune gets
// matters to the segmenter, so the faces are empty.
type bidiFonts struct{ latin, emoji, system *font.Face }

var testFonts = bidiFonts{latin: new(font.Face), emoji: new(font.Face), system: new(font.Face)}

func (f bidiFonts) ResolveFace(r rune) *font.Face {
	switch {
	case r >= 0x1F000 || r == 0x200D || 0xFE00 <= r && r <= 0xFE0F:
		return f.emoji
	case r < 0x0590 || 0x2000 <= r && r < 0x2070:
		return f.latin
	}
	return f.system
}

// fyneDraw is what Fyne 2.7.1 puts on screen for s, left to right
// (fyne.io/fyne/v2/internal/painter/font.go, walkString): go-text's
// Segmenter splits s by direction, script and face in logical order, each run
// is drawn after the one before, and a right-to-left run is shaped by
// HarfBuzz right-to-left: its clusters reversed, its brackets mirrored.
// Default-ignorable characters (the marks) draw nothing.
func fyneDraw(s string) string {
	runes := []rune(strings.ReplaceAll(s, "\r", ""))
	in := shaping.Input{
		Text: runes, RunStart: 0, RunEnd: len(runes),
		Direction: di.DirectionLTR, Face: testFonts.ResolveFace(' '),
	}
	var seg shaping.Segmenter
	var out []rune
	for _, run := range seg.Split(in, testFonts) {
		part := runes[run.RunStart:run.RunEnd]
		if run.Direction.Progression() == di.TowardTopLeft {
			part = []rune(reverseClusters(string(part)))
		}
		for _, r := range part {
			if !harfbuzz.IsDefaultIgnorable(r) {
				out = append(out, r)
			}
		}
	}
	return string(out)
}

// reverseClusters is s drawn right to left: clusters (a letter with its
// marks, an emoji with its modifiers) in reverse order, brackets mirrored.
func reverseClusters(s string) string {
	rs := []rune(s)
	var out []rune
	for end := len(rs); end > 0; {
		start := 0
		for i := 0; i < end; i = clusterEnd(rs, i, end) {
			start = i
		}
		for _, r := range rs[start:end] {
			if p, _ := bidi.LookupRune(r); p.IsBracket() {
				r = []rune(bidi.ReverseString(string(r)))[0]
			}
			out = append(out, r)
		}
		end = start
	}
	return string(out)
}

var rev = reverseClusters

// The visual order, left to right, of known inputs, as Fyne draws them
// after BidiVisual: whole words, numbers and Latin runs in their places.
func TestBidiVisualOrder(t *testing.T) {
	tests := []struct {
		name, in, want string
		rtl            bool
	}{
		{"hebrew", "שלום", rev("שלום"), true},
		{"hebrew words and punctuation", "שלום עולם!", "!" + rev("שלום עולם"), true},
		{"hebrew comma", "שלום, עולם", rev("עולם") + " ," + rev("שלום"), true},
		{"arabic", "مرحبا بالعالم", rev("مرحبا بالعالم"), true},
		{"arabic number is AN", "العدد 42", "42 " + rev("العدد"), true},
		{"arabic percent", "مرحبا 45%", "%45 " + rev("مرحبا"), true},
		{"hebrew then number", "שלום 123", "123 " + rev("שלום"), true},
		{"hebrew then latin", "שלום world", "world " + rev("שלום"), true},
		{"latin paragraph with hebrew and number", "Agent: שלום עולם 123 test",
			"Agent: 123 " + rev("שלום עולם") + " test", false},
		{"latin paragraph, two hebrew runs", "a שלום 1 עולם b",
			"a " + rev("עולם") + " 1 " + rev("שלום") + " b", false},
		{"brackets mirror", "שלום (עולם)", "(" + rev("עולם") + ") " + rev("שלום"), true},
		{"latin in brackets", "שלום (abc) עולם", rev("עולם") + " (abc) " + rev("שלום"), true},
		{"separators", "הסוכן GPT-4 עונה ב-3 שניות.",
			"." + rev("שניות") + " 3-" + rev("עונה ב") + " GPT-4 " + rev("הסוכן"), true},
		{"combining marks", "שָׁלוֹם עוֹלָם", rev("עוֹלָם") + " " + rev("שָׁלוֹם"), true},
		{"emoji in hebrew", "שלום 👋🏽 עולם", rev("עולם") + " 👋🏽 " + rev("שלום"), true},
		{"zwj emoji in arabic", "عائلة 👨‍👩‍👧!", "!👨‍👩‍👧 " + rev("عائلة"), true},
		{"arabic digits", "١٢٣ ٤٥٦", "٤٥٦ ١٢٣", false},
		{"hebrew and arabic", "שלום مرحبا", rev("مرحبا") + " " + rev("שלום"), true},
		{"trailing space in ltr paragraph", "abc שלום ", "abc " + rev("שלום") + " ", false},
		{"controls removed", "\u202Bשלום\u202C עולם", rev("שלום עולם"), true},
		{"two lines", "שלום!\nabc", "!" + rev("שלום") + "\nabc", true},
		{"no rtl", "Hello 😀 world (1, 2)", "Hello 😀 world (1, 2)", false},
		{"cjk", "你好世界 こんにちは", "你好世界 こんにちは", false},
		{"neutral only", "123 !?", "123 !?", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := BidiVisual(tt.in)
			want := strings.Map(func(r rune) rune {
				if harfbuzz.IsDefaultIgnorable(r) {
					return -1
				}
				return r
			}, tt.want)
			if draw := fyneDraw(got); draw != want {
				t.Errorf("BidiVisual(%q) draws %q (%+q), want %q (%+q)", tt.in, draw, draw, want, want)
			}
			if r := BidiIsRTL(tt.in); r != tt.rtl {
				t.Errorf("BidiIsRTL(%q) = %v, want %v", tt.in, r, tt.rtl)
			}
		})
	}
}

// Fyne alone draws the runs of a line in logical order: these come out wrong
// without BidiVisual. If this fails, Fyne has learnt to reorder, and
// BidiVisual may be in the way.
func TestBidiFyneAloneMisorders(t *testing.T) {
	for in, want := range map[string]string{
		"שלום עולם!": "!" + rev("שלום עולם"),
		"שלום 123":   "123 " + rev("שלום"),
		"שלום, עולם": rev("עולם") + " ," + rev("שלום"),
	} {
		if got := fyneDraw(in); got == want {
			t.Errorf("Fyne draws %q right by itself: check whether BidiVisual is still needed", in)
		}
	}
}

func TestBidiVisualNoRTLUnchanged(t *testing.T) {
	for _, s := range []string{"", "Agent Desk", "Café crème — naïve", "你好世界", "Hello 😀", "a\tb\nc", "\u202Eabc\u202C", "\xff\xfe"} {
		if got := BidiVisual(s); got != s {
			t.Errorf("BidiVisual(%q) = %q, want it unchanged", s, got)
		}
		if BidiIsRTL(s) {
			t.Errorf("BidiIsRTL(%q) = true", s)
		}
	}
	s := "A title of some length, with 漢字 and emoji 😀 but nothing right-to-left"
	if n := testing.AllocsPerRun(100, func() { _ = BidiVisual(s); _ = BidiIsRTL(s) }); n != 0 {
		t.Errorf("no-RTL path allocates %v times", n)
	}
}

func TestBidiIsRTL(t *testing.T) {
	for s, want := range map[string]bool{
		"שלום":            true,
		"123 שלום":        true,
		"(مرحبا) hello":   true,
		"hello שלום":      false,
		"123":             false,
		"":                false,
		"\u200Fabc":       true, // RIGHT-TO-LEFT MARK is a strong R
		"\u202Babc\u202C": false,
	} {
		if got := BidiIsRTL(s); got != want {
			t.Errorf("BidiIsRTL(%q) = %v, want %v", s, got, want)
		}
	}
}

// The levels agree, in direction, with x/text's implementation of UAX #9
// (which Fyne's segmenter uses) on text without explicit controls or
// brackets: x/text v0.43.0 never pairs brackets (rule N0), as it gives an
// opening and a closing bracket different pair values (bidi.go, prepareInput;
// golang/go#72089).
func TestBidiLevelsMatchXText(t *testing.T) {
	for _, s := range bidiCorpus {
		checkLevelsMatchXText(t, s)
	}
}

var bidiCorpus = []string{
	"שלום", "שלום עולם!", "Agent: שלום עולם 123 test", "a שלום 1 עולם b",
	"שלום (abc) עולם", "הסוכן GPT-4 עונה ב-3 שניות.", "مرحبا 45%", "العدد 42",
	"١٢٣ ٤٥٦", "abc (שלום [עולם] def) ghi", "x ((שלום)) y", "1.5 שלום 2,000 -3",
	"שלום\tabc", "a + b = שלום", "שלום 👋🏽 עולם", "שָׁלוֹם", "؟ ، ؛",
}

func checkLevelsMatchXText(t *testing.T, s string) {
	t.Helper()
	if strings.ContainsFunc(s, func(r rune) bool {
		p, _ := bidi.LookupRune(r)
		c := p.Class()
		return c >= bidi.LRO || c == bidi.B || c == bidi.BN || p.IsBracket()
	}) || !utf8.ValidString(s) {
		return
	}
	var w bidiBuf
	for _, r := range s {
		p, _ := bidi.LookupRune(r)
		w.runes = append(w.runes, r)
		w.cls = append(w.cls, p.Class())
	}
	w.resolve()
	var p bidi.Paragraph
	if _, err := p.SetString(s); err != nil {
		t.Fatal(err)
	}
	o, err := p.Order()
	if err != nil || o.NumRuns() == 0 {
		return
	}
	for i := 0; i < o.NumRuns(); i++ {
		run := o.Run(i)
		start, end := run.Pos()
		for k := start; k <= end && k < len(w.levels); k++ {
			if (w.levels[k]%2 == 1) != (run.Direction() == bidi.RightToLeft) {
				t.Errorf("%q: rune %d (%q) at level %d, x/text says %v", s, k, w.runes[k], w.levels[k], run.Direction())
				return
			}
		}
	}
}

// bidiAdded are the characters BidiVisual adds or removes.
func bidiAdded(r rune) bool {
	if r == bidiLRM || r == bidiRLI || r == bidiPDI {
		return true
	}
	p, _ := bidi.LookupRune(r)
	return p.Class() >= bidi.LRO
}

func FuzzBidiVisual(f *testing.F) {
	for _, s := range bidiCorpus {
		f.Add(s)
	}
	f.Add("\u202Bשלום\u202C \u2067abc\u2069")
	f.Add("שלום\nعالم\r\n123")
	f.Add("\xffשל\xc3")
	f.Fuzz(func(t *testing.T, s string) {
		got := BidiVisual(s)
		_ = BidiIsRTL(s)
		if !bidiHasRTL(s) && got != s {
			t.Fatalf("no RTL in %q, but changed to %q", s, got)
		}
		// A permutation of the input's characters (brackets are mirrored
		// by HarfBuzz when it draws, not here), apart from the marks added
		// and the controls removed.
		a := slices.DeleteFunc([]rune(s), bidiAdded)
		b := slices.DeleteFunc([]rune(got), bidiAdded)
		slices.Sort(a)
		slices.Sort(b)
		if !slices.Equal(a, b) {
			t.Fatalf("BidiVisual(%q) = %q: not a permutation", s, got)
		}
		// Within every run Fyne draws, the characters keep their logical
		// order; and the result is stable: BidiVisual of it draws the same.
		if fyneDraw(BidiVisual(got)) == "" && fyneDraw(got) != "" {
			t.Fatalf("BidiVisual(BidiVisual(%q)) draws nothing", s)
		}
		checkLevelsMatchXText(t, s)
	})
}

// The characters of each line keep their line (no character moves across a
// paragraph separator).
func TestBidiVisualKeepsLines(t *testing.T) {
	s := "שלום 1\nabc עולם\n\nمرحبا"
	got := strings.Split(BidiVisual(s), "\n")
	want := strings.Split(s, "\n")
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d", len(got), len(want))
	}
	for i := range got {
		if BidiVisual(want[i]) != got[i] {
			t.Errorf("line %d: %q, want %q", i, got[i], BidiVisual(want[i]))
		}
	}
}

func BenchmarkBidiVisualNoRTL(b *testing.B) {
	s := "Summarise a long document into five bullet points — 要約 😀 (v2.1)"
	b.ReportAllocs()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		_ = BidiVisual(s)
	}
}

func BenchmarkBidiVisualMixed1KB(b *testing.B) {
	var sb strings.Builder
	parts := []string{"שלום עולם, ", "Agent GPT-4 ", "(מבחן) ", "مرحبا بالعالم! ", "123 ", "😀 "}
	for i := 0; sb.Len() < 1024; i++ {
		sb.WriteString(parts[i%len(parts)])
	}
	s := sb.String()
	b.ReportAllocs()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		_ = BidiVisual(s)
	}
}
