package app_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
)

// rssMB is this process's resident memory.
func rssMB() float64 {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(data))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseFloat(f[1], 64)
	return pages * float64(os.Getpagesize()) / (1 << 20)
}

// BenchmarkBatchAtTheRateLimit runs a 1,000-row batch against the built-in
// service at its rate limit (30 requests a second, the account paced to
// it): the requests a second it achieves against the limit (issue: within
// 5 %), the requests each row takes (the run and its polls), and the
// growth of resident memory over the batch (issue: under 30 MB).
func BenchmarkBatchAtTheRateLimit(b *testing.B) {
	const rows, limit = 1000, 30.0
	ctx := context.Background()
	svc := demoservice.New(demoservice.Options{APIKey: "k", RatePerSecond: limit, Burst: 1})
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		svc.ServeHTTP(w, r)
	}))
	b.Cleanup(func() { _ = svc.Close(); srv.Close() })
	a := apptest.OnURL(b, srv.URL, func(c *app.Config) {
		c.ClientOptions = append(c.ClientOptions, client.WithPacer(client.NewPacer(limit, 1)))
	})
	agent, err := a.Client().GetAgent(ctx, "119")
	if err != nil {
		b.Fatal(err)
	}
	lines := make([]string, rows)
	for i := range lines {
		lines[i] = fmt.Sprintf("A note on product %d for the spring catalogue", i)
	}
	for _, parallel := range []int{1, 3} {
		b.Run(fmt.Sprintf("%d-at-once", parallel), func(b *testing.B) {
			var rate, growth, perRow float64
			for b.Loop() {
				batch, err := a.NewBatchFromLines(ctx, *agent, lines, "prompt", filepath.Join(b.TempDir(), "notes.csv"),
					app.BatchPlan{Fixed: map[string]string{"tone": "friendly"}, Parallel: parallel})
				if err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				before, sent, asked, start := rssMB(), len(svc.Executions()), requests.Load(), time.Now()
				if err := a.RunBatch(ctx, batch.ID, *agent); err != nil {
					b.Fatal(err)
				}
				elapsed := time.Since(start)
				runtime.GC()
				growth = rssMB() - before
				n := len(svc.Executions()) - sent
				if counts, _, _ := a.DB().BatchCounts(ctx, batch.ID); counts[storage.RowDone] != rows || n != rows {
					b.Fatalf("rows %v, %d executions for %d rows", counts, n, rows)
				}
				rate = float64(requests.Load()-asked) / elapsed.Seconds()
				perRow = float64(requests.Load()-asked) / rows
			}
			b.ReportMetric(rate/limit, "rate/limit")
			b.ReportMetric(perRow, "requests/row")
			b.ReportMetric(growth, "rss-growth-MB")
		})
	}
}
