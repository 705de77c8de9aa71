package app_test

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
)

// openClosable is an App the test closes itself, to wait for every load.
func openClosable(t *testing.T) *app.App {
	t.Helper()
	a, err := app.Open(context.Background(), app.Config{Paths: storage.PathsIn(t.TempDir()), StartDemo: apptest.DemoStarter(demoservice.Options{}), Keyring: apptest.NewKeyring()})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// now is what o shows at this moment.
func now[T any](o live.Observable[T]) T {
	v, _ := o.Snapshot()
	return v
}

// eventually polls until cond holds.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// waitFor polls the list until cond holds, and returns what it shows then.
func waitFor[T any](t *testing.T, l *live.List[T], what string, cond func(live.ListState[T]) bool) (live.ListState[T], uint64) {
	t.Helper()
	var st live.ListState[T]
	var ver uint64
	eventually(t, what, func() bool {
		st, ver = l.Snapshot()
		return cond(st)
	})
	return st, ver
}

// Two quick reloads: the first load answers last, with a result, yet the
// list keeps what the second one read.
func TestListKeepsTheNewestOfTwoQuickReloads(t *testing.T) {
	a := openClosable(t)
	entered, release := make(chan struct{}), make(chan struct{})
	var calls atomic.Int32
	l := live.NewList(a, func(context.Context) ([]string, error) {
		if calls.Add(1) == 1 {
			close(entered)
			<-release // a read that does not stop when cancelled
			return []string{"older"}, nil
		}
		return []string{"newer"}, nil
	})
	l.Reload()
	<-entered
	l.Reload()
	_, ver := waitFor(t, l, "the newer load", func(st live.ListState[string]) bool { return st.Loaded && !st.Loading })
	close(release)
	if err := a.Close(); err != nil { // waits for the older load to end
		t.Fatal(err)
	}
	st, after := l.Snapshot()
	if !slices.Equal(st.Items, []string{"newer"}) || st.Loading || after != ver {
		t.Fatalf("after the older load ended: %+v at version %d (newer shown at %d)", st, after, ver)
	}
}

// Clear forgets the items, and a load under way when it came never brings
// them back (another account's list).
func TestListClearDropsALoadUnderWay(t *testing.T) {
	a := openClosable(t)
	release := make(chan struct{})
	l := live.NewList(a, func(context.Context) ([]string, error) {
		<-release
		return []string{"old account"}, nil
	})
	l.Reload()
	l.Clear()
	close(release)
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if st := l.Get(); st.Loaded || st.Loading || len(st.Items) != 0 {
		t.Fatalf("after Clear: %+v", st)
	}
}
