package storage

import (
	"os"
	"path/filepath"

	"github.com/adrg/xdg"
)

// AppDirName is the folder Agent Desk uses inside each base directory.
const AppDirName = "agentdesk"

// Paths are Agent Desk's own folders, one per kind of file.
type Paths struct {
	Config string // settings.json, keys.json
	Data   string // history.db
	Cache  string // downloads that can be fetched again
	State  string // state that is neither settings nor history
}

// DefaultPaths returns the desktop's folders, re-reading the environment
// first: xdg caches it at start and XDG_* may change afterwards.
func DefaultPaths() Paths {
	xdg.Reload()
	return Paths{
		Config: filepath.Join(xdg.ConfigHome, AppDirName),
		Data:   filepath.Join(xdg.DataHome, AppDirName),
		Cache:  filepath.Join(xdg.CacheHome, AppDirName),
		State:  filepath.Join(xdg.StateHome, AppDirName),
	}
}

// PathsIn puts every folder under root; for portable installs and tests.
func PathsIn(root string) Paths {
	return Paths{
		Config: filepath.Join(root, "config"),
		Data:   filepath.Join(root, "data"),
		Cache:  filepath.Join(root, "cache"),
		State:  filepath.Join(root, "state"),
	}
}

// SettingsFile is where the settings are kept.
func (p Paths) SettingsFile() string { return filepath.Join(p.Config, "settings.json") }

// KeysFile is where API keys are kept when no keyring answers.
func (p Paths) KeysFile() string { return filepath.Join(p.Config, "keys.json") }

// HistoryFile is the SQLite database of conversations, runs, memories and credits.
func (p Paths) HistoryFile() string { return filepath.Join(p.Data, "history.db") }

// DownloadsDir holds cached previews and other downloads.
func (p Paths) DownloadsDir() string { return filepath.Join(p.Cache, "downloads") }

// Ensure creates every folder, owner-only; the error names the one that failed.
func (p Paths) Ensure() error {
	for _, d := range []string{p.Config, p.Data, p.Cache, p.State} {
		if err := ensureDir(d); err != nil {
			return err
		}
	}
	return nil
}

func ensureDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return &Error{Op: "create a folder", Path: dir, Reason: plainOSError(err), Err: err}
	}
	return nil
}
