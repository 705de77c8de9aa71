// Package sheet reads spreadsheets row by row, streamed and bounded: CSV
// (encoding and separator sniffed) and the first sheet of .xlsx workbooks.
package sheet

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/agentdesk/agentdesk/internal/recovered"
)

// MaxBytes is the largest sheet read; one this large is likely the wrong file.
const MaxBytes = 20 << 20

// maxCell is the most of one cell kept.
const maxCell = 1 << 20

// What a sheet may hold: beyond, a batch would be unwieldy and reading slow.
const (
	// MaxColumns is the most columns a header may name.
	MaxColumns = 1000
	// MaxCells is the most cells kept, all rows together.
	MaxCells = 2_000_000
	// MaxText is the most text kept, cells and shared texts.
	MaxText = 64 << 20
	// maxSheetXML is the most a workbook's sheet may unpack to.
	maxSheetXML = 256 << 20
)

type limits struct {
	columns, cells int
	text, sheetXML int64
}

func standardLimits() limits {
	return limits{columns: MaxColumns, cells: MaxCells, text: MaxText, sheetXML: maxSheetXML}
}

// Row is one line of a sheet, numbered as the spreadsheet shows it.
type Row struct {
	Number int
	Cells  []string
}

// Kind is what is wrong with a sheet.
type Kind int

// What can be wrong with a sheet.
const (
	// Unreadable: not a CSV or Excel file Agent Desk can read (Detail).
	Unreadable Kind = iota + 1
	// Empty: no row at all.
	Empty
	// HeaderOnly: column names and no row under them.
	HeaderOnly
	// TooLarge: larger than MaxBytes.
	TooLarge
	// Merged: merged cells (Cell names the range); each row needs its own values.
	Merged
	// TooManyColumns: a header naming more than MaxColumns columns.
	TooManyColumns
	// TooManyCells: more than MaxCells cells (Row: where), or sheet XML that large.
	TooManyCells
	// TooMuchText: more than MaxText of text.
	TooMuchText
)

// Error is a problem with a sheet, with the facts app words it from.
type Error struct {
	Kind Kind
	Path string
	// Row is the row concerned (0: the whole sheet); Cell the cell or range.
	Row    int
	Cell   string
	Detail string // what the reader said, for Unreadable
	Err    error
}

func (e *Error) Error() string {
	what := map[Kind]string{
		Unreadable: "the file cannot be read as a spreadsheet", Empty: "the sheet is empty",
		HeaderOnly: "the sheet has column names but no rows", TooLarge: "the file is too large",
		Merged: "the sheet has merged cells", TooManyColumns: "the sheet has too many columns",
		TooManyCells: "the sheet has too many cells", TooMuchText: "the sheet has too much text",
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

// Open opens the sheet at path by its ending, reads the header and checks a row follows.
func Open(ctx context.Context, path string) (*Table, error) {
	return open(ctx, path, standardLimits())
}

// All is a sheet read whole: where it is, its columns and its rows.
type All struct {
	Path   string
	Header []string
	Rows   []Row
}

// ReadAll reads the sheet at path whole; tell, if set, hears the rows read
// and the share of the sheet after each row.
func ReadAll(ctx context.Context, path string, tell func(rows int, done float64)) (All, error) {
	all := All{Path: path}
	t, err := Open(ctx, path)
	if err != nil {
		return all, err
	}
	defer t.Close()
	all.Header = t.Header()
	for {
		r, err := t.Next()
		if err == io.EOF {
			return all, nil
		}
		if err != nil {
			return all, err
		}
		all.Rows = append(all.Rows, r)
		if tell != nil {
			tell(len(all.Rows), t.Progress())
		}
	}
}

// open is Open within lim; a panic in reading is an unreadable sheet.
func open(ctx context.Context, path string, lim limits) (t *Table, err error) {
	defer unpanic(path, &err)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, &Error{Kind: Unreadable, Path: path, Detail: err.Error(), Err: err}
	}
	if info.Size() > MaxBytes {
		return nil, &Error{Kind: TooLarge, Path: path}
	}
	var xlsx bool
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv", ".tsv", ".txt":
	case ".xlsx", ".xlsm":
		xlsx = true
	default:
		return nil, &Error{Kind: Unreadable, Path: path, Detail: "only CSV and Excel (.xlsx) sheets are read"}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, &Error{Kind: Unreadable, Path: path, Detail: err.Error(), Err: err}
	}
	if xlsx {
		return readXLSX(ctx, f, info.Size(), f, path, lim)
	}
	t, err = readCSVSafely(ctx, f, info.Size(), path, lim)
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return t, nil
}

// readCSVSafely reads a CSV sheet from r, closed with the table if it can be.
func readCSVSafely(ctx context.Context, r io.Reader, size int64, name string, lim limits) (t *Table, err error) {
	defer unpanic(name, &err)
	counted := &capped{r: io.LimitReader(r, MaxBytes+1), max: MaxBytes + 1}
	br := bufio.NewReaderSize(counted, 64<<10)
	text, err := decoded(br)
	if err != nil {
		return nil, &Error{Kind: Unreadable, Path: name, Detail: err.Error(), Err: err}
	}
	tb := bufio.NewReaderSize(text, 64<<10)
	head, _ := tb.Peek(64 << 10)
	cr := csv.NewReader(tb)
	cr.Comma = sniff(head)
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	closer, _ := r.(io.Closer)
	src := &csvTable{path: name, r: cr, closer: closer}
	t = &Table{ctx: ctx, path: name, src: src, k: kept{lim: lim, path: name}, read: counted, size: size}
	if err := t.start(true); err != nil {
		return nil, err
	}
	return t, nil
}

// unpanic, deferred, makes a reader's panic an unreadable sheet: the app goes on.
func unpanic(path string, err *error) {
	r := recover()
	if r == nil {
		return
	}
	e := &Error{Kind: Unreadable, Path: path, Err: errPanic}
	var re *recovered.Error
	if errors.As(recovered.From("a sheet", r), &re) {
		e.Detail = re.Reason // the runtime's words, never the sheet's
	}
	*err = e
}

// errPanic marks a reader's fault to mend.
var errPanic = errors.New("the sheet's reader failed")

type kept struct {
	lim   limits
	cells int
	text  int64
	path  string
}

func (k *kept) add(row int, cells []string) error {
	k.cells += len(cells)
	if k.cells > k.lim.cells {
		return &Error{Kind: TooManyCells, Path: k.path, Row: row}
	}
	for _, c := range cells {
		k.text += int64(len(c))
	}
	if k.text > k.lim.text {
		return &Error{Kind: TooMuchText, Path: k.path, Row: row}
	}
	return nil
}

func (k *kept) header(row int, rec []string) ([]string, error) {
	n := len(rec)
	for n > 0 && strings.TrimSpace(rec[n-1]) == "" {
		n--
	}
	if n > k.lim.columns {
		return nil, &Error{Kind: TooManyColumns, Path: k.path, Row: row}
	}
	return cells(rec[:n]), nil
}

// Table is a sheet read a row at a time from its records, CSV or workbook,
// on one goroutine.
type Table struct {
	ctx    context.Context
	path   string
	src    records
	k      kept
	header []string
	// width is the cells kept per record: the header's (with a CSV's, blank
	// names included).
	width int
	first *Row
	err   error
	read  *capped // what is read of the file or the sheet's XML
	size  int64   // of all of it, -1 when not known
}

// records are a sheet's numbered records within width (a header's whole); io.EOF after the last.
type records interface {
	record(width int, header bool) (int, []string, error)
	Close() error
}

// start reads the header, the first record not blank, and the row under it.
func (t *Table) start(padHeader bool) error {
	for {
		if err := t.ctx.Err(); err != nil {
			return err
		}
		n, rec, err := t.src.record(t.k.lim.columns, true)
		if err == io.EOF {
			return &Error{Kind: Empty, Path: t.path}
		}
		if err != nil {
			return err
		}
		if blankRow(rec) {
			continue
		}
		if t.header, err = t.k.header(n, rec); err != nil {
			return err
		}
		t.width = len(t.header)
		if padHeader {
			t.width = min(len(rec), t.k.lim.columns)
			t.header = append(t.header, make([]string, max(0, t.width-len(t.header)))...)
		}
		if err := t.k.add(n, t.header); err != nil {
			return err
		}
		break
	}
	first, err := t.Next()
	if err == io.EOF {
		return &Error{Kind: HeaderOnly, Path: t.path}
	}
	t.first = &first
	return err
}

// Header is the first row: the columns' names.
func (t *Table) Header() []string { return t.header }

// Progress is how much of the sheet is read, from 0 to 1.
func (t *Table) Progress() float64 {
	if t.read == nil || t.size <= 0 {
		return 0
	}
	return min(1, float64(t.read.n)/float64(t.size))
}

func (t *Table) Close() error { return t.src.Close() }

// Next is the next row, io.EOF after the last; empty rows are skipped and
// cells past the header dropped. Once Open's context ends, its error.
func (t *Table) Next() (r Row, err error) {
	defer func() {
		if err != nil && err != io.EOF {
			t.err = err
		}
	}()
	defer unpanic(t.path, &err)
	if t.err != nil {
		return Row{}, t.err
	}
	if t.first != nil {
		r := *t.first
		t.first = nil
		return r, nil
	}
	for {
		if err := t.ctx.Err(); err != nil {
			return Row{}, err
		}
		n, rec, err := t.src.record(t.width, false)
		if err != nil {
			return Row{}, err
		}
		if !blankRow(rec) {
			c := cells(rec)
			return Row{Number: n, Cells: c}, t.k.add(n, c)
		}
	}
}

type csvTable struct {
	path string
	r    *csv.Reader
	// inCells counts line breaks inside cells, so rows number as spreadsheets do.
	inCells int
	closer  io.Closer
}

func (t *csvTable) record(width int, header bool) (int, []string, error) {
	rec, err := t.r.Read()
	if err == io.EOF {
		return 0, nil, io.EOF
	}
	if err != nil {
		var pe *csv.ParseError
		if !header && errors.As(err, &pe) {
			return 0, nil, &Error{Kind: Unreadable, Path: t.path, Row: pe.Line, Detail: pe.Err.Error(), Err: err}
		}
		return 0, nil, &Error{Kind: Unreadable, Path: t.path, Detail: err.Error(), Err: err}
	}
	n := t.rowOf(rec)
	if !header && len(rec) > width {
		rec = rec[:width]
	}
	return n, rec, nil
}

// rowOf numbers a record as a spreadsheet does: blank lines count, in-cell breaks not.
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

// decoded is br as UTF-8: BOMs handled, anything else not UTF-8 read as Windows-1252.
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

func trimPartialRune(b []byte) []byte {
	for i := 0; i < utf8.UTFMax && len(b) > 0; i++ {
		if r, _ := utf8.DecodeLastRune(b); r != utf8.RuneError {
			return b
		}
		b = b[:len(b)-1]
	}
	return b
}

// sniff picks the commonest of comma, semicolon and tab outside quotes in the header line.
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
	return !slices.ContainsFunc(rec, func(c string) bool { return strings.TrimSpace(c) != "" })
}
