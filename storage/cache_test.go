package storage

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestCacheEvictsLeastRecentlyUsed(t *testing.T) {
	ctx := context.Background()
	p := testPaths(t)
	c, err := OpenCache(p.DownloadsDir(), 1000)
	if err != nil {
		t.Fatal(err)
	}
	put := func(key string) string {
		t.Helper()
		path, err := c.Put(ctx, key, bytes.NewReader(bytes.Repeat([]byte("x"), 400)))
		if err != nil {
			t.Fatal(err)
		}
		return path
	}
	a := put("https://files.example/a.png?sig=1")
	if filepath.Ext(a) != ".png" || !strings.HasPrefix(a, p.DownloadsDir()) {
		t.Errorf("path %s", a)
	}
	time.Sleep(5 * time.Millisecond)
	put("b.jpg")
	time.Sleep(5 * time.Millisecond)
	if _, ok := c.Get("https://files.example/a.png?sig=1"); !ok { // a is now the most recent
		t.Fatal("a missing")
	}
	time.Sleep(5 * time.Millisecond)
	put("c.pdf") // 1200 bytes > 1000: b, the least recently used, goes
	if _, ok := c.Get("b.jpg"); ok {
		t.Error("b should have been evicted")
	}
	if _, ok := c.Get("https://files.example/a.png?sig=1"); !ok {
		t.Error("a was used recently and should stay")
	}
	if c.Size() != 800 {
		t.Errorf("size %d", c.Size())
	}
	// A restart sees what is on disk and keeps within the bound.
	c2, err := OpenCache(p.DownloadsDir(), 500)
	if err != nil {
		t.Fatal(err)
	}
	if c2.Size() > 500 {
		t.Errorf("reopened size %d", c2.Size())
	}
	if err := c2.Remove("c.pdf"); err != nil {
		t.Error(err)
	}
}

type failingReader struct{ n int }

func (r *failingReader) Read(p []byte) (int, error) {
	if r.n > 0 {
		r.n--
		return copy(p, "partial"), nil
	}
	return 0, errors.New("connection reset")
}

func TestCacheFailedDownloadLeavesNothing(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(testPaths(t).Cache, "downloads")
	c, _ := OpenCache(dir, 0)
	if _, err := c.Put(ctx, "x.png", &failingReader{n: 3}); err == nil {
		t.Fatal("Put should fail")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c.Put(cctx, "y.png", strings.NewReader("data")); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Put: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 || c.Size() != 0 {
		t.Errorf("left behind: %v", entries)
	}
	if _, ok := c.Get("x.png"); ok {
		t.Error("failed download is cached")
	}
	path, err := c.Put(ctx, "z.txt", io.LimitReader(strings.NewReader("hello world"), 5))
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "hello" {
		t.Errorf("content %q", b)
	}
}
