package storage

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func streamingMessage(t testing.TB, db *DB) (Conversation, Message) {
	t.Helper()
	c := newConversation(t, db, "a", "stream")
	addMessage(t, db, c.ID, RoleUser, "tell me", "")
	return c, addMessage(t, db, c.ID, RoleAssistant, "", StatusStreaming)
}

func TestReplyWriterFinish(t *testing.T) {
	ctx := context.Background()
	db := openTestDB(t, testPaths(t))
	_, m := streamingMessage(t, db)
	w := db.NewReplyWriter(ctx, m.ID)
	var want strings.Builder
	for i := 0; i < 500; i++ {
		f := fmt.Sprintf("word%d ", i)
		if i%50 == 49 {
			f += "\n\n"
		}
		w.Append(f)
		want.WriteString(f)
	}
	credits := 1.25
	if err := w.Finish(StatusComplete, &credits, ""); err != nil {
		t.Fatal(err)
	}
	w.Append("late") // dropped
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, _ := message(db, m.ConversationID, m.ID)
	if got.Content != want.String() || got.Status != StatusComplete || got.Credits == nil || *got.Credits != credits {
		t.Errorf("got %q %s %v", got.Content[:20], got.Status, got.Credits)
	}
}

func TestReplyWriterFailedKeepsText(t *testing.T) {
	ctx := context.Background()
	db := openTestDB(t, testPaths(t))
	_, m := streamingMessage(t, db)
	w := db.NewReplyWriter(ctx, m.ID)
	w.Append("partial answer")
	w.Finish(StatusFailed, nil, "the connection dropped")
	got, _ := message(db, m.ConversationID, m.ID)
	if got.Content != "partial answer" || got.Status != StatusFailed || got.Error != "the connection dropped" {
		t.Errorf("%+v", got)
	}
}

func TestReplyWriterWritesWithinInterval(t *testing.T) {
	ctx := context.Background()
	p := testPaths(t)
	db := openTestDB(t, p)
	reader := openTestDB(t, p) // another handle sees only what reached the file
	_, m := streamingMessage(t, db)
	w := db.NewReplyWriter(ctx, m.ID)
	defer w.Close()
	w.Append("no block end yet")
	deadline := time.Now().Add(5 * time.Second)
	for {
		got, _ := message(reader, m.ConversationID, m.ID)
		if got.Content == "no block end yet" {
			if got.Status != StatusStreaming {
				t.Errorf("status %s", got.Status)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("text never written")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestReplyWriterWritesFinishedBlockAtOnce(t *testing.T) {
	ctx := context.Background()
	p := testPaths(t)
	db := openTestDB(t, p)
	db.flush = time.Hour // only a finished block can cause a write
	_, m := streamingMessage(t, db)
	w := db.NewReplyWriter(ctx, m.ID)
	defer w.Close()
	w.Append("first paragraph.")
	time.Sleep(100 * time.Millisecond)
	if got, _ := message(db, m.ConversationID, m.ID); got.Content != "" {
		t.Fatalf("written before the block finished: %q", got.Content)
	}
	w.Append("\n")
	w.Append("\nsecond")
	deadline := time.Now().Add(5 * time.Second)
	for {
		got, _ := message(db, m.ConversationID, m.ID)
		if strings.HasPrefix(got.Content, "first paragraph.\n\n") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("finished block not written: %q", got.Content)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestStreamingBecomesInterruptedOnReopen(t *testing.T) {
	ctx := context.Background()
	p := testPaths(t)
	db, err := Open(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	_, m := streamingMessage(t, db)
	w := db.NewReplyWriter(ctx, m.ID)
	w.Append("half a thought about zebras")
	w.Flush()
	if hits, _ := db.SearchMessages(ctx, "a", "zebras", 10); len(hits) != 0 {
		t.Errorf("a streaming reply is not searchable yet: %v", hits)
	}
	db.Close() // as if the process died: no Finish

	db2 := openTestDB(t, p)
	got, _ := message(db2, m.ConversationID, m.ID)
	if got.Status != StatusInterrupted || got.Content != "half a thought about zebras" {
		t.Errorf("after reopen: %+v", got)
	}
	if hits, _ := db2.SearchMessages(ctx, "a", "zebras", 10); len(hits) != 1 {
		t.Errorf("an interrupted reply is searchable: %v", hits)
	}
}

const crashHelperEnv = "AGENTDESK_STORAGE_CRASH_HELPER"

// TestCrashHelperProcess is not a test: TestKilledWriterLosesLessThanASecond
// runs the test binary again with it to stream a reply until it is killed.
func TestCrashHelperProcess(t *testing.T) {
	dir := os.Getenv(crashHelperEnv)
	if dir == "" {
		t.Skip("helper for TestKilledWriterLosesLessThanASecond")
	}
	ctx := context.Background()
	db, err := Open(ctx, PathsIn(dir))
	if err != nil {
		fmt.Println("error", err)
		os.Exit(2)
	}
	c, _ := db.CreateConversation(ctx, Conversation{AccountID: "a", AgentID: "1"})
	m, _ := db.AddMessage(ctx, Message{ConversationID: c.ID, Role: RoleAssistant, Status: StatusStreaming})
	fmt.Println("conversation", c.ID)
	fmt.Println("message", m.ID)
	w := db.NewReplyWriter(ctx, m.ID)
	for i := 0; ; i++ {
		w.Append(crashFragment(i))
		fmt.Println("appended", i) // after Append: the parent knows it reached the writer
		time.Sleep(2 * time.Millisecond)
	}
}

func crashFragment(i int) string {
	if i%40 == 39 {
		return fmt.Sprintf("f%06d\n\n", i)
	}
	return fmt.Sprintf("f%06d ", i)
}

func TestKilledWriterLosesLessThanASecond(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a subprocess")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashHelperProcess$", "-test.v=false")
	cmd.Env = append(os.Environ(), crashHelperEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()

	type seen struct {
		i  int
		at time.Time
	}
	var appended []seen
	var convID, msgID int64
	sc := bufio.NewScanner(out)
	var start time.Time
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 2 {
			continue
		}
		switch f[0] {
		case "error":
			t.Fatal(sc.Text())
		case "conversation":
			convID, _ = strconv.ParseInt(f[1], 10, 64)
		case "message":
			msgID, _ = strconv.ParseInt(f[1], 10, 64)
			start = time.Now()
		case "appended":
			i, _ := strconv.Atoi(f[1])
			appended = append(appended, seen{i, time.Now()})
		}
		if !start.IsZero() && time.Since(start) > 1500*time.Millisecond {
			break
		}
	}
	killedAt := time.Now()
	cmd.Process.Signal(syscall.SIGKILL)
	go func() {
		for sc.Scan() { // drain
		}
	}()
	cmd.Wait()
	if len(appended) == 0 {
		t.Fatal("the helper appended nothing")
	}

	db := openTestDB(t, PathsIn(dir))
	got, err := message(db, convID, msgID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != StatusInterrupted {
		t.Errorf("status %q, want interrupted", got.Status)
	}
	// Everything appended more than 300 ms before the kill must be there,
	// in order.
	var must strings.Builder
	lastOld := -1
	for _, s := range appended {
		if killedAt.Sub(s.at) > 300*time.Millisecond {
			lastOld = s.i
		}
	}
	for i := 0; i <= lastOld; i++ {
		must.WriteString(crashFragment(i))
	}
	if !strings.HasPrefix(got.Content, must.String()) {
		t.Fatalf("lost text written more than 300 ms before the kill: have %d bytes, need %d", len(got.Content), must.Len())
	}
	kept := strings.Count(got.Content, "f")
	t.Logf("appended %d fragments, %d kept, %d lost in the last moments", appended[len(appended)-1].i+1, kept, appended[len(appended)-1].i+1-kept)
}
