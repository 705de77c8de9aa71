// Package storage keeps everything Agent Desk remembers between launches:
// settings and accounts, API keys, the history of conversations, runs,
// memories and credits, and a cache of downloaded previews.
//
// Files live where each desktop expects them (XDG on Linux, the matching
// folders on macOS and Windows, via github.com/adrg/xdg):
//
//	config  settings.json, keys.json (only when no keyring answers)
//	data    history.db (SQLite, WAL)
//	cache   downloads/ (bounded, least recently used files go first)
//	state   reserved for window and session state
//
// The package is the only place that speaks SQL. Every call that touches
// the disk takes a context. Nothing here logs, and no API key is ever put
// into settings, history, errors or logs.
package storage

// How the app uses it, in start-up order:
//
//	p := storage.DefaultPaths()
//	settings := storage.NewSettingsStore(p)
//	st, notice, _ := settings.Load(ctx)        // show notice once if not empty
//	secrets := storage.NewSecrets(p)           // Get/Set off the UI goroutine
//	db, dbNotice := storage.OpenOrFallback(ctx, p)
//	cache, _ := storage.OpenCache(p.DownloadsDir(), 0)
//
// A streamed reply: AddMessage with StatusStreaming, then NewReplyWriter,
// Append each fragment, Finish with the final status. Drafts: one
// DraftSaver per chat screen, Set on every keystroke, Close on leaving.
// Records that belong to an account (conversations, runs, memories,
// credits) carry its AccountID; lists and searches take it.
