package storage

import (
	"context"
	"slices"
	"strings"
	"testing"
)

func TestSearchMessages(t *testing.T) {
	ctx := context.Background()
	db := openTestDB(t, testPaths(t))
	c := newConversation(t, db, "a", "Dessert ideas")
	addMessage(t, db, c.ID, RoleUser, "How do I make crème brûlée?", "")
	addMessage(t, db, c.ID, RoleAssistant, "Tom AND Jerry like \"quoted\" cream * stars", "")
	addMessage(t, db, c.ID, RoleAssistant, "日本語 のテキスト and Ελληνικά", "")
	addMessage(t, db, c.ID, RoleAssistant, "still streaming cream", StatusStreaming)
	gone := newConversation(t, db, "a", "Deleted")
	addMessage(t, db, gone.ID, RoleUser, "cream in a deleted chat", "")
	db.DeleteConversation(ctx, gone.ID)
	otherAccount := newConversation(t, db, "b", "Theirs")
	addMessage(t, db, otherAccount.ID, RoleUser, "cream elsewhere", "")

	count := func(q string) int {
		t.Helper()
		hits, err := db.SearchMessages(ctx, "a", q, 10)
		if err != nil {
			t.Fatalf("SearchMessages(%q): %v", q, err)
		}
		return len(hits)
	}
	for q, want := range map[string]int{
		"creme":               1, // diacritics fold
		"CRÈME brûlée":        1,
		"cre":                 2, // the last word is a prefix: crème, cream
		"cream":               1, // not the streaming, deleted or other account's
		"and":                 2,
		"AND":                 2,
		"OR":                  0,
		"NOT cream":           0,
		`"`:                   0,
		`""`:                  0,
		"*":                   0,
		`"quoted`:             1,
		`quoted"`:             1,
		"cream*":              1,
		"NEAR(cream":          0,
		"content:cream":       0,
		"-cream":              1,
		"^cream":              1,
		"日本語":                 1,
		"ελληνικά":            1,
		"":                    0,
		"   ":                 0,
		"') DROP TABLE x; --": 0,
	} {
		if got := count(q); got != want {
			t.Errorf("SearchMessages(%q) = %d hits, want %d", q, got, want)
		}
	}
	hits, _ := db.SearchMessages(ctx, "a", "brulee", 10)
	if len(hits) != 1 || hits[0].ConversationID != c.ID || hits[0].ConversationTitle != "Dessert ideas" ||
		!slices.Contains(hits[0].Spans, Span{Text: "brûlée", Match: true}) ||
		hits[0].Snippet != "How do I make crème brûlée?" {
		t.Errorf("hit: %+v", hits)
	}
	// Updated text is re-indexed; deleted text leaves the index.
	m := addMessage(t, db, c.ID, RoleUser, "pavlova", "")
	m.Content = "meringue"
	db.UpdateMessage(ctx, m)
	if count("pavlova") != 0 || count("meringue") != 1 {
		t.Error("update not reflected in the index")
	}
	db.DeleteMessagesAfter(ctx, c.ID, m.ID-1)
	if count("meringue") != 0 {
		t.Error("deleted message still found")
	}
	// Once nothing streams, the index matches the messages exactly.
	db.sql.ExecContext(ctx, `UPDATE messages SET status = 'complete' WHERE status = 'streaming'`)
	if _, err := db.sql.ExecContext(ctx, `INSERT INTO messages_fts(messages_fts, rank) VALUES ('integrity-check', 1)`); err != nil {
		t.Errorf("index integrity: %v", err)
	}
	if count("streaming") != 1 {
		t.Error("a finished reply is searchable")
	}
}

func TestSearchConversationTitles(t *testing.T) {
	ctx := context.Background()
	db := openTestDB(t, testPaths(t))
	c := newConversation(t, db, "a", "Quarterly report")
	newConversation(t, db, "a", "Holiday plans")
	got, err := db.SearchConversations(ctx, "a", "quart", 10)
	if err != nil || len(got) != 1 || got[0].ID != c.ID {
		t.Fatalf("%+v %v", got, err)
	}
	db.RenameConversation(ctx, c.ID, "Annual summary")
	if got, _ := db.SearchConversations(ctx, "a", "quarterly", 10); len(got) != 0 {
		t.Errorf("old title still found: %+v", got)
	}
	if got, _ := db.SearchConversations(ctx, "a", `annual "`, 10); len(got) != 1 {
		t.Errorf("new title: %+v", got)
	}
}

// A message is text a server sent: whatever marks it holds, only the words
// searched for are highlighted.
func TestSearchHighlightsCannotBeFaked(t *testing.T) {
	ctx := context.Background()
	db := openTestDB(t, testPaths(t))
	c := newConversation(t, db, "a", "Marks")
	addMessage(t, db, c.ID, RoleAssistant, "\x02fake\x03 word \uE000bogus\uE001 \uE002", "")
	hits, err := db.SearchMessages(ctx, "a", "word", 10)
	if err != nil || len(hits) != 1 {
		t.Fatalf("hits %+v, %v", hits, err)
	}
	var matched []string
	for _, sp := range hits[0].Spans {
		if sp.Match {
			matched = append(matched, sp.Text)
		}
		if strings.ContainsAny(sp.Text, "\x02\x03") {
			t.Errorf("a span keeps a raw mark: %q", sp.Text)
		}
	}
	if !slices.Equal(matched, []string{"word"}) {
		t.Errorf("highlighted %q, want only \"word\" (spans %+v)", matched, hits[0].Spans)
	}
	if want := "fake word \uE000bogus\uE001 \uE002"; hits[0].Snippet != want {
		t.Errorf("snippet %q, want %q", hits[0].Snippet, want)
	}
	// Each search marks with marks of its own.
	s1, e1 := snippetMarks()
	s2, e2 := snippetMarks()
	if s1 == s2 || e1 == e2 || s1 == e1 {
		t.Error("the marks are the same for two searches")
	}
}

// A NUL or another control character pasted into a search box is no part
// of the words searched: each search finds what it finds without it, never
// a database error.
func TestSearchesIgnoreControlCharacters(t *testing.T) {
	ctx := context.Background()
	db := openTestDB(t, testPaths(t))
	conv := newConversation(t, db, "a", "Cream recipes")
	addMessage(t, db, conv.ID, RoleUser, "How do I whip cream?", "")
	if err := db.UpsertMemory(ctx, MemoryEntry{AccountID: "a", ID: "1", Content: "Cream goes in the fridge"}); err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]string{
		"cream\x00":           "cream",
		"\x00cream":           "cream",
		"cre\x00am":           "cream",
		"cream\x00\x00":       "cream",
		"\x00":                "",
		"cream\x01\x1f\x7f":   "cream",
		"whip\u0085cream\x00": "whip\u0085cream",
		"whip\ncream\x00":     "whip\ncream",
		"whip\tcream\x00":     "whip\tcream",
	} {
		counts := func(q string) (hits, convs, mems int, err error) {
			h, err := db.SearchMessages(ctx, "a", q, 10)
			if err != nil {
				return 0, 0, 0, err
			}
			c, err := db.SearchConversations(ctx, "a", q, 10)
			if err != nil {
				return 0, 0, 0, err
			}
			m, err := db.Memories(ctx, "a", q)
			return len(h), len(c), len(m), err
		}
		wh, wc, wm, err := counts(want)
		if err != nil {
			t.Fatalf("%q: %v", want, err)
		}
		h, c, m, err := counts(q)
		if err != nil || h != wh || c != wc || m != wm {
			t.Errorf("%q finds %d messages, %d chats, %d memories (%v); want %d, %d, %d as for %q", q, h, c, m, err, wh, wc, wm, want)
		}
	}
	if hits, err := db.SearchMessages(ctx, "a", "cream\x00", 10); err != nil || len(hits) != 1 {
		t.Errorf("a search for cream and a NUL finds %d messages, %v; want the one about cream", len(hits), err)
	}
}
