package sheet

import (
	"archive/zip"
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"path"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/text/encoding/htmlindex"
)

// The first sheet is streamed from its XML: excelize's row reader pads rows,
// holds shared texts as huge numbers of structures and cannot be stopped.

// maxPart bounds what the other parts may unpack to.
const maxPart = 16 << 20

// lastColumn and lastRow are Excel's (XFD, 1,048,576).
const (
	lastColumn = 16384
	lastRow    = 1 << 20
)

// errTooBig: a zip may understate a part's size, so what is read is counted.
var errTooBig = errors.New("the part unpacks to more than Agent Desk reads")

type xlsxTable struct {
	ctx    context.Context
	path   string
	file   io.Closer
	part   io.ReadCloser
	d      *xml.Decoder
	shared sharedTexts
	nums   *numbers
	k      *kept // the table's
	row    int   // the last row's number
	tokens int
	v, is  []byte // a cell's value and inline text, reused
}

// book is a workbook's zip, parts by name and lower-cased name.
type book struct {
	files map[string]*zip.File
}

func (b *book) file(name string) *zip.File {
	if f, ok := b.files[name]; ok {
		return f
	}
	return b.files[strings.ToLower(name)]
}

func (b *book) open(f *zip.File, limit int64) (io.ReadCloser, *capped, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, nil, err
	}
	c := &capped{r: rc, max: limit}
	return struct {
		io.Reader
		io.Closer
	}{c, rc}, c, nil
}

// capped counts what is read, for progress, and fails past max with errTooBig.
type capped struct {
	r      io.Reader
	n, max int64
}

func (c *capped) Read(p []byte) (int, error) {
	if c.n > c.max {
		return 0, errTooBig
	}
	if room := c.max + 1 - c.n; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.n > c.max {
		return n, errTooBig
	}
	return n, err
}

func (b *book) small(name string) ([]byte, error) {
	f := b.file(name)
	if f == nil {
		return nil, nil
	}
	if f.UncompressedSize64 > maxPart {
		return nil, errTooBig
	}
	rc, _, err := b.open(f, maxPart)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

func decoder(r io.Reader) *xml.Decoder {
	d := xml.NewDecoder(r)
	d.CharsetReader = func(label string, in io.Reader) (io.Reader, error) {
		e, err := htmlindex.Get(label)
		if err != nil {
			return nil, err
		}
		return e.NewDecoder().Reader(in), nil
	}
	return d
}

type relationships struct {
	Rels []struct {
		ID     string `xml:"Id,attr"`
		Type   string `xml:"Type,attr"`
		Target string `xml:"Target,attr"`
	} `xml:"Relationship"`
}

func (b *book) rels(from string) (relationships, error) {
	name := "_rels/.rels"
	if from != "" {
		name = path.Join(path.Dir(from), "_rels", path.Base(from)+".rels")
	}
	var r relationships
	data, err := b.small(name)
	if err != nil || data == nil {
		return r, err
	}
	return r, decoder(bytes.NewReader(data)).Decode(&r)
}

func target(from, to string) string {
	to = strings.ReplaceAll(to, `\`, "/")
	if strings.HasPrefix(to, "/") {
		return path.Clean(strings.TrimPrefix(to, "/"))
	}
	return path.Join(path.Dir(from), to)
}

func (r relationships) ofType(from, kind, def string) string {
	for _, rel := range r.Rels {
		if strings.HasSuffix(rel.Type, kind) {
			return target(from, rel.Target)
		}
	}
	return def
}

// readXLSX reads the workbook in r, checking sizes and merged cells before its
// rows; file is closed with the table or on refusal.
func readXLSX(ctx context.Context, r io.ReaderAt, size int64, file io.Closer, p string, lim limits) (tb *Table, err error) {
	unreadable := func(err error) error {
		return &Error{Kind: Unreadable, Path: p, Detail: err.Error(), Err: err}
	}
	t := &xlsxTable{ctx: ctx, path: p, file: file}
	st := &Table{ctx: ctx, path: p, src: t, k: kept{lim: lim, path: p}}
	t.k = &st.k
	defer func() {
		if errors.Is(err, errPanic) {
			_ = t.Close()
		}
	}()
	defer unpanic(p, &err)
	fail := func(e error) (*Table, error) {
		_ = t.Close()
		return nil, e
	}
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return fail(unreadable(err))
	}
	b := &book{files: map[string]*zip.File{}}
	for _, f := range zr.File {
		name := strings.TrimPrefix(strings.ReplaceAll(f.Name, `\`, "/"), "/")
		for _, n := range []string{name, strings.ToLower(name)} {
			if _, ok := b.files[n]; !ok {
				b.files[n] = f
			}
		}
	}
	pkg, err := b.rels("")
	if err != nil {
		return fail(unreadable(err))
	}
	wbPath := pkg.ofType("", "/officeDocument", "xl/workbook.xml")
	wbData, err := b.small(wbPath)
	if err != nil || wbData == nil {
		return fail(unreadable(cmp.Or(err, errors.New("the workbook has no workbook part"))))
	}
	var wb struct {
		Pr struct {
			Date1904 string `xml:"date1904,attr"`
		} `xml:"workbookPr"`
		Sheets []struct {
			ID string `xml:"id,attr"`
		} `xml:"sheets>sheet"`
	}
	if err := decoder(bytes.NewReader(wbData)).Decode(&wb); err != nil {
		return fail(unreadable(err))
	}
	if len(wb.Sheets) == 0 {
		return fail(&Error{Kind: Empty, Path: p})
	}
	wbRels, err := b.rels(wbPath)
	if err != nil {
		return fail(unreadable(err))
	}
	sheetPath := ""
	for _, r := range wbRels.Rels {
		if r.ID == wb.Sheets[0].ID {
			sheetPath = target(wbPath, r.Target)
		}
	}
	sheetFile := b.file(sheetPath)
	if sheetPath == "" || sheetFile == nil {
		return fail(unreadable(errors.New("the workbook's first sheet is missing")))
	}
	sharedFile := b.file(wbRels.ofType(wbPath, "/sharedStrings", "xl/sharedStrings.xml"))
	switch {
	case sheetFile.UncompressedSize64 > uint64(lim.sheetXML):
		return fail(&Error{Kind: TooManyCells, Path: p})
	case sharedFile != nil && sharedFile.UncompressedSize64 > uint64(lim.text):
		return fail(&Error{Kind: TooMuchText, Path: p})
	}
	size, merged, err := scanSheet(ctx, b, sheetFile, lim.sheetXML)
	switch {
	case errors.Is(err, errTooBig):
		return fail(&Error{Kind: TooManyCells, Path: p})
	case ctx.Err() != nil:
		return fail(ctx.Err())
	case err != nil:
		return fail(unreadable(err))
	case merged != "":
		return fail(&Error{Kind: Merged, Path: p, Cell: merged})
	}
	st.size = size // as counted before the rows
	if sharedFile != nil {
		t.shared, err = loadShared(ctx, b, sharedFile, lim.text)
		switch {
		case errors.Is(err, errTooBig):
			return fail(&Error{Kind: TooMuchText, Path: p})
		case ctx.Err() != nil:
			return fail(ctx.Err())
		case err != nil:
			return fail(unreadable(err))
		}
	}
	styles, err := b.small(wbRels.ofType(wbPath, "/styles", "xl/styles.xml"))
	if err != nil {
		return fail(unreadable(err))
	}
	t.nums = newNumbers(styles, wb.Pr.Date1904 == "1" || wb.Pr.Date1904 == "true")
	if t.part, st.read, err = b.open(sheetFile, lim.sheetXML); err != nil {
		return fail(unreadable(err))
	}
	t.d = decoder(bufio.NewReaderSize(st.read, 64<<10))
	if err := st.start(false); err != nil {
		return fail(err)
	}
	return st, nil
}

func (t *xlsxTable) Close() error {
	var err error
	if t.part != nil {
		err = t.part.Close()
	}
	if t.nums != nil {
		t.nums.close()
	}
	if t.file != nil {
		err = errors.Join(err, t.file.Close())
	}
	return err
}

// token checks the context every few thousand tokens, so rowless XML stops too.
func (t *xlsxTable) token() (xml.Token, error) {
	if t.tokens++; t.tokens%4096 == 0 {
		if err := t.ctx.Err(); err != nil {
			return nil, err
		}
	}
	tok, err := t.d.RawToken()
	switch {
	case err == io.EOF:
		return nil, io.EOF
	case errors.Is(err, errTooBig):
		return nil, &Error{Kind: TooManyCells, Path: t.path, Row: t.row}
	case err != nil:
		if ctx := t.ctx.Err(); ctx != nil {
			return nil, ctx
		}
		return nil, &Error{Kind: Unreadable, Path: t.path, Row: t.row, Detail: err.Error(), Err: err}
	}
	return tok, nil
}

// record is the next row's number and cells within width; io.EOF after the last.
func (t *xlsxTable) record(width int, header bool) (int, []string, error) {
	for {
		tok, err := t.token()
		if err != nil {
			return 0, nil, err
		}
		switch el := tok.(type) {
		case xml.StartElement:
			if el.Name.Local != "row" {
				continue
			}
			t.row++
			if r := attr(el, "r"); r != "" {
				if n, err := strconv.Atoi(r); err == nil && n > 0 {
					t.row = n
				}
			}
			if t.row > lastRow {
				return 0, nil, &Error{Kind: Unreadable, Path: t.path, Row: t.row, Detail: "a row past the last one a sheet can have"}
			}
			row, err := t.cells(width, header)
			return t.row, row, err
		case xml.EndElement:
			if el.Name.Local == "sheetData" {
				return 0, nil, io.EOF
			}
		}
	}
}

func (t *xlsxTable) cells(width int, header bool) ([]string, error) {
	var row []string
	col := 0
	var text int64 // the row's, refused before it is all held
	for {
		tok, err := t.token()
		if err == io.EOF {
			return row, nil
		}
		if err != nil {
			return nil, err
		}
		switch el := tok.(type) {
		case xml.EndElement:
			if el.Name.Local == "row" {
				return row, nil
			}
		case xml.StartElement:
			if el.Name.Local != "c" {
				continue
			}
			ref, kind, style := attr(el, "r"), attr(el, "t"), attr(el, "s")
			if err := t.cell(); err != nil {
				return nil, err
			}
			col++
			if ref != "" {
				if col = columnOf(ref); col == 0 {
					return nil, &Error{Kind: Unreadable, Path: t.path, Row: t.row, Cell: ref, Detail: "not a cell's name"}
				}
			}
			if col > lastColumn {
				return nil, &Error{Kind: Unreadable, Path: t.path, Row: t.row, Detail: "a cell past the last column a sheet can have"}
			}
			if col > width && !header {
				continue // no column name: no question can take it
			}
			v, err := t.value(kind, style, ref)
			if err != nil {
				return nil, err
			}
			if v == "" {
				continue
			}
			if col > width {
				if strings.TrimSpace(v) != "" {
					return nil, &Error{Kind: TooManyColumns, Path: t.path, Row: t.row}
				}
				continue
			}
			if text += int64(min(len(v), maxCell)); t.k.text+text > t.k.lim.text {
				return nil, &Error{Kind: TooMuchText, Path: t.path, Row: t.row}
			}
			for len(row) < col {
				row = append(row, "")
			}
			row[col-1] = v
		}
	}
}

// cell reads a cell's value (v) and inline text runs (is).
func (t *xlsxTable) cell() error {
	t.v, t.is = t.v[:0], t.is[:0]
	for depth := 0; ; {
		tok, err := t.token()
		switch el := tok.(type) {
		case xml.StartElement:
			switch {
			case depth == 0 && el.Name.Local == "v":
				t.v, err = inner(t.token, t.v, false, appendCapped)
			case depth == 0 && el.Name.Local == "is":
				t.is, err = inner(t.token, t.is, true, appendCapped)
			default:
				depth++
			}
		case xml.EndElement:
			if depth == 0 {
				return nil // the cell's own end
			}
			depth--
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// inner adds to dst what the element just opened holds, to its end: all of
// it, or with runs only its <t> runs outside phonetic guides (<rPh>).
func inner(next func() (xml.Token, error), dst []byte, runs bool, add func(b, more []byte) []byte) ([]byte, error) {
	depth, phonetic, inT := 0, 0, false
	for {
		tok, err := next()
		if err != nil {
			return dst, err
		}
		switch el := tok.(type) {
		case xml.StartElement:
			depth++
			switch el.Name.Local {
			case "rPh":
				phonetic++
			case "t":
				inT = phonetic == 0
			}
		case xml.EndElement:
			if depth == 0 {
				return dst, nil
			}
			depth--
			switch el.Name.Local {
			case "rPh":
				phonetic = max(0, phonetic-1)
			case "t":
				inT = false
			}
		case xml.CharData:
			if !runs || inT {
				dst = add(dst, el)
			}
		}
	}
}

func appendCapped(b, more []byte) []byte {
	room := maxCell + utf8.UTFMax - len(b)
	if room <= 0 {
		return b
	}
	return append(b, more[:min(len(more), room)]...)
}

// value is the cell as the spreadsheet shows it.
func (t *xlsxTable) value(kind, style, ref string) (string, error) {
	switch kind {
	case "s":
		v := strings.TrimSpace(string(t.v))
		if v == "" {
			return "", nil
		}
		i, err := strconv.Atoi(v)
		s, ok := t.shared.at(i)
		if err != nil || !ok {
			return "", &Error{Kind: Unreadable, Path: t.path, Row: t.row, Cell: ref, Detail: "a text the workbook does not hold"}
		}
		return s, nil
	case "inlineStr":
		return unescape(string(t.is)), nil
	case "str", "e":
		return string(t.v), nil
	case "b":
		switch string(t.v) {
		case "1":
			return "TRUE", nil
		case "0":
			return "FALSE", nil
		}
		return string(t.v), nil
	case "d":
		if serial, ok := excelDate(string(t.v)); ok {
			return t.nums.show(styleOf(style), serial), nil
		}
		return string(t.v), nil
	}
	return t.nums.show(styleOf(style), string(t.v)), nil
}

func styleOf(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// excelDate is an ISO date as Excel's day number (with its 29 February 1900).
func excelDate(v string) (string, bool) {
	layout := "20060102T150405.999"
	if strings.HasSuffix(v, "Z") {
		layout = "20060102T150405Z"
		if strings.Contains(v, "-") {
			layout = "2006-01-02T15:04:05Z"
		}
	} else if strings.Contains(v, "-") {
		layout = "2006-01-02 15:04:05Z"
	}
	d, err := time.Parse(layout, strings.ReplaceAll(v, ",", "."))
	if err != nil {
		return "", false
	}
	epoch := time.Date(1899, time.December, 31, 0, 0, 0, 0, time.UTC)
	if d.Before(epoch) {
		return "0", true
	}
	days := float64(d.Sub(epoch)) / float64(24*time.Hour)
	if !d.Before(time.Date(1900, time.March, 1, 0, 0, 0, 0, time.UTC)) {
		days++
	}
	return strconv.FormatFloat(days, 'G', 15, 64), true
}

func attr(el xml.StartElement, name string) string {
	for _, a := range el.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// columnOf is a cell reference's 1-based column ("B3": 2), 0 when none.
func columnOf(ref string) int {
	col, i := 0, 0
	for ; i < len(ref); i++ {
		c := ref[i] | 0x20 // lower case
		if c < 'a' || c > 'z' {
			break
		}
		if col = col*26 + int(c-'a') + 1; col > lastColumn {
			return lastColumn + 1
		}
	}
	if i == 0 || i == len(ref) {
		return 0
	}
	for _, c := range ref[i:] {
		if c < '0' || c > '9' {
			return 0
		}
	}
	return col
}

// unescape restores characters XML cannot hold ("_x000D_", "_x005F_").
func unescape(s string) string {
	if !strings.Contains(s, "_x") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "_x")
		if i < 0 || len(s)-i < 7 {
			break
		}
		hex := s[i+2 : i+6]
		n, err := strconv.ParseUint(hex, 16, 16)
		if err != nil || s[i+6] != '_' {
			b.WriteString(s[:i+2])
			s = s[i+2:]
			continue
		}
		b.WriteString(s[:i])
		if r := rune(n); utf8.ValidRune(r) {
			b.WriteRune(r)
		}
		s = s[i+7:]
	}
	b.WriteString(s)
	return b.String()
}

// sharedTexts keeps all shared texts in one buffer, not millions of structures.
type sharedTexts struct {
	text []byte
	ends []uint32 // where each text ends in text
}

func (s *sharedTexts) at(i int) (string, bool) {
	if i < 0 || i >= len(s.ends) {
		return "", false
	}
	start := uint32(0)
	if i > 0 {
		start = s.ends[i-1]
	}
	return string(s.text[start:s.ends[i]]), true
}

// loadShared reads at most limit bytes of shared-text XML.
func loadShared(ctx context.Context, b *book, f *zip.File, limit int64) (sharedTexts, error) {
	var s sharedTexts
	rc, _, err := b.open(f, limit)
	if err != nil {
		return s, err
	}
	defer rc.Close()
	d := decoder(bufio.NewReaderSize(rc, 64<<10))
	n := 0
	next := func() (xml.Token, error) {
		if n++; n%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return d.RawToken()
	}
	for {
		tok, err := next()
		if el, ok := tok.(xml.StartElement); ok && el.Name.Local == "si" {
			start := len(s.text)
			if s.text, err = inner(next, s.text, true, func(b, more []byte) []byte { return append(b, more...) }); err == nil {
				if t := s.text[start:]; bytes.Contains(t, []byte("_x")) {
					s.text = append(s.text[:start], unescape(string(t))...)
				}
				s.ends = append(s.ends, uint32(len(s.text)))
			}
		}
		if err == io.EOF {
			return s, nil
		}
		if err != nil {
			return s, err
		}
	}
}

// scanSheet reads the sheet through for its true size and first merged range:
// bytes are only searched until "mergeCell" shows, then the XML from the tag
// before it is decoded.
func scanSheet(ctx context.Context, b *book, f *zip.File, limit int64) (int64, string, error) {
	rc, count, err := b.open(f, limit)
	if err != nil {
		return 0, "", err
	}
	defer rc.Close()
	const carry = 4 << 10 // a split name, with the tag and prefix before it
	buf := make([]byte, 256<<10)
	keep := 0
	for {
		if err := ctx.Err(); err != nil {
			return 0, "", err
		}
		n, rerr := io.ReadFull(rc, buf[keep:])
		data := buf[:keep+n]
		end := rerr == io.EOF || rerr == io.ErrUnexpectedEOF
		if rerr != nil && !end {
			return 0, "", rerr
		}
		if i := bytes.Index(data, []byte("mergeCell")); i >= 0 {
			from := max(0, bytes.LastIndexByte(data[:i], '<'))
			ref, err := mergedRange(ctx, io.MultiReader(bytes.NewReader(data[from:]), rc))
			return count.n, ref, err
		}
		if end {
			return count.n, "", nil
		}
		keep = copy(buf, data[max(0, len(data)-carry):])
	}
}

// mergedRange is the first merged range r's XML holds ("?" when it names
// none), read to the end when none.
func mergedRange(ctx context.Context, r io.Reader) (string, error) {
	d := xml.NewDecoder(r)
	d.Strict = false // read for one tag, not checked: the rows' reader does that
	for n := 1; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return "", ctx.Err()
		}
		tok, err := d.RawToken()
		if el, ok := tok.(xml.StartElement); ok && el.Name.Local == "mergeCell" {
			return cmp.Or(attr(el, "ref"), "?"), nil
		}
		if errors.Is(err, errTooBig) {
			return "", err
		}
		if err != nil {
			return "", nil // the rows' reader tells what is wrong
		}
	}
}
