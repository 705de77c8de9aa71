package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
)

const benchStreamBytes = 10 << 20

// benchRecords returns ~10 MB of streamed execution records, as SSE frames
// and as newline-separated JSON, plus the number of records.
func benchRecords() (frames, lines []byte, n int) {
	var sseBuf, nl bytes.Buffer
	words := []string{"The ", "agent ", "writes ", "a reply ", "one fragment ", "at a time, ", "\"quoted\" ", "ünïcode ", "and\\n ", "more. "}
	for i := 0; sseBuf.Len() < benchStreamBytes; i++ {
		out, _ := json.Marshal(words[i%len(words)] + words[(i+3)%len(words)])
		rec := fmt.Sprintf(`{"id":%d,"status":"running","output":%s,"error":null,"credits":null,"root_id":1200,"created_at":"2024-05-01T10:00:00.000000Z","updated_at":"2024-05-01T10:00:%02d.000000Z","template_id":3}`, 1200, out, i%60)
		sseBuf.WriteString("data: " + rec + "\n\n")
		nl.WriteString(rec + "\n")
		n++
	}
	last := `{"id":1200,"status":"completed","output":"","error":null,"credits":12.5,"root_id":1200,"created_at":"2024-05-01T10:00:00.000000Z","updated_at":"2024-05-01T10:01:00.000000Z","template_id":3}`
	sseBuf.WriteString("data: " + last + "\n\n")
	nl.WriteString(last + "\n")
	return sseBuf.Bytes(), nl.Bytes(), n + 1
}

// BenchmarkStreamDecode measures Stream end to end: HTTP from memory, SSE
// parsing, record decoding and text accumulation.
func BenchmarkStreamDecode(b *testing.B) {
	frames, _, n := benchRecords()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(frames)
	}))
	defer srv.Close()
	c := plain(srv.URL)
	ctx := context.Background()
	b.SetBytes(int64(len(frames)))
	b.ReportAllocs()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := c.Stream(ctx, "3", chatParams)
		if err != nil {
			b.Fatal(err)
		}
		events := 0
		for s.Next() {
			events++
		}
		if s.Err() != nil || events != n {
			b.Fatalf("%v after %d of %d events", s.Err(), events, n)
		}
		s.Close()
	}
	b.StopTimer()
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(b.N*n), "allocs/event")
}

// baselineRecord is what a plain encoding/json client would decode into.
type baselineRecord struct {
	ID         int64           `json:"id"`
	Status     string          `json:"status"`
	Output     string          `json:"output"`
	Error      json.RawMessage `json:"error"`
	Credits    *float64        `json:"credits"`
	RootID     int64           `json:"root_id"`
	CreatedAt  string          `json:"created_at"`
	UpdatedAt  string          `json:"updated_at"`
	TemplateID int64           `json:"template_id"`
}

// BenchmarkStreamDecodeBaseline decodes the same records from a
// newline-separated buffer with encoding/json: no HTTP, no SSE.
func BenchmarkStreamDecodeBaseline(b *testing.B) {
	frames, lines, n := benchRecords()
	b.SetBytes(int64(len(frames))) // same payload size as BenchmarkStreamDecode
	b.ReportAllocs()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		events := 0
		var text bytes.Buffer
		for line := range bytes.Lines(lines) {
			var r baselineRecord
			if err := json.Unmarshal(line, &r); err != nil {
				b.Fatal(err)
			}
			text.WriteString(r.Output)
			events++
		}
		if events != n {
			b.Fatal(events)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(b.N*n), "allocs/event")
}

// BenchmarkClientUpload uploads a 200 MB sparse file to the built-in service
// and reports how much the heap grew: it must not scale with the file.
func BenchmarkClientUpload(b *testing.B) {
	const size = 200_000_000 // the largest file the service takes
	path := filepath.Join(b.TempDir(), "big.pdf")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		b.Fatal(err)
	}
	f.Close()
	srv, _ := demoservice.NewTestService(b, demoservice.Options{APIKey: testKey, MaxUploadBytes: size + 1<<20})
	c := plain(srv.URL)
	ctx := context.Background()
	b.SetBytes(size)
	var peak uint64
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		up, err := c.UploadFile(ctx, client.UploadParams{Path: path, Progress: func(sent, total int64) {
			if sent%(32<<20) < 32<<10 {
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				peak = max(peak, m.HeapInuse)
			}
		}})
		if err != nil {
			b.Fatal(err)
		}
		if up.Bytes != size {
			b.Fatalf("stored %d bytes", up.Bytes)
		}
	}
	b.StopTimer()
	var growth float64
	if peak > base {
		growth = float64(peak - base)
	}
	b.ReportMetric(growth/(1<<20), "MiB-heap-growth")
}
