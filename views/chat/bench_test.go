package chat

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client/demoservice"
	hist "github.com/agentdesk/agentdesk/storage"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

// longReply is about n bytes of the markdown agents write: paragraphs,
// headings, lists, code and tables.
func longReply(n int) string {
	rng := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("the budget review team invoice supplier delivery plan office meeting report quarter expense policy holiday rota contract clause summary action owner date")
	sentence := func() string {
		k := 8 + rng.IntN(10)
		w := make([]string, k)
		for i := range w {
			w[i] = words[rng.IntN(len(words))]
		}
		w[0] = strings.ToUpper(w[0][:1]) + w[0][1:]
		return strings.Join(w, " ") + "."
	}
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		switch i % 6 {
		case 0:
			fmt.Fprintf(&b, "## Section %d\n\n", i/6+1)
		case 1, 3:
			for j := 0; j < 4; j++ {
				b.WriteString(sentence() + " ")
			}
			b.WriteString("\n\n")
		case 2:
			for j := 0; j < 4; j++ {
				fmt.Fprintf(&b, "- %s **%s**\n", sentence(), words[j])
			}
			b.WriteString("\n")
		case 4:
			b.WriteString("```python\n")
			for j := 0; j < 6; j++ {
				fmt.Fprintf(&b, "total_%d = sum(row[%d] for row in sheet)\n", j, j)
			}
			b.WriteString("```\n\n")
		case 5:
			b.WriteString("| Step | Owner | When |\n|---|---|---|\n")
			for j := 0; j < 4; j++ {
				fmt.Fprintf(&b, "| %s | %s | Week %d |\n", words[rng.IntN(len(words))], words[rng.IntN(len(words))], j+1)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

func fragments(s string, size int) []string {
	out := make([]string, 0, len(s)/size+1)
	for i := 0; i < len(s); i += size {
		out = append(out, s[i:min(i+size, len(s))])
	}
	return out
}

// BenchmarkStreamRender100KB streams a 100 kB reply in 4-character fragments
// through Markdown.Append/Flush (what the live chat does each frame), with a
// redraw of the window forced every 16 fragments: the open block is
// re-parsed, the reply laid out at the window's width and the window
// content refreshed (the test driver's software rasteriser is left out: it
// costs about 100 ms per frame whatever is on screen, unlike a GPU). Beside it, the naive way
// (one RichText re-parsed per fragment) on the first 10 kB.
func BenchmarkStreamRender100KB(b *testing.B) {
	test.NewTempApp(b)
	src := longReply(100 << 10)
	frags := fragments(src, 4)
	const tenKB = 10 << 10
	var redraws []time.Duration
	var whole, first10 time.Duration
	b.ResetTimer()
	for it := 0; it < b.N; it++ {
		m := NewMarkdown("", nil)
		w := test.NewTempWindow(b, container.NewVScroll(m))
		w.Resize(fyne.NewSize(800, 600))
		c := w.Canvas()
		start := time.Now()
		shown := 0
		for i, f := range frags {
			m.Append(f)
			shown += len(f)
			if i%16 == 15 || i == len(frags)-1 {
				t0 := time.Now()
				m.Flush(i == len(frags)-1)
				m.Resize(fyne.NewSize(780, m.MinSize().Height))
				m.Refresh()
				c.Refresh(m)
				redraws = append(redraws, time.Since(t0))
			}
			if first10 == 0 && shown >= tenKB && it == 0 {
				first10 = time.Since(start)
			}
		}
		whole += time.Since(start)
		if m.Text() != src {
			b.Fatal("text lost")
		}
	}
	b.StopTimer()

	// The naive way: one RichText re-parsed for every fragment.
	naiveStart := time.Now()
	rt := widget.NewRichText()
	rt.Wrapping = fyne.TextWrapWord
	w := test.NewTempWindow(b, container.NewVScroll(rt))
	w.Resize(fyne.NewSize(800, 600))
	var sb strings.Builder
	for i, f := range fragments(src[:tenKB], 4) {
		sb.WriteString(f)
		rt.ParseMarkdown(sb.String())
		if i%16 == 15 {
			rt.Resize(fyne.NewSize(780, rt.MinSize().Height))
			w.Canvas().Refresh(rt)
		}
	}
	naive := time.Since(naiveStart)

	sort.Slice(redraws, func(i, j int) bool { return redraws[i] < redraws[j] })
	p99 := redraws[len(redraws)*99/100]
	b.ReportMetric(float64(whole.Milliseconds())/float64(b.N), "stream-ms")
	b.ReportMetric(float64(p99.Microseconds())/1000, "p99-redraw-ms")
	b.ReportMetric(float64(naive.Milliseconds()), "naive-10KB-ms")
	b.ReportMetric(float64(first10.Milliseconds()), "incremental-10KB-ms")
	if first10 > 0 {
		b.ReportMetric(float64(naive)/float64(first10), "naive/incremental")
	}
}

// BenchmarkOpen2000Messages opens a conversation of 2,000 messages: load
// from the history, build the view, first paint.
func BenchmarkOpen2000Messages(b *testing.B) {
	test.NewTempApp(b)
	a := apptest.Open(b)
	id := storedChat(b, a, 1000, longReply(600))
	w := test.NewTempWindow(b, nil)
	q := kit.UseQueue(b)
	s := New(screen.Env{App: a, Window: w, Nav: &testNav{}}).(*Screen)
	s.goFn = func(f func()) { f() }
	w.SetContent(s.Content())
	w.Resize(fyne.NewSize(1000, 700))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.closeOpen()
		s.OpenConversation(id)
		q.Drain()
		w.Canvas().Content().Refresh()
		if s.open == nil || len(s.open.msgs) != 2000 {
			b.Fatal("conversation not open")
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms-to-first-paint")
}

// BenchmarkCodeFragment2MiB shows a reply whose code block arrives in one
// 2 MiB event: time until it is shown and laid out, then the slowest of
// 200 frames scrolling through the block. Beside it, the same for a 2 kB
// block: the ratio shows what the size costs.
func BenchmarkCodeFragment2MiB(b *testing.B) {
	test.NewTempApp(b)
	show := func(code string) (shown, worst time.Duration) {
		m := NewMarkdown("", nil)
		w := test.NewTempWindow(b, container.NewVScroll(m))
		w.Resize(fyne.NewSize(1000, 700))
		start := time.Now()
		m.Append("Here it is:\n\n```python\n" + code + "```\n\nThat is all.")
		m.Flush(true)
		m.Resize(fyne.NewSize(980, m.MinSize().Height))
		w.Canvas().Refresh(m)
		shown = time.Since(start)
		var c *codeBlock
		walkObjects(m, func(o fyne.CanvasObject) {
			if x, ok := o.(*codeBlock); ok {
				c = x
			}
		})
		if c == nil {
			b.Fatal("no code block")
		}
		end := c.lines.MinSize().Height
		for i := 0; i < 200; i++ {
			t0 := time.Now()
			wheel := &fyne.ScrollEvent{Scrolled: fyne.Delta{DY: -end / 200}}
			c.scroll.Scrolled(wheel)
			w.Canvas().Refresh(c.lines)
			worst = max(worst, time.Since(t0))
		}
		return shown, worst
	}
	big, small := bigCode(2<<20), bigCode(2<<10)
	var bigShown, bigWorst, smallShown time.Duration
	for i := 0; i < b.N; i++ {
		s, w := show(big)
		bigShown += s
		bigWorst = max(bigWorst, w)
		s, _ = show(small)
		smallShown += s
	}
	b.ReportMetric(float64(bigShown.Microseconds())/1000/float64(b.N), "2MiB-shown-ms")
	b.ReportMetric(float64(bigWorst.Microseconds())/1000, "2MiB-worst-scroll-frame-ms")
	b.ReportMetric(float64(smallShown.Microseconds())/1000/float64(b.N), "2kB-shown-ms")
	b.ReportMetric(float64(bigShown)/float64(smallShown), "2MiB/2kB")
}

// BenchmarkScroll1MBReply scrolls a conversation holding one 1 MB reply
// from top to bottom in wheel steps of 120 px: the time of each step
// (move, bind what comes into view, redraw the list), p99 and worst;
// beside it, the same for a 10 kB reply.
func BenchmarkScroll1MBReply(b *testing.B) {
	scroll := func(reply string) (p99, worst time.Duration, steps int) {
		test.NewTempApp(b)
		a := apptest.Open(b)
		id := storedChat(b, a, 0, "")
		ctx := context.Background()
		if _, err := a.DB().AddMessage(ctx, hist.Message{ConversationID: id, Role: hist.RoleUser, Content: "Write it all"}); err != nil {
			b.Fatal(err)
		}
		if _, err := a.DB().AddMessage(ctx, hist.Message{ConversationID: id, Role: hist.RoleAssistant, Content: reply}); err != nil {
			b.Fatal(err)
		}
		a.Chats().Forget(id)
		w := test.NewTempWindow(b, nil)
		q := kit.UseQueue(b)
		s := New(screen.Env{App: a, Window: w, Nav: &testNav{}}).(*Screen)
		s.goFn = func(f func()) { f() }
		w.SetContent(s.Content())
		w.Resize(fyne.NewSize(1000, 700))
		s.OpenConversation(id)
		q.Drain()
		v := s.open
		if v == nil {
			b.Fatal("the conversation did not open")
		}
		v.list.ScrollToTop()
		var times []time.Duration
		for {
			before := v.list.GetScrollOffset()
			t0 := time.Now()
			v.scrollBy(&fyne.ScrollEvent{Scrolled: fyne.Delta{DY: -120}})
			w.Canvas().Refresh(v.list)
			times = append(times, time.Since(t0))
			if v.list.GetScrollOffset() == before {
				break
			}
		}
		sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
		return times[len(times)*99/100], times[len(times)-1], len(times)
	}
	var big99, bigWorst, small99 time.Duration
	var steps int
	for i := 0; i < b.N; i++ {
		p, w, n := scroll(longReply(1 << 20))
		big99, bigWorst, steps = max(big99, p), max(bigWorst, w), n
		p, _, _ = scroll(longReply(10 << 10))
		small99 = max(small99, p)
	}
	b.ReportMetric(float64(big99.Microseconds())/1000, "1MB-p99-step-ms")
	b.ReportMetric(float64(bigWorst.Microseconds())/1000, "1MB-worst-step-ms")
	b.ReportMetric(float64(steps), "1MB-steps")
	b.ReportMetric(float64(small99.Microseconds())/1000, "10kB-p99-step-ms")
}

// BenchmarkSoak200Replies streams 200 replies of 20 kB into one
// conversation shown on screen: the heap in use after all of them against
// after the first and after 100, and the time to open the conversation
// again (median and worst of three, each cold). The service runs in a
// process of its own (so that its records do not count), and so does the app's side: Fyne keeps the drawing state of
// every widget for a minute after it was last drawn and drops it when a
// frame is painted, and that minute is made two seconds (FYNE_CACHE, read
// at start) with a frame painted before each measure, so what stays is
// what Agent Desk keeps.
func BenchmarkSoak200Replies(b *testing.B) {
	if os.Getenv("AGENTDESK_SOAK_SERVE") != "" {
		serveSoak(b)
		return
	}
	if os.Getenv("AGENTDESK_SOAK_URL") == "" {
		server := exec.Command(os.Args[0], "-test.run=^$", "-test.bench=^BenchmarkSoak200Replies$", "-test.benchtime=1x")
		server.Env = append(os.Environ(), "AGENTDESK_SOAK_SERVE=1")
		stdout, err := server.StdoutPipe()
		if err != nil {
			b.Fatal(err)
		}
		stdin, err := server.StdinPipe()
		if err != nil {
			b.Fatal(err)
		}
		if err := server.Start(); err != nil {
			b.Fatal(err)
		}
		defer func() { stdin.Close(); _ = server.Wait() }()
		url, err := bufio.NewReader(stdout).ReadString('\n')
		if err != nil {
			b.Fatal(err)
		}
		go func() { _, _ = io.Copy(io.Discard, stdout) }()
		cmd := exec.Command(os.Args[0], "-test.run=^$", "-test.bench=^BenchmarkSoak200Replies$", "-test.benchtime=1x")
		cmd.Env = append(os.Environ(), "AGENTDESK_SOAK_URL="+strings.TrimSpace(url), "FYNE_CACHE=2s")
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("%v\n%s", err, out)
		}
		for _, line := range strings.Split(string(out), "\n") {
			if !strings.HasPrefix(line, "BenchmarkSoak200Replies") {
				continue
			}
			f := strings.Fields(line)
			for i := 4; i+1 < len(f); i += 2 {
				if v, err := strconv.ParseFloat(f[i], 64); err == nil {
					b.ReportMetric(v, f[i+1])
				}
			}
		}
		return
	}
	url := os.Getenv("AGENTDESK_SOAK_URL")
	b.Setenv(hist.EnvAPIKey, "soak")
	for i := 0; i < b.N; i++ {
		test.NewTempApp(b)
		paths := hist.PathsIn(b.TempDir())
		if err := paths.Ensure(); err != nil {
			b.Fatal(err)
		}
		st := hist.DefaultSettings()
		st.Onboarded = true
		st.PutAccount(hist.Account{ID: "soak", Name: "Soak", BaseURL: url, KeyStore: hist.KeyInEnv})
		st.ActiveAccount = "soak"
		if err := hist.NewSettingsStore(paths).Save(context.Background(), st); err != nil {
			b.Fatal(err)
		}
		a := apptest.Open(b, func(c *app.Config) { c.Paths = paths })
		w := test.NewTempWindow(b, nil)
		q := kit.UseQueue(b)
		s := New(screen.Env{App: a, Window: w, Nav: &testNav{}}).(*Screen)
		s.goFn = func(f func()) { f(); q.Drain() }
		w.SetContent(s.Content())
		w.Resize(fyne.NewSize(1000, 700))
		ag, err := a.Client().GetAgent(context.Background(), "101")
		if err != nil {
			b.Fatal(err)
		}
		s.OpenChat(*ag)
		v := s.open
		// live is the heap the program's objects take; inuse adds the
		// memory the runtime holds for them (partly empty pages).
		type heapUse struct{ live, inuse float64 }
		heap := func() heapUse {
			// what the window does at rest (kit.TextRelease), then a
			// frame painted after the cache's time has passed
			time.Sleep(11 * time.Second)
			q.Drain()
			w.Canvas().Capture()
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			return heapUse{float64(m.HeapAlloc), float64(m.HeapInuse)}
		}
		var first, half heapUse
		for r := 0; r < 200; r++ {
			v.entry.SetText(fmt.Sprintf("Question %d", r))
			v.send()
			v.sess.Wait()
			q.Drain()
			v.frame()
			w.Canvas().Refresh(v.list)
			if len(v.msgs) != 2*(r+1) {
				b.Fatalf("after %d questions %d messages; the line under the box says %q", r+1, len(v.msgs), v.errText.Text)
			}
			switch r {
			case 0:
				first = heap()
				if p := os.Getenv("AGENTDESK_SOAK_PROFILE"); p != "" {
					if f, err := os.Create(p + ".first"); err == nil {
						_ = pprof.WriteHeapProfile(f)
						f.Close()
					}
				}
			case 99:
				half = heap()
			}
		}
		last := heap()
		if p := os.Getenv("AGENTDESK_SOAK_PROFILE"); p != "" {
			f, err := os.Create(p)
			if err == nil {
				_ = pprof.WriteHeapProfile(f)
				f.Close()
			}
		}
		// Opened again three times, each after the drawing state has
		// expired (as after a while on other screens): cold each time.
		id := v.sess.ID()
		var reopens []time.Duration
		for k := 0; k < 3; k++ {
			s.closeOpen()
			a.Chats().Forget(id)
			if k > 0 {
				heap()
			}
			if p := os.Getenv("AGENTDESK_SOAK_PROFILE"); p != "" && k == 0 {
				if f, err := os.Create(p + ".cpu"); err == nil {
					_ = pprof.StartCPUProfile(f)
					defer f.Close()
				}
			}
			t0 := time.Now()
			s.OpenConversation(id)
			q.Drain()
			w.Canvas().Refresh(s.open.list)
			reopens = append(reopens, time.Since(t0))
			pprof.StopCPUProfile()
			if len(s.open.msgs) != 400 {
				b.Fatalf("want 400 messages, got %d", len(s.open.msgs))
			}
		}
		slices.Sort(reopens)
		reopen, worst := reopens[1], reopens[2]
		b.ReportMetric(float64(worst.Microseconds())/1000, "reopen-worst-ms")
		b.ReportMetric(last.live/first.live, "live-after-200/after-1")
		b.ReportMetric(last.live/half.live, "live-after-200/after-100")
		b.ReportMetric(first.live/(1<<20), "live-after-1-MiB")
		b.ReportMetric(last.inuse/first.inuse, "inuse-after-200/after-1")
		b.ReportMetric(first.inuse/(1<<20), "inuse-after-1-MiB")
		b.ReportMetric(last.live/(1<<20), "live-after-200-MiB")
		b.ReportMetric(last.inuse/(1<<20), "inuse-after-200-MiB")
		b.ReportMetric(float64(reopen.Microseconds())/1000, "reopen-median-ms")
	}
}

// serveSoak serves the demo service answering every message with 20 kB,
// writes its address on a line, and serves until its input closes.
func serveSoak(b *testing.B) {
	svc := demoservice.New(demoservice.Options{APIKey: "soak"})
	svc.SetFaults(demoservice.Faults{Reply: longReply(20 << 10)})
	srv := httptest.NewServer(svc)
	defer srv.Close()
	fmt.Println(srv.URL)
	_, _ = io.Copy(io.Discard, os.Stdin)
}
