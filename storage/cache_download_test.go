package storage

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A file put away with Create and Commit takes the extension its caller
// decided from what it is, never one from its key (an address a server
// chose), and is found by its key whatever that extension is.
func TestCacheCommitTakesTheCallersExtension(t *testing.T) {
	dir := filepath.Join(testPaths(t).Cache, "downloads")
	c, err := OpenCache(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	const key = "https://files.example/run.exe?sig=1"
	commit := func(data, ext string) string {
		t.Helper()
		p, err := c.Create()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(filepath.Base(p.Name()), ".") || filepath.Dir(p.Name()) != dir {
			t.Fatalf("a pending file is hidden in the cache folder, got %s", p.Name())
		}
		if _, err := p.Write([]byte(data)); err != nil {
			t.Fatal(err)
		}
		path, err := p.Commit(key, ext)
		if err != nil {
			t.Fatal(err)
		}
		p.Abort() // does nothing once committed
		return path
	}
	mp4 := commit("video!", ".mp4")
	if filepath.Ext(mp4) != ".mp4" || strings.Contains(filepath.Base(mp4), "run") {
		t.Fatalf("the file should be named by a hash with the given extension, got %s", mp4)
	}
	if p, ok := c.Get(key); !ok || p != mp4 {
		t.Fatalf("Get should find it: %s %v", p, ok)
	}
	// The same key again, now known to be something else: replaced.
	plain := commit("program", "")
	if filepath.Ext(plain) != "" {
		t.Fatalf("no extension was asked for, got %s", plain)
	}
	if _, err := os.Stat(mp4); !os.IsNotExist(err) {
		t.Errorf("the earlier copy should be gone: %v", err)
	}
	if p, ok := c.Get(key); !ok || p != plain || c.Size() != int64(len("program")) {
		t.Fatalf("Get should find the new copy: %s %v, size %d", p, ok, c.Size())
	}
	for _, bad := range []string{".e xe", "./../x", `.\x`, ".toolong", ".", "exe", ".a.b"} {
		if p := commit("x", bad); filepath.Dir(p) != dir || filepath.Ext(p) != "" {
			t.Errorf("extension %q should be dropped, got %s", bad, p)
		}
	}
	// What was cut short leaves nothing behind.
	p, err := c.Create()
	if err != nil {
		t.Fatal(err)
	}
	_, _ = p.Write([]byte("half"))
	p.Abort()
	if _, err := os.Stat(p.Name()); !os.IsNotExist(err) {
		t.Errorf("an aborted download should be removed: %v", err)
	}
	// A restart finds the file under its key.
	c2, err := OpenCache(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := c2.Get(key); !ok || filepath.Dir(p) != dir {
		t.Errorf("after a restart: %s %v", p, ok)
	}
	if err := c2.Remove(key); err != nil {
		t.Fatal(err)
	}
	if _, ok := c2.Get(key); ok {
		t.Error("removed, yet found")
	}
	// Put keeps only a plain extension of its key.
	path, err := c2.Put(context.Background(), "https://files.example/a.png?sig=1", strings.NewReader("png"))
	if err != nil || filepath.Ext(path) != ".png" {
		t.Errorf("Put: %s %v", path, err)
	}
	path, err = c2.Put(context.Background(), `https://files.example/a.p\g`, strings.NewReader("x"))
	if err != nil || filepath.Ext(path) != "" {
		t.Errorf("Put with an odd extension: %s %v", path, err)
	}
}

// The downloads folder is the user's only, also when an earlier version
// made it readable by others.
func TestCacheFolderIsPrivate(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("folder permissions are not Unix modes on Windows")
	}
	dir := filepath.Join(testPaths(t).Cache, "downloads")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenCache(dir, 0); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(dir)
	if err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("the downloads folder should be 0700, got %v (%v)", info.Mode().Perm(), err)
	}
	fresh := filepath.Join(t.TempDir(), "a", "b", "downloads")
	if _, err := OpenCache(fresh, 0); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(fresh); err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("a new downloads folder should be 0700, got %v (%v)", info.Mode().Perm(), err)
	}
}
