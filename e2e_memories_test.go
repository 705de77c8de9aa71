package main

import (
	"context"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/storage"
)

// Window-relative positions for the memories flow (1180×760 window).
const (
	railMemoriesX, railMemoriesY           = 60, 138
	addCollectionX, addCollectionY         = 200, 688
	renameCollectionX, renameCollectionY   = 200, 648
	firstCollectionX, firstCollectionY     = 220, 234
	newMemoryX, newMemoryY                 = 944, 57
	dialogFirstFieldX, dialogFirstFieldY   = 624, 379
	dialogSecondFieldX, dialogSecondFieldY = 624, 418
	dialogConfirmX, dialogConfirmY         = 634, 491
	editorTextX, editorTextY               = 900, 300
	saveX, saveY                           = 760, 688
	renameFieldX, renameFieldY             = 636, 352
	renameConfirmX, renameConfirmY         = 640, 441
)

// TestE2EMemoryInACollection adds collection 2 by its number, writes a
// memory in it, edits the memory and renames the collection. The demo
// service runs inside the app's process, so what the service holds is read
// through what the app recorded: its memory index and collection names.
func TestE2EMemoryInACollection(t *testing.T) {
	e := startE2E(t, nil)
	db := e.History()
	ctx := context.Background()
	acct := storage.DemoAccountID

	e.Click(railMemoriesX, railMemoriesY)
	time.Sleep(time.Second)
	e.Screenshot("memories-1-empty")

	e.Click(addCollectionX, addCollectionY)
	time.Sleep(time.Second)
	e.Click(dialogFirstFieldX, dialogFirstFieldY)
	e.Type("2")
	e.Click(dialogSecondFieldX, dialogSecondFieldY)
	e.Type("Key clients")
	e.Screenshot("memories-2-add-collection")
	e.Click(dialogConfirmX, dialogConfirmY)
	e.WaitFor("collection 2 in the index", func() bool {
		cols, err := db.Collections(ctx, acct)
		return err == nil && len(cols) == 1 && cols[0].ID == "2" && cols[0].Name == "Key clients"
	})
	time.Sleep(500 * time.Millisecond)

	// Choosing the collection first files the new memory in it.
	e.Click(firstCollectionX, firstCollectionY)
	time.Sleep(500 * time.Millisecond)
	e.Click(newMemoryX, newMemoryY)
	time.Sleep(500 * time.Millisecond)
	e.Click(editorTextX, editorTextY)
	e.Type("Northwind wants invoices as PDF.")
	e.Screenshot("memories-3-new")
	e.Click(saveX, saveY)
	var id string
	e.WaitFor("the new memory in collection 2", func() bool {
		mems, err := db.Memories(ctx, acct, "")
		if err != nil || len(mems) != 1 || mems[0].CollectionID != "2" {
			return false
		}
		id = mems[0].ID
		return true
	})
	time.Sleep(500 * time.Millisecond)
	e.Screenshot("memories-4-saved")

	e.Click(editorTextX, editorTextY)
	e.Key("ctrl+End")
	e.Type(" Due in 30 days.")
	e.Click(saveX, saveY)
	e.WaitFor("the edit confirmed by the service", func() bool {
		m, err := db.GetMemory(ctx, acct, id)
		return err == nil && m.Content == "Northwind wants invoices as PDF. Due in 30 days." && m.Draft == ""
	})

	e.Click(renameCollectionX, renameCollectionY)
	time.Sleep(time.Second)
	e.Click(renameFieldX, renameFieldY)
	e.Key("ctrl+a")
	e.Type("Top clients")
	e.Screenshot("memories-5-rename")
	e.Click(renameConfirmX, renameConfirmY)
	e.WaitFor("the new collection name on the collection and its memory", func() bool {
		cols, err := db.Collections(ctx, acct)
		m, merr := db.GetMemory(ctx, acct, id)
		return err == nil && merr == nil && len(cols) == 1 && cols[0].Name == "Top clients" && m.CollectionName == "Top clients"
	})
	time.Sleep(500 * time.Millisecond)
	e.Screenshot("memories-6-done")
}
