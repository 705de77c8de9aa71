package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestOpenUsesWALAndRecordsSchemaVersion(t *testing.T) {
	ctx := context.Background()
	p := testPaths(t)
	db := openTestDB(t, p)
	if db.Path() != filepath.Join(os.Getenv("XDG_DATA_HOME"), "agentdesk", "history.db") {
		t.Errorf("Path = %s", db.Path())
	}
	var mode string
	db.sql.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode)
	if mode != "wal" {
		t.Errorf("journal_mode = %q", mode)
	}
	var fk int
	db.sql.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&fk)
	if fk != 1 {
		t.Errorf("foreign_keys = %d", fk)
	}
	if v, _ := schemaVersion(ctx, db.sql); v != latestSchema {
		t.Errorf("schema version %d, want %d", v, latestSchema)
	}
	if info, _ := os.Stat(db.Path()); info.Mode().Perm() != 0o600 {
		t.Errorf("history mode %v", info.Mode())
	}
	if db.ReadOnly() || db.inMemory || !db.notice.IsZero() {
		t.Error("a healthy open should be read-write, on disk, without notice")
	}
}

func TestMigrationsAreIdempotent(t *testing.T) {
	ctx := context.Background()
	p := testPaths(t)
	db := openTestDB(t, p)
	c := newConversation(t, db, "a", "kept")
	if err := migrate(ctx, db.sql, 1); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db2 := openTestDB(t, p)
	var rows int
	db2.sql.QueryRowContext(ctx, `SELECT count(*) FROM schema_version`).Scan(&rows)
	if rows != latestSchema {
		t.Errorf("schema_version has %d rows, want %d", rows, latestSchema)
	}
	if got, err := db2.GetConversation(ctx, c.ID); err != nil || got.Title != "kept" {
		t.Errorf("data after reopen: %+v %v", got, err)
	}
}

func TestNewerHistoryOpensReadOnly(t *testing.T) {
	ctx := context.Background()
	p := testPaths(t)
	db := openTestDB(t, p)
	newConversation(t, db, "a", "from the future")
	db.sql.ExecContext(ctx, `INSERT INTO schema_version VALUES (99, 0)`)
	db.Close()

	_, err := Open(ctx, p)
	if err == nil || !strings.Contains(err.Error(), "newer Agent Desk") || !strings.Contains(err.Error(), p.HistoryFile()) {
		t.Fatalf("Open: %v", err)
	}
	ro, notice := OpenOrFallback(ctx, p)
	defer ro.Close()
	if !ro.ReadOnly() || notice.Kind != HistoryReadOnly {
		t.Fatalf("fallback: ro=%v notice=%+v", ro.ReadOnly(), notice)
	}
	list, err := ro.ListConversations(ctx, ListParams{AccountID: "a"})
	if err != nil || len(list) != 1 {
		t.Errorf("reading a read-only history: %v %v", list, err)
	}
	_, err = ro.CreateConversation(ctx, Conversation{AccountID: "a", AgentID: "1"})
	if !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("write to read-only history: %v", err)
	}
}

func TestDamagedHistoryFallsBackToMemory(t *testing.T) {
	ctx := context.Background()
	p := testPaths(t)
	os.MkdirAll(p.Data, 0o700)
	os.WriteFile(p.HistoryFile(), []byte(strings.Repeat("this is not a database ", 400)), 0o600)

	_, err := Open(ctx, p)
	var se *Error
	if !errors.As(err, &se) || !strings.Contains(err.Error(), p.HistoryFile()) || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("Open: %v", err)
	}
	db, notice := OpenOrFallback(ctx, p)
	defer db.Close()
	if !db.inMemory || db.ReadOnly() || notice.Path != p.HistoryFile() ||
		notice.Kind != HistoryInMemory {
		t.Fatalf("fallback: mem=%v notice=%+v", db.inMemory, notice)
	}
	// The app keeps working for this session.
	c := newConversation(t, db, "a", "today only")
	addMessage(t, db, c.ID, RoleUser, "hello", "")
	if msgs, _ := db.Messages(ctx, c.ID); len(msgs) != 1 {
		t.Errorf("in-memory history holds %d messages", len(msgs))
	}
	// The damaged file is left for the user to rescue.
	if raw, _ := os.ReadFile(p.HistoryFile()); !strings.HasPrefix(string(raw), "this is not") {
		t.Error("damaged file changed")
	}
}

func TestLockedHistoryNamesThePath(t *testing.T) {
	ctx := context.Background()
	p := testPaths(t)
	openTestDB(t, p).Close()

	// Another program holds an exclusive lock on the file.
	other, err := sql.Open("sqlite", fileDSN(p.HistoryFile(), []string{"_pragma=locking_mode(EXCLUSIVE)"}))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, _ := other.Conn(ctx)
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `BEGIN EXCLUSIVE`); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(ctx, `ROLLBACK`)

	_, err = Open(ctx, p, WithBusyTimeout(100*time.Millisecond))
	if err == nil || !strings.Contains(err.Error(), "locked") || !strings.Contains(err.Error(), p.HistoryFile()) {
		t.Fatalf("Open: %v", err)
	}
	db, notice := OpenOrFallback(ctx, p, WithBusyTimeout(100*time.Millisecond))
	defer db.Close()
	if notice.IsZero() || !strings.Contains(notice.Err.Error(), "locked") {
		t.Errorf("notice %+v", notice)
	}
}

func TestReadOnlyFolderOpensReadOnly(t *testing.T) {
	ctx := context.Background()
	var p Paths
	dir := makeReadOnly(t, func(dir string) {
		p = PathsIn(dir)
		db, err := Open(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		c := newConversation(t, db, "a", "written before")
		addMessage(t, db, c.ID, RoleUser, "an old question", "")
		db.Close()
	})
	_ = dir
	_, err := Open(ctx, p)
	if err == nil || !strings.Contains(err.Error(), p.HistoryFile()) {
		t.Fatalf("Open in a read-only folder: %v", err)
	}
	t.Logf("message: %v", err)
	db, notice := OpenOrFallback(ctx, p)
	defer db.Close()
	if !db.ReadOnly() || notice.IsZero() {
		t.Fatalf("ro=%v notice=%+v", db.ReadOnly(), notice)
	}
	list, err := db.ListConversations(ctx, ListParams{AccountID: "a"})
	if err != nil || len(list) != 1 {
		t.Fatalf("list: %v %v", list, err)
	}
	msgs, err := db.Messages(ctx, list[0].ID)
	if err != nil || len(msgs) != 1 || msgs[0].Content != "an old question" {
		t.Errorf("messages: %v %v", msgs, err)
	}
	if err := db.SaveDraft(ctx, list[0].ID, "x"); !errors.Is(err, ErrReadOnly) {
		t.Errorf("SaveDraft: %v", err)
	}
}

func TestUnwritableDataFolderNamesThePath(t *testing.T) {
	ctx := context.Background()
	p := testPaths(t)
	// A file where the data folder should be: even root cannot create it.
	os.MkdirAll(filepath.Dir(p.Data), 0o700)
	os.WriteFile(p.Data, []byte("x"), 0o600)
	_, err := Open(ctx, p)
	if err == nil || !strings.Contains(err.Error(), p.HistoryFile()) {
		t.Fatalf("Open: %v", err)
	}
	db, notice := OpenOrFallback(ctx, p)
	defer db.Close()
	if !db.inMemory || notice.IsZero() {
		t.Errorf("mem=%v notice=%+v", db.inMemory, notice)
	}
}

// fillUntilFull writes ever more text until the history refuses it.
func fillUntilFull(t *testing.T, db *DB, convID int64) error {
	t.Helper()
	ctx := context.Background()
	chunk := strings.Repeat("All work and no play makes a full disk. ", 200)
	for i := 0; i < 10000; i++ {
		if _, err := db.AddMessage(ctx, Message{ConversationID: convID, Role: RoleAssistant, Content: fmt.Sprint(i, chunk)}); err != nil {
			return err
		}
	}
	t.Fatal("the history never filled up")
	return nil
}

func checkDiskFullError(t *testing.T, err error, path string) {
	t.Helper()
	var se *Error
	if !errors.As(err, &se) || se.Reason != reasonFull {
		t.Fatalf("want a disk-full *Error, got %T %v", err, err)
	}
	if !strings.Contains(err.Error(), "the disk is full") || !strings.Contains(err.Error(), path) {
		t.Errorf("not in plain words: %q", err)
	}
}

func TestFullDiskSimulated(t *testing.T) {
	ctx := context.Background()
	p := testPaths(t)
	db := openTestDB(t, p, withPragma("max_page_count=64"))
	c := newConversation(t, db, "a", "big")
	checkDiskFullError(t, fillUntilFull(t, db, c.ID), p.HistoryFile())

	// A streamed reply keeps its text in memory while the disk is full and
	// reports why it cannot save.
	m, err := db.AddMessage(ctx, Message{ConversationID: c.ID, Role: RoleAssistant, Status: StatusStreaming})
	if err != nil {
		// No room even for an empty message: make some.
		db.sql.ExecContext(ctx, `DELETE FROM messages WHERE id IN (SELECT id FROM messages LIMIT 3)`)
		m = addMessage(t, db, c.ID, RoleAssistant, "", StatusStreaming)
	}
	w := db.NewReplyWriter(ctx, m.ID)
	w.Append(strings.Repeat("more text than fits ", 20000))
	err = w.Flush()
	checkDiskFullError(t, err, p.HistoryFile())
	if w.Err() == nil {
		t.Error("ReplyWriter.Err should report the full disk")
	}
	// Finishing while the disk is still full fails and keeps the text.
	if err := w.Finish(StatusComplete, nil, ""); err == nil {
		t.Fatal("Finish on a full disk succeeded")
	}
	// Room again: the kept text lands.
	db.sql.ExecContext(ctx, `DELETE FROM messages WHERE id < ?`, m.ID)
	db.sql.ExecContext(ctx, `PRAGMA max_page_count = 100000`)
	if err := w.Finish(StatusComplete, nil, ""); err != nil {
		t.Fatalf("Finish after freeing space: %v", err)
	}
	got, _ := message(db, m.ConversationID, m.ID)
	if len(got.Content) != len("more text than fits ")*20000 {
		t.Errorf("kept %d bytes", len(got.Content))
	}
}

func TestFullDiskTmpfs(t *testing.T) {
	dir := mountTmpfs(t, "512k")
	p := PathsIn(dir)
	ctx := context.Background()

	// A disk with no room at all: Open says so, and the app still starts.
	os.MkdirAll(p.Data, 0o700)
	filler := filepath.Join(dir, "filler")
	f, _ := os.Create(filler)
	for {
		if _, err := f.Write(make([]byte, 4096)); err != nil {
			break
		}
	}
	f.Close()
	_, err := Open(ctx, p)
	checkDiskFullError(t, err, p.HistoryFile())
	mem, notice := OpenOrFallback(ctx, p)
	if !mem.inMemory || !strings.Contains(notice.Err.Error(), "the disk is full") {
		t.Errorf("fallback on a full disk: mem=%v %+v", mem.inMemory, notice)
	}
	mem.Close()
	os.Remove(filler)
	os.Remove(p.HistoryFile())

	// Filling up while in use.
	db, err := Open(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c, err := db.CreateConversation(ctx, Conversation{AccountID: "a", AgentID: "1"})
	if err != nil {
		t.Fatal(err)
	}
	checkDiskFullError(t, fillUntilFull(t, db, c.ID), p.HistoryFile())
	// Reading still works and the history is intact after a reopen.
	if _, err := db.ListConversations(ctx, ListParams{AccountID: "a"}); err != nil {
		t.Errorf("reading a full history: %v", err)
	}
	db.Close()
	db2, err := Open(ctx, p)
	if err != nil {
		t.Logf("reopening on a full disk: %v", err)
		return
	}
	defer db2.Close()
	var ok string
	db2.sql.QueryRowContext(ctx, `PRAGMA quick_check`).Scan(&ok)
	if ok != "ok" {
		t.Errorf("quick_check: %s", ok)
	}
}

func TestConcurrentWriters(t *testing.T) {
	ctx := context.Background()
	p := testPaths(t)
	handles := []*DB{openTestDB(t, p), openTestDB(t, p), openTestDB(t, p)}
	const writers, each = 6, 40
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	convs := make([]int64, writers)
	for i := 0; i < writers; i++ {
		db := handles[i%len(handles)]
		c := newConversation(t, db, "a", fmt.Sprint("writer ", i))
		convs[i] = c.ID
		wg.Add(1)
		go func(i int, db *DB, convID int64) {
			defer wg.Done()
			for j := 0; j < each; j++ {
				m, err := db.AddMessage(ctx, Message{ConversationID: convID, Role: RoleAssistant, Status: StatusStreaming})
				if err != nil {
					errs <- err
					return
				}
				w := db.NewReplyWriter(ctx, m.ID)
				w.Append(fmt.Sprintf("w%d m%d\n\n", i, j))
				w.Append("done")
				if err := w.Finish(StatusComplete, nil, ""); err != nil {
					errs <- err
					return
				}
				if _, err := db.RecordCredits(ctx, CreditRecord{AccountID: "a", AgentID: "1", Kind: CreditsExecution, Credits: 1}); err != nil {
					errs <- err
					return
				}
			}
		}(i, db, c.ID)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for i, id := range convs {
		msgs, err := handles[0].Messages(ctx, id)
		if err != nil || len(msgs) != each {
			t.Fatalf("writer %d: %d messages, %v", i, len(msgs), err)
		}
		for j, m := range msgs {
			if want := fmt.Sprintf("w%d m%d\n\ndone", i, j); m.Content != want || m.Status != StatusComplete {
				t.Errorf("message %q %s, want %q", m.Content, m.Status, want)
			}
		}
	}
	total, _ := handles[1].CreditsSince(ctx, "a", time.Time{})
	if total != writers*each {
		t.Errorf("credits %v", total)
	}
}

func TestMultiRowWriteIsOneTransaction(t *testing.T) {
	ctx := context.Background()
	p := testPaths(t)
	db := openTestDB(t, p)
	c := newConversation(t, db, "a", "t")
	// Make the second half of AddMessage (moving the conversation up) fail.
	db.sql.ExecContext(ctx, `CREATE TEMP TRIGGER refuse BEFORE UPDATE OF updated_at ON main.conversations BEGIN SELECT RAISE(ABORT, 'refused'); END`)
	db.sql.SetMaxOpenConns(1) // the temp trigger lives on one connection
	if _, err := db.AddMessage(ctx, Message{ConversationID: c.ID, Role: RoleUser, Content: "half"}); err == nil {
		t.Fatal("AddMessage should fail")
	}
	if msgs, _ := db.Messages(ctx, c.ID); len(msgs) != 0 {
		t.Errorf("the message was kept although the transaction failed: %d", len(msgs))
	}
}
