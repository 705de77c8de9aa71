package sheet

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// BenchmarkRead100000Rows reads a 100,000-row sheet as the preview and a
// batch do (issue: under 2 s, streaming), as CSV and as Excel; it reports
// the heap in use after reading beside the file's size.
func BenchmarkRead100000Rows(b *testing.B) {
	const rows = 100_000
	dir := b.TempDir()
	csvPath := filepath.Join(dir, "products.csv")
	var sb strings.Builder
	sb.WriteString("sku,request,tone\n")
	for i := range rows {
		fmt.Fprintf(&sb, "SKU-%06d,\"Write 40 words about product %d, for the spring catalogue\",friendly\n", i, i)
	}
	if err := os.WriteFile(csvPath, []byte(sb.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	xlsxPath := filepath.Join(dir, "products.xlsx")
	f := excelize.NewFile()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		b.Fatal(err)
	}
	_ = sw.SetRow("A1", []any{"sku", "request", "tone"})
	for i := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+2)
		_ = sw.SetRow(cell, []any{fmt.Sprintf("SKU-%06d", i), fmt.Sprintf("Write 40 words about product %d, for the spring catalogue", i), "friendly"})
	}
	if err := sw.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.SaveAs(xlsxPath); err != nil {
		b.Fatal(err)
	}
	for _, path := range []string{csvPath, xlsxPath} {
		b.Run(filepath.Ext(path)[1:], func(b *testing.B) {
			info, _ := os.Stat(path)
			var heap uint64
			for b.Loop() {
				tb, err := Open(context.Background(), path)
				if err != nil {
					b.Fatal(err)
				}
				n := 0
				for {
					if _, err := tb.Next(); err == io.EOF {
						break
					} else if err != nil {
						b.Fatal(err)
					}
					n++
				}
				var ms runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&ms)
				heap = ms.HeapInuse
				_ = tb.Close()
				if n != rows {
					b.Fatalf("read %d rows, want %d", n, rows)
				}
			}
			b.ReportMetric(float64(info.Size())/(1<<20), "file-MB")
			b.ReportMetric(float64(heap)/(1<<20), "heap-MB")
		})
	}
}

// BenchmarkIssue37Sheets reads the sheets of issue 37 at their sizes: a
// 27 kB sheet of 5,000 rows each holding one cell in column XFD (was 24 s
// and 6.9 GB allocated), a 7 MB one of 420,000 rows each holding such a
// cell beside its own (was 5 min 18 s) and a 200 kB one over 79 MB of
// shared texts (was 35 s and 1.6 GB in use); it reports the rows read,
// the memory allocated and the most in use at once.
func BenchmarkIssue37Sheets(b *testing.B) {
	for _, s := range []struct {
		name string
		data []byte
	}{
		{"far.xlsx", farColumnBook(b, 5000, false)},
		{"seven.xlsx", longBook(b, 420_000)},
		{"strings.xlsx", zipped(b, bigStringsParts(79))},
	} {
		path := saved(b, s.name, s.data)
		b.Run(s.name, func(b *testing.B) {
			var (
				n int
				m memory
			)
			for b.Loop() {
				m = measured(func() { n, _ = readAll(context.Background(), path) })
			}
			b.ReportMetric(float64(len(s.data))/(1<<10), "file-kB")
			b.ReportMetric(float64(n), "rows")
			b.ReportMetric(float64(m.allocated)/(1<<20), "alloc-MB")
			b.ReportMetric(float64(m.peak)/(1<<20), "peak-MB")
		})
	}
}
