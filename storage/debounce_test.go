package storage

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

func TestDebouncerCoalesces(t *testing.T) {
	var calls atomic.Int32
	d := NewDebouncer(80*time.Millisecond, func() { calls.Add(1) })
	for i := 0; i < 20; i++ {
		d.Trigger()
		time.Sleep(5 * time.Millisecond)
	}
	if calls.Load() != 0 {
		t.Fatalf("ran while input kept coming: %d", calls.Load())
	}
	deadline := time.Now().Add(3 * time.Second)
	for calls.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(150 * time.Millisecond)
	if calls.Load() != 1 {
		t.Errorf("calls = %d, want 1", calls.Load())
	}
	d.Flush() // nothing waiting: no call
	d.Trigger()
	d.Stop() // a waiting call runs at once
	d.Trigger()
	time.Sleep(150 * time.Millisecond)
	if calls.Load() != 2 {
		t.Errorf("calls = %d, want 2", calls.Load())
	}
}

func TestDraftSaverLastWriteWins(t *testing.T) {
	ctx := context.Background()
	db := openTestDB(t, testPaths(t))
	c := newConversation(t, db, "a", "t")
	other := newConversation(t, db, "a", "u")
	s := db.NewDraftSaver(time.Hour)
	for i := 0; i <= 30; i++ {
		s.Set(c.ID, fmt.Sprint("draft ", i))
	}
	s.Set(other.ID, "elsewhere")
	if got, _ := db.GetConversation(ctx, c.ID); got.Draft != "" {
		t.Fatalf("saved before the pause: %q", got.Draft)
	}
	if err := s.Close(); err != nil { // leaving the screen writes at once
		t.Fatal(err)
	}
	if got, _ := db.GetConversation(ctx, c.ID); got.Draft != "draft 30" {
		t.Errorf("draft %q", got.Draft)
	}
	if got, _ := db.GetConversation(ctx, other.ID); got.Draft != "elsewhere" {
		t.Errorf("other draft %q", got.Draft)
	}

	s2 := db.NewDraftSaver(30 * time.Millisecond)
	defer s2.Close()
	s2.Set(c.ID, "typed, then paused")
	deadline := time.Now().Add(3 * time.Second)
	for {
		if got, _ := db.GetConversation(ctx, c.ID); got.Draft == "typed, then paused" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("draft not saved after the pause")
		}
		time.Sleep(10 * time.Millisecond)
	}
	s2.Set(999, "no such conversation")
	if err := s2.Flush(); err == nil {
		t.Error("saving a draft of a missing conversation should report it")
	}
}
