package sheet

import (
	"archive/zip"
	"bytes"
	"cmp"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"
)

// numbers formats number cells by style with excelize, in a workbook of the
// sheet's formats alone; results are cached.
type numbers struct {
	formats  []int // each style's number format
	custom   []customFormat
	date1904 bool
	book     *excelize.File // made for the first number with a style
	broken   bool           // that workbook could not be made
	styled   map[int]bool   // the styles its cells have
	shown    map[shownKey]string
}

type customFormat struct {
	id   int
	code string
}

type shownKey struct {
	style int
	value string
}

const maxShown = 1 << 16

// newNumbers reads the styles' number formats; without them numbers show as saved.
func newNumbers(styles []byte, date1904 bool) *numbers {
	n := &numbers{date1904: date1904, styled: map[int]bool{}, shown: map[shownKey]string{}}
	var st struct {
		NumFmts []struct {
			ID     int    `xml:"numFmtId,attr"`
			Code   string `xml:"formatCode,attr"`
			Code16 string `xml:"formatCode16,attr"`
		} `xml:"numFmts>numFmt"`
		Xfs []struct {
			NumFmtID int `xml:"numFmtId,attr"`
		} `xml:"cellXfs>xf"`
	}
	if len(styles) == 0 || decoder(bytes.NewReader(styles)).Decode(&st) != nil {
		return n
	}
	for _, x := range st.Xfs {
		n.formats = append(n.formats, x.NumFmtID)
	}
	for _, f := range st.NumFmts {
		n.custom = append(n.custom, customFormat{id: f.ID, code: cmp.Or(f.Code16, f.Code)})
	}
	return n
}

func (n *numbers) show(style int, v string) string {
	if style <= 0 || style >= len(n.formats) || !numeric(v) {
		return plainNumber(v)
	}
	key := shownKey{style, v}
	if s, ok := n.shown[key]; ok {
		return s
	}
	s, ok := n.format(style, v)
	if !ok {
		return plainNumber(v)
	}
	if len(n.shown) >= maxShown {
		clear(n.shown)
	}
	n.shown[key] = s
	return s
}

func (n *numbers) format(style int, v string) (string, bool) {
	if n.book == nil && !n.broken {
		b, err := formatsBook(n.formats, n.custom, n.date1904)
		if err != nil {
			n.broken = true
		}
		n.book = b
	}
	if n.broken {
		return "", false
	}
	cell := "A" + strconv.Itoa(style+1)
	if !n.styled[style] {
		if err := n.book.SetCellStyle("Sheet1", cell, cell, style); err != nil {
			return "", false
		}
		n.styled[style] = true
	}
	if err := n.book.SetCellDefault("Sheet1", cell, v); err != nil {
		return "", false
	}
	s, err := n.book.GetCellValue("Sheet1", cell)
	return s, err == nil
}

func (n *numbers) close() {
	if n.book != nil {
		_ = n.book.Close()
	}
}

func numeric(v string) bool {
	if strings.Contains(v, "_") {
		return false
	}
	_, err := strconv.ParseFloat(v, 64)
	return err == nil
}

// plainNumber is an unformatted number as excelize shows it (15 significant digits).
func plainNumber(v string) string {
	if !numeric(v) {
		return v
	}
	f, _ := strconv.ParseFloat(v, 64)
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if len(s)-strings.Count(s, ".") > 15 && !zeroFilled(v) {
		return strconv.FormatFloat(f, 'G', 15, 64)
	}
	return s
}

func zeroFilled(v string) bool {
	if strings.ContainsAny(v, ".Ee") {
		return false
	}
	return len(strings.TrimRight(strings.TrimLeft(v, "+-0"), "0")) <= 15
}

func formatsBook(formats []int, custom []customFormat, date1904 bool) (*excelize.File, error) {
	var st strings.Builder
	st.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><styleSheet xmlns="` + mainNS + `">`)
	if len(custom) > 0 {
		fmt.Fprintf(&st, `<numFmts count="%d">`, len(custom))
		for _, c := range custom {
			fmt.Fprintf(&st, `<numFmt numFmtId="%d" formatCode="`, c.id)
			if err := xml.EscapeText(&st, []byte(c.code)); err != nil {
				return nil, err
			}
			st.WriteString(`"/>`)
		}
		st.WriteString(`</numFmts>`)
	}
	st.WriteString(`<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>` +
		`<fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders>` +
		`<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>`)
	fmt.Fprintf(&st, `<cellXfs count="%d">`, len(formats))
	for _, id := range formats {
		fmt.Fprintf(&st, `<xf numFmtId="%d" fontId="0" fillId="0" borderId="0" xfId="0"/>`, id)
	}
	st.WriteString(`</cellXfs></styleSheet>`)
	pr := ""
	if date1904 {
		pr = `<workbookPr date1904="1"/>`
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, p := range [][2]string{
		{"[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
			`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
			`<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
			`<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>` +
			`<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`},
		{"_rels/.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="` + pkgRelNS + `">` +
			`<Relationship Id="rId1" Type="` + relNS + `/officeDocument" Target="xl/workbook.xml"/></Relationships>`},
		{"xl/workbook.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="` + mainNS + `" xmlns:r="` + relNS + `">` +
			pr + `<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`},
		{"xl/_rels/workbook.xml.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="` + pkgRelNS + `">` +
			`<Relationship Id="rId1" Type="` + relNS + `/worksheet" Target="worksheets/sheet1.xml"/>` +
			`<Relationship Id="rId2" Type="` + relNS + `/styles" Target="styles.xml"/></Relationships>`},
		{"xl/worksheets/sheet1.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="` + mainNS + `"><sheetData/></worksheet>`},
		{"xl/styles.xml", st.String()},
	} {
		w, err := zw.Create(p[0])
		if err != nil {
			return nil, err
		}
		if _, err := w.Write([]byte(p[1])); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return excelize.OpenReader(&out)
}

// The namespaces of a workbook's parts.
const (
	mainNS   = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
	relNS    = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
	pkgRelNS = "http://schemas.openxmlformats.org/package/2006/relationships"
)
