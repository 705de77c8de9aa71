package sheet

import (
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/agentdesk/agentdesk/internal/safe"
)

// Write writes a results sheet at path (.xlsx, else CSV with a BOM) beside
// and renames; a locked path gives "name (2).xlsx". It returns the name written.
func Write(path string, header []string, rows [][]string, comma rune) (string, error) {
	ext := filepath.Ext(path)
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+strings.TrimSuffix(filepath.Base(path), ext)+".*"+ext)
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if strings.EqualFold(ext, ".xlsx") {
		_ = tmp.Close()
		err = writeXLSX(tmp.Name(), header, rows)
	} else {
		err = writeCSV(tmp, header, rows, comma)
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return "", err
	}
	for i := 1; i <= 20; i++ {
		to := path
		if i > 1 {
			to = fmt.Sprintf("%s (%d)%s", strings.TrimSuffix(path, ext), i, ext)
			if _, err := os.Stat(to); err == nil && !replaceable(to) {
				continue
			}
		}
		if err = os.Rename(tmp.Name(), to); err == nil {
			return to, nil
		}
		if !errors.Is(err, os.ErrPermission) && !locked(err) {
			return "", err
		}
	}
	return "", err
}

func replaceable(path string) bool {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return false
	}
	_ = f.Close()
	return true
}

// locked tells Windows' sharing violation, which os does not name.
func locked(err error) bool {
	s := strings.ToLower(err.Error())
	return strings.Contains(s, "used by another process") || strings.Contains(s, "sharing violation")
}

func writeCSV(f *os.File, header []string, rows [][]string, comma rune) error {
	if _, err := f.Write([]byte{0xEF, 0xBB, 0xBF}); err != nil {
		return err
	}
	w := csv.NewWriter(f)
	w.Comma = comma
	if err := w.Write(inert(header)); err != nil {
		return err
	}
	for _, r := range rows {
		if err := w.Write(inert(r)); err != nil {
			return err
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	return f.Sync()
}

func writeXLSX(path string, header []string, rows [][]string) error {
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		return err
	}
	row := func(n int, cells []string) error {
		vals := make([]any, len(cells))
		for i, c := range cells {
			vals[i] = c
		}
		cell, _ := excelize.CoordinatesToCellName(1, n)
		return sw.SetRow(cell, vals)
	}
	if err := row(1, header); err != nil {
		return err
	}
	for i, r := range rows {
		if err := row(i+2, r); err != nil {
			return err
		}
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	return f.SaveAs(path)
}

// inert is a CSV row a spreadsheet program reads as text (safe.Cell).
func inert(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = safe.Cell(c)
	}
	return out
}
