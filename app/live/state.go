// Package live holds what screens show as it changes: State and List, each an Observable.
package live

import (
	"maps"
	"slices"
	"sync"
)

// Observable is an immutable snapshot with its version, and news of newer ones.
type Observable[T any] interface {
	// Snapshot is the value and its version; published values never change, so no lock.
	Snapshot() (T, uint64)
	// Subscribe calls changed on the publishing goroutine for each new
	// version; it must only schedule work.
	Subscribe(changed func()) (cancel func())
}

// State is an Observable whose values are replaced whole, never mutated.
type State[T any] struct {
	mu      sync.Mutex
	value   T
	version uint64
	subs    map[uint64]func()
	next    uint64
}

// NewState is a State holding v at version 1.
func NewState[T any](v T) *State[T] {
	return &State[T]{value: v, version: 1, subs: map[uint64]func(){}}
}

// Snapshot implements Observable.
func (s *State[T]) Snapshot() (T, uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.value, s.version
}

// Get is the current value.
func (s *State[T]) Get() T {
	v, _ := s.Snapshot()
	return v
}

// Set publishes v.
func (s *State[T]) Set(v T) { s.Update(func(T) T { return v }) }

// Update publishes change(current) under the lock.
func (s *State[T]) Update(change func(T) T) T {
	s.mu.Lock()
	s.value = change(s.value)
	s.version++
	v := s.value
	subs := slices.Collect(maps.Values(s.subs))
	s.mu.Unlock()
	for _, fn := range subs {
		fn()
	}
	return v
}

// Subscribe implements Observable.
func (s *State[T]) Subscribe(changed func()) (cancel func()) {
	s.mu.Lock()
	s.next++
	id := s.next
	s.subs[id] = changed
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		delete(s.subs, id)
		s.mu.Unlock()
	}
}

// Subscribers is how many subscriptions are live, so an unfollowed conversation can go.
func (s *State[T]) Subscribers() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.subs)
}
