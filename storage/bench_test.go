package storage

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

const benchFragments = 10000

// benchFragment looks like a streamed token; every 40th ends a paragraph.
func benchFragment(i int) string {
	if i%40 == 39 {
		return fmt.Sprintf("tok%d.\n\n", i)
	}
	return fmt.Sprintf("tok%d ", i)
}

func benchDB(b *testing.B) *DB {
	b.Helper()
	return openTestDB(b, PathsIn(b.TempDir()))
}

// BenchmarkAppendFragmentsBatched streams 10,000 fragments into one
// message through a ReplyWriter (what the app does).
func BenchmarkAppendFragmentsBatched(b *testing.B) {
	benchAppendFragments(b, func(ctx context.Context, db *DB, id int64) error {
		w := db.NewReplyWriter(ctx, id)
		for i := 0; i < benchFragments; i++ {
			w.Append(benchFragment(i))
		}
		return w.Finish(StatusComplete, nil, "")
	})
}

// BenchmarkAppendFragmentsPerTransaction writes each of the 10,000
// fragments in its own transaction, for comparison.
func BenchmarkAppendFragmentsPerTransaction(b *testing.B) {
	benchAppendFragments(b, func(ctx context.Context, db *DB, id int64) error {
		for i := 0; i < benchFragments; i++ {
			if err := db.appendText(ctx, id, benchFragment(i)); err != nil {
				return err
			}
		}
		return db.NewReplyWriter(ctx, id).Finish(StatusComplete, nil, "")
	})
}

// benchAppendFragments times write filling a new streaming message, so the
// two ways of writing are measured alike.
func benchAppendFragments(b *testing.B, write func(ctx context.Context, db *DB, id int64) error) {
	ctx := context.Background()
	db := benchDB(b)
	c := newConversation(b, db, "a", "bench")
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		m, err := db.AddMessage(ctx, Message{ConversationID: c.ID, Role: RoleAssistant, Status: StatusStreaming})
		if err != nil {
			b.Fatal(err)
		}
		if err := write(ctx, db, m.ID); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*benchFragments), "µs/fragment")
}

// BenchmarkOpenConversation2000 reads a conversation of 2,000 messages
// (target: under 50 ms).
func BenchmarkOpenConversation2000(b *testing.B) {
	ctx := context.Background()
	db := benchDB(b)
	c := newConversation(b, db, "a", "long")
	rng := rand.New(rand.NewSource(1))
	err := db.write(ctx, "bench fixture", func(tx *sql.Tx) error {
		for i := 0; i < 2000; i++ {
			role := RoleUser
			if i%2 == 1 {
				role = RoleAssistant
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO messages (conversation_id, role, content, status, created_at, updated_at)
				VALUES (?, ?, ?, 'complete', ?, ?)`, c.ID, role, benchText(rng, 20+rng.Intn(200)), i, i); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		if _, err := db.GetConversation(ctx, c.ID); err != nil {
			b.Fatal(err)
		}
		msgs, err := db.Messages(ctx, c.ID)
		if err != nil || len(msgs) != 2000 {
			b.Fatal(len(msgs), err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/open")
}

// The 100,000-message fixture is built once per benchmark run, in a folder
// of this process that TestMain removes.
var (
	searchFixtureDir   = filepath.Join(os.TempDir(), fmt.Sprintf("agentdesk-search-bench-%d", os.Getpid()))
	buildSearchFixture = sync.OnceValue(func() error {
		_ = os.RemoveAll(searchFixtureDir) // left by a process of the same id
		if err := os.Mkdir(searchFixtureDir, 0o700); err != nil {
			return err
		}
		ctx := context.Background()
		db, err := Open(ctx, PathsIn(searchFixtureDir))
		if err != nil {
			return err
		}
		defer db.Close()
		rng := rand.New(rand.NewSource(2))
		const perConversation = 100
		for start := 0; start < searchMessages; start += 10000 {
			err := db.write(ctx, "bench fixture", func(tx *sql.Tx) error {
				for i := start; i < start+10000; i++ {
					if i%perConversation == 0 {
						if _, err := tx.ExecContext(ctx, `INSERT INTO conversations (id, account_id, agent_id, title, created_at, updated_at)
							VALUES (?, 'a', '1', ?, ?, ?)`, i/perConversation+1, benchText(rng, 4), i, i); err != nil {
							return err
						}
					}
					if _, err := tx.ExecContext(ctx, `INSERT INTO messages (conversation_id, role, content, status, created_at, updated_at)
						VALUES (?, 'assistant', ?, 'complete', ?, ?)`, i/perConversation+1, benchText(rng, 20+rng.Intn(80)), i, i); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		db.sql.ExecContext(ctx, `INSERT INTO messages_fts(messages_fts) VALUES ('optimize')`)
		return nil
	})
)

const searchMessages = 100000

func searchFixture(b *testing.B) *DB {
	b.Helper()
	if err := buildSearchFixture(); err != nil {
		b.Fatal(err)
	}
	db, err := Open(context.Background(), PathsIn(searchFixtureDir))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

func TestMain(m *testing.M) {
	code := m.Run()
	os.RemoveAll(searchFixtureDir)
	os.Exit(code)
}

// BenchmarkSearch100k searches 100,000 messages with queries a user might
// type: one or two words, common and rare, some half typed (target: p50
// under 20 ms).
func BenchmarkSearch100k(b *testing.B) {
	ctx := context.Background()
	db := searchFixture(b)
	rng := rand.New(rand.NewSource(3))
	var durations []time.Duration
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		q := benchQuery(rng)
		start := time.Now()
		if _, err := db.SearchMessages(ctx, "a", q, 50); err != nil {
			b.Fatal(q, err)
		}
		durations = append(durations, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(durations, func(i, j int) bool { return durations[i] < durations[j] })
	pct := func(p float64) float64 {
		return float64(durations[int(p*float64(len(durations)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.95), "p95-ms")
}

// benchWords is a vocabulary whose use follows Zipf's law, like real text.
var benchWords = func() []string {
	rng := rand.New(rand.NewSource(4))
	const letters = "abcdefghijklmnopqrstuvwxyz"
	words := make([]string, 20000)
	for i := range words {
		n := 3 + rng.Intn(8)
		var sb strings.Builder
		for j := 0; j < n; j++ {
			sb.WriteByte(letters[rng.Intn(len(letters))])
		}
		words[i] = sb.String()
	}
	return words
}()

func benchWord(rng *rand.Rand, z *rand.Zipf) string { return benchWords[z.Uint64()] }

func benchText(rng *rand.Rand, words int) string {
	z := rand.NewZipf(rng, 1.1, 2, uint64(len(benchWords)-1))
	var sb strings.Builder
	for i := 0; i < words; i++ {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(benchWord(rng, z))
	}
	return sb.String()
}

func benchQuery(rng *rand.Rand) string {
	z := rand.NewZipf(rng, 1.1, 2, uint64(len(benchWords)-1))
	w := benchWord(rng, z)
	switch rng.Intn(4) {
	case 0:
		return w + " " + benchWord(rng, z)
	case 1:
		return w[:(len(w)+1)/2] // half typed
	default:
		return w
	}
}
