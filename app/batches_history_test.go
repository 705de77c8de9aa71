package app_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
)

// firstRunHooked is the built-in service behind a server that calls
// hook as the first run request arrives, before the service answers it.
func firstRunHooked(t *testing.T, hook func()) (*demoservice.Service, string) {
	t.Helper()
	svc := demoservice.New(demoservice.Options{APIKey: "k"})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/execute") {
			once.Do(hook)
		}
		svc.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { _ = svc.Close(); srv.Close() })
	return svc, srv.URL
}

// batchOfWeeks opens an App on url over paths (the same history at each
// start) and keeps it in current; the first time it also makes a batch
// of three lines for the Newsletter Writer.
type batchOfWeeks struct {
	t       *testing.T
	url     string
	paths   storage.Paths
	current atomic.Pointer[app.App]
	agent   client.Agent
	id      int64
}

func (w *batchOfWeeks) open() *app.App {
	w.t.Helper()
	ctx := context.Background()
	a := apptest.OnURL(w.t, w.url, func(c *app.Config) { c.Paths = w.paths })
	w.current.Store(a)
	if w.id != 0 {
		return a
	}
	agent, err := a.Client().GetAgent(ctx, "119")
	if err != nil {
		w.t.Fatal(err)
	}
	lines := []string{"A note on week 1", "A note on week 2", "A note on week 3"}
	b, err := a.Batches().NewFromLines(ctx, *agent, lines, "prompt", filepath.Join(w.t.TempDir(), "weeks.csv"), app.BatchPlan{Fixed: map[string]string{"tone": "formal"}})
	if err != nil {
		w.t.Fatal(err)
	}
	w.agent, w.id = *agent, b.ID
	return a
}

// runToEnd starts the batch in the background, as the screen does, and
// waits for how it ended.
func (w *batchOfWeeks) runToEnd(a *app.App) app.BatchEnd {
	w.t.Helper()
	ended := make(chan app.BatchEnd, 1)
	news := a.Batches().News()
	stop := news.Subscribe(func() {
		if n, _ := news.Snapshot(); n.Ends > 0 {
			select {
			case ended <- n.Ended:
			default:
			}
		}
	})
	defer stop()
	if !a.Batches().Start(w.id, w.agent) {
		w.t.Fatal("the batch did not start")
	}
	select {
	case end := <-ended:
		return end
	case <-time.After(2 * time.Minute): // a guard for a busy machine, not a timing
		w.t.Fatal("the batch never ended")
		return app.BatchEnd{}
	}
}

// sentOnce fails t unless the service ran each of the batch's lines
// exactly once.
func sentOnce(t *testing.T, svc *demoservice.Service) {
	t.Helper()
	sent := map[string]int{}
	for _, e := range svc.Executions() {
		sent[fmt.Sprint(e.Answers["prompt"])]++
	}
	for _, l := range []string{"A note on week 1", "A note on week 2", "A note on week 3"} {
		if sent[l] != 1 {
			t.Errorf("%q was sent %d times, want once (all sent: %v)", l, sent[l], sent)
		}
	}
}

// A history that cannot be written in the middle of a batch pauses it
// and says what could not be kept, instead of running on unrecorded. At
// the next start the batch is offered again; the row whose execution id
// could not be kept is not sent again by itself (the service may have
// charged it), and the other rows run once each.
func TestABatchWhoseHistoryFailsPausesAndSaysSo(t *testing.T) {
	w := &batchOfWeeks{t: t, paths: storage.PathsIn(t.TempDir())}
	// The history's disk goes away while the first row's run request is
	// on its way.
	svc, url := firstRunHooked(t, func() { _ = w.current.Load().DB().Close() })
	w.url = url
	a := w.open()
	end := w.runToEnd(a)
	if end.Err == nil || !strings.Contains(app.Describe(end.Err), "could not keep the row's result") || end.Batch.State != storage.BatchPaused {
		t.Fatalf("the batch ended %q, told %v", end.Batch.State, end.Err)
	}
	if n := len(svc.Executions()); n != 1 {
		t.Fatalf("%d rows sent, want only the one on its way when the history failed", n)
	}
	_ = a.Close() // its history is closed already

	ctx := context.Background()
	a = w.resume(svc)
	failed, err := rowsIn(ctx, a.DB(), w.id, storage.RowFailed)
	if err != nil || len(failed) != 1 || failed[0].Row != 2 || !strings.Contains(failed[0].Error, "may or may not have run") {
		t.Fatalf("the row whose run was not recorded: %+v %v", failed, err)
	}
}

// Agent Desk closing while a row's run request is on its way keeps the
// run the service answered with: at the next start the batch is offered,
// that row is looked up, not sent again, and every row is done, each sent
// once.
func TestABatchClosedWhileARowIsSentSendsEachRowOnce(t *testing.T) {
	w := &batchOfWeeks{t: t, paths: storage.PathsIn(t.TempDir())}
	closed := make(chan struct{})
	svc, url := firstRunHooked(t, func() {
		a := w.current.Load()
		go func() {
			_ = a.Close()
			close(closed)
		}()
		<-a.Life().Done()
	})
	w.url = url
	a := w.open()
	if end := w.runToEnd(a); end.Err != nil || end.Batch.State != storage.BatchRunning {
		t.Fatalf("closing mid-row ended the batch %q, told %v", end.Batch.State, end.Err)
	}
	<-closed

	ctx := context.Background()
	a = w.resume(svc)
	if counts, _, err := a.DB().BatchCounts(ctx, w.id); err != nil || counts[storage.RowDone] != 3 {
		t.Fatalf("rows %v (%v), want 3 done", counts, err)
	}
}

// resume starts Agent Desk again, which offers the batch, runs it on, and
// checks that each row reached the service once.
func (w *batchOfWeeks) resume(svc *demoservice.Service) *app.App {
	w.t.Helper()
	ctx := context.Background()
	a := w.open()
	if left, err := a.Batches().Unfinished(ctx); err != nil || len(left) != 1 || left[0].ID != w.id {
		w.t.Fatalf("at the next start, offered %+v (%v), want the batch", left, err)
	}
	if err := a.Batches().Run(ctx, w.id, w.agent); err != nil {
		w.t.Fatal(err)
	}
	sentOnce(w.t, svc)
	return a
}
