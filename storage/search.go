package storage

import (
	"context"
	"strings"
	"time"
	"unicode"
)

// Snippets mark the matched words with these runes, which never occur in
// typed text, so the screen can highlight them without parsing markup.
const (
	HighlightStart = "\x02"
	HighlightEnd   = "\x03"
)

// SearchHit is one message that matched a search.
type SearchHit struct {
	ConversationID    int64
	MessageID         int64
	ConversationTitle string
	AgentTitle        string
	Role              string
	Snippet           string // a few words around the match, matches between HighlightStart and HighlightEnd
	At                time.Time
}

// SearchMessages finds an account's messages containing every word of
// query (the last word may be the start of a word), newest first (a
// ranked order costs over 100 ms on 100,000 messages; this costs about 1).
// query is plain text: quotes, '*', AND/OR/NOT and the like are searched
// for as words, never read as search syntax.
func (db *DB) SearchMessages(ctx context.Context, accountID, query string, limit int) ([]SearchHit, error) {
	match := ftsQuery(query)
	if match == "" {
		return nil, nil
	}
	limit = listLimit(limit)
	return queryAll(ctx, db, "search the history", scanHit, `SELECT m.conversation_id, m.id, c.title, c.agent_title, m.role,
			snippet(messages_fts, 0, ?, ?, '…', 12), m.created_at
		FROM messages_fts
		JOIN messages m ON m.id = messages_fts.rowid
		JOIN conversations c ON c.id = m.conversation_id
		WHERE messages_fts MATCH ? AND c.account_id = ? AND c.deleted_at IS NULL
		ORDER BY messages_fts.rowid DESC LIMIT ?`, HighlightStart, HighlightEnd, match, accountID, limit)
}

func scanHit(s scanner) (SearchHit, error) {
	var h SearchHit
	var at int64
	err := s.Scan(&h.ConversationID, &h.MessageID, &h.ConversationTitle, &h.AgentTitle, &h.Role, &h.Snippet, &at)
	h.At = fromMillis(at)
	return h, err
}

// SearchConversations finds an account's conversations whose title
// contains every word of query, best matches first. Like SearchMessages it
// treats query as plain text.
func (db *DB) SearchConversations(ctx context.Context, accountID, query string, limit int) ([]Conversation, error) {
	match := ftsQuery(query)
	if match == "" {
		return nil, nil
	}
	limit = listLimit(limit)
	return queryAll(ctx, db, "search the conversations", scanConversation, `SELECT `+prefixed("c.", conversationColumns)+`
		FROM conversations_fts JOIN conversations c ON c.id = conversations_fts.rowid
		WHERE conversations_fts MATCH ? AND c.account_id = ? AND c.deleted_at IS NULL
		ORDER BY rank LIMIT ?`, match, accountID, limit)
}

// ftsQuery turns typed text into an FTS5 query: every word becomes a quoted
// phrase (so nothing the user types is read as syntax), the words must all
// match, and the last one matches as a prefix so results follow typing.
// Words with no letter or digit cannot match anything and are dropped.
func ftsQuery(s string) string {
	var terms []string
	for _, w := range strings.Fields(s) {
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

func prefixed(p, columns string) string {
	cols := strings.Split(columns, ",")
	for i, c := range cols {
		cols[i] = p + strings.TrimSpace(c)
	}
	return strings.Join(cols, ", ")
}
