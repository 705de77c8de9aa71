package sheet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// memory is what reading allocated, and the most heap it had in use at
// once beyond what was in use before (sampled every few milliseconds).
type memory struct{ allocated, peak uint64 }

func (m memory) String() string {
	return fmt.Sprintf("%.1f MB allocated, %.1f MB at most in use", float64(m.allocated)/(1<<20), float64(m.peak)/(1<<20))
}

// measured runs read and says what memory it took.
func measured(read func()) memory {
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > before.HeapInuse && ms.HeapInuse-before.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse - before.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	})
	read()
	close(stop)
	wg.Wait()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	return memory{allocated: after.TotalAlloc - before.TotalAlloc, peak: peak.Load()}
}

// readAll opens the sheet at path and reads it to its end: the rows read
// and what ended them (nil: the end of the sheet).
func readAll(ctx context.Context, path string) (int, error) {
	tb, err := Open(ctx, path)
	if err != nil {
		return 0, err
	}
	defer tb.Close()
	n := 0
	for {
		if _, err := tb.Next(); err == io.EOF {
			return n, nil
		} else if err != nil {
			return n, err
		}
		n++
	}
}

func kindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return 0
}

// The sheets of issue 37 are refused before they are read, or read in a
// moment, in little memory: a 27 kB sheet whose rows each hold one cell
// in column XFD (5,000 rows, 20 s and gigabytes: each row was padded to
// 16,384 cells); a sheet whose rows each hold such a cell beside their
// own (the issue's 7 MB one has 420,000 rows and took minutes: here
// 40,000, BenchmarkIssue37Sheets reads it whole); a 200 kB sheet over
// 79 MB of shared texts (1.6 GB). A cell right of the header's columns is
// left out, never padded to.
func TestIssue37SheetsAreRefusedOrReadInLittleMemory(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		name string
		data []byte
		want Kind // 0: read to its end
		rows int
	}{
		// Its first row, the header, holds one cell in XFD.
		{"far.xlsx", farColumnBook(t, 5000, false), TooManyColumns, 0},
		{"long.xlsx", longBook(t, 40_000), 0, 40_000},
		{"strings.xlsx", zipped(t, bigStringsParts(79)), TooMuchText, 0},
	} {
		path := saved(t, tc.name, tc.data)
		var (
			n   int
			err error
		)
		start := time.Now()
		m := measured(func() { n, err = readAll(context.Background(), path) })
		t.Logf("%s (%d kB): %d rows in %v, %v; %v", tc.name, len(tc.data)>>10, n, time.Since(start).Round(time.Millisecond), err, m)
		if got := kindOf(err); got != tc.want || (tc.want == 0 && err != nil) || n != tc.rows {
			t.Fatalf("%s: %d rows, %v; want %d rows and kind %d", tc.name, n, err, tc.rows, tc.want)
		}
		if m.peak > 800*mb {
			t.Fatalf("%s: %v", tc.name, m)
		}
		// A padded row is 16,384 strings: 256 kB.
		if tc.want == 0 && m.allocated/uint64(n) > 16<<10 {
			t.Fatalf("%s: %v, %d bytes a row", tc.name, m, m.allocated/uint64(n))
		}
		// Refused before it is read: the shared texts are not taken in.
		if tc.want != 0 && m.allocated > 8*mb {
			t.Fatalf("%s: refused after %v", tc.name, m)
		}
	}
}

// A row holds its cells under the header's columns, at their places,
// however far right a cell beside them lies.
func TestASparseRowKeepsItsCellsInPlace(t *testing.T) {
	data := zipped(t, bookParts(func(w io.Writer) error {
		_, err := io.WriteString(w, `<row r="1"><c r="A1" t="inlineStr"><is><t>sku</t></is></c><c r="D1" t="inlineStr"><is><t>notes</t></is></c></row>`+
			`<row r="3"><c r="D3" t="inlineStr"><is><t>only D</t></is></c><c r="XFD3"><v>7</v></c></row>`+
			`<row r="4"><c r="XFD4"><v>7</v></c></row>`+
			`<row r="5"><c r="B5"><v>2</v></c><c r="A5" t="inlineStr"><is><t>first</t></is></c></row>`)
		return err
	}, nil))
	tb, err := Open(context.Background(), saved(t, "sparse.xlsx", data))
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	got := fmt.Sprint(all(t, tb))
	if want := "[{3 [   only D]} {5 [first 2]}]"; got != want {
		t.Fatalf("rows %s, want %s", got, want)
	}
}

// A sheet past a limit is refused as soon as the limit is passed, with
// the limit it passed, in both formats: columns at the header, cells and
// text at the row where their count passed the limit, a workbook whose
// sheet or shared texts unpack to too much before anything is read.
func TestASheetPastALimitIsRefusedWithTheLimit(t *testing.T) {
	csv := func(header string, rows int, cell string) []byte {
		var b strings.Builder
		b.WriteString(header + "\n")
		for i := range rows {
			fmt.Fprintf(&b, "%s%d,b\n", cell, i)
		}
		return []byte(b.String())
	}
	xl := func(header []string, rows int, cell string) []byte {
		return zipped(t, bookParts(func(w io.Writer) error {
			io.WriteString(w, `<row r="1">`)
			for i, h := range header {
				fmt.Fprintf(w, `<c r="%s1" t="inlineStr"><is><t>%s</t></is></c>`, colName(i+1), h)
			}
			io.WriteString(w, `</row>`)
			for r := 2; r < rows+2; r++ {
				fmt.Fprintf(w, `<row r="%d"><c r="A%d" t="inlineStr"><is><t>%s%d</t></is></c><c r="B%d" t="s"><v>0</v></c></row>`, r, r, cell, r, r)
			}
			return nil
		}, func(w io.Writer) error { _, err := io.WriteString(w, `<si><t>b</t></si>`); return err }))
	}
	lim := limits{columns: 4, cells: 40, text: 400, sheetXML: 16 << 10}
	for _, tc := range []struct {
		name string
		data []byte
		want Kind // 0: read to its end
		row  int  // where it was refused (0: before any row)
	}{
		{"columns.csv", csv("a,b,c,d,e", 3, "x"), TooManyColumns, 1},
		{"columns.xlsx", xl([]string{"a", "b", "c", "d", "e"}, 3, "x"), TooManyColumns, 1},
		// Blank names right of the named columns are not columns.
		{"named.csv", csv("a,b,,,,,,", 3, "x"), 0, 0},
		// 2 cells a row: the header and 19 rows make 40.
		{"cells.csv", csv("a,b", 100, "x"), TooManyCells, 21},
		{"cells.xlsx", xl([]string{"a", "b"}, 100, "x"), TooManyCells, 21},
		// 102 bytes a row.
		{"text.csv", csv("a,b", 10, strings.Repeat("x", 100)), TooMuchText, 5},
		{"text.xlsx", xl([]string{"a", "b"}, 10, strings.Repeat("x", 100)), TooMuchText, 5},
		// More than 16 kB of XML, refused from the zip's directory.
		{"xml.xlsx", xl([]string{"a", "b"}, 200, "x"), TooManyCells, 0},
	} {
		path := saved(t, tc.name, tc.data)
		tb, err := open(context.Background(), path, lim)
		read := 0
		for err == nil {
			_, err = tb.Next()
			read++
		}
		if tb != nil {
			_ = tb.Close()
		}
		if tc.want == 0 {
			if err != io.EOF {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Kind != tc.want || e.Row != tc.row {
			t.Errorf("%s: %v (%+v), want kind %d at row %d", tc.name, err, e, tc.want, tc.row)
		}
	}
}

// A zip that says its shared texts are small while they unpack to
// megabytes is refused once it is seen to hold more than it said, before
// the rest is unpacked.
func TestAWorkbookThatUnpacksToMoreThanItSaysIsRefused(t *testing.T) {
	parts := bigStringsParts(16)
	parts[len(parts)-1].lie = 1 << 10
	path := saved(t, "lying.xlsx", zipped(t, parts))
	var err error
	m := measured(func() { _, err = readAll(context.Background(), path) })
	if kindOf(err) != Unreadable || m.allocated > 8<<20 {
		t.Fatalf("%v after %v", err, m)
	}
	// The sheet's part too, read through before its rows.
	parts = bookParts(func(w io.Writer) error {
		for r := 1; r < 100_000; r++ {
			if _, err := fmt.Fprintf(w, `<row r="%d"><c r="A%d"><v>1</v></c></row>`, r, r); err != nil {
				return err
			}
		}
		return nil
	}, nil)
	parts[len(parts)-1].lie = 1 << 10
	tb, err := open(context.Background(), saved(t, "lying sheet.xlsx", zipped(t, parts)), standardLimits())
	if kindOf(err) != Unreadable {
		t.Fatalf("%v", err)
	}
	if tb != nil {
		_ = tb.Close()
	}
}

// cancelAfter is a context whose Err reports it cancelled from its
// checks-th look on: reading looks at it as it goes.
type cancelAfter struct {
	context.Context
	checks atomic.Int64
}

func (c *cancelAfter) Err() error {
	if c.checks.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// Cancelling stops the reading within a moment, in both formats: the
// read through before the rows, the rows (Next says context.Canceled at
// once, and again).
func TestCancellingStopsTheReading(t *testing.T) {
	xlsx := saved(t, "requests.xlsx", requestsBook(t, 20_000))
	var b strings.Builder
	b.WriteString("sku,request\n")
	for i := range 20_000 {
		fmt.Fprintf(&b, "SKU-%d,Write 40 words about product %d\n", i, i)
	}
	csv := saved(t, "requests.csv", []byte(b.String()))

	// Before its rows: the XML read through, the shared texts.
	for checks := range int64(4) {
		ctx := &cancelAfter{Context: context.Background()}
		ctx.checks.Store(checks)
		tb, err := Open(ctx, xlsx)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled at look %d: %v", checks, err)
		}
		if tb != nil {
			_ = tb.Close()
		}
	}

	for _, path := range []string{xlsx, csv} {
		ctx, cancel := context.WithCancel(context.Background())
		tb, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		for range 10 {
			if _, err := tb.Next(); err != nil {
				t.Fatal(err)
			}
		}
		cancel()
		for range 2 {
			if _, err := tb.Next(); !errors.Is(err, context.Canceled) {
				t.Fatalf("%s: after Cancel, %v", filepath.Base(path), err)
			}
		}
		if p := tb.Progress(); p <= 0 || p >= 1 {
			t.Fatalf("%s: progress %v", filepath.Base(path), p)
		}
		_ = tb.Close()

	}
}

// panicky is a context that panics when looked at once armed, as a
// reader that meets what it did not expect might.
type panicky struct {
	context.Context
	armed atomic.Bool
}

func (p *panicky) Err() error {
	if p.armed.Load() {
		panic("unexpected")
	}
	return nil
}

// A panic while reading a sheet, in Open or in Next, is a sheet that
// cannot be read, said as such: the app goes on.
func TestAPanicInReadingIsAnUnreadableSheet(t *testing.T) {
	paths := []string{saved(t, "requests.xlsx", requestsBook(t, 100)), saved(t, "requests.csv", []byte("a,b\n1,2\n3,4\n"))}
	unreadable := func(err error) bool {
		var e *Error
		return errors.As(err, &e) && e.Kind == Unreadable && errors.Is(err, errPanic)
	}
	for _, path := range paths {
		ctx := &panicky{Context: context.Background()}
		ctx.armed.Store(true)
		if _, err := Open(ctx, path); !unreadable(err) {
			t.Fatalf("%s: Open says %v", filepath.Base(path), err)
		}
		ctx.armed.Store(false)
		tb, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		ctx.armed.Store(true)
		_, err = tb.Next() // the first row, read by Open
		for err == nil {
			_, err = tb.Next()
		}
		if !unreadable(err) {
			t.Fatalf("%s: Next says %v", filepath.Base(path), err)
		}
		_ = tb.Close()
	}
}

// smallBooks are workbooks to start fuzzing from: made by excelize, and
// written by hand with shared and inline texts, styles, a far cell, a
// merged range.
func smallBooks(t testing.TB) [][]byte {
	f := excelize.NewFile()
	_ = f.SetSheetRow("Sheet1", "A1", &[]any{"Product", "Price", "Launch"})
	_ = f.SetSheetRow("Sheet1", "A2", &[]any{"Coffee", 12.5, time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)})
	_ = f.SetSheetRow("Sheet1", "A4", &[]any{"Tea", true})
	var made bytes.Buffer
	if err := f.Write(&made); err != nil {
		t.Fatal(err)
	}
	merged := zipped(t, bookParts(func(w io.Writer) error {
		_, err := io.WriteString(w, `<row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c></row></sheetData><mergeCells count="1"><mergeCell ref="A2:A3"/></mergeCells><sheetData>`)
		return err
	}, nil))
	return [][]byte{made.Bytes(), requestsBook(t, 3), farColumnBook(t, 2, true), denseBook(t, 2, 4), merged}
}

// FuzzReadXLSX: any bytes read as a workbook give rows or a sheet error,
// never a panic (not even one caught), and what is read keeps within the
// limits.
func FuzzReadXLSX(f *testing.F) {
	for _, b := range smallBooks(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := limits{columns: 8, cells: 200, text: 4 << 10, sheetXML: 64 << 10}
		tb, err := readXLSX(context.Background(), bytes.NewReader(data), int64(len(data)), nil, "x.xlsx", lim)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || errors.Is(err, errPanic) {
				t.Fatalf("%v", err)
			}
			return
		}
		defer tb.Close()
		within(t, tb, lim)
	})
}

// within reads tb to its end and checks what it held kept to lim.
func within(t *testing.T, tb *Table, lim limits) {
	t.Helper()
	h := tb.Header()
	cells, text := len(h), 0
	if len(h) > lim.columns {
		t.Fatalf("a header of %d columns", len(h))
	}
	for _, c := range h {
		text += len(c)
	}
	for {
		r, err := tb.Next()
		if err != nil {
			var e *Error
			if err != io.EOF && (!errors.As(err, &e) || errors.Is(err, errPanic)) {
				t.Fatalf("%v", err)
			}
			return
		}
		if len(r.Cells) > len(h) {
			t.Fatalf("a row of %d cells under %d columns", len(r.Cells), len(h))
		}
		cells += len(r.Cells)
		for _, c := range r.Cells {
			if len(c) > maxCell {
				t.Fatalf("a cell of %d bytes", len(c))
			}
			text += len(c)
		}
		if cells > lim.cells || int64(text) > lim.text {
			t.Fatalf("%d cells and %d bytes of text read", cells, text)
		}
		if p := tb.Progress(); p < 0 || p > 1 {
			t.Fatalf("progress %v", p)
		}
	}
}

// A merged range is found after the rows wherever it lies in the sheet's
// XML (across two reads of it too), whatever prefix its tag has; text
// that only names one is not one.
func TestAMergedRangeIsFoundWhereverItLies(t *testing.T) {
	for _, tc := range []struct{ xml, want string }{
		{`<mergeCells count="1"><mergeCell ref="B2:B3"/></mergeCells>`, "B2:B3"},
		{`<x:mergeCells count="1"><x:mergeCell ref="A1:A2"/></x:mergeCells>`, "A1:A2"},
		{`<mergeCells count="1"><mergeCell  ref='C1:D1'></mergeCell></mergeCells>`, "C1:D1"},
		{`<t>see x:mergeCell ref="A1:A2" here</t>`, ""},
	} {
		// The tag begins a little before, at and after the end of the
		// first read of the sheet (256 kB).
		for shift := -40; shift <= 40; shift += 4 {
			head := `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="` + nsMain + `"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c></row><row r="2"><c r="A2"><v>1</v></c></row></sheetData>`
			pad := strings.Repeat(" ", 256<<10+shift-len(head))
			sheet := head + pad + tc.xml + `</worksheet>`
			parts := bookParts(func(io.Writer) error { return nil }, nil)
			parts[len(parts)-1] = text("xl/worksheets/sheet1.xml", sheet)
			tb, err := Open(context.Background(), saved(t, "merged.xlsx", zipped(t, parts)))
			var e *Error
			got := ""
			if errors.As(err, &e) && e.Kind == Merged {
				got = e.Cell
			} else if err != nil {
				t.Fatalf("%s at %d: %v", tc.xml, shift, err)
			}
			if tb != nil {
				_ = tb.Close()
			}
			if got != tc.want {
				t.Fatalf("%s at %d: merged %q, want %q", tc.xml, shift, got, tc.want)
			}
		}
	}
}
