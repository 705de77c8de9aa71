package app_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/app/sheet"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
)

// productSheet writes a CSV of n rows for the demo's Newsletter Writer
// (prompt, tone, length); row 5 (the fourth under the header) asks for a
// tone the agent does not offer.
func productSheet(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("Prompt;Tone;Length\n")
	for i := range n {
		tone := "friendly"
		if i == 3 {
			tone = "loud"
		}
		fmt.Fprintf(&b, "\"A note on product %d; short\";%s;%d\n", i, tone, 40+i)
	}
	p := filepath.Join(t.TempDir(), "products.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// wholeSheet reads the sheet at path whole, as the plan does before it
// makes a batch of it.
func wholeSheet(t *testing.T, path string) sheet.All {
	t.Helper()
	all, err := sheet.ReadAll(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// A batch runs the agent once per row it can send, skips with the reason
// a row the service would refuse (nothing sent), and is done.
func TestABatchRunsEachRowOnce(t *testing.T) {
	ctx := context.Background()
	a, svc, agent := onNewsletter(t)
	path := productSheet(t, 12)
	cols := app.MatchColumns(*agent, []string{"Prompt", "Tone", "Length"})
	b, err := a.Batches().New(ctx, *agent, wholeSheet(t, path), app.BatchPlan{Columns: cols})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Batches().Run(ctx, b.ID, *agent); err != nil {
		t.Fatal(err)
	}
	counts, spent, err := a.DB().BatchCounts(ctx, b.ID)
	if err != nil || counts[storage.RowDone] != 11 || counts[storage.RowSkipped] != 1 || spent <= 0 {
		t.Fatalf("rows %v, credits %v, %v", counts, spent, err)
	}
	if n := len(svc.Executions()); n != 11 {
		t.Fatalf("the service ran %d executions for 11 rows to send", n)
	}
	skipped, _ := rowsIn(ctx, a.DB(), b.ID, storage.RowSkipped)
	if len(skipped) != 1 || skipped[0].Row != 5 || !strings.Contains(skipped[0].Error, "Please pick one of the choices") {
		t.Fatalf("the skipped row: %+v", skipped)
	}
	done, _ := a.DB().BatchRows(ctx, b.ID, 0, 1)
	if done[0].Result == "" || done[0].ExecutionID == "" || done[0].Credits == nil {
		t.Fatalf("a done row keeps no result: %+v", done[0])
	}
	got, _ := a.DB().Batch(ctx, b.ID)
	if got.State != storage.BatchDone {
		t.Fatalf("the batch is %q, want done", got.State)
	}
	// The results sheet is beside the source: its columns, then the
	// result, status, credits and execution of each row.
	if want := strings.TrimSuffix(path, ".csv") + " results.csv"; got.Results != want {
		t.Fatalf("results written to %q, want %q", got.Results, want)
	}
	tb, err := sheet.Open(context.Background(), got.Results)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if h := strings.Join(tb.Header(), "|"); h != "Prompt|Tone|Length|Result|Status|Credits|Run number" {
		t.Fatalf("results header %q", h)
	}
	n := 0
	for {
		r, err := tb.Next()
		if err != nil {
			break
		}
		n++
		status := r.Cells[4]
		if (r.Number == 5) != (status == "Skipped") || (r.Number != 5 && (status != "Done" || r.Cells[3] == "" || r.Cells[6] == "")) {
			t.Fatalf("results row %d: %q", r.Number, r.Cells)
		}
	}
	if n != 12 {
		t.Fatalf("the results sheet has %d rows, want 12", n)
	}
}

// A batch stopped mid-way (Agent Desk closed, or killed) goes on where it
// was: the row whose execution the service had is looked up, not sent
// again; the row whose run request was on its way when it stopped is not
// sent again by itself; one still sending its files runs; every other row
// runs once.
func TestABatchGoesOnAfterAStopWithoutPayingTwice(t *testing.T) {
	ctx := context.Background()
	a, svc, agent := onNewsletter(t)
	cols := app.MatchColumns(*agent, []string{"Prompt", "Tone", "Length"})
	b, err := a.Batches().New(ctx, *agent, wholeSheet(t, productSheet(t, 6)), app.BatchPlan{Columns: cols})
	if err != nil {
		t.Fatal(err)
	}
	db := a.DB()
	// As left by a stop: row 2 sent and answered (its id kept), row 3's
	// run request on its way when the app stopped, row 4 still sending
	// its files (no run asked for).
	apptest.RowOnItsWay(t, a, *agent, b.ID)
	r3, _, err := db.TakeWaitingRow(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	r3.State = storage.RowStarting
	if _, err := db.MoveRow(ctx, storage.RowSending, r3); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.TakeWaitingRow(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	before := len(svc.Executions())

	if err := a.Batches().Run(ctx, b.ID, *agent); err != nil {
		t.Fatal(err)
	}
	// Rows 4 and 6 and 7 run; row 5 (a tone not offered) is skipped.
	if sent := len(svc.Executions()) - before; sent != 3 {
		t.Fatalf("going on sent %d requests, want 3 (rows 4, 6, 7)", sent)
	}
	rows, _ := db.BatchRows(ctx, b.ID, 0, 0)
	states := map[int]storage.RowState{}
	for _, r := range rows {
		states[r.Row] = r.State
	}
	want := map[int]storage.RowState{2: storage.RowDone, 3: storage.RowFailed, 4: storage.RowDone, 5: storage.RowSkipped, 6: storage.RowDone, 7: storage.RowDone}
	for row, s := range want {
		if states[row] != s {
			t.Errorf("row %d is %q, want %q", row, states[row], s)
		}
	}
	n, err := db.RetryFailedRows(ctx, b.ID)
	if err != nil || n != 1 {
		t.Fatalf("retry failed rows: %d %v", n, err)
	}
	if err := a.Batches().Run(ctx, b.ID, *agent); err != nil {
		t.Fatal(err)
	}
	if sent := len(svc.Executions()) - before; sent != 4 {
		t.Fatalf("after Retry failed rows %d requests in all, want 4: only the failed row again", sent)
	}
}

// Pasted lines run as a batch too, several rows at once when asked,
// each once; a credit cap pauses a batch once it has cost that much; a
// batch left running is offered to go on with.
func TestPastedLinesParallelRowsAndACreditCap(t *testing.T) {
	ctx := context.Background()
	a, svc, agent := onNewsletter(t)
	lines := []string{"A note on the summer party", "", "A note on the new printer"}
	for i := range 7 {
		lines = append(lines, fmt.Sprintf("A note on week %d", i))
	}
	results := filepath.Join(t.TempDir(), "notes.xlsx")
	b, err := a.Batches().NewFromLines(ctx, *agent, lines, "prompt", results, app.BatchPlan{Fixed: map[string]string{"tone": "formal"}, Parallel: 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Batches().Run(ctx, b.ID, *agent); err != nil {
		t.Fatal(err)
	}
	counts, _, _ := a.DB().BatchCounts(ctx, b.ID)
	if counts[storage.RowDone] != 9 || len(svc.Executions()) != 9 {
		t.Fatalf("9 lines: rows %v, %d executions", counts, len(svc.Executions()))
	}
	tb, err := sheet.Open(context.Background(), results)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		if _, err := tb.Next(); err != nil {
			break
		}
		n++
	}
	_ = tb.Close()
	if n != 9 {
		t.Fatalf("the results sheet has %d rows, want 9", n)
	}

	capped, err := a.Batches().NewFromLines(ctx, *agent, lines, "prompt", filepath.Join(t.TempDir(), "capped.csv"),
		app.BatchPlan{Fixed: map[string]string{"tone": "formal"}, CreditCap: 0.0001})
	if err != nil {
		t.Fatal(err)
	}
	if open, _ := a.Batches().Unfinished(ctx); len(open) != 1 || open[0].ID != capped.ID {
		t.Fatalf("a batch not yet finished is not offered: %+v", open)
	}
	if err := a.Batches().Run(ctx, capped.ID, *agent); err != nil {
		t.Fatal(err)
	}
	counts, spent, _ := a.DB().BatchCounts(ctx, capped.ID)
	got, _ := a.DB().Batch(ctx, capped.ID)
	if counts[storage.RowDone] != 1 || counts[storage.RowWaiting] != 8 || got.State != storage.BatchPaused || spent < 0.0001 {
		t.Fatalf("a batch capped at 0.0001 credits: rows %v, spent %v, state %q", counts, spent, got.State)
	}
	if open, _ := a.Batches().Unfinished(ctx); len(open) != 0 {
		t.Fatalf("a paused batch is offered as left running: %+v", open)
	}
}

// Closing Agent Desk mid-batch leaves it to be offered at the next start
// (a pause by the user does not); a row whose run the service no longer
// has fails with the reason instead of being looked up forever.
func TestClosingMidBatchOffersToGoOnAndAGoneRunFails(t *testing.T) {
	ctx := context.Background()
	srv, svc := demoservice.NewTestService(t, demoservice.Options{APIKey: "k", Pace: 5 * time.Millisecond})
	paths := storage.PathsIn(t.TempDir())
	open := func() *app.App {
		return apptest.OnURL(t, srv.URL, func(c *app.Config) {
			c.Paths = paths
			c.ClientOptions = append(c.ClientOptions, client.WithPollInterval(20*time.Millisecond))
		})
	}
	a := open()
	agent, err := a.Client().GetAgent(ctx, "119")
	if err != nil {
		t.Fatal(err)
	}
	lines := make([]string, 5)
	for i := range lines {
		lines[i] = fmt.Sprintf("A note on week %d", i)
	}
	b, err := a.Batches().NewFromLines(ctx, *agent, lines, "prompt", filepath.Join(t.TempDir(), "weeks.csv"), app.BatchPlan{Fixed: map[string]string{"tone": "formal"}})
	if err != nil {
		t.Fatal(err)
	}
	a.Batches().Start(b.ID, *agent)
	for len(svc.Executions()) < 1 {
		time.Sleep(10 * time.Millisecond)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	a = open()
	left, err := a.Batches().Unfinished(ctx)
	if err != nil || len(left) != 1 || left[0].ID != b.ID {
		t.Fatalf("after closing mid-batch, offered %+v (%v), want the batch", left, err)
	}

	// A row left running whose execution the service does not know.
	db := a.DB()
	r, ok, err := db.TakeWaitingRow(ctx, b.ID)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	r.State, r.ExecutionID = storage.RowRunning, "999999"
	if _, err := db.MoveRow(ctx, storage.RowSending, r); err != nil {
		t.Fatal(err)
	}
	if err := a.Batches().Run(ctx, b.ID, *agent); err != nil {
		t.Fatal(err)
	}
	failed, _ := rowsIn(ctx, db, b.ID, storage.RowFailed)
	if len(failed) != 1 || failed[0].Row != r.Row || !strings.Contains(failed[0].Error, "no longer has this run") {
		t.Fatalf("the row whose run is gone: %+v", failed)
	}
	if got, _ := db.Batch(ctx, b.ID); got.State != storage.BatchDone {
		t.Fatalf("the batch is %q, want done", got.State)
	}
}

// agentOfType is the demo's first agent of type typ.
func agentOfType(t *testing.T, a *app.App, typ string) client.Agent {
	t.Helper()
	page, err := a.Client().ListAgents(context.Background(), client.ListAgentsParams{Type: typ, PerPage: 50})
	if err != nil || len(page.Data) == 0 {
		t.Fatalf("no %s agent: %v", typ, err)
	}
	agent, err := a.Client().GetAgent(context.Background(), page.Data[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	return *agent
}

// A folder of files runs the agent once per file, each file sent once and
// attached to its own run; a file that cannot be sent (empty) is skipped
// with the reason; the files are removed from the service once their row
// is done, so a folder larger than the service keeps (30 files) runs, and
// the service holds what it held before. The results go beside the
// folder, as an Excel sheet.
func TestAFolderRunsOncePerFileAndLeavesTheServiceAsItWas(t *testing.T) {
	ctx := context.Background()
	a, svc, agent := onNewsletter(t)
	folder := filepath.Join(t.TempDir(), "Reviews")
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	var names []string
	for i := range 40 {
		name := fmt.Sprintf("review %02d.txt", i)
		if err := os.WriteFile(filepath.Join(folder, name), fmt.Appendf(nil, "Review %d: the coffee was fine.", i), 0o600); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	if err := os.WriteFile(filepath.Join(folder, "blank.txt"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	names = append(names, "blank.txt")
	before := len(svc.Files())
	b, err := a.Batches().NewFromFiles(ctx, *agent, folder, names, "", app.BatchPlan{
		Fixed: map[string]string{"prompt": "Summarise this review in one line", "tone": "neutral", "length": "20"}, Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Batches().Run(ctx, b.ID, *agent); err != nil {
		t.Fatal(err)
	}
	counts, _, _ := a.DB().BatchCounts(ctx, b.ID)
	if counts[storage.RowDone] != 40 || counts[storage.RowSkipped] != 1 {
		t.Fatalf("rows %v, want 40 done and the empty file skipped", counts)
	}
	seen := map[int64]bool{}
	for _, e := range svc.Executions() {
		if len(e.FileIDs) != 1 || seen[e.FileIDs[0]] {
			t.Fatalf("a run went with files %v (seen before: %v)", e.FileIDs, seen[e.FileIDs[0]])
		}
		seen[e.FileIDs[0]] = true
	}
	if len(seen) != 40 {
		t.Fatalf("%d runs for 40 files", len(seen))
	}
	if after := len(svc.Files()); after != before {
		t.Fatalf("the service holds %d files after the batch, %d before", after, before)
	}
	skipped, _ := rowsIn(ctx, a.DB(), b.ID, storage.RowSkipped)
	if len(skipped) != 1 || !strings.Contains(skipped[0].Error, "empty") {
		t.Fatalf("the empty file: %+v", skipped)
	}
	got, _ := a.DB().Batch(ctx, b.ID)
	if got.Results != folder+" results.xlsx" {
		t.Fatalf("results at %q", got.Results)
	}
	if _, err := os.Stat(got.Results); err != nil {
		t.Fatal(err)
	}
}

// A service already holding all the files it keeps leaves no room for a
// folder's: the batch says so and sends nothing.
func TestAFullServiceRunsNoFolder(t *testing.T) {
	ctx := context.Background()
	a, svc, agent := onNewsletter(t)
	// One run first, as any account has made: the service shows it
	// follows the real one, which keeps at most 30 files.
	if _, err := a.Client().Run(ctx, agent.ID, client.ExecuteParams{Answers: map[string]any{"prompt": "Hello", "tone": "neutral", "length": 20}}); err != nil {
		t.Fatal(err)
	}
	for i := len(svc.Files()); i < client.MaxStoredFiles; i++ {
		if _, err := a.Client().UploadFile(ctx, client.UploadParams{Reader: strings.NewReader("x"), Filename: fmt.Sprintf("f%d.txt", i), Size: 1}); err != nil {
			t.Fatal(err)
		}
	}
	folder := t.TempDir()
	if err := os.WriteFile(filepath.Join(folder, "a.txt"), []byte("a"), 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := a.Batches().NewFromFiles(ctx, *agent, folder, []string{"a.txt"}, "", app.BatchPlan{
		Fixed: map[string]string{"prompt": "Summarise", "tone": "neutral", "length": "20"}})
	if err != nil {
		t.Fatal(err)
	}
	runs := len(svc.Executions())
	err = a.Batches().Run(ctx, b.ID, *agent)
	if err == nil || !strings.Contains(app.Describe(err), "keeps at most 30 files and holds 30") {
		t.Fatalf("a full service: %v", err)
	}
	if len(svc.Executions()) != runs || len(svc.Files()) != client.MaxStoredFiles {
		t.Fatal("something was sent")
	}
	if got, _ := a.DB().Batch(ctx, b.ID); got.State != storage.BatchPaused {
		t.Fatalf("the batch is %q, want paused", got.State)
	}
}

// A chat agent runs each row as a chat of one message; a picture agent's
// pictures are saved beside the results, named after their row, and the
// results sheet says where.
func TestChatAndPictureAgentsRunOnRows(t *testing.T) {
	ctx := context.Background()
	a, svc := apptest.OnService(t, demoservice.Options{APIKey: "k"})
	chat := agentOfType(t, a, client.AgentChat)
	dir := t.TempDir()
	b, err := a.Batches().NewFromLines(ctx, chat, []string{"Where is my order?", "Can I pay by card?"}, app.ChatMessage, filepath.Join(dir, "questions.csv"),
		app.BatchPlan{Fixed: firstChoices(chat)})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Batches().Run(ctx, b.ID, chat); err != nil {
		t.Fatal(err)
	}
	if counts, _, _ := a.DB().BatchCounts(ctx, b.ID); counts[storage.RowDone] != 2 {
		rows, _ := a.DB().BatchRows(ctx, b.ID, 0, 5)
		t.Fatalf("chat rows %v: %+v", counts, rows)
	}
	runs := svc.Executions()
	if len(runs) != 2 || len(runs[0].Messages) != 1 || runs[0].Messages[0].Content != "Where is my order?" && runs[1].Messages[0].Content != "Where is my order?" {
		t.Fatalf("the chat runs: %+v", runs)
	}

	pictures := agentOfType(t, a, client.AgentImage)
	b, err = a.Batches().NewFromLines(ctx, pictures, []string{"A red bicycle", "A blue kettle"}, "prompt", filepath.Join(dir, "pictures.csv"), app.BatchPlan{Fixed: firstChoices(pictures)})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Batches().Run(ctx, b.ID, pictures); err != nil {
		t.Fatal(err)
	}
	rows, _ := a.DB().BatchRows(ctx, b.ID, 0, 5)
	for _, r := range rows {
		if r.State != storage.RowDone || len(r.Files) != 1 || !strings.HasPrefix(filepath.Base(r.Files[0]), fmt.Sprint(r.Row)+" "+r.Cells[0]) {
			t.Fatalf("row %+v", r)
		}
		if filepath.Dir(r.Files[0]) != filepath.Join(dir, "pictures files") {
			t.Fatalf("saved in %q", filepath.Dir(r.Files[0]))
		}
		if _, err := os.Stat(r.Files[0]); err != nil {
			t.Fatal(err)
		}
	}
	t2, err := sheet.Open(context.Background(), filepath.Join(dir, "pictures.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer t2.Close()
	if h := t2.Header(); h[len(h)-1] != "Files" {
		t.Fatalf("results header %q", h)
	}
}

// firstChoices answers each of agent's required choices with its first
// option.
func firstChoices(agent client.Agent) map[string]string {
	fixed := map[string]string{}
	for _, q := range app.FormQuestions(agent) {
		if q.Required && len(q.Options) > 0 {
			fixed[q.Name] = q.Options[0]
		}
	}
	return fixed
}

// Pictures of rows whose text holds slashes keep a name of their own each
// (no folder made of "16/9"); a picture not saved when Agent Desk stopped
// is fetched when the batch runs again, nothing sent again; a second batch
// over the same sheet writes its results beside the first one's.
func TestSavedPicturesKeepTheirRowsAndComeBack(t *testing.T) {
	ctx := context.Background()
	a, svc := apptest.OnService(t, demoservice.Options{APIKey: "k"})
	pictures := agentOfType(t, a, client.AgentImage)
	dir := t.TempDir()
	b, err := a.Batches().NewFromLines(ctx, pictures, []string{"Poster 16/9", "Poster 4/3"}, "prompt", filepath.Join(dir, "posters.csv"), app.BatchPlan{Fixed: firstChoices(pictures)})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Batches().Run(ctx, b.ID, pictures); err != nil {
		t.Fatal(err)
	}
	rows, _ := a.DB().BatchRows(ctx, b.ID, 0, 5)
	if len(rows) != 2 || len(rows[0].Files) != 1 || len(rows[1].Files) != 1 || rows[0].Files[0] == rows[1].Files[0] {
		t.Fatalf("rows %+v", rows)
	}
	for _, r := range rows {
		if filepath.Dir(r.Files[0]) != filepath.Join(dir, "posters files") || !strings.Contains(filepath.Base(r.Files[0]), "Poster") {
			t.Fatalf("row %d saved as %q", r.Row, r.Files[0])
		}
	}
	// As if Agent Desk closed before the first picture was saved.
	if err := os.Remove(rows[0].Files[0]); err != nil {
		t.Fatal(err)
	}
	rows[0].Files = nil
	if _, err := a.DB().MoveRow(ctx, storage.RowDone, rows[0]); err != nil {
		t.Fatal(err)
	}
	runs := len(svc.Executions())
	if err := a.Batches().Run(ctx, b.ID, pictures); err != nil {
		t.Fatal(err)
	}
	again, _ := a.DB().BatchRows(ctx, b.ID, 0, 5)
	if len(again[0].Files) != 1 || len(svc.Executions()) != runs {
		t.Fatalf("after going on: %+v, %d runs more", again[0], len(svc.Executions())-runs)
	}
	if _, err := os.Stat(again[0].Files[0]); err != nil {
		t.Fatal(err)
	}

	agent, err := a.Client().GetAgent(ctx, "119")
	if err != nil {
		t.Fatal(err)
	}
	sheetPath := productSheet(t, 2)
	cols := app.MatchColumns(*agent, []string{"Prompt", "Tone", "Length"})
	first, err := a.Batches().New(ctx, *agent, wholeSheet(t, sheetPath), app.BatchPlan{Columns: cols})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Batches().Run(ctx, first.ID, *agent); err != nil {
		t.Fatal(err)
	}
	second, err := a.Batches().New(ctx, *agent, wholeSheet(t, sheetPath), app.BatchPlan{Columns: cols})
	if err != nil {
		t.Fatal(err)
	}
	first, _ = a.DB().Batch(ctx, first.ID)
	if second.Results == first.Results || second.Results != strings.TrimSuffix(first.Results, ".csv")+" (2).csv" {
		t.Fatalf("the second batch's results go to %q, the first's are %q", second.Results, first.Results)
	}
}

// A batch cancelled while a row was on its way is offered to go on with
// (the row is looked up, nothing new sent), and stays cancelled.
func TestACancelledBatchsRowsOnTheirWayAreLookedUp(t *testing.T) {
	ctx := context.Background()
	a, svc, agent := onNewsletter(t)
	cols := app.MatchColumns(*agent, []string{"Prompt", "Tone", "Length"})
	b, err := a.Batches().New(ctx, *agent, wholeSheet(t, productSheet(t, 3)), app.BatchPlan{Columns: cols})
	if err != nil {
		t.Fatal(err)
	}
	db := a.DB()
	apptest.RowOnItsWay(t, a, *agent, b.ID)
	if err := db.CancelBatch(ctx, b.ID, "cancelled"); err != nil {
		t.Fatal(err)
	}
	left, err := a.Batches().Unfinished(ctx)
	if err != nil || len(left) != 1 || left[0].ID != b.ID {
		t.Fatalf("offered %+v (%v), want the cancelled batch with a row on its way", left, err)
	}
	runs := len(svc.Executions())
	if err := a.Batches().Run(ctx, b.ID, *agent); err != nil {
		t.Fatal(err)
	}
	counts, _, _ := db.BatchCounts(ctx, b.ID)
	if counts[storage.RowDone] != 1 || counts[storage.RowSkipped] != 2 || len(svc.Executions()) != runs {
		t.Fatalf("rows %v, %d runs more", counts, len(svc.Executions())-runs)
	}
	if got, _ := db.Batch(ctx, b.ID); got.State != storage.BatchCancelled {
		t.Fatalf("the batch is %q, want cancelled", got.State)
	}
	if left, _ := a.Batches().Unfinished(ctx); len(left) != 0 {
		t.Fatalf("still offered: %+v", left)
	}
}

// A batch's results get a name of their own from the start: two batches
// made one after the other over a sheet, before either ran, never share a
// results sheet or files folder; a name kept by an earlier batch's files
// folder alone is not taken; a name the disk cannot hold (too long) is
// returned at once, for writing it to say so, instead of searching on.
func TestEachBatchHasResultsOfItsOwn(t *testing.T) {
	ctx := context.Background()
	a, _, agent := onNewsletter(t)
	sheetPath := productSheet(t, 2)
	cols := app.MatchColumns(*agent, []string{"Prompt", "Tone", "Length"})
	one, err := a.Batches().New(ctx, *agent, wholeSheet(t, sheetPath), app.BatchPlan{Columns: cols})
	if err != nil {
		t.Fatal(err)
	}
	two, err := a.Batches().New(ctx, *agent, wholeSheet(t, sheetPath), app.BatchPlan{Columns: cols})
	if err != nil {
		t.Fatal(err)
	}
	if one.Results == two.Results || one.Outputs == two.Outputs {
		t.Fatalf("two batches share %q / %q", one.Results, one.Outputs)
	}
	if _, err := os.Stat(one.Results); err != nil {
		t.Fatalf("the first batch's results sheet is not there from the start: %v", err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "posters results files"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := app.FreePath(filepath.Join(dir, "posters results.csv")); got != filepath.Join(dir, "posters results (2).csv") {
		t.Fatalf("a name whose files folder is there: %q", got)
	}
	long := filepath.Join(dir, strings.Repeat("表", 90)+" results.csv")
	done := make(chan string, 1)
	go func() { done <- app.FreePath(long) }()
	select {
	case got := <-done:
		if got != long {
			t.Fatalf("a name too long became %q", got)
		}
	case <-time.After(10 * time.Second): // a guard against the old endless search, not a timing
		t.Fatal("FreePath searched on for a name the disk cannot hold")
	}
}

// A cancelled batch whose row was still sending its files when Agent Desk
// stopped skips that row: nothing more is uploaded or run.
func TestACancelledBatchSendsNoFileAfterAStop(t *testing.T) {
	ctx := context.Background()
	a, svc, agent := onNewsletter(t)
	folder := t.TempDir()
	for _, n := range []string{"a.txt", "b.txt"} {
		if err := os.WriteFile(filepath.Join(folder, n), []byte("a review"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	b, err := a.Batches().NewFromFiles(ctx, *agent, folder, []string{"a.txt", "b.txt"}, "", app.BatchPlan{
		Fixed: map[string]string{"prompt": "Summarise", "tone": "neutral", "length": "20"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.DB().TakeWaitingRow(ctx, b.ID); err != nil { // sending its file when it stopped
		t.Fatal(err)
	}
	if err := a.DB().CancelBatch(ctx, b.ID, "cancelled"); err != nil {
		t.Fatal(err)
	}
	// The service numbers the files it takes: a file uploaded before and
	// one after show whether any was taken between (even one removed).
	probe := func() int64 {
		f, err := a.Client().UploadFile(ctx, client.UploadParams{Reader: strings.NewReader("x"), Filename: "probe.txt", Size: 1})
		if err != nil {
			t.Fatal(err)
		}
		n, _ := strconv.ParseInt(string(f.ID), 10, 64)
		return n
	}
	first, runs := probe(), len(svc.Executions())
	if err := a.Batches().Run(ctx, b.ID, *agent); err != nil {
		t.Fatal(err)
	}
	if next := probe(); next != first+1 || len(svc.Executions()) != runs {
		t.Fatalf("%d files uploaded and %d runs made after the cancel", next-first-1, len(svc.Executions())-runs)
	}
	if counts, _, _ := a.DB().BatchCounts(ctx, b.ID); counts[storage.RowSkipped] != 2 {
		t.Fatalf("rows %v, want both skipped", counts)
	}
}

// onNewsletter opens an App on the built-in service and reads its
// Newsletter Writer (prompt, tone and length), the agent most batch tests
// run.
func onNewsletter(t *testing.T) (*app.App, *demoservice.Service, *client.Agent) {
	t.Helper()
	a, svc := apptest.OnService(t, demoservice.Options{APIKey: "k"})
	agent, err := a.Client().GetAgent(context.Background(), "119")
	if err != nil {
		t.Fatal(err)
	}
	return a, svc, agent
}

// rowsIn are a batch's rows in state, in sheet order.
func rowsIn(ctx context.Context, db *storage.DB, id int64, state storage.RowState) ([]storage.BatchRow, error) {
	rows, err := db.AllBatchRows(ctx, id)
	return slices.DeleteFunc(rows, func(r storage.BatchRow) bool { return r.State != state }), err
}
