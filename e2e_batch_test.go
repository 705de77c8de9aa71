package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"image"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
)

// Window-relative positions for the batch flow (1180×760 window). A main
// button is blue once it can be pressed: the test looks at a spot of it
// away from its words (…Lit) to know when to go on.
const (
	batchAgentX, batchAgentY = 290, 165 // the first agent the search finds
	runOnManyX, runOnManyY   = 701, 680 // Run on many… beside it
	sheetX, sheetY           = 505, 250 // the sheet, the home folder's only file
	openX, openY             = 934, 613 // Open in the file dialog
	openLitX, openLitY       = 908, 600
	// Start in the "Run … on many" dialog is at its foot, somewhere
	// between startTopY and startFootY (the dialog is at most 540 high,
	// centred); startLineX crosses it, away from its words.
	startX, startLineX    = 629, 598
	startTopY, startFootY = 540, 655
	goOnX, goOnY          = 632, 432 // Go on in the "Go on with the batch?" offer
	goOnLitX, goOnLitY    = 598, 420
)

// The batch: 50 rows for the Newsletter Writer (agent 119), whose required
// questions, the request and the tone, the sheet's two columns answer by
// name. Row 20 (as a spreadsheet program numbers it: row 1 is the header)
// is the one still running on the service when Agent Desk dies.
const (
	batchAgent  = "119"
	batchRows   = 50
	heldRow     = 20
	batchAPIKey = "e2e-key"
	batchAcct   = "e2e"
)

// TestE2EBatch runs an agent on every row of a sheet (CSV, then Excel),
// kills Agent Desk while row 20 runs on the service, starts it again and
// goes on when it offers to: every row is done in the results sheet beside
// the source, and the service ran each row once (row 20 was looked up, not
// sent again).
func TestE2EBatch(t *testing.T) {
	for _, tc := range []struct {
		name  string
		write func(t *testing.T, path string)
		read  func(t *testing.T, path string) [][]string
	}{
		{"products.csv", writeBatchCSV, readBatchCSV},
		{"products.xlsx", writeBatchXLSX, readBatchXLSX},
	} {
		t.Run(filepath.Ext(tc.name)[1:], func(t *testing.T) {
			shot := func(e *E2E, step string) { e.Screenshot("batch-" + filepath.Ext(tc.name)[1:] + "-" + step) }
			home := homeWith(t, tc.name, tc.write)

			svc, srv, hold := heldBatchService(t, batchPrompt(heldRow))
			t.Setenv(storage.EnvAPIKey, batchAPIKey)
			e := startE2E(t, func(s *storage.Settings) {
				s.PutAccount(storage.Account{ID: batchAcct, Name: "Test service", BaseURL: srv.URL, KeyStore: storage.KeyInEnv})
				s.ActiveAccount = batchAcct
			})
			db := e.History()
			ctx := context.Background()
			e.WaitAgentsListed()

			startBatchFromSheet(e, "newsletter", func(step string) { shot(e, step) })

			// The rows go out one by one until row 20, whose run the
			// service holds: the batch waits on it.
			var b storage.Batch
			var held storage.BatchRow
			e.WaitFor("rows up to 20 done and row 20 running on the service", func() bool {
				select {
				case <-hold.held:
				default:
					return false
				}
				list, err := db.Batches(ctx, batchAcct, 5)
				if err != nil || len(list) != 1 {
					return false
				}
				b = list[0]
				rows, err := db.BatchRows(ctx, b.ID, 0, 100)
				if err != nil || len(rows) != batchRows {
					return false
				}
				for _, r := range rows {
					switch {
					case r.Row < heldRow && r.State != storage.RowDone:
						return false
					case r.Row == heldRow:
						held = r
					}
				}
				return held.State == storage.RowRunning && held.ExecutionID != ""
			})
			shot(e, "3-running")
			if b.AgentID != batchAgent || b.Source != filepath.Join(home, tc.name) {
				t.Fatalf("the batch should run the Newsletter Writer on %s, got %+v", tc.name, b)
			}

			// Agent Desk dies mid-batch (a crash, a power cut): no chance
			// to save anything.
			if err := e.app.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			_ = e.app.Wait()
			if b, err := db.Batch(ctx, b.ID); err != nil || b.State != storage.BatchRunning {
				t.Fatalf("the batch should be left running, to be offered at the next start: %+v (%v)", b, err)
			}

			// The service finishes row 20's run meanwhile; Agent Desk starts
			// again on the same folders and offers to go on.
			hold.release()
			e.launch()
			e.WaitLit("the offer to go on with the batch", goOnLitX, goOnLitY)
			shot(e, "4-offer")
			e.Click(goOnX, goOnY)

			var counts map[storage.RowState]int
			e.WaitFor("the batch to finish", func() bool {
				nb, err := db.Batch(ctx, b.ID)
				if err != nil || nb.State != storage.BatchDone {
					return false
				}
				b = nb
				counts, _, err = db.BatchCounts(ctx, b.ID)
				return err == nil
			})
			e.WaitStill("the finished batch drawn")
			shot(e, "5-done")
			if counts[storage.RowDone] != batchRows {
				t.Fatalf("every row should be done, got %v", counts)
			}
			rows, err := db.BatchRows(ctx, b.ID, heldRow-1, 1)
			if err != nil || len(rows) != 1 || rows[0].ExecutionID != held.ExecutionID {
				t.Fatalf("row 20 should keep the run it had on the service (%s), got %+v (%v)", held.ExecutionID, rows, err)
			}

			// The service ran each row exactly once: row 20 was looked up
			// after the restart, not sent again.
			ex := svc.Executions()
			perPrompt := map[string]int{}
			for _, x := range ex {
				perPrompt[fmt.Sprint(x.Answers["prompt"])]++
			}
			if len(ex) != batchRows || svc.ExecuteRequests() != batchRows || len(perPrompt) != batchRows {
				t.Fatalf("the service should have run %d rows once each: %d executions, %d requests, %d distinct rows",
					batchRows, len(ex), svc.ExecuteRequests(), len(perPrompt))
			}

			// The results sheet beside the source says Done on every row.
			if filepath.Dir(b.Results) != home || filepath.Ext(b.Results) != filepath.Ext(tc.name) {
				t.Fatalf("the results should be written beside %s in its format, got %q", tc.name, b.Results)
			}
			sheet := tc.read(t, b.Results)
			if len(sheet) != batchRows+1 {
				t.Fatalf("the results sheet should hold a header and %d rows, got %d lines", batchRows, len(sheet))
			}
			status, execution := sheetColumn(sheet[0], "Status"), sheetColumn(sheet[0], "Run number")
			if status < 0 || execution < 0 || sheetColumn(sheet[0], "prompt") != 0 {
				t.Fatalf("the results sheet's header should keep the source's columns and add Status and Execution: %q", sheet[0])
			}
			for i, r := range sheet[1:] {
				if len(r) <= max(status, execution) || r[status] != "Done" || r[0] != batchPrompt(i+2) {
					t.Fatalf("row %d of the results sheet should be done: %q", i+2, r)
				}
			}
			if got := sheet[heldRow-1][execution]; got != held.ExecutionID {
				t.Fatalf("the results sheet should name row 20's run %s, got %q", held.ExecutionID, got)
			}
		})
	}
}

// startBatchFromSheet goes from the agents screen to a started batch: it
// finds the agent by search, presses Run on many… on its Run tab, picks the
// sheet (the home folder's only file) in the file dialog, opens it, and
// presses Start once the "Run … on many" dialog shows the columns matched.
// shot keeps a screenshot of a step.
func startBatchFromSheet(e *E2E, search string, shot func(step string)) {
	e.t.Helper()
	startBatchFromSheetAt(e, search, sheetY, shot)
}

// startBatchFromSheetAt is startBatchFromSheet with the sheet at y in the
// file dialog.
func startBatchFromSheetAt(e *E2E, search string, y int, shot func(step string)) {
	e.t.Helper()
	e.Search(search)
	e.Click(batchAgentX, batchAgentY)
	e.WaitRunTab()
	shot("1-agent")
	runOnManyFromSheetAt(e, y, shot)
}

// runOnManyFromSheetAt starts a batch of the agent open on its Run tab from
// the sheet at y in the file dialog (its rows, 2 per second).
func runOnManyFromSheetAt(e *E2E, y int, shot func(step string)) {
	e.t.Helper()
	e.Click(runOnManyX, runOnManyY) // a chooser, its first choice with the keyboard
	e.Key("Return")                 // Rows of a spreadsheet…: the file dialog
	shot("1b-files")
	// A click on a file takes effect once a double click is ruled out:
	// Open turns blue then.
	e.Click(sheetX, y)
	e.WaitLit("the sheet chosen in the file dialog", openLitX, openLitY)
	shot("1c-chosen")
	e.Click(openX, openY)
	// The sheet is read in the background; Start turns blue when every
	// required question has its column. The dialog is as tall as what it
	// shows: Start is found at its foot.
	var startY int
	e.WaitScreen("the Run on many dialog", func(img *image.RGBA) bool {
		var ok bool
		startY, ok = blueButton(img, startLineX, startTopY, startFootY)
		return ok
	})
	shot("2-plan")
	e.Click(startX, startY)
}

// batchPrompt is the request in the sheet's row n (n from 2: row 1 is the
// header).
func batchPrompt(n int) string {
	return fmt.Sprintf("A note on product %d for the spring catalogue", n-1)
}

// batchSheet is the sheet's header and its 50 rows: a request and a tone.
func batchSheet() [][]string {
	tones := []string{"neutral", "friendly", "formal", "persuasive"}
	out := [][]string{{"prompt", "tone"}}
	for n := 2; n <= batchRows+1; n++ {
		out = append(out, []string{batchPrompt(n), tones[n%len(tones)]})
	}
	return out
}

func writeBatchCSV(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(f)
	if err := w.WriteAll(batchSheet()); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func writeBatchXLSX(t *testing.T, path string) {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for i, r := range batchSheet() {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow("Sheet1", cell, &r); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
}

// readBatchCSV reads a results sheet as a spreadsheet program does: the
// mark that tells it the text is UTF-8 first, then cells separated by
// commas (English).
func readBatchCSV(t *testing.T, path string) [][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\uFEFF")))).ReadAll()
	if err != nil {
		t.Fatalf("read the results sheet: %v", err)
	}
	return rows
}

func readBatchXLSX(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows(f.GetSheetList()[0])
	if err != nil {
		t.Fatalf("read the results sheet: %v", err)
	}
	return rows
}

// sheetColumn is where name is in header, -1 when it is not.
func sheetColumn(header []string, name string) int {
	for i, h := range header {
		if h == name {
			return i
		}
	}
	return -1
}

// pollHold is a service whose answer on how one run is going (the poll of
// the run with a given request) waits until released, as a slow agent
// would.
type pollHold struct {
	svc    *demoservice.Service
	prompt string
	// held closes when the run's poll first waits.
	held     chan struct{}
	released chan struct{}
	heldOnce sync.Once
	relOnce  sync.Once
}

// heldBatchService serves the built-in service's code from the test, with
// the poll of the run asked for prompt held until hold.release.
func heldBatchService(t *testing.T, prompt string) (*demoservice.Service, *httptest.Server, *pollHold) {
	t.Helper()
	_, svc := demoservice.NewTestService(t, demoservice.Options{APIKey: batchAPIKey})
	hold := &pollHold{svc: svc, prompt: prompt, held: make(chan struct{}), released: make(chan struct{})}
	srv := httptest.NewServer(hold)
	t.Cleanup(srv.Close)
	t.Cleanup(hold.release) // before the server closes: a held poll ends
	return svc, srv, hold
}

func (h *pollHold) release() { h.relOnce.Do(func() { close(h.released) }) }

func (h *pollHold) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if id, ok := polledRun(r); ok && h.isHeld(id) {
		select {
		case <-h.released:
		default:
			h.heldOnce.Do(func() { close(h.held) })
			select {
			case <-h.released:
			case <-r.Context().Done():
				return // Agent Desk went away
			}
		}
	}
	h.svc.ServeHTTP(w, r)
}

// polledRun is the run a request asks the state of: GET
// /agent-responses/{id}, or /agents/{agent}/responses/{id}.
func polledRun(r *http.Request) (int64, bool) {
	if r.Method != http.MethodGet {
		return 0, false
	}
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	var id string
	switch {
	case len(parts) == 2 && parts[0] == "agent-responses":
		id = parts[1]
	case len(parts) == 4 && parts[0] == "agents" && parts[2] == "responses":
		id = parts[3]
	default:
		return 0, false
	}
	n, err := strconv.ParseInt(id, 10, 64)
	return n, err == nil
}

// isHeld reports whether run id is the one asked for h.prompt.
func (h *pollHold) isHeld(id int64) bool {
	for _, x := range h.svc.Executions() {
		if x.ID == id {
			return fmt.Sprint(x.Answers["prompt"]) == h.prompt
		}
	}
	return false
}
