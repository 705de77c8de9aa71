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

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client/demoservice"
	hist "github.com/agentdesk/agentdesk/storage"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
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
// again (median and worst of three, each cold) beside a conversation of
// one reply opened the same way in the same run (the baseline). The service runs in a
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
		reopenCold := func(id int64, want int, profile bool) (median, worst time.Duration) {
			var reopens []time.Duration
			for k := 0; k < 3; k++ {
				s.closeOpen()
				a.Chats().Forget(id)
				if k > 0 {
					heap()
				}
				if p := os.Getenv("AGENTDESK_SOAK_PROFILE"); p != "" && k == 0 && profile {
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
				if len(s.open.msgs) != want {
					b.Fatalf("want %d messages, got %d", want, len(s.open.msgs))
				}
			}
			slices.Sort(reopens)
			return reopens[1], reopens[2]
		}
		reopen, worst := reopenCold(v.sess.ID(), 400, true)
		// The baseline, in the same run: a conversation of one reply,
		// opened the same way: what opening costs whatever the length.
		s.OpenChat(*ag)
		one := s.open
		one.entry.SetText("One question")
		one.send()
		one.sess.Wait()
		q.Drain()
		base, _ := reopenCold(one.sess.ID(), 2, false)
		b.ReportMetric(float64(base.Microseconds())/1000, "reopen-1-reply-median-ms")
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

// BenchmarkSettleBesideAFrame: the window's settle after a frame (the
// layer's walk over a chat of 400 messages, nothing changed) beside what
// Fyne itself does before each frame (measuring every object shown), in one
// run: the settle's cost as a share of a frame's.
func BenchmarkSettleBesideAFrame(b *testing.B) {
	test.NewTempApp(b)
	a := apptest.Open(b)
	id := storedChat(b, a, 200, longReply(600))
	w := test.NewTempWindow(b, nil)
	q := kit.UseQueue(b)
	s := New(screen.Env{App: a, Window: w, Nav: &testNav{}}).(*Screen)
	s.goFn = func(f func()) { f() }
	layer := kit.NewLayer(w.Canvas())
	w.SetContent(container.NewStack(s.Content(), layer))
	w.Resize(fyne.NewSize(1000, 700))
	s.OpenConversation(id)
	frames := kittest.NewFrames(w.Canvas())
	frames.Settle(q)
	b.Run("fyne-frame", func(b *testing.B) {
		for range b.N {
			frames.Draw()
		}
	})
	q.Drain()
	b.Run("settle", func(b *testing.B) {
		for range b.N {
			layer.MinSize() // as Fyne measures it before a frame: queues the settle
			q.Drain()
		}
	})
}
