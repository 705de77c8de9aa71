package app

import (
	"os"
	"path/filepath"
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
	req := BatchPlan{Columns: m, Fixed: fixed}.Request(agent, []string{"Coffee", "Write 50 words about our coffee", "25/11/2026", "50"})
	answers, problems := req.Answers, req.Problems
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
		problems := BatchPlan{Columns: m, Fixed: map[string]string{"tone": "loud"}}.Request(agent, tc.cells).Problems
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
		// A sheet past what Agent Desk reads says which bound it passed.
		sheet.TooManyColumns: "names more than 1,000 columns in its first row",
		sheet.TooManyCells:   "more cells than Agent Desk reads at once (2,000,000). Split it",
		sheet.TooMuchText:    "more text than Agent Desk reads at once (67 MB). Split it",
	} {
		p := Explain(&sheet.Error{Kind: kind, Path: "/home/ana/products.csv", Cell: "B2:B3"})
		if p.Title != "Sheet not read" || !strings.Contains(p.Sentence, want) {
			t.Errorf("kind %d: %q / %q, want %q in it", kind, p.Title, p.Sentence, want)
		}
	}
}

// A row's files are the ones its cells name inside the batch's folder:
// a file question takes the file the column names, a folder's file goes
// with its run when the agent has no file question; a missing, empty or
// too large file, or one outside the folder (a sheet from someone else
// naming ~/.ssh/id_rsa), is named before anything is sent.
func TestARowsFilesComeFromItsFolderAlone(t *testing.T) {
	root := t.TempDir()
	folder := filepath.Join(root, "contracts")
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(path, text string) {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(folder, "lease.pdf"), "%PDF lease")
	write(filepath.Join(folder, "blank.pdf"), "")
	write(filepath.Join(root, "secret.txt"), "not for the service")
	if err := os.Symlink(filepath.Join(root, "secret.txt"), filepath.Join(folder, "link.pdf")); err != nil {
		t.Fatal(err)
	}
	agent := client.Agent{ID: "9", Type: client.AgentText, Questions: []client.Question{
		{Type: "file", Name: "contract", Required: true},
		{Type: "text", Name: "focus"},
	}}
	plan := BatchPlan{Columns: ColumnMap{"contract": 0, "focus": 1}, Folder: folder}
	req := plan.Request(agent, []string{"lease.pdf", "rent"})
	if req.Problems != nil || req.Files["contract"] != filepath.Join(folder, "lease.pdf") || req.Answers["focus"] != "rent" {
		t.Fatalf("a file in the folder: %+v", req)
	}
	for cell, want := range map[string]string{
		"missing.pdf":                     "no longer there",
		"blank.pdf":                       "empty",
		"../secret.txt":                   "not in the folder contracts",
		"//server/share/x.pdf":            "not in the folder contracts",
		filepath.Join(root, "secret.txt"): "not in the folder contracts",
		"link.pdf":                        "not in the folder contracts",
		"":                                "Please choose a file.",
	} {
		req := plan.Request(agent, []string{cell, ""})
		if !strings.Contains(req.Problems["contract"], want) || req.Files["contract"] != "" {
			t.Errorf("%q: problems %v, files %v; want %q", cell, req.Problems, req.Files, want)
		}
	}
	// No file question: the folder's file is attached to the run.
	plain := client.Agent{ID: "10", Type: client.AgentText, Questions: []client.Question{{Type: "text", Name: "focus"}}}
	req = BatchPlan{Attach: 1, Folder: folder}.Request(plain, []string{"lease.pdf"})
	if req.Problems != nil || req.Files[""] != filepath.Join(folder, "lease.pdf") {
		t.Fatalf("an attached file: %+v", req)
	}
	if why := rowProblems(plain, BatchPlan{Attach: 1, Folder: folder}.Request(plain, []string{"blank.pdf"}).Problems); !strings.HasPrefix(why, "File: ") {
		t.Fatalf("an attached file's problem reads %q", why)
	}
}

// A chat agent's row is a chat of one message: the column named Message
// (or the one chosen) is what is sent, and a row without one is not sent.
func TestAChatAgentsRowIsOneMessage(t *testing.T) {
	agent := client.Agent{ID: "3", Type: client.AgentChat, Questions: []client.Question{
		{Type: "select", Name: "model", Options: []string{"tess-5", "gpt-4o"}, Required: true},
		{Type: "number", Name: "root_id"},
		{Type: "array", Name: "messages", Required: true},
	}}
	for _, q := range BatchQuestions(agent) {
		if q.Name == "root_id" {
			t.Fatal("a batch asks which conversation to go on with; each row is a chat of its own")
		}
	}
	m := MatchColumns(agent, []string{"Customer", "Message", "Model"})
	if m[ChatMessage] != 1 || m["model"] != 2 {
		t.Fatalf("columns matched as %v", m)
	}
	if missing := MissingColumns(agent, ColumnMap{"model": 2}, nil); len(missing) != 1 || missing[0].Name != ChatMessage {
		t.Fatalf("without a message column, missing %v", missing)
	}
	req := BatchPlan{Columns: m}.Request(agent, []string{"Ana", "Where is my order?", "gpt-4o"})
	if req.Problems != nil || req.Message != "Where is my order?" || req.Answers["model"] != "gpt-4o" {
		t.Fatalf("row: %+v", req)
	}
	if _, ok := req.Answers[ChatMessage]; ok {
		t.Fatalf("the message is also sent as an answer: %v", req.Answers)
	}
	if req := (BatchPlan{Columns: m}).Request(agent, []string{"Rui", " ", "gpt-4o"}); req.Problems[ChatMessage] == "" {
		t.Fatalf("a row without a message would be sent: %+v", req)
	}
}

// A plan with Seen asks the disk once per file however often its rows
// are checked (a dialog's preview, for every key typed); without it each
// check asks again, as a batch does when it sends the row.
func TestAPlanChecksEachFileOnceWhenItKeepsWhatItSaw(t *testing.T) {
	folder := t.TempDir()
	file := filepath.Join(folder, "lease.pdf")
	if err := os.WriteFile(file, []byte("%PDF lease"), 0o600); err != nil {
		t.Fatal(err)
	}
	agent := client.Agent{ID: "9", Type: client.AgentText, Questions: []client.Question{{Type: "file", Name: "contract", Required: true}}}
	seen := &FileChecks{}
	plan := BatchPlan{Columns: ColumnMap{"contract": 0}, Folder: folder, Seen: seen}
	if req := plan.Request(agent, []string{"lease.pdf"}); req.Problems != nil {
		t.Fatalf("first check: %v", req.Problems)
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if req := plan.Request(agent, []string{"lease.pdf"}); req.Problems != nil {
		t.Fatalf("the second check asked the disk again: %v", req.Problems)
	}
	plan.Seen = nil
	if req := plan.Request(agent, []string{"lease.pdf"}); req.Problems == nil {
		t.Fatal("without Seen, a file gone is not noticed")
	}
}
