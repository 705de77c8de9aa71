package sheet

import (
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"
)

// numbers formats number cells by style with excelize, in an empty workbook
// given the sheet's own styles; results are cached.
type numbers struct {
	styles   []byte // the workbook's styles part
	date1904 bool
	book     *excelize.File // made for the first number with a style
	broken   bool           // that workbook could not be made
	styled   map[int]bool   // the styles tried on its cells: whether each took
	shown    map[shownKey]string
}

type shownKey struct {
	style int
	value string
}

const maxShown = 1 << 16

// newNumbers formats by the workbook's styles; without them numbers show as saved.
func newNumbers(styles []byte, date1904 bool) *numbers {
	return &numbers{styles: styles, date1904: date1904, styled: map[int]bool{}, shown: map[shownKey]string{}}
}

func (n *numbers) show(style int, v string) string {
	if style <= 0 || len(n.styles) == 0 || !numeric(v) {
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
		b, err := formatsBook(n.styles, n.date1904)
		if err != nil {
			n.broken = true
		}
		n.book = b
	}
	if n.broken {
		return "", false
	}
	cell := "A" + strconv.Itoa(style+1)
	took, tried := n.styled[style]
	if !tried {
		took = n.book.SetCellStyle("Sheet1", cell, cell, style) == nil
		n.styled[style] = took
	}
	if !took {
		return "", false
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

// formatsBook is an empty workbook whose styles part is styles: excelize
// reads a part it has not decoded yet from its package when first needed.
func formatsBook(styles []byte, date1904 bool) (*excelize.File, error) {
	f := excelize.NewFile()
	f.Pkg.Store("xl/styles.xml", styles)
	f.Styles = nil
	if err := f.SetWorkbookProps(&excelize.WorkbookPropsOptions{Date1904: &date1904}); err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}
