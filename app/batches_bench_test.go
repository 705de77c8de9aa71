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
	"sort"
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
	const limit = 30.0
	rows := 1000
	if n, err := strconv.Atoi(os.Getenv("BENCH_ROWS")); err == nil {
		rows = n
	}
	ctx := context.Background()
	envf := func(k string, d float64) float64 {
		if v, err := strconv.ParseFloat(os.Getenv(k), 64); err == nil {
			return v
		}
		return d
	}
	srvRate, srvBurst := envf("SRV_RATE", limit), int(envf("SRV_BURST", 1))
	pRate, pBurst := envf("P_RATE", limit), int(envf("P_BURST", 1))
	svc := demoservice.New(demoservice.Options{APIKey: "k", RatePerSecond: srvRate, Burst: srvBurst})
	var gmu sync.Mutex
	var arr []time.Time
	var requests, limited atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		gmu.Lock()
		arr = append(arr, time.Now())
		gmu.Unlock()
		rec := &statusWriter{ResponseWriter: w}
		svc.ServeHTTP(rec, r)
		if rec.code == http.StatusTooManyRequests {
			limited.Add(1)
		}
	}))
	b.Cleanup(func() { _ = svc.Close(); srv.Close() })
	a := apptest.OnURL(b, srv.URL, func(c *app.Config) {
		c.ClientOptions = append(c.ClientOptions, client.WithPacer(client.NewPacer(pRate, pBurst)))
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
				before, sent, asked, lim, start := rssMB(), len(svc.Executions()), requests.Load(), limited.Load(), time.Now()
				if err := a.RunBatch(ctx, batch.ID, *agent); err != nil {
					b.Fatal(err)
				}
				elapsed := time.Since(start)
				if os.Getenv("GAPS") != "" {
					gmu.Lock()
					var gaps []float64
					for i := 1; i < len(arr); i++ {
						gaps = append(gaps, float64(arr[i].Sub(arr[i-1]).Microseconds())/1000)
					}
					arr = nil
					gmu.Unlock()
					sort.Float64s(gaps)
					if len(gaps) > 0 {
						q := func(f float64) float64 { return gaps[int(f*float64(len(gaps)-1))] }
						b.Logf("arrival gaps ms: min %.2f p0.1 %.2f p1 %.2f p5 %.2f p50 %.2f p99 %.2f max %.2f", q(0), q(0.001), q(0.01), q(0.05), q(0.5), q(0.99), q(1))
					}
				}
				runtime.GC()
				growth = rssMB() - before
				n := len(svc.Executions()) - sent
				if counts, _, _ := a.DB().BatchCounts(ctx, batch.ID); counts[storage.RowDone] != rows || n != rows {
					b.Fatalf("rows %v, %d executions for %d rows", counts, n, rows)
				}
				rate = float64(requests.Load()-asked) / elapsed.Seconds()
				b.Logf("%d rows %d at once: %v, %d requests, %d 429s, accepted %.2f/s", rows, parallel, elapsed.Round(time.Millisecond), requests.Load()-asked, limited.Load()-lim, float64(requests.Load()-asked-(limited.Load()-lim))/elapsed.Seconds())
				perRow = float64(requests.Load()-asked) / float64(rows)
			}
			b.ReportMetric(rate/limit, "rate/limit")
			b.ReportMetric(perRow, "requests/row")
			b.ReportMetric(growth, "rss-growth-MB")
		})
	}
}

type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
