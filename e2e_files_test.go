package main

import (
	"context"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/storage"
)

// Window-relative positions for the files flow (1180×760 window).
const (
	chatAgentX, chatAgentY = 290, 165 // Meeting Minutes Writer, the first agent
)

// TestE2EAttachFileToChat adds a file through the chat's "Add files…" and the
// system file dialog, sends a message with it, and checks that the stored
// message carries the uploaded file's id and that the Files screen lists it.
func TestE2EAttachFileToChat(t *testing.T) {
	// The file dialog opens in the home folder: give the app one holding
	// notes.txt alone.
	homeWithNotes(t)

	e := startE2E(t, nil)
	e.Click(chatAgentX, chatAgentY)
	time.Sleep(time.Second)
	e.Screenshot("files-1-agent")
	e.Click(startChatX, startChatY) // Start chat
	time.Sleep(1500 * time.Millisecond)
	e.Screenshot("files-2-chat")
	e.Click(488, 577) // Add files…
	time.Sleep(time.Second)
	e.Screenshot("files-3-dialog")
	e.Click(505, 260)           // notes.txt
	e.Click(934, 618)           // Open
	time.Sleep(2 * time.Second) // the upload and its chip
	e.Screenshot("files-4-chip")
	e.Click(760, 630) // the message field
	e.Type("Please turn these notes into minutes")
	e.Key("Return")

	db := e.History()
	ctx := context.Background()
	var user storage.Message
	e.WaitFor("the sent message with its file in the history", func() bool {
		convs, err := db.ListConversations(ctx, storage.ListParams{AccountID: storage.DemoAccountID})
		if err != nil || len(convs) == 0 {
			return false
		}
		var ok bool
		user, ok = userMessage(ctx, db, convs[0].ID, "minutes")
		return ok
	})
	time.Sleep(time.Second)
	e.Screenshot("files-5-sent")
	if len(user.FileIDs) != 1 || user.FileIDs[0] == "" {
		t.Fatalf("the message should carry the uploaded file's id, got %+v", user)
	}

	// The Files screen lists the upload at the top (newest first).
	e.Click(50, 100)
	time.Sleep(1500 * time.Millisecond)
	e.Screenshot("files-6-files-screen")
}
