package live

import (
	"context"
	"slices"
)

// ListState is a list a screen shows as the service last gave it.
type ListState[T any] struct {
	// Items are the last finished load's, shared between snapshots: never modify.
	Items []T
	// Loading says a load is under way; Items still hold the last ones.
	Loading bool
	// Loaded says a load finished, so an empty list is really empty.
	Loaded bool
	// Err is why the last load failed; Items keep what was shown or read.
	Err error
	// Incomplete says the last load stopped at Err; more may exist.
	Incomplete bool
}

// List loads a list in the background, publishing only the newest load.
type List[T any] struct {
	*State[ListState[T]]
	run  Runner
	load func(context.Context) ([]T, error)
	job  Newest
}

// Runner runs a list's loads, which end with its life.
type Runner interface {
	Go(fn func()) bool
	Life() context.Context
}

// NewList is a list loaded by load; nothing is loaded before Reload.
func NewList[T any](run Runner, load func(context.Context) ([]T, error)) *List[T] {
	return &List[T]{State: NewState(ListState[T]{}), run: run, load: load}
}

// Reload starts a load, cancelling one still under way.
func (l *List[T]) Reload() {
	ctx, cancel, gen := l.job.Start(l.run.Life())
	l.Update(func(s ListState[T]) ListState[T] { s.Loading = true; return s })
	l.run.Go(func() {
		defer cancel()
		items, err := l.load(ctx)
		if !l.job.Current(gen) {
			return
		}
		l.Update(func(s ListState[T]) ListState[T] {
			s.Loading = false
			if ctx.Err() != nil && err != nil {
				return s // cancelled: keep what was shown
			}
			s.Err = err
			s.Incomplete = err != nil && len(items) > 0
			if err == nil || s.Incomplete {
				// pages read before a failure are kept
				s.Items, s.Loaded = items, true
			}
			return s
		})
	})
}

// Change publishes edit(items), a new slice, at once.
func (l *List[T]) Change(edit func([]T) []T) {
	l.Update(func(s ListState[T]) ListState[T] { s.Items = edit(s.Items); return s })
}

// Drop publishes the items without those gone reports, at once.
func (l *List[T]) Drop(gone func(T) bool) {
	l.Change(func(items []T) []T {
		return slices.DeleteFunc(append(make([]T, 0, len(items)), items...), gone)
	})
}

// Clear forgets the items and stops a load under way.
func (l *List[T]) Clear() {
	l.job.Stop()
	l.Set(ListState[T]{})
}
