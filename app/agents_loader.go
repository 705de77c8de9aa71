package app

import (
	"context"
	"time"

	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
)

// Loaded is one value a screen shows once read in the background.
type Loaded[T any] struct {
	Value T
	// Loading says a read is under way; Value still holds the last one.
	Loading bool
	// Loaded says a read has finished well at least once.
	Loaded bool
	// Err is why the last read failed (nil when it did not).
	Err error
}

// Loader reads one value in the background and publishes it as Loaded. It
// is a List of one, so it behaves as a list does: the newest read wins, and
// its goroutines are the app's (Close cancels and waits for them).
type Loader[T any] struct{ list *live.List[T] }

// NewLoader is a value read by load; nothing is read before Reload.
func NewLoader[T any](a *App, load func(context.Context) (T, error)) *Loader[T] {
	return &Loader[T]{list: live.NewList(a, func(ctx context.Context) ([]T, error) {
		v, err := load(ctx)
		if err != nil {
			return nil, err
		}
		return []T{v}, nil
	})}
}

// Reload reads the value again, cancelling a read still under way.
func (l *Loader[T]) Reload() { l.list.Reload() }

// Snapshot implements Observable.
func (l *Loader[T]) Snapshot() (Loaded[T], uint64) {
	s, ver := l.list.Snapshot()
	out := Loaded[T]{Loading: s.Loading, Loaded: s.Loaded, Err: s.Err}
	if len(s.Items) > 0 {
		out.Value = s.Items[0]
	}
	return out, ver
}

// Subscribe implements Observable.
func (l *Loader[T]) Subscribe(changed func()) (cancel func()) { return l.list.Subscribe(changed) }

// openAgentLimit is how long opening an agent may take before a retry is offered.
const openAgentLimit = 30 * time.Second

// Open reads an agent in full, starting at once; Reload tries again.
func (svc *Agents) Open(id client.ID) *Loader[client.Agent] {
	l := NewLoader(svc.a, func(ctx context.Context) (client.Agent, error) {
		ctx, cancel := context.WithTimeout(ctx, openAgentLimit)
		defer cancel()
		ag, err := svc.a.Agents().Get(ctx, id)
		if err != nil {
			return client.Agent{}, err
		}
		return *ag, nil
	})
	l.Reload()
	return l
}
