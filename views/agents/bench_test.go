package agents

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

// bigCatalogue answers the agent list with n agents on one page, so the
// benchmark measures the screen, not paging.
func bigCatalogue(n int) http.Handler {
	types := []string{"chat", "image", "text", "video"}
	data := make([]map[string]any, n)
	for i := range data {
		data[i] = map[string]any{
			"id": 100000 + i, "title": fmt.Sprintf("Agent number %d", i), "type": types[i%4],
			"description": "Writes, summarises and answers for the office.", "visibility": "public", "active": 1,
			"workspace_id": 1, "slug": fmt.Sprintf("agent-%d", i), "questions": []any{},
		}
	}
	body, _ := json.Marshal(map[string]any{
		"current_page": 1, "data": data, "from": 1, "last_page": 1, "per_page": n, "to": n, "total": n,
		"links": []any{}, "next_page_url": nil, "prev_page_url": nil, "path": "/agents",
		"first_page_url": "/agents?page=1", "last_page_url": "/agents?page=1",
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	})
}

// BenchmarkAgentsScreen10000 measures loading 10,000 agents into the
// screen and drawing its first frame, and the heap it then holds.
func BenchmarkAgentsScreen10000(b *testing.B) {
	const n = 10000
	ts := httptest.NewServer(bigCatalogue(n))
	defer ts.Close()
	test.NewTempApp(b)
	q := kit.UseQueue(b)
	a := apptest.Open(b, func(c *app.Config) {
		c.ClientOptions = append(c.ClientOptions, client.WithBaseURL(ts.URL))
	})
	var heap float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w := test.NewWindow(widget.NewLabel(""))
		s := New(screen.Env{App: a, Window: w, Nav: &fakeNav{}}).(*Screen)
		w.SetContent(s.Content())
		w.Resize(fyne.NewSize(1200, 800))
		s.Shown()
		deadline := time.Now().Add(time.Minute)
		for len(s.shown.Agents) < n {
			q.Drain()
			if time.Now().After(deadline) {
				b.Fatalf("loaded %d of %d agents", len(s.shown.Agents), n)
			}
			time.Sleep(time.Millisecond)
		}
		w.Canvas().Capture()
		b.StopTimer()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		heap = float64(ms.HeapInuse) / (1 << 20)
		w.Close()
		b.StartTimer()
	}
	b.ReportMetric(heap, "heap-MB")
}

// BenchmarkTypeFilterOnScreen measures narrowing 10,000 loaded agents by
// type, the step the screen takes before the service answers.
func BenchmarkTypeFilterOnScreen(b *testing.B) {
	agents := make([]app.AgentItem, 10000)
	for i := range agents {
		agents[i] = app.AgentItem{ID: client.ID(fmt.Sprint(i)), Type: []string{"chat", "image", "text", "video"}[i%4]}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = app.FilterAgents(agents, client.AgentText)
	}
}
