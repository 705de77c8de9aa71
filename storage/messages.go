package storage

import (
	"context"
	"database/sql"
	"time"
)

// Message statuses.
const (
	StatusComplete    = "complete"
	StatusStreaming   = "streaming"   // text is still arriving
	StatusStopped     = "stopped"     // the user stopped it; the text so far is kept
	StatusFailed      = "failed"      // Error says why; the text so far is kept
	StatusInterrupted = "interrupted" // Agent Desk closed or crashed while it streamed
	StatusRecovered   = "recovered"   // the stream was cut; the finished text was fetched by polling
)

// Message roles.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleDeveloper = "developer"
)

// Message is one turn of a conversation.
type Message struct {
	ID             int64
	ConversationID int64
	Role           string
	Content        string
	Status         string
	Error          string
	Credits        *float64
	FileIDs        []string
	ResponseID     string
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

const messageColumns = `id, conversation_id, role, content, status, error, credits, file_ids, response_id, created_at, updated_at`

// AddMessage appends m and moves its conversation to the top, in one
// transaction. An empty Status means complete.
func (db *DB) AddMessage(ctx context.Context, m Message) (Message, error) {
	m.CreatedAt = db.nowOr(m.CreatedAt)
	m.UpdatedAt = m.CreatedAt
	if m.Status == "" {
		m.Status = StatusComplete
	}
	err := db.write(ctx, "save the message", func(tx *sql.Tx) error {
		if err := insert(ctx, tx, "messages", messageColumns, m.fields()); err != nil {
			return err
		}
		return mustAffect(tx.ExecContext(ctx, `UPDATE conversations SET updated_at = ? WHERE id = ?`,
			millis(m.CreatedAt), m.ConversationID))
	})
	if err != nil {
		return Message{}, err
	}
	return m, nil
}

// UpdateMessage saves m's content, status, error, credits, files and response id.
func (db *DB) UpdateMessage(ctx context.Context, m Message) error {
	if m.Status == "" {
		m.Status = StatusComplete
	}
	return db.update(ctx, "save the message", `UPDATE messages SET content = ?, status = ?, error = ?, credits = ?,
		file_ids = ?, response_id = ?, updated_at = ? WHERE id = ?`,
		m.Content, m.Status, m.Error, m.Credits, jsonCol{&m.FileIDs, true}, m.ResponseID, db.now().UnixMilli(), m.ID)
}

// Messages returns a conversation's messages, oldest first.
func (db *DB) Messages(ctx context.Context, conversationID int64) ([]Message, error) {
	return queryAll(ctx, db, "read the messages", scanRecord[Message], `SELECT `+messageColumns+` FROM messages WHERE conversation_id = ? ORDER BY id`, conversationID)
}

// DeleteMessagesAfter removes the messages after messageID ("edit and
// resend") in one transaction and returns how many went.
func (db *DB) DeleteMessagesAfter(ctx context.Context, conversationID, messageID int64) (int64, error) {
	var n int64
	err := db.write(ctx, "remove the later messages", func(tx *sql.Tx) error {
		var err error
		if n, err = affected(tx.ExecContext(ctx, `DELETE FROM messages WHERE conversation_id = ? AND id > ?`, conversationID, messageID)); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE conversations SET updated_at = ? WHERE id = ?`, db.now().UnixMilli(), conversationID)
		return err
	})
	return n, err
}

func (m *Message) fields() []any {
	return []any{&m.ID, &m.ConversationID, &m.Role, &m.Content, &m.Status, &m.Error, creditsCol{&m.Credits},
		jsonCol{&m.FileIDs, true}, &m.ResponseID, msCol{&m.CreatedAt}, msCol{&m.UpdatedAt}}
}
