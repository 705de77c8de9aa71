package storage

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"
)

// maxSnapshotBytes: a grown file is never read into memory whole.
const maxSnapshotBytes = 8 << 20

// SnapshotsDir keeps service lists to show offline; refetchable, so in the cache.
func (p Paths) SnapshotsDir() string { return filepath.Join(p.Cache, "snapshots") }

// snapshotFile hashes key so nothing the user typed reaches a file name.
func (p Paths) snapshotFile(key string) string {
	return filepath.Join(p.SnapshotsDir(), stem(key)+".json")
}

type snapshot struct {
	Saved time.Time       `json:"saved"`
	Data  json.RawMessage `json:"data"`
}

// SaveSnapshot keeps v as JSON under key, owner-only, written whole or not at
// all, without syncing (a lost one is refetched).
func (p Paths) SaveSnapshot(key string, v any, saved time.Time) error {
	data, err := json.Marshal(v)
	if err == nil {
		data, err = json.Marshal(snapshot{Saved: saved.UTC(), Data: data})
	}
	if err != nil {
		return err
	}
	path := p.snapshotFile(key)
	if err := replaceFile(path, data, 0o600, false); err != nil {
		return &Error{Op: "keep a list for offline use", Path: path, Reason: plainOSError(err), Err: err}
	}
	return nil
}

// LoadSnapshot reads key's snapshot into v; ok is false when none is readable.
func (p Paths) LoadSnapshot(key string, v any) (saved time.Time, ok bool) {
	f, err := os.Open(p.snapshotFile(key))
	if err != nil {
		return time.Time{}, false
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() || info.Size() > maxSnapshotBytes {
		return time.Time{}, false
	}
	var s snapshot
	if err := json.NewDecoder(f).Decode(&s); err != nil || s.Saved.IsZero() {
		return time.Time{}, false
	}
	if err := json.Unmarshal(s.Data, v); err != nil {
		return time.Time{}, false
	}
	return s.Saved, true
}
