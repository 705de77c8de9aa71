package main

import (
	"context"
	"image"
	"testing"

	"github.com/agentdesk/agentdesk/storage"
)

// Window-relative positions for the memories flow (1180×760 window), the
// built-in service following the real one: its lists of memories and
// collections are on the screen.
const (
	railMemoriesX, railMemoriesY         = 60, 138
	newCollectionX, newCollectionY       = 240, 608
	renameCollectionX, renameCollectionY = 240, 648
	deleteCollectionX, deleteCollectionY = 240, 688
	newMemoryX, newMemoryY               = 1105, 47
	dialogFieldX, dialogFieldY           = 620, 352
	dialogConfirmX, dialogConfirmY       = 635, 441
	editorTextX, editorTextY             = 900, 300
	saveX, saveY                         = 750, 688
	deleteMemoryX, deleteMemoryY         = 1120, 688
	confirmDeleteX, confirmDeleteY       = 635, 474
)

// collectionsList is where the memories screen lists the collections,
// above its buttons.
func collectionsList() image.Rectangle { return image.Rect(130, 140, 355, 570) }

// TestE2EMemoryInACollection creates a collection by name, writes a memory
// in it, edits the memory, renames the collection, and deletes the memory
// and then the collection, each after its confirmation. The demo service
// runs inside the app's process, so what the service holds is read through
// what the app recorded: its index mirrors the service's lists.
func TestE2EMemoryInACollection(t *testing.T) {
	e := startE2E(t, nil)
	db := e.History()
	ctx := context.Background()
	acct := storage.DemoAccountID
	collection := func(name string) (storage.CollectionEntry, bool) {
		cols, err := db.Collections(ctx, acct)
		for _, c := range cols {
			if err == nil && c.Name == name {
				return c, true
			}
		}
		return storage.CollectionEntry{}, false
	}

	e.Click(railMemoriesX, railMemoriesY)
	e.WaitFor("the service's collections", func() bool { _, ok := collection("My Memories"); return ok })
	e.WaitStill("the collections drawn")
	e.Screenshot("memories-1-listed")

	listed := e.Shot()
	e.Click(newCollectionX, newCollectionY) // asks the name in a dialog
	e.Click(dialogFieldX, dialogFieldY)
	e.Type("Key clients")
	e.Screenshot("memories-2-new-collection")
	e.Click(dialogConfirmX, dialogConfirmY)
	var col storage.CollectionEntry
	e.WaitFor("the new collection", func() bool { var ok bool; col, ok = collection("Key clients"); return ok })
	e.WaitChange("the new collection listed", collectionsList(), listed)

	// The new collection is selected: a new memory goes in it.
	e.Click(newMemoryX, newMemoryY)
	e.Click(editorTextX, editorTextY)
	e.Type("Northwind wants invoices as PDF.")
	e.Screenshot("memories-3-new")
	e.Click(saveX, saveY)
	var id string
	e.WaitFor("the new memory in the collection", func() bool {
		mems, err := db.Memories(ctx, acct, "Northwind wants")
		if err != nil || len(mems) != 1 || mems[0].CollectionID != col.ID {
			return false
		}
		id = mems[0].ID
		return true
	})
	e.WaitStill("the saved memory drawn")
	e.Screenshot("memories-4-saved")

	e.Click(editorTextX, editorTextY)
	e.Key("ctrl+End")
	e.Type(" Due in 30 days.")
	e.Click(saveX, saveY)
	e.WaitFor("the edit confirmed by the service", func() bool {
		m, err := db.GetMemory(ctx, acct, id)
		return err == nil && m.Content == "Northwind wants invoices as PDF. Due in 30 days." && m.Draft == ""
	})
	e.WaitStill("the edit drawn")

	e.Click(deleteMemoryX, deleteMemoryY) // asks first
	e.Screenshot("memories-5-delete-memory")
	e.Click(confirmDeleteX, confirmDeleteY)
	e.WaitFor("the memory deleted", func() bool {
		mems, err := db.Memories(ctx, acct, "Northwind wants")
		return err == nil && len(mems) == 0
	})
	e.WaitStill("the memory gone from the screen")

	e.Click(deleteCollectionX, deleteCollectionY) // asks first, naming it
	e.Screenshot("memories-6-delete-collection")
	e.Click(dialogConfirmX, dialogConfirmY)
	e.WaitFor("the collection deleted", func() bool { _, ok := collection("Key clients"); return !ok })
	e.WaitStill("the collection gone from the screen")
	e.Screenshot("memories-7-done")
}
