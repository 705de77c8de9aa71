package app

import (
	"context"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/storage"
)

// memoryDraftDelay is the pause in typing after which a memory's draft is
// written; App.Close writes what is still waiting at once.
const memoryDraftDelay = 600 * time.Millisecond

// memoryDrafts keeps the memory editor's unsaved text until it is on disk:
// written after a pause in typing, and at once by FlushDrafts (on quit), so
// nothing typed is lost when Agent Desk closes.
type memoryDrafts struct {
	a *App

	mu      sync.Mutex
	pending map[memoryDraftKey]string // "" clears the draft
	newCol  map[string]string         // account → collection of its new memory
	d       *storage.Debouncer
}

// memoryDraftKey names a memory of an account: a draft still waiting when
// the user switches accounts is written to the account it belongs to.
type memoryDraftKey struct{ account, id string }

func (a *App) memoryDrafts() *memoryDrafts {
	a.draftsOnce.Do(func() {
		md := &memoryDrafts{a: a, pending: map[memoryDraftKey]string{}, newCol: map[string]string{}}
		md.d = storage.NewDebouncer(memoryDraftDelay, md.write)
		a.memDrafts = md
	})
	return a.memDrafts
}

// SetMemoryDraft records the unsaved text of the active account's memory id
// ("" for a memory not created yet, then filed under collectionID); "" as
// text clears the draft. It is written after a pause in typing.
func (a *App) SetMemoryDraft(id, text, collectionID string) {
	md := a.memoryDrafts()
	acct := a.AccountID()
	md.mu.Lock()
	md.pending[memoryDraftKey{acct, id}] = text
	if id == "" {
		md.newCol[acct] = collectionID
	}
	md.mu.Unlock()
	md.d.Trigger()
}

// DropMemoryDraft forgets a draft still waiting to be written (the memory
// is being saved: a draft written after the save would bring back
// "unsaved changes"), then writes the others.
func (a *App) DropMemoryDraft(id string) {
	md := a.memoryDrafts()
	md.mu.Lock()
	delete(md.pending, memoryDraftKey{a.AccountID(), id})
	md.mu.Unlock()
	md.d.Flush()
}

// write puts every waiting draft on disk (off the UI goroutine).
func (md *memoryDrafts) write() {
	md.mu.Lock()
	pending, newCol := md.pending, md.newCol
	md.pending, md.newCol = map[memoryDraftKey]string{}, map[string]string{}
	md.mu.Unlock()
	ctx := context.Background()
	for k, text := range pending {
		if k.id == "" {
			// A memory not created yet has no entry in the index to keep
			// its draft on.
			_ = md.a.SaveNewMemoryDraft(ctx, k.account, text, newCol[k.account])
			continue
		}
		_ = md.a.SaveAccountMemoryDraft(ctx, k.account, k.id, text)
	}
}

// WriteMemoryDrafts puts the memory drafts still waiting on disk now, so
// what is read next is the latest text.
func (a *App) WriteMemoryDrafts() { a.memoryDrafts().d.Flush() }

// answerDrafts keeps the answers typed into an agent's form until they are
// in the settings, where the form reads them next time: written after a
// pause in typing, and at once by FlushDrafts.
type answerDrafts struct {
	a *App

	mu      sync.Mutex
	pending map[client.ID]map[string]string
	d       *storage.Debouncer
}

func (a *App) answerDrafts() *answerDrafts {
	a.answersOnce.Do(func() {
		ad := &answerDrafts{a: a, pending: map[client.ID]map[string]string{}}
		ad.d = storage.NewDebouncer(memoryDraftDelay, ad.write)
		a.ansDrafts = ad
	})
	return a.ansDrafts
}

// SetAnswerDraft records the answers typed so far into an agent's form, so
// they are there when the form opens again, even after Agent Desk closes.
func (a *App) SetAnswerDraft(agentID client.ID, answers map[string]string) {
	ad := a.answerDrafts()
	cp := make(map[string]string, len(answers))
	for k, v := range answers {
		cp[k] = v
	}
	ad.mu.Lock()
	ad.pending[agentID] = cp
	ad.mu.Unlock()
	ad.d.Trigger()
}

func (ad *answerDrafts) write() {
	ad.mu.Lock()
	pending := ad.pending
	ad.pending = map[client.ID]map[string]string{}
	ad.mu.Unlock()
	for id, answers := range pending {
		_ = ad.a.RememberAnswers(context.Background(), id, answers)
	}
}
