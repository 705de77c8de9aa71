package storage

import (
	"context"
	"sync"
	"time"
)

// Debouncer runs fn once input has been quiet for delay: typing a draft
// triggers it on every key, the disk sees one write per pause.
type Debouncer struct {
	delay time.Duration
	fn    func()

	mu      sync.Mutex
	timer   *time.Timer
	pending bool
	stopped bool
	running sync.Mutex // held while fn runs: it never runs twice at once
}

// NewDebouncer calls fn delay after the last Trigger.
func NewDebouncer(delay time.Duration, fn func()) *Debouncer {
	return &Debouncer{delay: delay, fn: fn}
}

// Trigger (re)starts the wait.
func (d *Debouncer) Trigger() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.stopped {
		return
	}
	d.pending = true
	if d.timer == nil {
		d.timer = time.AfterFunc(d.delay, d.fire)
		return
	}
	d.timer.Reset(d.delay)
}

func (d *Debouncer) fire() {
	d.running.Lock()
	defer d.running.Unlock()
	d.mu.Lock()
	if !d.pending {
		d.mu.Unlock()
		return
	}
	d.pending = false
	d.mu.Unlock()
	d.fn()
}

// Flush runs fn now if a call is waiting, and returns when any call in
// progress is done.
func (d *Debouncer) Flush() {
	d.mu.Lock()
	if d.timer != nil {
		d.timer.Stop()
	}
	d.mu.Unlock()
	d.fire()
}

// Stop runs a waiting call and refuses later Triggers.
func (d *Debouncer) Stop() {
	d.mu.Lock()
	d.stopped = true
	d.mu.Unlock()
	d.Flush()
}

// DefaultDraftDelay is how long typing must pause before a draft is saved.
const DefaultDraftDelay = 500 * time.Millisecond

// DraftSaver saves conversation drafts as the user types: the last text
// per conversation wins, and at most one write happens per pause.
type DraftSaver struct {
	db *DB
	d  *Debouncer

	mu      sync.Mutex
	pending map[int64]string
	err     error
}

// NewDraftSaver saves drafts delay after typing stops (0 means
// DefaultDraftDelay).
func (db *DB) NewDraftSaver(delay time.Duration) *DraftSaver {
	if delay <= 0 {
		delay = DefaultDraftDelay
	}
	s := &DraftSaver{db: db, pending: map[int64]string{}}
	s.d = NewDebouncer(delay, s.save)
	return s
}

// Set records the draft of a conversation; it is written after the pause.
func (s *DraftSaver) Set(conversationID int64, text string) {
	s.mu.Lock()
	s.pending[conversationID] = text
	s.mu.Unlock()
	s.d.Trigger()
}

func (s *DraftSaver) save() {
	s.mu.Lock()
	drafts := s.pending
	s.pending = map[int64]string{}
	s.mu.Unlock()
	var firstErr error
	for id, text := range drafts {
		if err := s.db.SaveDraft(context.Background(), id, text); err != nil && firstErr == nil {
			firstErr = err
		}
	}
	s.mu.Lock()
	s.err = firstErr
	s.mu.Unlock()
}

// Flush writes waiting drafts now (leaving a conversation, say) and
// returns the error of that write, if any.
func (s *DraftSaver) Flush() error {
	s.d.Flush()
	return s.Err()
}

// Err is the error of the last save, for the screen to show.
func (s *DraftSaver) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Close writes waiting drafts and stops the saver.
func (s *DraftSaver) Close() error {
	s.d.Stop()
	return s.Err()
}
