package app_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/app/sheet"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
)

// resultsSheet reads a batch's results sheet: its header and its rows by
// sheet row number.
func resultsSheet(t *testing.T, path string) ([]string, map[int][]string) {
	t.Helper()
	tb, err := sheet.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	rows := map[int][]string{}
	for {
		r, err := tb.Next()
		if err != nil {
			break
		}
		// A sheet program leaves a row's empty cells at its end unwritten.
		rows[r.Number] = append(r.Cells, make([]string, max(0, len(tb.Header())-len(r.Cells)))...)
	}
	return tb.Header(), rows
}

// A batch asked for facts writes a column for each, headed as named, after
// the sheet's own columns and the result's: filled for each row whose reply
// held them. A chat agent whose reply did not is asked once more in the
// same conversation, and both questions are counted in the row's credits; a
// text agent is asked once, and a row whose reply does not fit needs a
// look, its reply kept in the sheet.
func TestABatchFillsTheNamedColumns(t *testing.T) {
	ctx := context.Background()
	a, svc := apptest.OnService(t, demoservice.Options{APIKey: "k"})
	facts := []string{"Invoice number", "Date", "Total", "Supplier"}
	const n = 30
	dir := t.TempDir()

	// A chat agent, on a sheet of messages.
	chat := agentOfType(t, a, client.AgentChat)
	var b strings.Builder
	b.WriteString("Message,Customer\n")
	for i := range n {
		fmt.Fprintf(&b, "Read invoice %d of the spring order and tell me what it says.,Customer %d\n", i, i)
	}
	path := filepath.Join(dir, "invoices.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	batch, err := a.Batches().New(ctx, chat, wholeSheet(t, path), app.BatchPlan{
		Columns: app.ColumnMap{app.ChatMessage: 0}, Fixed: firstChoices(chat), Fields: facts, Parallel: 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Batches().Run(ctx, batch.ID, chat); err != nil {
		t.Fatal(err)
	}
	runs := svc.Executions()
	perRoot := map[int64][]demoservice.ExecutionRecord{}
	for _, r := range runs {
		perRoot[r.RootID] = append(perRoot[r.RootID], r)
	}
	again := 0
	for root, asked := range perRoot {
		switch {
		case len(asked) > 2:
			t.Fatalf("conversation %d was asked %d times", root, len(asked))
		case asked[0].ID != root:
			t.Fatalf("a question asked again outside its conversation: %+v", asked[0])
		case len(asked) == 2:
			again++
		}
	}
	if len(perRoot) != n || again == 0 || again > n/2 {
		t.Fatalf("%d conversations for %d rows, %d asked again: the service answers about 1 in 5 wrongly", len(perRoot), n, again)
	}
	// The last question asked again, as the service kept it: the row's
	// message, the reply, and the facts asked for once more.
	last := runs[len(runs)-1]
	for i := len(runs) - 1; i >= max(0, len(runs)-3) && len(last.Messages) != 3; i-- {
		last = runs[i]
	}
	if len(last.Messages) == 3 && (!strings.Contains(last.Messages[2].Content, `{"Invoice number": "", "Date": "", "Total": "", "Supplier": ""}`) ||
		last.Messages[1].Role != client.RoleAssistant || !strings.HasPrefix(last.Messages[0].Content, "Read invoice")) {
		t.Fatalf("asked again with %+v", last.Messages)
	}
	rows, err := a.DB().AllBatchRows(ctx, batch.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		id, _ := strconv.ParseInt(r.ExecutionID, 10, 64)
		var root int64
		for _, run := range runs {
			if run.ID == id {
				root = run.RootID
			}
		}
		cost := 0.0
		for _, run := range perRoot[root] {
			cost += *run.Credits
		}
		if r.State != storage.RowDone || r.Credits == nil || math.Abs(*r.Credits-cost) > 1e-9 || r.Asked != len(perRoot[root])-1 {
			t.Fatalf("row %d: %s, credits %v for %d questions costing %v: %q", r.Row, r.State, r.Credits, len(perRoot[root]), cost, r.Result)
		}
	}
	got, _ := a.DB().Batch(ctx, batch.ID)
	header, cells := resultsSheet(t, got.Results)
	if want := "Message|Customer|Result|Status|Credits|Run number|Invoice number|Date|Total|Supplier"; strings.Join(header, "|") != want {
		t.Fatalf("results header %q", header)
	}
	if len(cells) != n {
		t.Fatalf("%d rows in the results sheet, want %d", len(cells), n)
	}
	for row, c := range cells {
		if c[3] != "Done" || slices.Contains(c[6:10], "") {
			t.Fatalf("results row %d: %q", row, c)
		}
	}

	// A text agent, on lines: asked once; what does not fit needs a look.
	writer, err := a.Client().GetAgent(ctx, "119")
	if err != nil {
		t.Fatal(err)
	}
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf("Summarise invoice %d of the summer order", i)
	}
	before := len(svc.Executions())
	batch, err = a.Batches().NewFromLines(ctx, *writer, lines, "prompt", filepath.Join(dir, "summer.xlsx"),
		app.BatchPlan{Fixed: map[string]string{"tone": "neutral"}, Fields: facts, Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Batches().Run(ctx, batch.ID, *writer); err != nil {
		t.Fatal(err)
	}
	if sent := len(svc.Executions()) - before; sent != n {
		t.Fatalf("%d questions for %d lines: a text agent is asked once", sent, n)
	}
	counts, _, _ := a.DB().BatchCounts(ctx, batch.ID)
	if counts[storage.RowLook] == 0 || counts[storage.RowLook] > n/2 || counts[storage.RowDone]+counts[storage.RowLook] != n {
		t.Fatalf("rows %v: the service answers about 1 in 5 wrongly", counts)
	}
	got, _ = a.DB().Batch(ctx, batch.ID)
	if got.State != storage.BatchDone {
		t.Fatalf("the batch is %q, want done", got.State)
	}
	rows, _ = a.DB().AllBatchRows(ctx, batch.ID)
	header, cells = resultsSheet(t, got.Results)
	if want := "Prompt|Result|Status|Credits|Run number|Invoice number|Date|Total|Supplier"; strings.Join(header, "|") != want {
		t.Fatalf("results header %q", header)
	}
	for _, r := range rows {
		c := cells[r.Row]
		switch r.State {
		case storage.RowDone:
			if c[2] != "Done" || slices.Contains(c[5:9], "") || !slices.Equal(c[5:9], r.Values) {
				t.Fatalf("row %d is done, its sheet row reads %q", r.Row, c)
			}
		case storage.RowLook:
			if c[2] != "Needs a look" || c[1] == "" || c[1] != r.Result || r.Error == "" || strings.Join(c[5:9], "") != "" {
				t.Fatalf("row %d needs a look (%q), its sheet row reads %q", r.Row, r.Error, c)
			}
		default:
			t.Fatalf("row %d is %q", r.Row, r.State)
		}
	}
	// Retry failed rows leaves them: they answered, and were paid for.
	if err := a.Batches().RetryFailed(ctx, batch.ID); err != nil {
		t.Fatal(err)
	}
	if sent := len(svc.Executions()) - before; sent != n {
		t.Fatalf("Retry failed rows sent %d more", sent-n)
	}
}

// A row whose agent was being asked again when Agent Desk stopped is never
// asked a third time: it needs a look, its first reply kept.
func TestARowAskedAgainIsNotAskedOnceMore(t *testing.T) {
	ctx := context.Background()
	a, svc := apptest.OnService(t, demoservice.Options{APIKey: "k"})
	chat := agentOfType(t, a, client.AgentChat)
	b, err := a.Batches().NewFromLines(ctx, chat, []string{"Read the invoice"}, app.ChatMessage, filepath.Join(t.TempDir(), "one.csv"),
		app.BatchPlan{Fixed: firstChoices(chat), Fields: []string{"Total"}})
	if err != nil {
		t.Fatal(err)
	}
	r, _, err := a.DB().TakeWaitingRow(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	r.State, r.Asked, r.Result = storage.RowStarting, 1, "I could not read it."
	if _, err := a.DB().MoveRow(ctx, storage.RowSending, r); err != nil {
		t.Fatal(err)
	}
	if err := a.Batches().Run(ctx, b.ID, chat); err != nil {
		t.Fatal(err)
	}
	rows, _ := a.DB().AllBatchRows(ctx, b.ID)
	if len(svc.Executions()) != 0 || rows[0].State != storage.RowLook || rows[0].Result != "I could not read it." {
		t.Fatalf("%d questions; the row: %+v", len(svc.Executions()), rows[0])
	}
}
