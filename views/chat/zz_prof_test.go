package chat

import (
	"sort"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
)

func BenchmarkZZStreamOnly(b *testing.B) {
	test.NewTempApp(b)
	src := longReply(100 << 10)
	frags := fragments(src, 4)
	var redraws []time.Duration
	var whole time.Duration
	var flushT, sizeT, refT time.Duration
	b.ResetTimer()
	for it := 0; it < b.N; it++ {
		m := NewMarkdown("")
		w := test.NewTempWindow(b, container.NewVScroll(m))
		w.Resize(fyne.NewSize(800, 600))
		c := w.Canvas()
		start := time.Now()
		for i, f := range frags {
			m.Append(f)
			if i%16 == 15 || i == len(frags)-1 {
				t0 := time.Now()
				m.Flush(i == len(frags)-1)
				t1 := time.Now()
				m.Resize(fyne.NewSize(780, m.MinSize().Height))
				t2 := time.Now()
				m.Refresh()
				c.Refresh(m)
				t3 := time.Now()
				flushT += t1.Sub(t0)
				sizeT += t2.Sub(t1)
				refT += t3.Sub(t2)
				redraws = append(redraws, time.Since(t0))
			}
		}
		whole += time.Since(start)
	}
	b.StopTimer()
	sort.Slice(redraws, func(i, j int) bool { return redraws[i] < redraws[j] })
	b.ReportMetric(float64(whole.Milliseconds())/float64(b.N), "stream-ms")
	b.ReportMetric(float64(redraws[len(redraws)*99/100].Microseconds())/1000, "p99-redraw-ms")
	b.ReportMetric(float64(flushT.Milliseconds())/float64(b.N), "flush-ms")
	b.ReportMetric(float64(sizeT.Milliseconds())/float64(b.N), "size-ms")
	b.ReportMetric(float64(refT.Milliseconds())/float64(b.N), "refresh-ms")
}
