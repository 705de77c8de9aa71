package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// fakeXdgMime puts an xdg-mime on PATH that answers with answer.
func fakeXdgMime(t *testing.T, answer string) {
	dir := t.TempDir()
	script := "#!/bin/sh\necho '" + answer + "'\n"
	if err := os.WriteFile(filepath.Join(dir, "xdg-mime"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
}

func TestHasPlayerAsksTheDesktop(t *testing.T) {
	fakeXdgMime(t, "vlc.desktop")
	if !HasPlayer(context.Background(), ".mp4") {
		t.Fatal("a desktop with a video player set should have one")
	}
	fakeXdgMime(t, "")
	if HasPlayer(context.Background(), ".MP4") {
		t.Fatal("a desktop without a video player set should have none")
	}
	if !HasPlayer(context.Background(), ".xyz") {
		t.Fatal("a kind Agent Desk cannot ask about counts as openable")
	}
	t.Setenv("PATH", t.TempDir())
	if !HasPlayer(context.Background(), ".mp4") {
		t.Fatal("without xdg-mime Agent Desk cannot tell, and lets the computer try")
	}
}
