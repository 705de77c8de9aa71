package richtext

import (
	"bytes"
	"image"
	"strings"
	"testing"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// An open paragraph drawn as settled lines plus a tail must look exactly
// like one RichText of the same text, at every step of the stream.
func TestOpenParagraphLooksLikeOneRichText(t *testing.T) {
	test.NewTempApp(t)
	src := strings.Repeat("The budget review team met the supplier about the invoice and the delivery plan. ", 6) +
		"Averyveryveryveryveryverylongwordthatdoesnotfitonalineatallnotevenclose" + strings.Repeat("x", 90) + " end of it."
	para := newOpenPara()
	rich := widget.NewRichText()
	rich.Wrapping = fyne.TextWrapWord
	wp := test.NewTempWindow(t, container.NewVBox(para))
	wr := test.NewTempWindow(t, container.NewVBox(rich))
	for _, w := range []fyne.Window{wp, wr} {
		w.Resize(fyne.NewSize(420, 600))
	}
	settledSome := false
	for n := 7; n <= len(src); n += 23 {
		if n > len(src)-23 {
			n = len(src)
		}
		text, ok := plainParagraph(parseOnly(src[:n]))
		if !ok {
			t.Fatalf("%q should parse as a plain paragraph", src[:n])
		}
		para.set(text, para.Size().Width)
		rich.Segments = paraSegments(text)
		rich.Refresh()
		settledSome = settledSome || len(para.lines) > 0
		if para.MinSize() != rich.MinSize() {
			t.Fatalf("after %d bytes: min size %v, one RichText %v", n, para.MinSize(), rich.MinSize())
		}
		for _, w := range []fyne.Window{wp, wr} {
			w.Content().Refresh()
		}
		a, b := wp.Canvas().Capture(), wr.Canvas().Capture()
		if !sameImage(a, b) {
			t.Fatalf("after %d bytes (%d settled lines) the paragraph is drawn differently", n, len(para.lines))
		}
	}
	if !settledSome {
		t.Fatal("a long paragraph should settle lines")
	}
	// a narrower window wraps everything afresh, still the same
	wp.Resize(fyne.NewSize(300, 600))
	wr.Resize(fyne.NewSize(300, 600))
	if !sameImage(wp.Canvas().Capture(), wr.Canvas().Capture()) {
		t.Fatal("after a resize the paragraph is drawn differently")
	}
}

// A finished paragraph of a stored reply, wrapped from word widths, looks
// exactly like one RichText of it, at any width.
func TestAFinishedParagraphLooksLikeOneRichText(t *testing.T) {
	test.NewTempApp(t)
	src := strings.Repeat("The budget review team met the supplier about the invoice and the delivery plan. ", 7) + "Averyveryveryverylongwordthatdoesnotfit" + strings.Repeat("x", 70) + " end."
	m := NewMarkdown(src, nil)
	rich := widget.NewRichText(paraSegments(src)...)
	rich.Wrapping = fyne.TextWrapWord
	wm := test.NewTempWindow(t, container.NewVScroll(m))
	wr := test.NewTempWindow(t, container.NewVScroll(rich))
	found := false
	walkObjects(m, func(o fyne.CanvasObject) {
		if p, ok := o.(*openPara); ok && p.text == src {
			found = true
		}
	})
	if !found {
		t.Fatal("the finished paragraph should be wrapped from word widths")
	}
	for _, width := range []float32{420, 300, 700} {
		wm.Resize(fyne.NewSize(width, 900))
		wr.Resize(fyne.NewSize(width, 900))
		wm.Content().Refresh()
		wr.Content().Refresh()
		if !sameImage(wm.Canvas().Capture(), wr.Canvas().Capture()) {
			t.Fatalf("at %v px the finished paragraph is drawn differently from one RichText", width)
		}
	}
}

// Lines found from summed word widths end where RichText ends them, in
// any script and at any width: kerning pairs, ligatures and accents; Chinese
// without spaces, Arabic and Hebrew (right to left), emoji, runs of spaces,
// digits and punctuation; tabs; Armenian (from another font); Greek and
// Cyrillic.
func TestParagraphLinesEndWhereRichTextEndsThem(t *testing.T) {
	test.NewTempApp(t)
	latin := strings.Repeat("AVAST! To Wales we travel; office coffee, waffles & “typographic” quotes — Tüte, Straße, façade, naïve. ", 4) +
		"The budget review went well:  every team met its plan (12 % more travel, 3,450.75 € in fees, ffi ffl fi)."
	mixed := strings.Repeat("The budget review went well:  every team met its plan (12 % more travel, 3,450.75 € in fees). ", 3) +
		"中文：预算审查已完成，所有团队都在计划之内。日本語：予算の見直しが完了しました。🎉 " +
		"العربية: اكتملت مراجعة الميزانية، وجميع الفرق ضمن الخطة. עברית: סקירת התקציב הושלמה, כל הצוותים במסגרת התוכנית. " +
		"✅ 📊 💶 🚀 WWWWWWW iiiiiii mmmmmmm —— «quoted» “typographic” end."
	size := theme.TextSize()
	measure := func(s string) float32 { return fyne.MeasureText(s, size, fyne.TextStyle{}).Width }
	for _, c := range []struct {
		src    string
		drawAt float32
	}{{latin, 310}, {mixed, 772},
		{strings.Repeat("Name:\tAlice\tRole:\tengineer\tTeam:\tpayments\t", 4), 200},
		{strings.Repeat("Բյուջեի վերանայումը ավարտված է, բոլոր թիմերը պլանի սահմաններում են։ ", 4), 533},
		{strings.Repeat("Ο προϋπολογισμός εγκρίθηκε. Бюджет утверждён, все команды в рамках плана. ", 4), 420}} {
		src := c.src
		// RichText's rule: each line is the longest run of words that
		// fits; with the next word it would not
		for width := float32(180); width <= 900; width += 23 {
			p := newOpenPara()
			p.set(src, width)
			max := width - 2*p.pad
			rest := src
			for i, l := range p.lines {
				line := l.String()
				if !strings.HasPrefix(rest, line) {
					t.Fatalf("at %v px line %d %q is not where the text goes on: %q", width, i, line, rest)
				}
				rest = rest[len(line):]
				sep := ""
				if rest != "" && unicode.IsSpace(rune(rest[0])) {
					sep, rest = rest[:1], rest[1:] // the space the line ends at
				}
				if w := measure(line); w > max && strings.ContainsFunc(line, unicode.IsSpace) {
					t.Fatalf("at %v px line %d %q is %v wide, more than %v", width, i, line, w, max)
				}
				next := rest
				if end := strings.IndexFunc(rest, unicode.IsSpace); end >= 0 {
					next = rest[:end]
				}
				if w := measure(line + sep + next); next != "" && w <= max {
					t.Fatalf("at %v px line %d %q ends early: with %q it is %v wide, within %v", width, i, line, next, w, max)
				}
			}
		}
		// and drawn, the same as one RichText (drawing is slow under
		// -race: at one width)
		for _, width := range []float32{c.drawAt} {
			m := NewMarkdown(src, nil)
			rich := widget.NewRichText(paraSegments(src)...)
			rich.Wrapping = fyne.TextWrapWord
			wm := test.NewTempWindow(t, container.NewVScroll(m))
			wr := test.NewTempWindow(t, container.NewVScroll(rich))
			wm.Resize(fyne.NewSize(width, 1000))
			wr.Resize(fyne.NewSize(width, 1000))
			if !sameImage(wm.Canvas().Capture(), wr.Canvas().Capture()) {
				t.Fatalf("at %v px the paragraph %q… is drawn differently from one RichText", width, src[:20])
			}
		}
	}
}

// sameImage reports whether a and b have the same pixels. Captures of the
// test driver are NRGBA: equal bytes are equal pixels at once, where reading pixel
// by pixel through image.Image is slow under -race.
func sameImage(a, b image.Image) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	if na, ok := a.(*image.NRGBA); ok {
		if nb, ok := b.(*image.NRGBA); ok && na.Stride == nb.Stride && bytes.Equal(na.Pix, nb.Pix) {
			return true
		}
	}
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			r1, g1, b1, a1 := a.At(x, y).RGBA()
			r2, g2, b2, a2 := b.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				return false
			}
		}
	}
	return true
}

// A reply streamed in small fragments, drawn frame by frame, ends up drawn
// exactly like the same reply shown at once, and like Fyne's own VBox of
// the blocks.
func TestStreamedReplyLooksLikeOneShot(t *testing.T) {
	test.NewTempApp(t)
	src := longReply(2500)
	streamed := NewMarkdown("", nil)
	whole := NewMarkdown(src, nil)
	flat := container.NewVBox()
	blocks, _ := splitBlocks(src)
	for _, b := range blocks {
		o, _ := blockWidget(b, nil)
		flat.Add(o)
	}
	if n := len(flat.Objects); n >= chunkSize {
		t.Fatalf("the reply should fit one chunk, has %d blocks", n)
	}
	size := fyne.NewSize(700, 2600)
	var wins []fyne.Window
	for _, o := range []fyne.CanvasObject{streamed, whole, flat} {
		w := test.NewTempWindow(t, container.NewVBox(o))
		w.Resize(size)
		wins = append(wins, w)
	}
	for i, f := range fragments(src, 4) {
		streamed.Append(f)
		if i%16 == 15 {
			streamed.Flush(false)
			wins[0].Content().Refresh()
		}
	}
	streamed.Flush(true)
	if whole.MinSize().Height > size.Height {
		t.Fatalf("the reply is %v high, taller than the window", whole.MinSize())
	}
	for _, w := range wins {
		w.Content().Refresh()
	}
	a, b, c := wins[0].Canvas().Capture(), wins[1].Canvas().Capture(), wins[2].Canvas().Capture()
	if !sameImage(b, c) {
		t.Fatal("the reply shown at once is drawn differently from a VBox of its blocks")
	}
	if !sameImage(a, b) {
		t.Fatal("the streamed reply is drawn differently from the reply shown at once")
	}

	// a narrower window, then bigger text: still the same
	for _, w := range wins {
		w.Resize(fyne.NewSize(520, 2600))
		// Fyne's VBox (the flat one) first lays blocks out with their
		// heights from before the new wrap: let it settle (the chunks
		// measure after wrapping and are right at once)
		w.Content().Refresh()
	}
	if !sameImage(wins[0].Canvas().Capture(), wins[1].Canvas().Capture()) {
		t.Fatal("after a resize the streamed reply is drawn differently")
	}
	if !sameImage(wins[1].Canvas().Capture(), wins[2].Canvas().Capture()) {
		t.Fatal("after a resize the reply shown at once is drawn differently from a VBox")
	}
	fyne.CurrentApp().Settings().SetTheme(bigText{theme.DefaultTheme()})
	for _, w := range wins {
		w.Content().Refresh()
	}
	if !sameImage(wins[0].Canvas().Capture(), wins[1].Canvas().Capture()) ||
		!sameImage(wins[1].Canvas().Capture(), wins[2].Canvas().Capture()) {
		t.Fatal("after a theme change the streamed reply is drawn differently")
	}
}

type bigText struct{ fyne.Theme }

func (b bigText) Size(n fyne.ThemeSizeName) float32 {
	if n == theme.SizeNameText {
		return 17
	}
	return b.Theme.Size(n)
}
