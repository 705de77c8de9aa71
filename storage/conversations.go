package storage

import (
	"context"
	"database/sql"
	"time"
)

// Conversation is one chat with an agent.
type Conversation struct {
	ID         int64
	AccountID  string
	AgentID    string
	AgentTitle string
	Title      string
	// RootID is the service's session id, sent to continue the conversation.
	RootID             string
	Answers            map[string]string
	DeveloperMessage   string
	Draft              string
	UseChatCompletions bool
	CreatedAt          time.Time
	UpdatedAt          time.Time
}

// ListParams pages through a list, newest first.
type ListParams struct {
	AccountID string
	AgentID   string // optional: only this agent's
	Limit     int    // 0 means 50
	Offset    int
}

const conversationColumns = `id, account_id, agent_id, agent_title, title, root_id, answers,
	developer_message, draft, use_chat_completions, created_at, updated_at`

// CreateConversation stores c and returns it with its ID and times.
func (db *DB) CreateConversation(ctx context.Context, c Conversation) (Conversation, error) {
	c.CreatedAt = db.nowOr(c.CreatedAt)
	if c.UpdatedAt.IsZero() {
		c.UpdatedAt = c.CreatedAt
	}
	err := db.write(ctx, "save the new conversation", func(tx *sql.Tx) error {
		return insert(ctx, tx, "conversations", conversationColumns, c.fields())
	})
	if err != nil {
		return Conversation{}, err
	}
	return c, nil
}

// UpdateConversation saves c except ID, account, creation time and draft.
func (db *DB) UpdateConversation(ctx context.Context, c Conversation) error {
	return db.update(ctx, "save the conversation", `UPDATE conversations SET agent_id = ?, agent_title = ?, title = ?,
		root_id = ?, answers = ?, developer_message = ?, use_chat_completions = ?, updated_at = ?
		WHERE id = ?`,
		c.AgentID, c.AgentTitle, c.Title, c.RootID, jsonCol{&c.Answers, false}, c.DeveloperMessage,
		c.UseChatCompletions, db.now().UnixMilli(), c.ID)
}

// RenameConversation changes the title.
func (db *DB) RenameConversation(ctx context.Context, id int64, title string) error {
	return db.update(ctx, "rename the conversation", `UPDATE conversations SET title = ?, updated_at = ? WHERE id = ?`,
		title, db.now().UnixMilli(), id)
}

// SaveDraft keeps unsent text without moving the conversation up the list.
func (db *DB) SaveDraft(ctx context.Context, id int64, text string) error {
	return db.update(ctx, "save the draft", `UPDATE conversations SET draft = ? WHERE id = ?`, text, id)
}

// DeleteConversation hides a conversation and its messages at once.
func (db *DB) DeleteConversation(ctx context.Context, id int64) error {
	return db.update(ctx, "delete the conversation", `UPDATE conversations SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL`,
		db.now().UnixMilli(), id)
}

// RestoreConversation undoes DeleteConversation.
func (db *DB) RestoreConversation(ctx context.Context, id int64) error {
	return db.update(ctx, "restore the conversation", `UPDATE conversations SET deleted_at = NULL WHERE id = ? AND deleted_at IS NOT NULL`, id)
}

// PurgeDeleted removes conversations deleted before t, returning how many.
func (db *DB) PurgeDeleted(ctx context.Context, before time.Time) (int64, error) {
	var n int64
	err := db.write(ctx, "remove deleted conversations", func(tx *sql.Tx) error {
		var err error
		n, err = affected(tx.ExecContext(ctx, `DELETE FROM conversations WHERE deleted_at IS NOT NULL AND deleted_at < ?`, before.UnixMilli()))
		return err
	})
	return n, err
}

// GetConversation returns one conversation that is not deleted.
func (db *DB) GetConversation(ctx context.Context, id int64) (Conversation, error) {
	return queryOne(ctx, db, "read the conversation", scanRecord[Conversation], `SELECT `+conversationColumns+` FROM conversations WHERE id = ? AND deleted_at IS NULL`, id)
}

// ListConversations returns an account's conversations, latest updated first.
func (db *DB) ListConversations(ctx context.Context, p ListParams) ([]Conversation, error) {
	p.Limit = listLimit(p.Limit)
	q := `SELECT ` + conversationColumns + ` FROM conversations WHERE account_id = ? AND deleted_at IS NULL`
	args := []any{p.AccountID}
	if p.AgentID != "" {
		q += ` AND agent_id = ?`
		args = append(args, p.AgentID)
	}
	q += ` ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?`
	args = append(args, p.Limit, p.Offset)
	return queryAll(ctx, db, "read the conversations", scanRecord[Conversation], q, args...)
}

func (c *Conversation) fields() []any {
	return []any{&c.ID, &c.AccountID, &c.AgentID, &c.AgentTitle, &c.Title, &c.RootID, jsonCol{&c.Answers, false},
		&c.DeveloperMessage, &c.Draft, &c.UseChatCompletions, msCol{&c.CreatedAt}, msCol{&c.UpdatedAt}}
}
