package sheet

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// Workbooks written part by part, as a spreadsheet program keeps them:
// the sheets issue 37 names are built in a moment this way (a 79 MB
// shared-strings table compresses to a few hundred kilobytes).

const (
	nsMain = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
	nsRel  = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
	nsPkg  = "http://schemas.openxmlformats.org/package/2006/relationships"
)

// part is one file of a workbook: its name and what writes its content.
type part struct {
	name  string
	write func(w io.Writer) error
	// lie, when not 0, is the size the zip says the part has.
	lie uint64
}

func text(name, s string) part {
	return part{name: name, write: func(w io.Writer) error { _, err := io.WriteString(w, s); return err }}
}

// bookParts are a workbook's parts around its first sheet and its
// shared strings (nil: none).
func bookParts(sheet, shared func(w io.Writer) error) []part {
	rels := `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="` + nsPkg + `">` +
		`<Relationship Id="rId1" Type="` + nsRel + `/worksheet" Target="worksheets/sheet1.xml"/>` +
		`<Relationship Id="rId2" Type="` + nsRel + `/styles" Target="styles.xml"/>`
	if shared != nil {
		rels += `<Relationship Id="rId3" Type="` + nsRel + `/sharedStrings" Target="sharedStrings.xml"/>`
	}
	parts := []part{
		text("[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">`+
			`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>`+
			`<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>`+
			`<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`+
			`<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>`+
			`<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`),
		text("_rels/.rels", `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="`+nsPkg+`"><Relationship Id="rId1" Type="`+nsRel+`/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
		text("xl/workbook.xml", `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="`+nsMain+`" xmlns:r="`+nsRel+`"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`),
		text("xl/_rels/workbook.xml.rels", rels+`</Relationships>`),
		// Style 1 shows a date (format 14), style 2 two decimals.
		text("xl/styles.xml", `<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="`+nsMain+`">`+
			`<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills>`+
			`<borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>`+
			`<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`+
			`<xf numFmtId="4" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs></styleSheet>`),
		{name: "xl/worksheets/sheet1.xml", write: func(w io.Writer) error {
			if _, err := io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="`+nsMain+`" xmlns:r="`+nsRel+`"><sheetData>`); err != nil {
				return err
			}
			if err := sheet(w); err != nil {
				return err
			}
			_, err := io.WriteString(w, `</sheetData></worksheet>`)
			return err
		}},
	}
	if shared != nil {
		parts = append(parts, part{name: "xl/sharedStrings.xml", write: func(w io.Writer) error {
			if _, err := io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="`+nsMain+`">`); err != nil {
				return err
			}
			if err := shared(w); err != nil {
				return err
			}
			_, err := io.WriteString(w, `</sst>`)
			return err
		}})
	}
	return parts
}

// zipped is the workbook of parts as the bytes of an .xlsx file.
func zipped(t testing.TB, parts []part) []byte {
	t.Helper()
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, p := range parts {
		if p.lie != 0 {
			// Compressed by hand, so that the zip can say it is small.
			var packed bytes.Buffer
			fw, err := flate.NewWriter(&packed, flate.BestSpeed)
			if err != nil {
				t.Fatal(err)
			}
			crc := crc32.NewIEEE()
			if err := p.write(io.MultiWriter(fw, crc)); err != nil {
				t.Fatal(err)
			}
			if err := fw.Close(); err != nil {
				t.Fatal(err)
			}
			w, err := zw.CreateRaw(&zip.FileHeader{Name: p.name, Method: zip.Deflate, CRC32: crc.Sum32(),
				CompressedSize64: uint64(packed.Len()), UncompressedSize64: p.lie})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Write(packed.Bytes()); err != nil {
				t.Fatal(err)
			}
			continue
		}
		w, err := zw.Create(p.name)
		if err != nil {
			t.Fatal(err)
		}
		bw := bufio.NewWriterSize(w, 64<<10)
		if err := p.write(bw); err != nil {
			t.Fatal(err)
		}
		if err := bw.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// saved writes data as name in a test's folder.
func saved(t testing.TB, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// farColumnBook is issue 37's first sheet: rows each holding one cell in
// the last column Excel has (XFD); with header, the first row names
// three columns and the far cells are strays beside them.
func farColumnBook(t testing.TB, rows int, header bool) []byte {
	return zipped(t, bookParts(func(w io.Writer) error {
		first := 1
		if header {
			if _, err := io.WriteString(w, `<row r="1"><c r="A1" t="inlineStr"><is><t>sku</t></is></c><c r="B1" t="inlineStr"><is><t>request</t></is></c><c r="C1" t="inlineStr"><is><t>tone</t></is></c></row>`); err != nil {
				return err
			}
			first = 2
		}
		for r := first; r < first+rows; r++ {
			cells := ""
			if header {
				cells = fmt.Sprintf(`<c r="A%d" t="inlineStr"><is><t>SKU-%d</t></is></c>`, r, r)
			}
			if _, err := fmt.Fprintf(w, `<row r="%d">%s<c r="XFD%d" t="s"><v>0</v></c></row>`, r, cells, r); err != nil {
				return err
			}
		}
		return nil
	}, func(w io.Writer) error {
		_, err := io.WriteString(w, `<si><t>far away</t></si>`)
		return err
	}))
}

// longBook is issue 37's 7 MB sheet that took minutes: a header naming
// two columns, and rows each holding their two cells and a third in the
// last column Excel has (XFD).
func longBook(t testing.TB, rows int) []byte {
	return zipped(t, bookParts(func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		bw.WriteString(`<row r="1"><c r="A1" t="inlineStr"><is><t>sku</t></is></c><c r="B1" t="inlineStr"><is><t>request</t></is></c></row>`)
		for r := 2; r < rows+2; r++ {
			fmt.Fprintf(bw, `<row r="%d"><c r="A%d" t="inlineStr"><is><t>SKU-%d</t></is></c><c r="B%d" t="s"><v>%d</v></c><c r="XFD%d"><v>%d</v></c></row>`, r, r, r, r, r%50, r, r)
		}
		return bw.Flush()
	}, func(w io.Writer) error {
		for i := range 50 {
			if _, err := fmt.Fprintf(w, `<si><t>Write 40 words about product %d, for the spring catalogue</t></si>`, i); err != nil {
				return err
			}
		}
		return nil
	}))
}

// denseBook is a sheet of rows×cols cells, each a number shown as a date
// or with two decimals, or a text from the shared strings: issue 37's
// 7 MB sheet that took minutes.
func denseBook(t testing.TB, rows, cols int) []byte {
	return zipped(t, bookParts(func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		bw.WriteString(`<row r="1">`)
		for c := range cols {
			fmt.Fprintf(bw, `<c r="%s1" t="inlineStr"><is><t>column %d</t></is></c>`, colName(c+1), c+1)
		}
		bw.WriteString(`</row>`)
		for r := 2; r < rows+2; r++ {
			fmt.Fprintf(bw, `<row r="%d">`, r)
			for c := range cols {
				switch c % 3 {
				case 0:
					fmt.Fprintf(bw, `<c r="%s%d" t="s"><v>%d</v></c>`, colName(c+1), r, (r+c)%100)
				case 1:
					fmt.Fprintf(bw, `<c r="%s%d" s="1"><v>%d</v></c>`, colName(c+1), r, 40000+(r*7+c)%3000)
				default:
					fmt.Fprintf(bw, `<c r="%s%d" s="2"><v>%d.%02d</v></c>`, colName(c+1), r, r*31+c, (r+c)%100)
				}
			}
			bw.WriteString(`</row>`)
		}
		return bw.Flush()
	}, func(w io.Writer) error {
		for i := range 100 {
			if _, err := fmt.Fprintf(w, `<si><t>Write 40 words about product %d, for the spring catalogue</t></si>`, i); err != nil {
				return err
			}
		}
		return nil
	}))
}

// bigStringsParts are issue 37's third sheet: ten rows over a
// shared-strings table of about mb megabytes of short texts.
func bigStringsParts(mb int) []part {
	item := `<si><t>Yes</t></si>`
	return bookParts(func(w io.Writer) error {
		if _, err := io.WriteString(w, `<row r="1"><c r="A1" t="inlineStr"><is><t>request</t></is></c></row>`); err != nil {
			return err
		}
		for r := 2; r <= 11; r++ {
			if _, err := fmt.Fprintf(w, `<row r="%d"><c r="A%d" t="s"><v>%d</v></c></row>`, r, r, r); err != nil {
				return err
			}
		}
		return nil
	}, func(w io.Writer) error {
		block := bytes.Repeat([]byte(item), 64<<10/len(item))
		for n := 0; n < mb<<20; n += len(block) {
			if _, err := w.Write(block); err != nil {
				return err
			}
		}
		return nil
	})
}

// requestsBook is a valid sheet of requests: sku, request, tone.
func requestsBook(t testing.TB, rows int) []byte {
	return zipped(t, bookParts(func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		bw.WriteString(`<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>`)
		for r := 2; r < rows+2; r++ {
			fmt.Fprintf(bw, `<row r="%d"><c r="A%d" t="inlineStr"><is><t>SKU-%06d</t></is></c><c r="B%d" t="inlineStr"><is><t>Write 40 words about product %d, for the spring catalogue</t></is></c><c r="C%d" t="s"><v>3</v></c></row>`, r, r, r, r, r, r)
		}
		return bw.Flush()
	}, func(w io.Writer) error {
		_, err := io.WriteString(w, `<si><t>sku</t></si><si><t>request</t></si><si><t>tone</t></si><si><r><t>friend</t></r><r><rPr><b/></rPr><t>ly</t></r></si>`)
		return err
	}))
}

// colName is a column's letters ("A", "AB", "XFD").
func colName(n int) string {
	s := ""
	for ; n > 0; n = (n - 1) / 26 {
		s = string(rune('A'+(n-1)%26)) + s
	}
	return s
}
