package app

import (
	"context"
	"errors"
	"maps"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/clock"
	"github.com/agentdesk/agentdesk/storage"
)

const draftDelay = 600 * time.Millisecond

// drafts keeps unsaved input by key, written after a pause in typing and by Flush on quit.
type drafts[K comparable, V any] struct {
	mu      sync.Mutex
	pending map[K]V
	write   func(K, V) error
	d       *live.Debouncer
	err     error // of the last write
}

func newDrafts[K comparable, V any](c clock.Clock, write func(K, V) error) *drafts[K, V] {
	ds := &drafts[K, V]{pending: map[K]V{}, write: write}
	ds.d = live.NewDebouncer(c, draftDelay, ds.writeAll)
	return ds
}

// set records the latest value of key; it is written after the pause.
func (ds *drafts[K, V]) set(key K, v V) {
	ds.mu.Lock()
	ds.pending[key] = v
	ds.mu.Unlock()
	ds.d.Trigger()
}

func (ds *drafts[K, V]) drop(key K) {
	ds.mu.Lock()
	delete(ds.pending, key)
	ds.mu.Unlock()
}

// Flush writes what is waiting, returning the last write's error.
func (ds *drafts[K, V]) Flush() error {
	ds.d.Flush()
	ds.mu.Lock()
	defer ds.mu.Unlock()
	return ds.err
}

func (ds *drafts[K, V]) writeAll() {
	ds.mu.Lock()
	pending := ds.pending
	ds.pending = map[K]V{}
	ds.mu.Unlock()
	var first error
	for k, v := range pending {
		if err := ds.write(k, v); err != nil && first == nil {
			first = err
		}
	}
	ds.mu.Lock()
	ds.err = first
	ds.mu.Unlock()
}

// memoryDraftKey names an account's memory ("" for a new one).
type memoryDraftKey struct{ account, id string }

// memoryDraft is a memory's unsaved text ("" clears) and a new memory's collection.
type memoryDraft struct{ text, collectionID string }

type appDrafts struct {
	memories *drafts[memoryDraftKey, memoryDraft]
	answers  *drafts[client.ID, map[string]string]
	chats    *drafts[int64, string]
	// window is the window's last size, saved after resizing stops and on quit.
	window *drafts[struct{}, [2]float32]
}

func newAppDrafts(a *App) *appDrafts {
	ctx := context.Background()
	return &appDrafts{
		memories: newDrafts(a.cfg.Clock, func(k memoryDraftKey, d memoryDraft) error {
			if k.id == "" {
				// A new memory has no index entry to keep its draft on.
				return a.Memories().SaveNewDraft(ctx, k.account, d.text, d.collectionID)
			}
			return a.db.SaveMemoryDraft(ctx, k.account, k.id, d.text)
		}),
		answers: newDrafts(a.cfg.Clock, func(id client.ID, answers map[string]string) error {
			return a.Agents().RememberAnswers(ctx, id, answers)
		}),
		chats: newDrafts(a.cfg.Clock, func(id int64, text string) error {
			return a.db.SaveDraft(ctx, id, text)
		}),
		window: newDrafts(a.cfg.Clock, func(_ struct{}, size [2]float32) error {
			return a.UpdateSettings(ctx, func(s *storage.Settings) { s.WindowWidth, s.WindowHeight = size[0], size[1] })
		}),
	}
}

// SetDraft records the unsaved text of memory id ("" for a new one); empty text clears it.
func (svc *Memories) SetDraft(id, text, collectionID string) {
	svc.a.drafts.memories.set(memoryDraftKey{svc.a.AccountID(), id}, memoryDraft{text, collectionID})
}

// DropDraft forgets a waiting draft of a memory being saved, then writes the others.
func (svc *Memories) DropDraft(id string) {
	md := svc.a.drafts.memories
	md.drop(memoryDraftKey{svc.a.AccountID(), id})
	md.Flush()
}

// WriteDrafts writes waiting memory drafts now, so the next read is current.
func (svc *Memories) WriteDrafts() { svc.a.drafts.memories.Flush() }

// SetAnswerDraft records an agent form's typed answers, kept across restarts.
func (svc *Agents) SetAnswerDraft(agentID client.ID, answers map[string]string) {
	svc.a.drafts.answers.set(agentID, maps.Clone(answers))
}

// SetWindowSize records the window's size, saved after resizing stops and on quit.
func (a *App) SetWindowSize(width, height float32) {
	a.drafts.window.set(struct{}{}, [2]float32{width, height})
}

// FlushDrafts writes every waiting draft, returning the first failed write.
func (a *App) FlushDrafts() error {
	d := a.drafts
	return errors.Join(d.memories.Flush(), d.answers.Flush(), d.chats.Flush(), d.window.Flush())
}
