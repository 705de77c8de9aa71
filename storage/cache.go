package storage

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// DefaultCacheBytes bounds the downloads cache.
const DefaultCacheBytes = 200 << 20

// Cache keeps image previews and other downloads on disk, at most maxBytes
// of them; the least recently used files go first. Everything in it can be
// fetched again, so it lives in the cache folder.
type Cache struct {
	dir      string
	maxBytes int64

	mu      sync.Mutex
	entries map[string]*cacheEntry // by file name
	size    int64
}

type cacheEntry struct {
	name string
	size int64
	used time.Time
}

// OpenCache uses dir (created if needed), bounded to maxBytes (0 means
// DefaultCacheBytes). Files already there count towards the bound.
func OpenCache(dir string, maxBytes int64) (*Cache, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultCacheBytes
	}
	if err := ensureDir(dir); err != nil {
		return nil, err
	}
	c := &Cache{dir: dir, maxBytes: maxBytes, entries: map[string]*cacheEntry{}}
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, &Error{Op: "open the downloads cache", Path: dir, Reason: plainOSError(err), Err: err}
	}
	for _, de := range des {
		if de.IsDir() {
			continue
		}
		if strings.HasPrefix(de.Name(), ".") { // a download cut short
			os.Remove(filepath.Join(dir, de.Name()))
			continue
		}
		info, err := de.Info()
		if err != nil {
			continue
		}
		c.entries[de.Name()] = &cacheEntry{name: de.Name(), size: info.Size(), used: info.ModTime()}
		c.size += info.Size()
	}
	c.mu.Lock()
	c.evictLocked("")
	c.mu.Unlock()
	return c, nil
}

// Dir is the cache folder.
func (c *Cache) Dir() string { return c.dir }

// Size is the bytes the cache holds now.
func (c *Cache) Size() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.size
}

// fileName maps a key (usually a URL) to a file name that keeps the key's
// extension, so viewers can tell an image from a PDF.
func fileName(key string) string {
	sum := sha256.Sum256([]byte(key))
	name := hex.EncodeToString(sum[:16])
	ext := filepath.Ext(strings.SplitN(strings.SplitN(key, "?", 2)[0], "#", 2)[0])
	if len(ext) > 1 && len(ext) <= 6 && !strings.ContainsAny(ext, `/\:`) {
		name += strings.ToLower(ext)
	}
	return name
}

// Put stores what r yields under key and returns the file's path. A failed
// or cancelled download leaves nothing behind.
func (c *Cache) Put(ctx context.Context, key string, r io.Reader) (string, error) {
	name := fileName(key)
	path := filepath.Join(c.dir, name)
	f, err := os.CreateTemp(c.dir, ".download-*")
	if err != nil {
		return "", &Error{Op: "save the download", Path: c.dir, Reason: plainOSError(err), Err: err}
	}
	n, err := io.Copy(f, ctxReader{ctx, r})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return "", err
		}
		return "", &Error{Op: "save the download", Path: path, Reason: plainOSError(err), Err: err}
	}
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.entries[name]; ok {
		c.size -= old.size
	}
	c.entries[name] = &cacheEntry{name: name, size: n, used: now}
	c.size += n
	c.evictLocked(name)
	return path, nil
}

// Get returns the file stored under key and marks it recently used.
func (c *Cache) Get(key string) (string, bool) {
	name := fileName(key)
	path := filepath.Join(c.dir, name)
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[name]
	if !ok {
		return "", false
	}
	if _, err := os.Stat(path); err != nil { // removed behind our back
		c.size -= e.size
		delete(c.entries, name)
		return "", false
	}
	e.used = time.Now()
	os.Chtimes(path, e.used, e.used) // so the order survives a restart
	return path, true
}

// Remove drops the file stored under key.
func (c *Cache) Remove(key string) error {
	name := fileName(key)
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[name]; ok {
		c.size -= e.size
		delete(c.entries, name)
	}
	err := os.Remove(filepath.Join(c.dir, name))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return &Error{Op: "remove the download", Path: filepath.Join(c.dir, name), Reason: plainOSError(err), Err: err}
	}
	return nil
}

// evictLocked removes least recently used files until the cache fits,
// sparing keep (the file just stored; the caller is about to open it).
func (c *Cache) evictLocked(keep string) {
	if c.size <= c.maxBytes {
		return
	}
	list := make([]*cacheEntry, 0, len(c.entries))
	for _, e := range c.entries {
		list = append(list, e)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].used.Before(list[j].used) })
	for _, e := range list {
		if c.size <= c.maxBytes {
			return
		}
		if e.name == keep {
			continue
		}
		os.Remove(filepath.Join(c.dir, e.name))
		c.size -= e.size
		delete(c.entries, e.name)
	}
}

type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (r ctxReader) Read(p []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	return r.r.Read(p)
}
