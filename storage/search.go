package storage

import (
	"context"
	"crypto/rand"
	"strings"
	"time"
	"unicode"
)

// SearchHit is one message that matched a search.
type SearchHit struct {
	ConversationID    int64
	MessageID         int64
	ConversationTitle string
	AgentTitle        string
	Role              string
	Snippet           string // a few words around the match, as plain text
	Spans             []Span // Snippet in pieces, the matched words marked
	At                time.Time
}

// Span is a piece of a hit's snippet; matches are kept apart from the text,
// where a server could fake a mark.
type Span struct {
	Text  string
	Match bool
}

// SearchMessages finds an account's messages holding every word of query
// (plain text; the last as a prefix), newest first.
func (db *DB) SearchMessages(ctx context.Context, accountID, query string, limit int) ([]SearchHit, error) {
	match := ftsQuery(query)
	if match == "" {
		return nil, nil
	}
	limit = listLimit(limit)
	start, end := snippetMarks()
	hits, err := queryAll(ctx, db, "search the history", scanHit, `SELECT m.conversation_id, m.id, c.title, c.agent_title, m.role,
			snippet(messages_fts, 0, ?, ?, '…', 12), m.created_at
		FROM messages_fts
		JOIN messages m ON m.id = messages_fts.rowid
		JOIN conversations c ON c.id = m.conversation_id
		WHERE messages_fts MATCH ? AND c.account_id = ? AND c.deleted_at IS NULL
		ORDER BY messages_fts.rowid DESC LIMIT ?`, start, end, match, accountID, limit)
	for i := range hits {
		hits[i].Spans = splitSnippet(hits[i].Snippet, start, end)
		hits[i].Snippet = ""
		for _, s := range hits[i].Spans {
			hits[i].Snippet += s.Text
		}
	}
	return hits, err
}

// snippetMarks are one search's match marks, with a fresh random word.
func snippetMarks() (start, end string) {
	token := rand.Text()
	return "\uE000" + token + "\uE001", "\uE002" + token + "\uE003"
}

// oldMarks strips \x02 and \x03, which a server may send to fake highlights.
var oldMarks = strings.NewReplacer("\x02", "", "\x03", "")

func splitSnippet(snippet, start, end string) []Span {
	var out []Span
	add := func(text string, match bool) {
		text = oldMarks.Replace(text)
		if text != "" {
			out = append(out, Span{Text: text, Match: match})
		}
	}
	for snippet != "" {
		i := strings.Index(snippet, start)
		if i < 0 {
			add(snippet, false)
			break
		}
		add(snippet[:i], false)
		snippet = snippet[i+len(start):]
		j := strings.Index(snippet, end)
		if j < 0 { // never left open by the database; shown plain if it were
			add(snippet, false)
			break
		}
		add(snippet[:j], true)
		snippet = snippet[j+len(end):]
	}
	return out
}

func scanHit(s scanner) (h SearchHit, err error) {
	return h, s.Scan(&h.ConversationID, &h.MessageID, &h.ConversationTitle, &h.AgentTitle, &h.Role, &h.Snippet, msCol{&h.At})
}

// SearchConversations finds conversations whose title holds every word of query, best first.
func (db *DB) SearchConversations(ctx context.Context, accountID, query string, limit int) ([]Conversation, error) {
	match := ftsQuery(query)
	if match == "" {
		return nil, nil
	}
	limit = listLimit(limit)
	return queryAll(ctx, db, "search the conversations", scanRecord[Conversation], `SELECT `+conversationColumns+`
		FROM conversations JOIN (SELECT rowid AS hit, rank FROM conversations_fts WHERE conversations_fts MATCH ?) ON id = hit
		WHERE account_id = ? AND deleted_at IS NULL
		ORDER BY rank LIMIT ?`, match, accountID, limit)
}

// ftsQuery makes typed text an FTS5 query of quoted words, the last a prefix.
func ftsQuery(s string) string {
	var terms []string
	for _, w := range strings.Fields(searchText(s)) {
		if !strings.ContainsFunc(w, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }) {
			continue
		}
		terms = append(terms, `"`+strings.ReplaceAll(w, `"`, `""`)+`"`)
	}
	if len(terms) == 0 {
		return ""
	}
	terms[len(terms)-1] += "*"
	return strings.Join(terms, " ")
}

// searchText drops control characters but spaces: a NUL would cut the query.
func searchText(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) && !unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}
