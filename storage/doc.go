// Package storage keeps what Agent Desk remembers between launches:
// settings and accounts, API keys, the history and a downloads cache, in
// the desktop's usual folders (github.com/adrg/xdg). It is the only place
// that speaks SQL; disk calls take a context; nothing logs, and no API key
// is ever put into settings, history, errors or logs.
package storage

// Records that belong to an account carry its AccountID. A streamed reply
// is AddMessage (StatusStreaming), NewReplyWriter, Append, Finish.
