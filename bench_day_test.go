package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
)

// A day of office work, hour by hour (BenchmarkSoakDay): ten hours make
// the day's 300 replies in 30 conversations, 100 runs, 50 uploads, 500
// screen switches and 5 batches of 100 rows.
const (
	dayHours             = 10
	dayChatsPerHour      = 3
	dayRepliesPerChat    = 10
	dayRunsPerHour       = 10
	dayUploadsPerHour    = 5
	daySwitchesPerHour   = 50
	dayBatchEvery        = 2 // hours
	dayBatchRows         = 100
	dayImageAgent        = "133" // Presentation Illustration Maker
	dayTextAgent         = "119" // Newsletter Writer
	dayAccount           = "soak"
	dayKey               = "soak-key"
	daySheet             = "products.csv"
	dayNotesY            = 260 // notes.txt, the home folder's first file, in the file dialog
	daySheetY            = 290 // products.csv, its second
	daySmallW, daySmallH = 1000, 680
	dayStillFor          = 300 * time.Millisecond // the window unchanged after a step
	// dayIdle is how long the window is left alone at the end: past the
	// minute after which Fyne's caches expire and the 90 s after which
	// idle connections to the service close.
	dayIdle = 95 * time.Second
	// dayRest is how long the window is left alone to read the program at
	// rest after an hour: past Fyne's minute, then the program's next reading.
	dayRest                  = 62 * time.Second
	dayRequestX, dayRequestY = 820, 330 // the request, the form's first field
)

// daySample is one reading of the program during the day.
type daySample struct {
	at         time.Duration
	rssMB      float64
	heapMB     float64 // Go heap objects, garbage not yet collected too
	liveMB     float64 // Go heap left live by the last collection
	goroutines int
	files      int
	historyMB  float64
	done       string // what the day had done by then
	// rest is the hours of work done when read at rest (the window left
	// alone past Fyne's minute), 0 when read at work; profile is the heap
	// profile the program wrote with the reading.
	rest    int
	profile string
}

// BenchmarkSoakDay runs a day of mixed work on the real binary under Xvfb
// against the built-in service with its pacing off, as a user does it, by
// keyboard and mouse: chat replies of 2 to 20 kB, runs of a text and an
// image agent, files added to chats, screen switches, batches from a
// sheet, a language change and back (kept for the next start, when Agent
// Desk speaks it: the day's process goes on), the window made smaller and
// larger.
// Every AGENTDESK_SOAK_SAMPLE (30s) it reads the RSS, the Go heap in use,
// goroutines, open files and the history's size. After the first hour and
// each hour of the day's last third it leaves the window alone past Fyne's
// minute and reads the program at rest, with a heap profile: readings at
// work depend on what is streaming at that moment, readings at rest on what
// the program keeps. At the end it prints the readings, the trend of those
// at rest over the last third, and what grew in the heap between the first
// and the last of them. AGENTDESK_SOAK_HOURS (10) shortens the day for a
// quick try. make soak runs it (AGENTDESK_SOAK=1). Targets: RSS at the end
// ≤ 1.3× of after the first ten minutes, goroutines and open files back to
// their first counts, no growth at rest in the last third beyond the
// readings' own noise.
func BenchmarkSoakDay(b *testing.B) {
	if os.Getenv("AGENTDESK_SOAK") == "" {
		b.Skip("a day's soak runs with make soak (AGENTDESK_SOAK=1)")
	}
	hours := dayHours
	if v := os.Getenv("AGENTDESK_SOAK_HOURS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			b.Fatalf("AGENTDESK_SOAK_HOURS=%q: want a whole number of hours", v)
		}
		hours = n
	}
	every := 30 * time.Second // a day of about a quarter of an hour: 30 readings
	if v := os.Getenv("AGENTDESK_SOAK_SAMPLE"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Second {
			b.Fatalf("AGENTDESK_SOAK_SAMPLE=%q: want a duration of a second or more", v)
		}
		every = d
	}
	for i := 0; i < b.N; i++ {
		d := startDay(b, every)
		d.work(hours)
		b.StopTimer()
		d.finish(hours)
		b.StartTimer()
	}
}

// day is the program at work and what watches it.
type day struct {
	b     *testing.B
	e     *E2E
	svc   *demoservice.Service
	db    *storage.DB
	home  string
	every time.Duration
	start time.Time

	mu      sync.Mutex
	samples []daySample
	counts  map[string]int
	took    map[string]time.Duration // time spent on each kind of step
	api     *client.Client           // the account as another program sees it
	// conv is the conversation being written (0 until its first reply),
	// lastConv the one before it.
	conv, lastConv int64
	// firstFiles is what the program had open at the day's start.
	firstFiles map[string]int
	stop       chan struct{}
	stopped    chan struct{}
}

func startDay(b *testing.B, every time.Duration) *day {
	b.Helper()
	d := &day{b: b, every: every, counts: map[string]int{}, took: map[string]time.Duration{}, stop: make(chan struct{}), stopped: make(chan struct{})}
	d.home = b.TempDir()
	if err := os.WriteFile(filepath.Join(d.home, "notes.txt"), []byte("Minutes of the Monday meeting.\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	d.writeSheet()
	for _, v := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		if out, err := goEnv(v); err == nil {
			b.Setenv(v, out)
		}
	}
	b.Setenv("HOME", d.home)
	profiles := filepath.Join(d.home, "profiles")
	if err := os.Mkdir(profiles, 0o755); err != nil {
		b.Fatal(err)
	}
	b.Setenv("AGENTDESK_E2E_ARGS", "--stats-every "+every.String()+" --stats-profiles "+profiles)
	b.Setenv(storage.EnvAPIKey, dayKey)
	srv, svc := demoservice.NewTestService(b, demoservice.Options{APIKey: dayKey})
	d.svc = svc
	d.conv, d.lastConv = 0, 0
	d.api = client.New(client.WithBaseURL(srv.URL), client.WithAPIKey(dayKey))
	d.e = startE2E(b, func(s *storage.Settings) {
		s.PutAccount(storage.Account{ID: dayAccount, Name: "Soak", BaseURL: srv.URL, KeyStore: storage.KeyInEnv})
		s.ActiveAccount = dayAccount
		// Each agent's form comes filled with the last answers, as after
		// a first run: a run then changes the request alone.
		s.LastAnswers = map[string]map[string]string{
			dayTextAgent:  {"prompt": "A note", "tone": "friendly"},
			dayImageAgent: {"prompt": "A picture", "aspect_ratio": "16:9"},
		}
	})
	d.db = d.e.History()
	d.e.StillFor = dayStillFor
	d.e.WaitAgentsListed()
	d.start = time.Now()
	d.firstFiles = openFiles(d.e.app.Process.Pid)
	d.sample(0)
	go d.watch()
	return d
}

func goEnv(name string) (string, error) {
	out, err := (&E2E{}).output("go", "env", name)
	return strings.TrimSpace(string(out)), err
}

// writeSheet writes the batches' sheet: a request and a tone a row.
func (d *day) writeSheet() {
	f, err := os.Create(filepath.Join(d.home, daySheet))
	if err != nil {
		d.b.Fatal(err)
	}
	w := csv.NewWriter(f)
	rows := [][]string{{"prompt", "tone"}}
	for n := 1; n <= dayBatchRows; n++ {
		rows = append(rows, []string{fmt.Sprintf("A note on product %d for the autumn catalogue", n), "formal"})
	}
	if err := w.WriteAll(rows); err != nil {
		d.b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		d.b.Fatal(err)
	}
}

// watch samples every d.every until stop.
func (d *day) watch() {
	defer close(d.stopped)
	t := time.NewTicker(d.every)
	defer t.Stop()
	for {
		select {
		case <-d.stop:
			return
		case <-t.C:
			d.sample(0)
		}
	}
}

// statsLine is the program's own line (--stats-every).
var statsLine = regexp.MustCompile(`agentdesk-stats heap_inuse_mb=([0-9.]+) heap_live_mb=([0-9.]+) goroutines=(\d+)(?: profile=(\S+))?`)

// sample reads the program now, at rest after that many hours of work (0:
// at work).
func (d *day) sample(rest int) {
	pid := d.e.app.Process.Pid
	s := daySample{at: time.Since(d.start), rssMB: procRSS(pid), files: countDir(fmt.Sprintf("/proc/%d/fd", pid))}
	if m := statsLine.FindAllStringSubmatch(d.e.log.String(), -1); len(m) > 0 {
		last := m[len(m)-1]
		s.heapMB, _ = strconv.ParseFloat(last[1], 64)
		s.liveMB, _ = strconv.ParseFloat(last[2], 64)
		s.goroutines, _ = strconv.Atoi(last[3])
		s.profile = last[4]
	}
	s.rest = rest
	for _, name := range []string{"history.db", "history.db-wal"} {
		if info, err := os.Stat(filepath.Join(d.e.Paths.Data, name)); err == nil {
			s.historyMB += float64(info.Size()) / (1 << 20)
		}
	}
	d.mu.Lock()
	s.done = fmt.Sprintf("%d replies, %d runs, %d uploads, %d switches, %d batches", d.counts["reply"], d.counts["run"], d.counts["upload"], d.counts["switch"], d.counts["batch"])
	d.samples = append(d.samples, s)
	d.mu.Unlock()
}

// rest leaves the window alone past Fyne's minute and reads the program at
// its next reading, hours of work done.
func (d *day) rest(hours int) {
	began := time.Now()
	d.e.Key("ctrl+1")
	time.Sleep(dayRest)
	d.nextStats()
	d.sample(hours)
	d.did("rest", began)
}

// nextStats waits for the program's next reading.
func (d *day) nextStats() {
	n := len(statsLine.FindAllStringIndex(d.e.log.String(), -1))
	deadline := time.Now().Add(2*d.every + 10*time.Second)
	for len(statsLine.FindAllStringIndex(d.e.log.String(), -1)) == n {
		if time.Now().After(deadline) {
			d.b.Fatalf("the program wrote no reading for %v", 2*d.every+10*time.Second)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// restsAfter are the hours after which the program is read at rest: the
// first, and each of the last third but the last (the day's end is one).
func restsAfter(hours int) map[int]bool {
	out := map[int]bool{1: hours > 1}
	for h := hours*2/3 + 1; h < hours; h++ {
		out[h] = true
	}
	return out
}

// did counts a step done and the time it took since it began.
func (d *day) did(what string, began time.Time) {
	d.mu.Lock()
	d.counts[what]++
	d.took[what] += time.Since(began)
	d.mu.Unlock()
}

// procRSS is a process's resident set in MiB (0 when it cannot be read).
func procRSS(pid int) float64 {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(status), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}

// openFiles counts what a process has open by kind: each file by its path,
// sockets, pipes and the like by their kind alone.
func openFiles(pid int) map[string]int {
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	out := map[string]int{}
	for _, e := range entries {
		to, err := os.Readlink(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		if kind, _, ok := strings.Cut(to, ":["); ok {
			to = kind // socket:[123] → socket
		}
		out[to]++
	}
	return out
}

func countDir(dir string) int {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	return len(entries)
}

// work does hours of the day.
func (d *day) work(hours int) {
	rests := restsAfter(hours)
	for h := 0; h < hours; h++ {
		for c := 0; c < dayChatsPerHour; c++ {
			d.chat(h, c)
		}
		for r := 0; r < dayRunsPerHour; r++ {
			d.run(h, r)
		}
		d.switchScreens(daySwitchesPerHour)
		if h%dayBatchEvery == dayBatchEvery-1 || hours < dayBatchEvery {
			d.batch()
		}
		switch h {
		case hours / 2:
			d.language("Español")
		case hours/2 + 1:
			d.language("English")
		}
		d.resize()
		if rests[h+1] {
			d.rest(h + 1)
		}
	}
}

// replyOf is the service's reply n: the demo's rich reply (headings, lists,
// code, a table, several scripts) cut to 2 to 20 kB, made different for
// each n so no two draw the same strings.
func replyOf(n int) string {
	full := soakReply(n)
	size := 2048 + (n*7919)%(18*1024)
	if size >= len(full) {
		return full
	}
	cut := strings.LastIndexByte(full[:size], '\n')
	return full[:max(cut, 1)]
}

// chat starts a conversation with a chat agent and has it answer
// dayRepliesPerChat questions; a file is added to some of them first.
func (d *day) chat(h, c int) {
	e := d.e
	began := time.Now()
	d.conv, d.lastConv = 0, max(d.conv, d.lastConv)
	// Return waits for the dialog's agents, typing for the dialog gone.
	e.OpenNewChat()
	before := e.Shot()
	e.Key("Return")
	e.WaitChange("the new chat", pickerList(e), before)
	e.WaitComposer()
	d.did("chat", began)
	for r := 0; r < dayRepliesPerChat; r++ {
		n := d.count("reply") + 1
		d.svc.SetFaults(demoservice.Faults{Reply: replyOf(n)})
		if (h*dayChatsPerHour*dayRepliesPerChat+c*dayRepliesPerChat+r)%(dayChatsPerHour*dayRepliesPerChat/dayUploadsPerHour) == 0 {
			d.upload()
		}
		began := time.Now()
		e.Type(fmt.Sprintf("Question %d of hour %d", r+1, h+1))
		e.Key("Return")
		d.waitReply(r+1, n)
		d.did("reply", began)
	}
}

func (d *day) count(what string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.counts[what]
}

// repliesNow counts the finished replies of the conversation being
// written: the one written last, once it is not the chat before. Reading
// only it keeps the watching light.
func (d *day) repliesNow() int {
	ctx := context.Background()
	convs, err := d.db.ListConversations(ctx, storage.ListParams{AccountID: dayAccount, Limit: 1})
	if err != nil || len(convs) == 0 {
		return 0
	}
	c := convs[0].ID
	if (d.conv == 0 && c == d.lastConv) || (d.conv != 0 && c != d.conv) {
		return 0
	}
	msgs, err := d.db.Messages(ctx, c)
	if err != nil {
		return 0
	}
	n := 0
	for _, m := range msgs {
		if m.Role != storage.RoleUser && m.Status == storage.StatusComplete {
			n++
		}
	}
	if n > 0 {
		d.conv = c
	}
	return n
}

// waitReply waits until the conversation on show holds r finished replies
// (the day's reply n). Enter pressed in the moment a reply ends sends
// nothing (the question stays in the box), so it is pressed again when
// nothing went out for a while.
func (d *day) waitReply(r, n int) {
	again := time.Now().Add(5 * time.Second)
	d.e.WaitForWhy(fmt.Sprintf("reply %d", n), func() bool {
		if d.repliesNow() >= r {
			return true
		}
		if time.Now().After(again) && d.svc.ExecuteRequests() < d.executionsFor(n) {
			d.e.Key("Return")
			again = time.Now().Add(5 * time.Second)
		}
		return false
	}, func() string { return d.whereRepliesWent(n) })
}

// whereRepliesWent says, when reply n does not come, what the service was
// asked and what the history's latest conversations hold: whether the
// question was sent at all, and to which conversation it went.
func (d *day) whereRepliesWent(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "the service was asked %d executions (%d expected); writing conversation %d, the one before %d",
		d.svc.ExecuteRequests(), d.executionsFor(n), d.conv, d.lastConv)
	ctx := context.Background()
	convs, err := d.db.ListConversations(ctx, storage.ListParams{AccountID: dayAccount, Limit: 3})
	if err != nil {
		return b.String() + "; the history: " + err.Error()
	}
	for _, c := range convs {
		msgs, err := d.db.Messages(ctx, c.ID)
		if err != nil {
			fmt.Fprintf(&b, "; conversation %d: %v", c.ID, err)
			continue
		}
		fmt.Fprintf(&b, "; conversation %d %q (updated %s): %d messages", c.ID, c.Title, c.UpdatedAt.Format("15:04:05.000"), len(msgs))
		if len(msgs) > 0 {
			m := msgs[len(msgs)-1]
			head := []rune(m.Content)
			fmt.Fprintf(&b, ", the last %s %s %q", m.Role, m.Status, string(head[:min(len(head), 40)]))
		}
	}
	return b.String()
}

// executionsFor is how many executions the day has asked for once reply n
// was asked: every reply, run and batch row so far.
func (d *day) executionsFor(n int) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return n + d.counts["run"] + d.counts["batch"]*dayBatchRows
}

// upload adds notes.txt to the message being written, through the system
// file dialog, and waits for it at the service. The files of earlier
// messages are deleted at the service first, as a colleague tidying the
// account would: the service keeps at most 30.
func (d *day) upload() {
	e := d.e
	began := time.Now()
	for _, f := range d.svc.Files() {
		if f.Filename == "notes.txt" {
			if err := d.api.DeleteFile(context.Background(), client.ID(strconv.FormatInt(f.ID, 10))); err != nil {
				d.b.Fatalf("delete an earlier upload at the service: %v", err)
			}
		}
	}
	before := d.uploadsAtService()
	e.Click(addFilesX, addFilesY)
	e.Click(notesX, dayNotesY)
	e.WaitLit("notes.txt chosen in the file dialog", openLitX, openLitY)
	e.Click(openX, openY)
	e.WaitFor("the upload at the service", func() bool { return d.uploadsAtService() > before })
	e.Click(messageX, messageY)
	d.did("upload", began)
}

func (d *day) uploadsAtService() int {
	n := 0
	for _, f := range d.svc.Files() {
		if f.Filename == "notes.txt" {
			n++
		}
	}
	return n
}

// run runs the text agent, or every other time the image agent, with a
// new request, found with Ctrl+K, and waits for the run in the history.
func (d *day) run(h, r int) {
	e := d.e
	agent, name := dayTextAgent, "newsleter"
	if r%2 == 1 {
		agent, name = dayImageAgent, "presentation ilustration"
	}
	before := d.runs(agent)
	began := time.Now()
	d.openAgent(name)
	e.Click(dayRequestX, dayRequestY)
	e.Key("ctrl+a")
	e.Type(fmt.Sprintf("Request %d of hour %d", r+1, h+1))
	e.Key("ctrl+Return")
	e.WaitFor("the run in the history", func() bool { return d.runs(agent) > before })
	d.did("run", began)
}

// openAgent finds an agent with Ctrl+K, by part of its name with a typo,
// and opens it on its Run tab.
func (d *day) openAgent(name string) {
	e := d.e
	e.OpenCommandBox()
	e.Type(name)
	e.WaitStill("what the command box found")
	before := e.Shot()
	e.Key("Return")
	// The agent's title shows where the last one's was (the day never opens
	// the same agent twice in a row), then its Run tab.
	e.WaitChange("the agent "+name+" opened", image.Rect(e.listRight(), 0, e.W, 60), before)
	e.WaitRunTab()
}

// runs counts agent's finished runs in the history.
func (d *day) runs(agent string) int {
	runs, err := d.db.Runs(context.Background(), dayAccount, agent, 1000)
	if err != nil {
		return 0
	}
	n := 0
	for _, r := range runs {
		if r.Status == client.StatusCompleted || r.Status == client.StatusFailed {
			n++
		}
	}
	return n
}

// switchScreens goes through the screens with Ctrl+1…8, n times.
func (d *day) switchScreens(n int) {
	for i := 0; i < n; i++ {
		began := time.Now()
		d.e.Key(fmt.Sprintf("ctrl+%d", i%8+1))
		d.e.WaitStill("the screen drawn")
		d.did("switch", began)
	}
}

// batch runs the Newsletter Writer on the sheet's rows and waits for the
// batch to end; its results sheet is removed, so the home folder's files
// stay where the file dialog shows them.
func (d *day) batch() {
	e := d.e
	ctx := context.Background()
	before, _ := d.db.Batches(ctx, dayAccount, 100)
	began := time.Now()
	d.openAgent("newsleter")
	runOnManyFromSheetAt(e, daySheetY, func(string) {})
	var done storage.Batch
	e.WaitFor("the batch to finish", func() bool {
		list, err := d.db.Batches(ctx, dayAccount, 100)
		if err != nil || len(list) <= len(before) {
			return false
		}
		done = list[0]
		return done.State == storage.BatchDone
	})
	if done.Results != "" {
		_ = os.Remove(done.Results)
	}
	e.Key("Escape")
	d.did("batch", began)
}

// language chooses name in Settings › Language, by keyboard (Ctrl+K,
// Down to it, Space), and waits for it saved.
func (d *day) language(name string) {
	e := d.e
	began := time.Now()
	e.OpenCommandBox()
	e.Type("language") // the window speaks English all day (see below)
	e.WaitStill("what the command box found")
	e.Key("Return")
	e.WaitStill("the language choices") // the keyboard on the first
	for i, l := range []string{"", "English", "Português (Brasil)", "Español"} {
		if l == name {
			for range i {
				e.Key("Down")
			}
		}
	}
	e.Key("space")
	code := map[string]string{"English": "en", "Español": "es"}[name]
	e.WaitFor("the language saved as "+code, func() bool {
		st, _, err := storage.NewSettingsStore(e.Paths).Load(context.Background())
		return err == nil && st.Language == code
	})
	if code != "en" {
		// Agent Desk speaks a new language from its next start and offers
		// to start again: Later keeps this process, which the day measures.
		e.WaitStill("the offer to start again")
		e.Key("Escape")
	}
	e.WaitStill("the window after choosing " + name)
	d.did("language", began)
}

// resize makes the window smaller and large again.
func (d *day) resize() {
	e := d.e
	began := time.Now()
	e.xdo("windowsize", e.Window, strconv.Itoa(daySmallW), strconv.Itoa(daySmallH))
	e.WaitStill("the smaller window")
	e.xdo("windowsize", e.Window, strconv.Itoa(e.W), strconv.Itoa(e.H))
	e.WaitStill("the window back")
	d.did("resize", began)
}

// finish leaves the window alone, reads it once more, prints the day and
// reports its figures.
func (d *day) finish(hours int) {
	d.e.Key("ctrl+1")
	time.Sleep(dayIdle) // the window left alone
	close(d.stop)
	<-d.stopped
	d.nextStats()
	d.sample(hours)
	lastFiles := openFiles(d.e.app.Process.Pid)
	d.e.Quit()
	d.mu.Lock()
	samples := d.samples
	fmt.Printf("\nTime spent, step by step (the driver's waits included)\n")
	for _, what := range []string{"chat", "reply", "upload", "run", "switch", "batch", "language", "resize", "rest"} {
		if n := d.counts[what]; n > 0 {
			fmt.Printf("%10s %5d × %6.2f s = %6.1f min\n", what, n, d.took[what].Seconds()/float64(n), d.took[what].Minutes())
		}
	}
	d.mu.Unlock()

	fmt.Printf("\nA day of work, read every %v\n%8s %8s %8s %8s %6s %6s %9s  %s\n", d.every, "minute", "RSS MB", "heap MB", "live MB", "gorout", "files", "hist MB", "done by then")
	var rests []daySample
	for _, s := range samples {
		done := s.done
		if s.rest > 0 {
			done = fmt.Sprintf("at rest after hour %d: %s", s.rest, s.done)
			rests = append(rests, s)
		}
		fmt.Printf("%8.1f %8.1f %8.1f %8.1f %6d %6d %9.2f  %s\n", s.at.Minutes(), s.rssMB, s.heapMB, s.liveMB, s.goroutines, s.files, s.historyMB, done)
	}
	// The first reading with the program's own line is the day's start.
	first, last := samples[0], samples[len(samples)-1]
	for _, s := range samples {
		if s.goroutines > 0 {
			first = s
			break
		}
	}
	early := first
	for _, s := range samples {
		if s.at <= 10*time.Minute {
			early = s
		}
	}
	fmt.Printf("RSS at the end %.1f MB, %.2fx of after ten minutes (%.1f MB; target at most 1.3x)\n", last.rssMB, last.rssMB/early.rssMB, early.rssMB)
	fmt.Printf("idle at the end: goroutines %d (first %d), open files %d (first %d); history %.2f MB\n", last.goroutines, first.goroutines, last.files, first.files, last.historyMB)
	fmt.Printf("the history holds %.2f MB of text (messages, runs' requests and outputs, batch rows): the file is %.1fx of it, with its search index\n", d.storedMB(), last.historyMB/d.storedMB())
	for what, n := range lastFiles {
		if more := n - d.firstFiles[what]; more != 0 {
			fmt.Printf("  open at the end, not at the start: %+d %s\n", more, what)
		}
	}

	// The trend is of the readings at rest in the day's last third: what
	// the program keeps, hour after hour, not what was streaming when read.
	var third []daySample
	for _, s := range rests {
		if s.rest > hours*2/3 {
			third = append(third, s)
		}
	}
	d.b.ReportMetric(last.rssMB/early.rssMB, "rss-end/10min")
	d.b.ReportMetric(float64(last.goroutines-first.goroutines), "goroutines-end-first")
	d.b.ReportMetric(float64(last.files-first.files), "files-end-first")
	if len(third) < 3 {
		fmt.Printf("%d readings at rest in the last third: too few for a trend (a day of %d hours)\n", len(third), hours)
		return
	}
	from, to := third[0], third[len(third)-1]
	for _, m := range []struct {
		name  string
		value func(daySample) float64
	}{{"live heap", func(s daySample) float64 { return s.liveMB }}, {"RSS", func(s daySample) float64 { return s.rssMB }}} {
		slope, spread, se := trend(third, m.value)
		verdict := "within noise"
		if math.Abs(slope) > 2*se {
			verdict = "beyond noise"
		}
		fmt.Printf("at rest, hours %d to %d: %s %.1f → %.1f MB, %+.2f MB an hour (± %.2f, two standard errors; readings %.1f MB about the line): %s\n",
			from.rest, to.rest, m.name, m.value(from), m.value(to), slope, 2*se, spread, verdict)
		if m.name == "live heap" {
			d.b.ReportMetric(slope, "live-rest-last-third-MB/h")
			d.b.ReportMetric(2*se, "live-rest-last-third-noise-MB/h")
		}
	}
	if from.profile != "" && to.profile != "" {
		out, err := d.e.output("go", "tool", "pprof", "-top", "-nodecount=15", "-sample_index=inuse_space", "-diff_base", from.profile, to.profile)
		fmt.Printf("\nWhat the heap holds at rest after hour %d beyond after hour %d (pprof -top -diff_base):\n%s\n", to.rest, from.rest, out)
		if err != nil {
			fmt.Printf("pprof: %v\n", err)
		}
	}
}

// storedMB is the text the history holds: what the file should grow with.
func (d *day) storedMB() float64 {
	ctx := context.Background()
	n := 0
	convs, err := d.db.ListConversations(ctx, storage.ListParams{AccountID: dayAccount, Limit: 10000})
	if err != nil {
		d.b.Fatal(err)
	}
	for _, c := range convs {
		msgs, err := d.db.Messages(ctx, c.ID)
		if err != nil {
			d.b.Fatal(err)
		}
		for _, m := range msgs {
			n += len(m.Content)
		}
	}
	for _, agent := range []string{dayTextAgent, dayImageAgent} {
		runs, err := d.db.Runs(ctx, dayAccount, agent, 10000)
		if err != nil {
			d.b.Fatal(err)
		}
		for _, r := range runs {
			n += len(r.Output)
			for _, v := range r.Inputs {
				n += len(v)
			}
		}
	}
	batches, err := d.db.Batches(ctx, dayAccount, 100)
	if err != nil {
		d.b.Fatal(err)
	}
	for _, b := range batches {
		rows, err := d.db.AllBatchRows(ctx, b.ID)
		if err != nil {
			d.b.Fatal(err)
		}
		for _, r := range rows {
			n += len(r.Result)
			for _, v := range r.Cells {
				n += len(v)
			}
		}
	}
	return float64(n) / (1 << 20)
}

// trend is the least-squares slope of value over hours of work, the
// spread of the readings around that line, and the slope's standard error.
func trend(samples []daySample, value func(daySample) float64) (slope, spread, se float64) {
	n := float64(len(samples))
	if n < 3 {
		return 0, 0, 0
	}
	var sx, sy float64
	for _, s := range samples {
		sx, sy = sx+float64(s.rest), sy+value(s)
	}
	mx, my := sx/n, sy/n
	var sxx, sxy float64
	for _, s := range samples {
		x := float64(s.rest) - mx
		sxx, sxy = sxx+x*x, sxy+x*(value(s)-my)
	}
	if sxx == 0 {
		return 0, 0, 0
	}
	slope = sxy / sxx
	var ss float64
	for _, s := range samples {
		r := value(s) - (my + slope*(float64(s.rest)-mx))
		ss += r * r
	}
	return slope, math.Sqrt(ss / n), math.Sqrt(ss/(n-2)) / math.Sqrt(sxx)
}
