package sheet

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

// all reads a table to its end.
func all(t *testing.T, tb *Table) []Row {
	t.Helper()
	var rows []Row
	for {
		r, err := tb.Next()
		if err == io.EOF {
			return rows
		}
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
}

func utf16le(s string) []byte {
	b, err := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().Bytes([]byte(s))
	if err != nil {
		panic(err)
	}
	return b
}

func latin1(s string) []byte {
	b, err := charmap.Windows1252.NewEncoder().Bytes([]byte(s))
	if err != nil {
		panic(err)
	}
	return b
}

// A CSV reads the same whichever program saved it: UTF-8 with or without
// a BOM, UTF-16, Latin-1; comma, semicolon or tab; quoted separators and
// line breaks in cells; blank lines skipped; rows numbered as the
// spreadsheet program shows them.
func TestACSVReadsTheSameWhicheverProgramSavedIt(t *testing.T) {
	text := "Produto,Descrição\nCafé,\"Torra média, 250 g\"\n\nChá,\"Verde\nem folhas\"\n"
	want := []Row{{2, []string{"Café", "Torra média, 250 g"}}, {4, []string{"Chá", "Verde\nem folhas"}}}
	for name, data := range map[string][]byte{
		"utf-8":     []byte(text),
		"utf-8 bom": append([]byte{0xEF, 0xBB, 0xBF}, text...),
		"utf-16":    utf16le(text),
		"latin-1":   latin1(text),
		"semicolon": []byte(strings.ReplaceAll(strings.ReplaceAll(text, ",", ";"), "média; 250", "média, 250")),
		"tab":       []byte(strings.ReplaceAll(strings.ReplaceAll(text, ",", "\t"), "média\t 250", "média, 250")),
	} {
		tb, err := ReadCSV(context.Background(), bytes.NewReader(data), "produtos.csv")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if h := tb.Header(); !slices.Equal(h, []string{"Produto", "Descrição"}) {
			t.Fatalf("%s: header %q", name, h)
		}
		got := all(t, tb)
		if len(got) != len(want) {
			t.Fatalf("%s: rows %v", name, got)
		}
		for i := range want {
			if got[i].Number != want[i].Number || !slices.Equal(got[i].Cells, want[i].Cells) {
				t.Fatalf("%s: row %d is %v %q, want %v %q", name, i, got[i].Number, got[i].Cells, want[i].Number, want[i].Cells)
			}
		}
	}
}

// Sheets that hold no work say what is wrong, by kind.
func TestABadSheetSaysWhatIsWrong(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	big := write("big.csv", bytes.Repeat([]byte("a,b\n"), MaxBytes/4+1))
	xl := func(name string, fill func(f *excelize.File)) string {
		f := excelize.NewFile()
		fill(f)
		p := filepath.Join(dir, name)
		if err := f.SaveAs(p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		path string
		want Kind
	}{
		{write("empty.csv", nil), Empty},
		{write("blank.csv", []byte("\n ,\n")), Empty},
		{write("header.csv", []byte("name,notes\n\n")), HeaderOnly},
		{big, TooLarge},
		{write("notes.pdf", []byte("%PDF-1.7")), Unreadable},
		{write("fake.xlsx", []byte("name,notes\nA,B\n")), Unreadable},
		{xl("empty.xlsx", func(*excelize.File) {}), Empty},
		{xl("header.xlsx", func(f *excelize.File) { _ = f.SetSheetRow("Sheet1", "A1", &[]any{"name", "notes"}) }), HeaderOnly},
		{xl("merged.xlsx", func(f *excelize.File) {
			_ = f.SetSheetRow("Sheet1", "A1", &[]any{"name", "notes"})
			_ = f.SetSheetRow("Sheet1", "A2", &[]any{"A", "same"})
			_ = f.SetSheetRow("Sheet1", "A3", &[]any{"B"})
			_ = f.MergeCell("Sheet1", "B2", "B3")
		}), Merged},
	} {
		tb, err := Open(context.Background(), tc.path)
		var e *Error
		if !errors.As(err, &e) || e.Kind != tc.want {
			if tb != nil {
				_ = tb.Close()
			}
			t.Errorf("%s: %v, want kind %d", filepath.Base(tc.path), err, tc.want)
		}
	}
}

// An Excel sheet reads row by row as the spreadsheet program shows it:
// numbers and dates as formatted, empty rows skipped.
func TestAnExcelSheetReadsAsShown(t *testing.T) {
	f := excelize.NewFile()
	_ = f.SetSheetRow("Sheet1", "A1", &[]any{"Product", "Price", "Launch"})
	_ = f.SetSheetRow("Sheet1", "A2", &[]any{"Coffee", 12.5, "2026-11-25"})
	_ = f.SetSheetRow("Sheet1", "A4", &[]any{"Tea", 3})
	p := filepath.Join(t.TempDir(), "products.xlsx")
	if err := f.SaveAs(p); err != nil {
		t.Fatal(err)
	}
	tb, err := Open(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if h := tb.Header(); !slices.Equal(h, []string{"Product", "Price", "Launch"}) {
		t.Fatalf("header %q", h)
	}
	got := all(t, tb)
	if len(got) != 2 || got[0].Number != 2 || got[1].Number != 4 ||
		!slices.Equal(got[0].Cells, []string{"Coffee", "12.5", "2026-11-25"}) || got[1].Cells[0] != "Tea" {
		t.Fatalf("rows %v", got)
	}
}

// FuzzReadCSV: any bytes read as a CSV give rows or a sheet error, never
// a panic (not even one caught), and what is read keeps within the
// limits: no cell longer than a cell may be.
func FuzzReadCSV(f *testing.F) {
	f.Add([]byte("a,b\n1,2\n"))
	f.Add([]byte("\xff\xfea\x00,\x00b\x00\n\x001\x00"))
	f.Add([]byte("\"unterminated,b\n1"))
	f.Add(latin1("nome;descrição\nCafé;ótimo\n"))
	f.Add([]byte("a,b,,,,,,,,,,\n1,2,3,4,5,6,7,8,9,10,11,12,13\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := limits{columns: 8, cells: 200, text: 4 << 10, sheetXML: 64 << 10}
		tb, err := readCSVSafely(context.Background(), bytes.NewReader(data), -1, "x.csv", lim)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || errors.Is(err, errPanic) {
				t.Fatalf("%v", err)
			}
			return
		}
		within(t, tb, lim)
	})
}

// A results sheet is whole at every moment (written beside and renamed),
// reads back as written in both formats, keeps what an agent wrote as
// text (no formula a spreadsheet program would run).
func TestAResultsSheetIsWholeAndInert(t *testing.T) {
	dir := t.TempDir()
	header := []string{"sku", "result", "status"}
	rows := [][]string{{"A-1", "=HYPERLINK(\"http://evil.example\",\"click\")", "done"}, {"-5", "-not a number", "done"}}
	for _, name := range []string{"results.csv", "results.xlsx"} {
		p := filepath.Join(dir, name)
		got, err := Write(p, header, rows, ';')
		if err != nil || got != p {
			t.Fatalf("%s: written to %q, %v", name, got, err)
		}
		tb, err := Open(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		back := all(t, tb)
		_ = tb.Close()
		if len(back) != 2 || back[1].Cells[0] != "-5" {
			t.Fatalf("%s reads back as %v", name, back)
		}
		formula := back[0].Cells[1]
		if strings.HasSuffix(name, ".csv") && !strings.HasPrefix(formula, "'=") {
			t.Fatalf("%s: an agent's =HYPERLINK(…) is written as %q, which a spreadsheet would run", name, formula)
		}
		if strings.HasSuffix(name, ".xlsx") {
			f, _ := excelize.OpenFile(p)
			if fm, _ := f.GetCellFormula("Sheet1", "B2"); fm != "" {
				t.Fatalf("%s: B2 holds the formula %q", name, fm)
			}
			_ = f.Close()
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") {
				t.Fatalf("a partial file %s was left", e.Name())
			}
		}
	}
}

// A formula reads as the result the spreadsheet program saved with it
// (never as the formula), and a date cell as the date it shows, which a
// batch turns into the date the service reads.
func TestFormulasAndDatesReadAsTheyShow(t *testing.T) {
	f := excelize.NewFile()
	_ = f.SetSheetRow("Sheet1", "A1", &[]any{"Product", "Total", "Launch"})
	_ = f.SetSheetRow("Sheet1", "A2", &[]any{"Coffee", 25, time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)})
	// As a spreadsheet program saves it: the formula and its last result.
	_ = f.SetCellFormula("Sheet1", "B2", "=12.5*2")
	p := filepath.Join(t.TempDir(), "totals.xlsx")
	if err := f.SaveAs(p); err != nil {
		t.Fatal(err)
	}
	tb, err := Open(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	got := all(t, tb)
	if len(got) != 1 {
		t.Fatalf("rows %v", got)
	}
	cells := got[0].Cells
	if cells[1] != "25" {
		t.Fatalf("the formula cell reads %q, want its saved result 25", cells[1])
	}
	if strings.Contains(cells[2], "46") || !strings.Contains(cells[2], "25") {
		t.Fatalf("the date cell reads %q, want the date as shown", cells[2])
	}
}

// ReadCSV reads a CSV sheet from r (name is for messages).
func ReadCSV(ctx context.Context, r io.Reader, name string) (*Table, error) {
	t, err := readCSVSafely(ctx, r, -1, name, standardLimits())
	if err != nil {
		return nil, err
	}
	return t, nil
}
