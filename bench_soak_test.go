package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
)

// soakReplies is how many replies BenchmarkSoakRSS streams into one
// conversation.
const soakReplies = 200

// soakSettle (AGENTDESK_SOAK_SETTLE for a quick try) is the wait before
// each RSS reading: what a user who leaves the window alone after a reply
// sees. It is longer than the minute for which Fyne keeps the drawing
// state of what was drawn last, after which Agent Desk has the window
// painted once and gives back the memory (kit.TextRelease, once idle).
const soakSettle = 70 * time.Second

// soakReply is the demo's rich 20 kB reply (headings, lists, a 60-line
// code block, a table, CJK, Arabic, Hebrew, emoji) made different for
// each n, so that no two replies draw the same strings.
func soakReply(n int) string {
	tag := strconv.Itoa(n)
	return strings.NewReplacer(" the ", " the "+tag+" ", "row", "row"+tag, "team", "team"+tag, "budget", "budget"+tag).Replace(demoservice.RichReply())
}

// BenchmarkSoakRSS streams 200 rich 20 kB replies, one after the other, into
// one conversation of the real binary under Xvfb (questions typed and sent
// with the keyboard, as a user does), and reports the process's RSS after
// all of them against after the first and after 100, each read once the
// window has been left alone for soakSettle. Target: after-200/after-1 ≤
// 1.3. ns/op is the time to stream the 200 replies.
func BenchmarkSoakRSS(b *testing.B) {
	benchTools(b)
	bin := e2eBuild(b)
	display := benchDisplay(b)
	settle := soakSettle
	if v := os.Getenv("AGENTDESK_SOAK_SETTLE"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			b.Fatalf("AGENTDESK_SOAK_SETTLE=%q: %v", v, err)
		}
		settle = d
	}
	var first, half, last, firstLive, lastLive float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		svc := demoservice.New(demoservice.Options{APIKey: "k"})
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		srv := &http.Server{Handler: svc, ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = srv.Serve(ln) }()
		const acct = "soak"
		env, paths := freshHome(b, display, benchWidth, benchHeight, func(s *storage.Settings) {
			s.PutAccount(storage.Account{ID: acct, Name: "Soak", BaseURL: "http://" + ln.Addr().String(), KeyStore: storage.KeyInEnv})
			s.ActiveAccount = acct
		})
		// gctrace: each collection's live heap in the log, to tell the Go
		// heap from the rest of the RSS
		env = append(env, storage.EnvAPIKey+"=k", "GODEBUG=gctrace=1")
		p := launch(b, bin, env)
		p.firstFrame(b, "Agent Desk")
		db, err := storage.Open(context.Background(), paths, storage.WithReadOnly())
		if err != nil {
			b.Fatal(err)
		}
		xdo := func(args ...string) {
			if out, err := p.run("xdotool", args...); err != nil {
				p.stop()
				b.Fatalf("xdotool %v: %v\n%s", args, err, out)
			}
		}
		xdo("windowmove", p.win, "0", "0")
		time.Sleep(2 * time.Second) // the agents list loads
		for _, at := range [][2]int{{chatAgentRowX, chatAgentRowY}, {startChatX, startChatY}} {
			xdo("mousemove", "--window", p.win, strconv.Itoa(at[0]), strconv.Itoa(at[1]))
			xdo("click", "1")
			time.Sleep(time.Second)
		}
		// messages is the conversation's messages so far.
		messages := func() []storage.Message {
			list, err := db.ListConversations(context.Background(), storage.ListParams{AccountID: acct})
			if err != nil || len(list) != 1 {
				return nil
			}
			msgs, _ := db.Messages(context.Background(), list[0].ID)
			return msgs
		}
		// replied waits until the conversation holds n complete replies.
		// Enter pressed in the moment between a reply's last words being
		// kept and the conversation being ready again sends nothing (the
		// question stays in the box), so it is pressed again when the
		// question has not gone out after a while.
		replied := func(n int) {
			deadline := time.Now().Add(2 * time.Minute)
			again := time.Now().Add(3 * time.Second)
			for {
				msgs := messages()
				if len(msgs) == 2*n && msgs[2*n-1].Status == storage.StatusComplete {
					return
				}
				if len(msgs) < 2*n-1 && time.Now().After(again) {
					xdo("key", "--window", p.win, "Return")
					again = time.Now().Add(3 * time.Second)
				}
				if time.Now().After(deadline) {
					if out, err := p.run("import", "-window", "root", "/tmp/soak-fail.png"); err != nil {
						b.Logf("no screenshot: %v %s", err, out)
					}
					p.stop()
					b.Fatalf("reply %d did not finish; output:\n%s", n, p.log)
				}
				time.Sleep(50 * time.Millisecond)
			}
		}
		b.StartTimer()
		for r := 1; r <= soakReplies; r++ {
			svc.SetFaults(demoservice.Faults{Reply: soakReply(r)})
			xdo("type", "--delay", "5", fmt.Sprintf("Question %d", r))
			xdo("key", "--window", p.win, "Return")
			replied(r)
			switch r {
			case 1, soakReplies / 2, soakReplies:
				b.StopTimer()
				time.Sleep(settle)
				rss, live := p.rssMB(b), lastLiveHeap(p.log.String())
				switch r {
				case 1:
					first += rss
					firstLive += live
				case soakReplies / 2:
					half += rss
				default:
					last += rss
					lastLive += live
				}
				b.StartTimer()
			}
		}
		b.StopTimer()
		p.stop()
		_ = db.Close()
		_ = srv.Close()
		_ = svc.Close()
		b.StartTimer()
	}
	n := float64(b.N)
	b.ReportMetric(first/n, "after-1-MB")
	b.ReportMetric(half/n, "after-100-MB")
	b.ReportMetric(last/n, "after-200-MB")
	b.ReportMetric(last/first, "after-200/after-1")
	b.ReportMetric(firstLive/n, "go-live-after-1-MB")
	b.ReportMetric(lastLive/n, "go-live-after-200-MB")
}

// gcLine is a line of GODEBUG=gctrace=1: "gc N @…: … A->B->C MB, …", C
// being the heap left live by that collection.
var gcLine = regexp.MustCompile(`gc \d+ @[^\n]*? \d+->\d+->(\d+) MB`)

// lastLiveHeap is the live heap of the last collection in a gctrace log,
// in MB.
func lastLiveHeap(log string) float64 {
	m := gcLine.FindAllStringSubmatch(log, -1)
	if len(m) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(m[len(m)-1][1], 64)
	return v
}
