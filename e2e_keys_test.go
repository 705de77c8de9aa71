package main

import (
	"context"
	"image"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
)

// TestE2EKeyboardOnly does what staff do with the keyboard alone, never
// the mouse: runs a text agent with a typed request, starts a chat, sends
// a message and stops the reply, attaches a file through the file dialog
// and sends it, and creates a collection by name and a memory in it. Every
// step is checked in what the app recorded.
func TestE2EKeyboardOnly(t *testing.T) {
	// The file dialog opens in the home folder: give the app one holding
	// notes.txt alone.
	homeWithNotes(t)
	// The built-in service's own code, paced so that a reply is still
	// arriving when Esc is pressed.
	srv, svc := demoservice.NewTestService(t, demoservice.Options{APIKey: e2eKey, Pace: 30 * time.Millisecond})
	const acct = e2eAccount
	e := startE2EOn(t, srv.URL, func(s *storage.Settings) { s.WindowWidth, s.WindowHeight = 1024, 768 })
	db := e.History()
	ctx := context.Background()
	e.WaitAgentsListed()

	// A text agent: search, pick it from the list, answer, run.
	e.Search("newsletter") // Ctrl+F
	e.Key("Tab")           // the type filter
	e.Key("Tab")           // the list
	e.Key("space")         // opens the agent
	e.WaitRunTab()
	e.Key("Tab") // Add to favourites, beside the agent's name
	e.Key("Tab") // the form's first field: the request
	e.Type("A note on the summer party")
	e.Key("Tab")    // the tone
	e.Key("Return") // opens its choices
	e.Key("Down")
	e.Key("Return")
	e.Screenshot("keys-1-form")
	e.Key("ctrl+Return")
	run := e.WaitRun("the run in the history", acct, "119")
	e.WaitStill("the run's output drawn")
	e.Screenshot("keys-2-run")
	if run.Inputs["prompt"] != "A note on the summer party" || run.Inputs["tone"] == "" {
		t.Fatalf("the run should carry the typed request and the chosen tone: %+v", run.Inputs)
	}

	// A chat: New chat, pick the agent by typing, send, stop with Esc.
	// The New chat dialog lists the chat agents, then those the search
	// finds once typing pauses.
	e.OpenNewChat()
	before := e.Shot()
	e.Type("meeting")
	e.WaitChange("the chat agents found for meeting", pickerList(e), before)
	e.Screenshot("keys-3-new-chat")
	e.Key("Return")
	e.WaitComposer()
	e.Type("How should we plan the office move?")
	e.Key("Return")
	var conv storage.Conversation
	e.WaitFor("the reply to start", func() bool {
		list, err := db.ListConversations(ctx, storage.ListParams{AccountID: acct})
		if err != nil || len(list) != 1 {
			return false
		}
		conv = list[0]
		msgs, err := db.Messages(ctx, conv.ID)
		return err == nil && len(msgs) == 2 && len(msgs[1].Content) > 20
	})
	e.Key("Escape")
	e.WaitFor("the reply to stop", func() bool {
		msgs, err := db.Messages(ctx, conv.ID)
		return err == nil && len(msgs) == 2 && msgs[1].Status == storage.StatusStopped
	})
	e.WaitComposer() // the stopped reply drawn, the message box ready again
	e.Screenshot("keys-4-stopped")
	if conv.AgentTitle != "Meeting Minutes Writer" {
		t.Fatalf("the chat is with %q, want the agent typed in the New chat search", conv.AgentTitle)
	}

	// A file: from the message box back to Add files (the + beside it), through the
	// file dialog to notes.txt, then the message sent with it.
	e.Key("shift+Tab")
	e.Key("space")     // the dialog opens listing the home folder
	e.Key("Tab")       // the dialog's places
	e.Key("Tab")       // its files: (Parent), notes.txt
	e.Key("Right")     // notes.txt
	e.Key("space")     // chosen
	e.Key("shift+Tab") // back to the places
	e.Key("shift+Tab") // round to the dialog's last button: Open
	e.Screenshot("keys-5-file-dialog")
	e.Key("space")
	// The chip shows as the upload starts: the file at the service means
	// it is there.
	e.WaitFor("the upload at the service", func() bool { return uploaded(svc, "notes.txt") })
	e.WaitStill("the file's chip drawn")
	e.Key("Tab") // from Add files, the + beside it, to the message box
	e.Type("Please turn these notes into minutes")
	e.Key("Return")
	var user storage.Message
	e.WaitFor("the message with its file", func() bool {
		var ok bool
		user, ok = userMessage(ctx, db, conv.ID, "minutes")
		return ok
	})
	e.Screenshot("keys-6-file-sent")
	if len(user.FileIDs) != 1 || user.FileIDs[0] == "" {
		t.Fatalf("the message should carry the uploaded file, got %+v", user)
	}

	// Memories: a collection by name, then a memory in it.
	e.Key("ctrl+4") // the keyboard goes to New memory
	e.WaitFor("the service's collections", func() bool {
		cols, err := db.Collections(ctx, acct)
		return err == nil && len(cols) > 0
	})
	e.WaitStill("the collections drawn")
	e.Key("Tab")   // the search
	e.Key("Tab")   // the collections
	e.Key("Tab")   // New collection…
	e.Key("space") // asks its name, the keyboard in the name
	e.Type("Key clients")
	e.Key("Return")
	var col storage.CollectionEntry
	e.WaitFor("the new collection", func() bool {
		cols, err := db.Collections(ctx, acct)
		for _, c := range cols {
			if err == nil && c.Name == "Key clients" {
				col = c
				return true
			}
		}
		return false
	})
	e.WaitStill("the new collection drawn")
	e.Key("shift+Tab") // the collections
	e.Key("shift+Tab") // the search
	e.Key("shift+Tab") // New memory
	e.Key("space")     // the keyboard in the memory's text
	e.Type("Northwind wants invoices as PDF.")
	e.Screenshot("keys-7-memory")
	e.Key("ctrl+Return")
	e.WaitFor("the new memory in the collection", func() bool {
		mems, err := db.Memories(ctx, acct, "Northwind wants")
		return err == nil && len(mems) == 1 && mems[0].CollectionID == col.ID
	})
	e.WaitStill("the saved memory drawn")
	e.Screenshot("keys-8-saved")
}

// pickerList is where the New chat dialog lists agents, under its search:
// the dialog is 560×520 at most, in the middle of the window.
func pickerList(e *E2E) image.Rectangle {
	w, h := min(e.W*9/10, 560), min(e.H*85/100, 520)
	x, y := (e.W-w)/2, (e.H-h)/2
	return image.Rect(x+20, y+96, x+w-20, y+h-66)
}
