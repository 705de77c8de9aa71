package storage

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// DefaultCacheBytes bounds the downloads cache.
const DefaultCacheBytes = 200 << 20

// Cache keeps downloads on disk up to maxBytes, least recently used going
// first, named by their keys' hashes so nothing a server chose reaches the disk.
type Cache struct {
	dir      string
	maxBytes int64

	mu      sync.Mutex
	entries map[string]*cacheEntry // by stem (the key's hash)
	size    int64
}

type cacheEntry struct {
	name string
	size int64
	used time.Time
}

// OpenCache uses dir, made owner-only, bounded to maxBytes (0: DefaultCacheBytes).
func OpenCache(dir string, maxBytes int64) (*Cache, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultCacheBytes
	}
	if err := ensureDir(dir); err != nil {
		return nil, err
	}
	if info, err := os.Stat(dir); err == nil && info.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return nil, &Error{Op: "make the downloads cache private", Path: dir, Reason: plainOSError(err), Err: err}
		}
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
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		s, _, _ := strings.Cut(de.Name(), ".")
		e := &cacheEntry{name: de.Name(), size: info.Size(), used: info.ModTime()}
		if old, ok := c.entries[s]; ok {
			// One key, two files (its extension changed): keep the newer.
			if old.used.After(e.used) {
				old, e = e, old
			}
			os.Remove(filepath.Join(dir, old.name))
			c.size -= old.size
		}
		c.entries[s] = e
		c.size += e.size
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

// stem hashes key, so nothing a server chose reaches the disk.
func stem(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:16])
}

// cleanExt is ext lower-cased if it is a dot and 1-5 letters or digits, else "".
func cleanExt(ext string) string {
	ext = strings.ToLower(ext)
	if len(ext) < 2 || len(ext) > 6 || ext[0] != '.' ||
		strings.ContainsFunc(ext[1:], func(r rune) bool { return (r < 'a' || r > 'z') && (r < '0' || r > '9') }) {
		return ""
	}
	return ext
}

// Pending is a file on its way into the cache, hidden until Commit (and
// removed by OpenCache after a crash). One goroutine at a time.
type Pending struct {
	c    *Cache
	f    *os.File
	done bool
}

// Create starts an owner-only file in the cache's folder, never the shared temp.
func (c *Cache) Create() (*Pending, error) {
	f, err := os.CreateTemp(c.dir, ".download-*")
	if err != nil {
		return nil, &Error{Op: "save the download", Path: c.dir, Reason: plainOSError(err), Err: err}
	}
	return &Pending{c: c, f: f}, nil
}

// Write adds to the file.
func (p *Pending) Write(b []byte) (int, error) { return p.f.Write(b) }

// Name is the file's path while it is pending.
func (p *Pending) Name() string { return p.f.Name() }

// Abort drops the file. It does nothing once the file was committed.
func (p *Pending) Abort() {
	if p.done {
		return
	}
	p.done = true
	p.f.Close()
	os.Remove(p.f.Name())
}

// Commit stores the file under key with ext, replacing any earlier one, and returns its path.
func (p *Pending) Commit(key, ext string) (string, error) {
	if p.done {
		return "", errors.New("this download was already put away")
	}
	p.done = true
	c := p.c
	s := stem(key)
	name := s + cleanExt(ext)
	path := filepath.Join(c.dir, name)
	err := p.f.Close()
	var info fs.FileInfo
	if err == nil {
		info, err = os.Stat(p.f.Name())
	}
	if err == nil {
		err = os.Rename(p.f.Name(), path)
	}
	if err != nil {
		os.Remove(p.f.Name())
		return "", &Error{Op: "save the download", Path: path, Reason: plainOSError(err), Err: err}
	}
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.entries[s]; ok {
		c.size -= old.size
		if old.name != name {
			os.Remove(filepath.Join(c.dir, old.name))
		}
	}
	c.entries[s] = &cacheEntry{name: name, size: info.Size(), used: now}
	c.size += info.Size()
	c.evictLocked(s)
	return path, nil
}

// Get returns the file stored under key and marks it recently used.
func (c *Cache) Get(key string) (string, bool) {
	s := stem(key)
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[s]
	if !ok {
		return "", false
	}
	path := filepath.Join(c.dir, e.name)
	if _, err := os.Stat(path); err != nil { // removed behind our back
		c.size -= e.size
		delete(c.entries, s)
		return "", false
	}
	e.used = time.Now()
	os.Chtimes(path, e.used, e.used) // so the order survives a restart
	return path, true
}

// evictLocked removes LRU files until the cache fits, sparing keep.
func (c *Cache) evictLocked(keep string) {
	if c.size <= c.maxBytes {
		return
	}
	byUse := slices.SortedFunc(maps.Keys(c.entries), func(a, b string) int { return c.entries[a].used.Compare(c.entries[b].used) })
	for _, s := range byUse {
		if c.size <= c.maxBytes {
			return
		}
		if s == keep {
			continue
		}
		os.Remove(filepath.Join(c.dir, c.entries[s].name))
		c.size -= c.entries[s].size
		delete(c.entries, s)
	}
}
