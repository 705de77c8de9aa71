package kit_test

import (
	"testing"

	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/views/kit"
)

// A burst of changes while the UI is busy reaches the screen as one update
// with the newest value; nothing after stop.
func TestBindFoldsChangesIntoOneUpdate(t *testing.T) {
	q := kit.UseQueue(t)
	s := live.NewState("first")
	var shown []string
	stop := kit.Bind(s, func(v string) { shown = append(shown, v) })
	if len(shown) != 1 || shown[0] != "first" {
		t.Fatalf("Bind showed %q at once, want [first]", shown)
	}
	for _, v := range []string{"a", "b", "c", "newest"} {
		s.Set(v)
	}
	if ran := q.Drain(); ran != 1 {
		t.Fatalf("%d UI updates queued for 4 changes, want 1", ran)
	}
	if len(shown) != 2 || shown[1] != "newest" {
		t.Fatalf("shown %q, want [first newest]", shown)
	}
	// The next change comes at the next frame at the latest.
	s.Set("next")
	q.WaitUntil(t, func() bool { return shown[len(shown)-1] == "next" }, func() string { return shown[len(shown)-1] })
	s.Set("again")
	stop()
	q.Drain()
	s.Set("after stop")
	q.Drain()
	if len(shown) != 3 {
		t.Fatalf("shown %q after stop, want nothing more", shown)
	}
}
