package main

import (
	"context"
	"testing"

	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
)

// Window-relative positions for the files flow (1180×760 window).
const (
	chatAgentX, chatAgentY = 290, 165 // Meeting Minutes Writer, the first agent
	addFilesX, addFilesY   = 449, 645 // Add files, the + beside the message box
	notesX, notesY         = 505, 260 // notes.txt, the home folder's only file
	messageX, messageY     = 760, 630 // the message box
	railFilesX, railFilesY = 50, 100  // Files on the navigation
)

// TestE2EAttachFileToChat adds a file through the chat's Add files button and the
// system file dialog, sends a message with it, and checks that the stored
// message carries the uploaded file's id and that the Files screen lists it.
func TestE2EAttachFileToChat(t *testing.T) {
	// The file dialog opens in the home folder: give the app one holding
	// notes.txt alone.
	homeWithNotes(t)
	// The built-in service's own code, served from the test, which sees
	// the upload arrive.
	srv, svc := demoservice.NewTestService(t, demoservice.Options{APIKey: e2eKey})
	const acct = e2eAccount
	e := startE2EOn(t, srv.URL, nil)
	e.WaitAgentsListed()
	e.Click(chatAgentX, chatAgentY)
	e.WaitLit("the agent's Start chat", startChatLitX, startChatLitY)
	e.Screenshot("files-1-agent")
	e.Click(startChatX, startChatY) // Start chat
	e.WaitComposer()
	e.Screenshot("files-2-chat")
	e.Click(addFilesX, addFilesY)
	e.Click(notesX, notesY)
	e.WaitLit("notes.txt chosen in the file dialog", openLitX, openLitY)
	e.Screenshot("files-3-dialog")
	e.Click(openX, openY)
	// The chip shows as the upload starts: the file at the service
	// means it is there.
	e.WaitFor("the upload at the service", func() bool { return uploaded(svc, "notes.txt") })
	e.WaitStill("the file's chip drawn")
	e.Screenshot("files-4-chip")
	e.Click(messageX, messageY)
	e.Type("Please turn these notes into minutes")
	e.Key("Return")

	db := e.History()
	ctx := context.Background()
	var user storage.Message
	e.WaitFor("the sent message with its file in the history", func() bool {
		convs, err := db.ListConversations(ctx, storage.ListParams{AccountID: acct})
		if err != nil || len(convs) == 0 {
			return false
		}
		var ok bool
		user, ok = userMessage(ctx, db, convs[0].ID, "minutes")
		return ok
	})
	e.WaitStill("the sent message drawn")
	e.Screenshot("files-5-sent")
	if len(user.FileIDs) != 1 || user.FileIDs[0] == "" {
		t.Fatalf("the message should carry the uploaded file's id, got %+v", user)
	}

	// The Files screen lists the upload at the top (newest first).
	before := e.Shot()
	e.Click(railFilesX, railFilesY)
	e.WaitChange("the Files screen", e.screenArea(), before)
	e.Screenshot("files-6-files-screen")
}

// uploaded reports whether the service holds a file called name.
func uploaded(svc *demoservice.Service, name string) bool {
	for _, f := range svc.Files() {
		if f.Filename == name {
			return true
		}
	}
	return false
}
