// Package sheet reads the spreadsheets staff run an agent over, row by
// row: CSV (UTF-8 with or without BOM, UTF-16 with a BOM, else Latin-1;
// comma, semicolon or tab, sniffed) through encoding/csv, and Excel
// workbooks (.xlsx, the first sheet) through excelize, streaming where the
// format allows so a 100,000-row sheet is never held whole. Problems are
// errors with facts (*Error); app words them.
package sheet

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// MaxBytes is the largest sheet read: a 300-row list of product texts is
// well under a megabyte; a file this large is more likely the wrong one.
const MaxBytes = 20 << 20

// maxCell is the most of one cell kept: a request longer than this is not
// one a person typed into a cell.
const maxCell = 1 << 20

// Row is one line of a sheet: its number as the spreadsheet program shows
// it (the header is row 1) and its cells, as text.
type Row struct {
	Number int
	Cells  []string
}

// Table is a sheet read a row at a time.
type Table interface {
	// Header is the first row: the columns' names.
	Header() []string
	// Next is the next row; io.EOF after the last. Rows with nothing in
	// them are skipped.
	Next() (Row, error)
	Close() error
}

// Kind is what is wrong with a sheet.
type Kind int

// What can be wrong with a sheet.
const (
	// Unreadable: not a CSV or Excel file Agent Desk can read (Detail).
	Unreadable Kind = iota + 1
	// Empty: no row at all.
	Empty
	// HeaderOnly: the names of the columns and no row under them.
	HeaderOnly
	// TooLarge: larger than MaxBytes.
	TooLarge
	// Merged: cells merged across rows or columns (Cell names the range);
	// each row needs its own values.
	Merged
)

// Error is a problem with a sheet, with the facts app words it from.
type Error struct {
	Kind Kind
	Path string
	// Row is the row concerned (0: the whole sheet); Cell the cell or
	// range ("B3", "B2:B4").
	Row    int
	Cell   string
	Detail string // what the reader said, for Unreadable
	Err    error
}

func (e *Error) Error() string {
	what := map[Kind]string{
		Unreadable: "the file cannot be read as a spreadsheet", Empty: "the sheet is empty",
		HeaderOnly: "the sheet has column names but no rows", TooLarge: "the file is too large",
		Merged: "the sheet has merged cells",
	}[e.Kind]
	s := fmt.Sprintf("sheet %s: %s", filepath.Base(e.Path), what)
	if e.Cell != "" {
		s += " (" + e.Cell + ")"
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// Open opens the sheet at path by its ending: .csv, .tsv and .txt as
// text, .xlsx as an Excel workbook (its first sheet). It reads the header
// and checks there is at least one row under it.
func Open(path string) (Table, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, &Error{Kind: Unreadable, Path: path, Detail: err.Error(), Err: err}
	}
	if info.Size() > MaxBytes {
		return nil, &Error{Kind: TooLarge, Path: path}
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv", ".tsv", ".txt":
		f, err := os.Open(path)
		if err != nil {
			return nil, &Error{Kind: Unreadable, Path: path, Detail: err.Error(), Err: err}
		}
		t, err := readCSV(f, path)
		if err != nil {
			_ = f.Close()
			return nil, err
		}
		t.closer = f
		return t, nil
	case ".xlsx", ".xlsm":
		return openXLSX(path)
	}
	return nil, &Error{Kind: Unreadable, Path: path, Detail: "only CSV and Excel (.xlsx) sheets are read"}
}

// ReadCSV reads a CSV sheet from r (name is for messages).
func ReadCSV(r io.Reader, name string) (Table, error) { return readCSV(r, name) }

type csvTable struct {
	path   string
	r      *csv.Reader
	header []string
	// inCells counts the line breaks inside the cells read so far: a
	// record's row, as a spreadsheet program numbers it, is its line less
	// those.
	inCells int
	first   *Row // the first row, read to check there is one
	closer  io.Closer
}

func readCSV(r io.Reader, path string) (*csvTable, error) {
	br := bufio.NewReaderSize(io.LimitReader(r, MaxBytes+1), 64<<10)
	text, err := decoded(br)
	if err != nil {
		return nil, &Error{Kind: Unreadable, Path: path, Detail: err.Error(), Err: err}
	}
	tb := bufio.NewReaderSize(text, 64<<10)
	head, _ := tb.Peek(64 << 10)
	cr := csv.NewReader(tb)
	cr.Comma = sniff(head)
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	cr.ReuseRecord = false
	t := &csvTable{path: path, r: cr}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil, &Error{Kind: Empty, Path: path}
		}
		if err != nil {
			return nil, &Error{Kind: Unreadable, Path: path, Detail: err.Error(), Err: err}
		}
		t.rowOf(rec)
		if !blankRow(rec) {
			t.header = cells(rec)
			break
		}
	}
	first, err := t.next()
	if err == io.EOF {
		return nil, &Error{Kind: HeaderOnly, Path: path}
	}
	if err != nil {
		return nil, err
	}
	t.first = &first
	return t, nil
}

func (t *csvTable) Header() []string { return t.header }

func (t *csvTable) Next() (Row, error) {
	if t.first != nil {
		r := *t.first
		t.first = nil
		return r, nil
	}
	return t.next()
}

func (t *csvTable) next() (Row, error) {
	for {
		rec, err := t.r.Read()
		if err == io.EOF {
			return Row{}, io.EOF
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return Row{}, &Error{Kind: Unreadable, Path: t.path, Row: pe.Line, Detail: pe.Err.Error(), Err: err}
			}
			return Row{}, &Error{Kind: Unreadable, Path: t.path, Detail: err.Error(), Err: err}
		}
		n := t.rowOf(rec)
		if !blankRow(rec) {
			return Row{Number: n, Cells: cells(rec)}, nil
		}
	}
}

// rowOf is the row number of the record just read, as a spreadsheet
// program shows it (blank lines are rows there; a cell's own line breaks
// are not).
func (t *csvTable) rowOf(rec []string) int {
	line, _ := t.r.FieldPos(0)
	n := line - t.inCells
	for _, c := range rec {
		t.inCells += strings.Count(c, "\n")
	}
	return n
}

func (t *csvTable) Close() error {
	if t.closer != nil {
		return t.closer.Close()
	}
	return nil
}

// decoded is br's text as UTF-8: a UTF-8 BOM is dropped, UTF-16 with its
// BOM decoded, and text that is not UTF-8 read as Windows Latin-1 (what
// spreadsheet programs in Portuguese and Spanish save "CSV" as).
func decoded(br *bufio.Reader) (io.Reader, error) {
	start, err := br.Peek(4)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, err
	}
	switch {
	case bytes.HasPrefix(start, []byte{0xEF, 0xBB, 0xBF}):
		_, _ = br.Discard(3)
		return br, nil
	case bytes.HasPrefix(start, []byte{0xFF, 0xFE}), bytes.HasPrefix(start, []byte{0xFE, 0xFF}):
		return transform.NewReader(br, unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewDecoder()), nil
	}
	sample, _ := br.Peek(64 << 10)
	if !utf8.Valid(trimPartialRune(sample)) {
		return transform.NewReader(br, charmap.Windows1252.NewDecoder()), nil
	}
	return br, nil
}

// trimPartialRune drops a rune cut off at the end of a sample.
func trimPartialRune(b []byte) []byte {
	for i := 0; i < utf8.UTFMax && len(b) > 0; i++ {
		if r, _ := utf8.DecodeLastRune(b); r != utf8.RuneError {
			return b
		}
		b = b[:len(b)-1]
	}
	return b
}

// sniff is the separator of a CSV from its first lines: the one of comma,
// semicolon and tab that appears most often outside quotes in the first
// line, which holds the column names.
func sniff(head []byte) rune {
	line := head
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		line = head[:i]
	}
	counts := map[rune]int{}
	quoted := false
	for _, r := range string(line) {
		switch {
		case r == '"':
			quoted = !quoted
		case !quoted && (r == ',' || r == ';' || r == '\t'):
			counts[r]++
		}
	}
	best := ','
	for _, r := range []rune{';', '\t'} {
		if counts[r] > counts[best] {
			best = r
		}
	}
	return best
}

// cells are a record's cells trimmed of surrounding space, each at most
// maxCell bytes.
func cells(rec []string) []string {
	out := make([]string, len(rec))
	for i, c := range rec {
		c = strings.TrimSpace(c)
		if len(c) > maxCell {
			c = strings.ToValidUTF8(c[:maxCell], "")
		}
		out[i] = c
	}
	return out
}

func blankRow(rec []string) bool {
	for _, c := range rec {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

type xlsxTable struct {
	path   string
	f      *excelize.File
	rows   *excelize.Rows
	header []string
	row    int
	first  *Row
}

// openXLSX opens a workbook's first sheet, refusing merged cells (a row
// would not have its own values).
func openXLSX(path string) (Table, error) {
	f, err := excelize.OpenFile(path, excelize.Options{UnzipSizeLimit: 4 * MaxBytes, UnzipXMLSizeLimit: 4 * MaxBytes})
	if err != nil {
		return nil, &Error{Kind: Unreadable, Path: path, Detail: err.Error(), Err: err}
	}
	fail := func(e error) (Table, error) {
		_ = f.Close()
		return nil, e
	}
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		return fail(&Error{Kind: Empty, Path: path})
	}
	sheet := sheets[0]
	if cells := mergedCells(f); cells != "" {
		return fail(&Error{Kind: Merged, Path: path, Cell: cells})
	}
	rows, err := f.Rows(sheet)
	if err != nil {
		return fail(&Error{Kind: Unreadable, Path: path, Detail: err.Error(), Err: err})
	}
	t := &xlsxTable{path: path, f: f, rows: rows}
	for {
		rec, err := t.read()
		if err == io.EOF {
			return fail(&Error{Kind: Empty, Path: path})
		}
		if err != nil {
			return fail(err)
		}
		if !blankRow(rec) {
			t.header = cells(rec)
			break
		}
	}
	first, err := t.Next()
	if err == io.EOF {
		return fail(&Error{Kind: HeaderOnly, Path: path})
	}
	if err != nil {
		return fail(err)
	}
	t.first = &first
	return t, nil
}

// read is the next row's cells as the spreadsheet program shows them:
// dates formatted, a formula as the result the file keeps (one saved
// without its result reads as an empty cell, which the rows' check
// names).
func (t *xlsxTable) read() ([]string, error) {
	if !t.rows.Next() {
		if err := t.rows.Error(); err != nil {
			return nil, &Error{Kind: Unreadable, Path: t.path, Detail: err.Error(), Err: err}
		}
		return nil, io.EOF
	}
	t.row++
	rec, err := t.rows.Columns()
	if err != nil {
		return nil, &Error{Kind: Unreadable, Path: t.path, Row: t.row, Detail: err.Error(), Err: err}
	}
	return rec, nil
}

func (t *xlsxTable) Header() []string { return t.header }

func (t *xlsxTable) Next() (Row, error) {
	if t.first != nil {
		r := *t.first
		t.first = nil
		return r, nil
	}
	for {
		rec, err := t.read()
		if err != nil {
			return Row{}, err
		}
		if blankRow(rec) {
			continue
		}
		return Row{Number: t.row, Cells: cells(rec)}, nil
	}
}

func (t *xlsxTable) Close() error {
	_ = t.rows.Close()
	return t.f.Close()
}

// mergedCells is the first merged range of the workbook's first sheet
// ("B2:B3"), or "". It reads the sheet's XML as it is kept in the file:
// asking excelize would build the whole sheet in memory (236 MB and 3 s
// for 100,000 rows, against 25 MB and 0.8 s to read them).
func mergedCells(f *excelize.File) string {
	part := func(name string) []byte {
		v, ok := f.Pkg.Load(name)
		if !ok {
			return nil
		}
		b, _ := v.([]byte)
		return b
	}
	var book struct {
		Sheets []struct {
			ID string `xml:"http://schemas.openxmlformats.org/officeDocument/2006/relationships id,attr"`
		} `xml:"sheets>sheet"`
	}
	var rels struct {
		Rels []struct {
			ID     string `xml:"Id,attr"`
			Target string `xml:"Target,attr"`
		} `xml:"Relationship"`
	}
	if xml.Unmarshal(part("xl/workbook.xml"), &book) != nil || len(book.Sheets) == 0 ||
		xml.Unmarshal(part("xl/_rels/workbook.xml.rels"), &rels) != nil {
		return ""
	}
	target := ""
	for _, r := range rels.Rels {
		if r.ID == book.Sheets[0].ID {
			target = strings.TrimPrefix(r.Target, "/")
			if !strings.HasPrefix(target, "xl/") {
				target = "xl/" + target
			}
		}
	}
	data := part(target)
	i := bytes.Index(data, []byte("<mergeCell "))
	if i < 0 {
		return ""
	}
	var m struct {
		Ref string `xml:"ref,attr"`
	}
	end := bytes.Index(data[i:], []byte(">"))
	if end < 0 || xml.Unmarshal(append(bytes.TrimSuffix(bytes.TrimSuffix(data[i:i+end+1], []byte(">")), []byte("/")), "/>"...), &m) != nil {
		return "?"
	}
	return m.Ref
}
