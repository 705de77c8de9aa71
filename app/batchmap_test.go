package app

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/app/sheet"
	"github.com/agentdesk/agentdesk/client"
)

// productAgent is a text agent asking what a batch of product texts needs.
func productAgent() client.Agent {
	return client.Agent{ID: "7", Title: "Product writer", Type: client.AgentText, Questions: []client.Question{
		{Type: "textarea", Name: "request", Required: true},
		{Type: "select", Name: "tone", Options: []string{"friendly", "formal"}, Required: true},
		{Type: "date", Name: "launch_date"},
		{Type: "number", Name: "max_words"},
	}}
}

// A sheet's columns answer the questions they name, however the name is
// written; a required question no column or fixed value answers is named
// before anything runs; each row's answers are checked as the form checks
// them, and a date reaches the service as it reads dates.
func TestARowOfASheetBecomesARequest(t *testing.T) {
	agent := productAgent()
	header := []string{"Product", "REQUEST", "Launch-Date", "Max words", "Launch date"}
	m := MatchColumns(agent, header)
	if m["request"] != 1 || m["launch_date"] != 2 || m["max_words"] != 3 {
		t.Fatalf("columns matched as %v", m)
	}
	if _, ok := m["tone"]; ok {
		t.Fatalf("tone matched a column none names: %v", m)
	}
	missing := MissingColumns(agent, m, nil)
	if len(missing) != 1 || missing[0].Name != "tone" {
		t.Fatalf("missing %v, want tone alone", missing)
	}
	fixed := map[string]string{"tone": "friendly"}
	if missing := MissingColumns(agent, m, fixed); len(missing) != 0 {
		t.Fatalf("a fixed tone still leaves %v missing", missing)
	}
	answers, problems := RowAnswers(agent, m, fixed, []string{"Coffee", "Write 50 words about our coffee", "25/11/2026", "50"})
	if problems != nil || answers["request"] != "Write 50 words about our coffee" || answers["tone"] != "friendly" ||
		answers["launch_date"] != "2026-11-25" || answers["max_words"] != "50" {
		t.Fatalf("answers %v, problems %v", answers, problems)
	}
	for _, tc := range []struct {
		cells []string
		bad   []string
	}{
		{[]string{"Tea", "", "", ""}, []string{"request"}},
		{[]string{"Tea", "Write", "the 30th of Smarch", "many"}, []string{"launch_date", "max_words"}},
	} {
		_, problems := RowAnswers(agent, m, map[string]string{"tone": "loud"}, tc.cells)
		var got []string
		for name := range problems {
			got = append(got, name)
		}
		slices.Sort(got)
		want := append(slices.Clone(tc.bad), "tone")
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("row %q refused for %v, want %v", tc.cells, got, want)
		}
	}
}

// Dates as sheets hold them: ISO, day first, Excel's month first with a
// two-digit year, words; anything else is left for the check to name.
func TestSheetDates(t *testing.T) {
	for in, want := range map[string]string{
		"2026-11-25": "2026-11-25", "25/11/2026": "2026-11-25", "5/1/2026": "2026-01-05",
		"11-25-26": "2026-11-25", "25 Nov 2026": "2026-11-25", "next Tuesday": "next Tuesday",
	} {
		if got := SheetDate(in); got != want {
			t.Errorf("%q reads as %q, want %q", in, got, want)
		}
	}
}

// A sheet that cannot be run over says what is wrong and what to do, in
// plain words.
func TestASheetsProblemIsWorded(t *testing.T) {
	for kind, want := range map[sheet.Kind]string{
		sheet.Empty:      "products.csv is empty",
		sheet.HeaderOnly: "no rows under them",
		sheet.TooLarge:   "Split it into smaller sheets",
		sheet.Merged:     "merged cells (B2:B3). Unmerge them",
		sheet.Unreadable: "Choose a CSV file or an Excel workbook",
	} {
		p := Explain(&sheet.Error{Kind: kind, Path: "/home/ana/products.csv", Cell: "B2:B3"})
		if p.Title != "Sheet not read" || !strings.Contains(p.Sentence, want) {
			t.Errorf("kind %d: %q / %q, want %q in it", kind, p.Title, p.Sentence, want)
		}
	}
}
