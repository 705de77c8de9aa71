package app

import (
	"context"
	"sync"

	"github.com/agentdesk/agentdesk/app/live"
)

// MemoryIndex is the Memories screen's view of the local index: the
// collections pane and the search's memories, each loaded in the background.
type MemoryIndex struct {
	a *App
	// Shelves are the rows of the collections pane: first every memory
	// (ID "", Count of them all), then each collection with how many
	// memories it holds, by name.
	Shelves *live.List[CollectionSummary]
	// Found are the memories the search and the chosen collection find,
	// most recently seen first.
	Found *live.List[MemoryEntry]
	sync  *live.State[MemorySync]

	mu                sync.Mutex
	query, collection string
}

// MemorySync is how the last reading of the service's lists went.
type MemorySync struct {
	// Listed says the service lists memories and collections, so the index
	// mirrors them; without, they are added by number.
	Listed bool
	// Syncing says a reading is under way.
	Syncing bool
	// Err is why the last reading failed; the index shows what was kept.
	Err error
}

// NewIndex is the Memories screen's state; nothing is read before Load or Sync.
func (svc *Memories) NewIndex() *MemoryIndex {
	a := svc.a
	x := &MemoryIndex{a: a, sync: live.NewState(MemorySync{})}
	x.Shelves = live.NewList(a, x.shelves)
	x.Found = live.NewList(a, x.found)
	return x
}

// SyncState is how the last reading of the service's lists went.
func (x *MemoryIndex) SyncState() live.Observable[MemorySync] { return x.sync }

// Load reloads the index: memories matching query in collection ("" for all).
func (x *MemoryIndex) Load(query, collection string) {
	x.mu.Lock()
	x.query, x.collection = query, collection
	x.mu.Unlock()
	x.Reload()
}

// Reload reads the index again with the search last given to Load.
func (x *MemoryIndex) Reload() {
	x.Shelves.Reload()
	x.Found.Reload()
}

// Clear forgets what was read (another account became active).
func (x *MemoryIndex) Clear() {
	x.Shelves.Clear()
	x.Found.Clear()
}

// Sync reads the service's lists into the index in the background, then reloads; never doubled.
func (x *MemoryIndex) Sync() {
	started := false
	x.sync.Update(func(s MemorySync) MemorySync {
		if !s.Syncing {
			s.Syncing, started = true, true
		}
		return s
	})
	if !started {
		return
	}
	x.a.Go(func() {
		listed, err := x.a.Memories().Sync(x.a.Life())
		x.sync.Update(func(s MemorySync) MemorySync {
			// A failed reading keeps what the last one learned.
			return MemorySync{Listed: listed || (err != nil && s.Listed), Err: err}
		})
		x.Reload()
	})
}

// DeleteMemory deletes a memory on the service; it leaves the list at once.
func (x *MemoryIndex) DeleteMemory(ctx context.Context, id string) error {
	if err := x.a.Memories().Delete(ctx, id); err != nil {
		return err
	}
	x.Found.Drop(func(m MemoryEntry) bool { return m.ID == id })
	x.Reload()
	return nil
}

func (x *MemoryIndex) filter() (query, collection string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.query, x.collection
}

func (x *MemoryIndex) shelves(ctx context.Context) ([]CollectionSummary, error) {
	cols, total, err := x.a.collectionSummaries(ctx)
	if err != nil {
		return nil, err
	}
	return append([]CollectionSummary{{Count: total}}, cols...), nil
}

func (x *MemoryIndex) found(ctx context.Context) ([]MemoryEntry, error) {
	query, collection := x.filter()
	mems, err := x.a.Memories().List(ctx, query)
	if err != nil || collection == "" {
		return mems, err
	}
	kept := mems[:0]
	for _, m := range mems {
		if m.CollectionID == collection {
			kept = append(kept, m)
		}
	}
	return kept, nil
}
