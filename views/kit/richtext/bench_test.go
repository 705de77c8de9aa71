package richtext

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// longReply is about n bytes of the markdown agents write: paragraphs,
// headings, lists, code and tables.
func longReply(n int) string {
	rng := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("the budget review team invoice supplier delivery plan office meeting report quarter expense policy holiday rota contract clause summary action owner date")
	sentence := func() string {
		k := 8 + rng.IntN(10)
		w := make([]string, k)
		for i := range w {
			w[i] = words[rng.IntN(len(words))]
		}
		w[0] = strings.ToUpper(w[0][:1]) + w[0][1:]
		return strings.Join(w, " ") + "."
	}
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		switch i % 6 {
		case 0:
			fmt.Fprintf(&b, "## Section %d\n\n", i/6+1)
		case 1, 3:
			for j := 0; j < 4; j++ {
				b.WriteString(sentence() + " ")
			}
			b.WriteString("\n\n")
		case 2:
			for j := 0; j < 4; j++ {
				fmt.Fprintf(&b, "- %s **%s**\n", sentence(), words[j])
			}
			b.WriteString("\n")
		case 4:
			b.WriteString("```python\n")
			for j := 0; j < 6; j++ {
				fmt.Fprintf(&b, "total_%d = sum(row[%d] for row in sheet)\n", j, j)
			}
			b.WriteString("```\n\n")
		case 5:
			b.WriteString("| Step | Owner | When |\n|---|---|---|\n")
			for j := 0; j < 4; j++ {
				fmt.Fprintf(&b, "| %s | %s | Week %d |\n", words[rng.IntN(len(words))], words[rng.IntN(len(words))], j+1)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

func fragments(s string, size int) []string {
	out := make([]string, 0, len(s)/size+1)
	for i := 0; i < len(s); i += size {
		out = append(out, s[i:min(i+size, len(s))])
	}
	return out
}

// BenchmarkStreamRender100KB streams a 100 kB reply in 4-character fragments
// through Markdown.Append/Flush (what the live chat does each frame), with a
// redraw of the window forced every 16 fragments: the open block is
// re-parsed, the reply laid out at the window's width and the window
// content refreshed (the test driver's software rasteriser is left out: it
// costs about 100 ms per frame whatever is on screen, unlike a GPU). Beside it, the naive way
// (one RichText re-parsed per fragment) on the first 10 kB.
func BenchmarkStreamRender100KB(b *testing.B) {
	test.NewTempApp(b)
	src := longReply(100 << 10)
	frags := fragments(src, 4)
	const tenKB = 10 << 10
	var redraws []time.Duration
	var whole, first10 time.Duration
	b.ResetTimer()
	for it := 0; it < b.N; it++ {
		m := NewMarkdown("", nil)
		w := test.NewTempWindow(b, container.NewVScroll(m))
		w.Resize(fyne.NewSize(800, 600))
		c := w.Canvas()
		start := time.Now()
		shown := 0
		for i, f := range frags {
			m.Append(f)
			shown += len(f)
			if i%16 == 15 || i == len(frags)-1 {
				t0 := time.Now()
				m.Flush(i == len(frags)-1)
				m.Resize(fyne.NewSize(780, m.MinSize().Height))
				m.Refresh()
				c.Refresh(m)
				redraws = append(redraws, time.Since(t0))
			}
			if first10 == 0 && shown >= tenKB && it == 0 {
				first10 = time.Since(start)
			}
		}
		whole += time.Since(start)
		if m.Text() != src {
			b.Fatal("text lost")
		}
	}
	b.StopTimer()

	// The naive way: one RichText re-parsed for every fragment.
	naiveStart := time.Now()
	rt := widget.NewRichText()
	rt.Wrapping = fyne.TextWrapWord
	w := test.NewTempWindow(b, container.NewVScroll(rt))
	w.Resize(fyne.NewSize(800, 600))
	var sb strings.Builder
	for i, f := range fragments(src[:tenKB], 4) {
		sb.WriteString(f)
		rt.ParseMarkdown(sb.String())
		if i%16 == 15 {
			rt.Resize(fyne.NewSize(780, rt.MinSize().Height))
			w.Canvas().Refresh(rt)
		}
	}
	naive := time.Since(naiveStart)

	sort.Slice(redraws, func(i, j int) bool { return redraws[i] < redraws[j] })
	p99 := redraws[len(redraws)*99/100]
	b.ReportMetric(float64(whole.Milliseconds())/float64(b.N), "stream-ms")
	b.ReportMetric(float64(p99.Microseconds())/1000, "p99-redraw-ms")
	b.ReportMetric(float64(naive.Milliseconds()), "naive-10KB-ms")
	b.ReportMetric(float64(first10.Milliseconds()), "incremental-10KB-ms")
	if first10 > 0 {
		b.ReportMetric(float64(naive)/float64(first10), "naive/incremental")
	}
}

// BenchmarkCodeFragment2MiB shows a reply whose code block arrives in one
// 2 MiB event: time until it is shown and laid out, then the slowest of
// 200 frames scrolling through the block. Beside it, the same for a 2 kB
// block: the ratio shows what the size costs.
func BenchmarkCodeFragment2MiB(b *testing.B) {
	test.NewTempApp(b)
	show := func(code string) (shown, worst time.Duration) {
		m := NewMarkdown("", nil)
		w := test.NewTempWindow(b, container.NewVScroll(m))
		w.Resize(fyne.NewSize(1000, 700))
		start := time.Now()
		m.Append("Here it is:\n\n```python\n" + code + "```\n\nThat is all.")
		m.Flush(true)
		m.Resize(fyne.NewSize(980, m.MinSize().Height))
		w.Canvas().Refresh(m)
		shown = time.Since(start)
		var c *CodeBlock
		walkObjects(m, func(o fyne.CanvasObject) {
			if x, ok := o.(*CodeBlock); ok {
				c = x
			}
		})
		if c == nil {
			b.Fatal("no code block")
		}
		end := c.lines.MinSize().Height
		for i := 0; i < 200; i++ {
			t0 := time.Now()
			wheel := &fyne.ScrollEvent{Scrolled: fyne.Delta{DY: -end / 200}}
			c.scroll.Scrolled(wheel)
			w.Canvas().Refresh(c.lines)
			worst = max(worst, time.Since(t0))
		}
		return shown, worst
	}
	big, small := bigCode(2<<20), bigCode(2<<10)
	var bigShown, bigWorst, smallShown time.Duration
	for i := 0; i < b.N; i++ {
		s, w := show(big)
		bigShown += s
		bigWorst = max(bigWorst, w)
		s, _ = show(small)
		smallShown += s
	}
	b.ReportMetric(float64(bigShown.Microseconds())/1000/float64(b.N), "2MiB-shown-ms")
	b.ReportMetric(float64(bigWorst.Microseconds())/1000, "2MiB-worst-scroll-frame-ms")
	b.ReportMetric(float64(smallShown.Microseconds())/1000/float64(b.N), "2kB-shown-ms")
	b.ReportMetric(float64(bigShown)/float64(smallShown), "2MiB/2kB")
}
