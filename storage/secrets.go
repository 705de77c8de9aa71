package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/zalando/go-keyring"
)

// EnvAPIKey holds the key of the account whose key_store is "env".
const EnvAPIKey = "AGENTDESK_API_KEY"

// Where an API key lives.
const (
	KeyInKeyring = "keyring"
	KeyInFile    = "file"
	KeyInEnv     = "env"
)

const keyringService = "agentdesk"

// DefaultKeyringTimeout bounds every keyring call, which may hang.
const DefaultKeyringTimeout = 3 * time.Second

// ErrNoKey means no API key is stored for the account.
var ErrNoKey = errors.New("no API key is stored for this account")

// KeyLocation says where an API key lives, for the settings screen.
type KeyLocation struct {
	Kind string // KeyInKeyring, KeyInFile or KeyInEnv; "" when there is no key
	File string // the keys file, when Kind is KeyInFile
}

// Keyring is the part of github.com/zalando/go-keyring Secrets uses.
type Keyring interface {
	Set(service, user, password string) error
	Get(service, user string) (string, error)
	Delete(service, user string) error
}

// SystemKeyring is the computer's own password store.
type SystemKeyring struct{}

func (SystemKeyring) Set(s, u, p string) error        { return keyring.Set(s, u, p) }
func (SystemKeyring) Get(s, u string) (string, error) { return keyring.Get(s, u) }
func (SystemKeyring) Delete(s, u string) error        { return keyring.Delete(s, u) }

// Secrets keeps API keys in a keyring, else a 0600 file; calls may block up
// to the timeout.
type Secrets struct {
	ring    Keyring
	timeout time.Duration
	file    string
	mu      sync.Mutex  // guards the keys file
	down    atomic.Bool // the keyring timed out once; do not wait on it again this session
}

// NewSecrets keeps keys in ring (nil: none), falling back to p.KeysFile().
func NewSecrets(p Paths, ring Keyring) *Secrets {
	return &Secrets{ring: ring, timeout: DefaultKeyringTimeout, file: p.KeysFile()}
}

// KeyOf is acct's API key: from EnvAPIKey when the account says so, else Get's.
func (s *Secrets) KeyOf(ctx context.Context, acct Account) (string, KeyLocation, error) {
	if acct.KeyStore == KeyInEnv && acct.ID != DemoAccountID {
		if k := os.Getenv(EnvAPIKey); k != "" {
			return k, KeyLocation{Kind: KeyInEnv}, nil
		}
		return "", KeyLocation{}, ErrNoKey
	}
	return s.Get(ctx, acct.ID)
}

// Get returns the account's API key and where it came from, or ErrNoKey.
func (s *Secrets) Get(ctx context.Context, accountID string) (string, KeyLocation, error) {
	var key string
	err := s.callKeyring(ctx, func(r Keyring) (err error) {
		key, err = r.Get(keyringService, accountID)
		return err
	})
	if err == nil && key != "" {
		return key, KeyLocation{Kind: KeyInKeyring}, nil
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return "", KeyLocation{}, ctxErr
	}
	s.mu.Lock()
	keys, ferr := s.readFile()
	s.mu.Unlock()
	if ferr != nil {
		return "", KeyLocation{}, ferr
	}
	if k, ok := keys[accountID]; ok && k != "" {
		return k, KeyLocation{Kind: KeyInFile, File: s.file}, nil
	}
	return "", KeyLocation{}, ErrNoKey
}

// Set stores the key in the keyring (leaving the file), else in the keys file.
func (s *Secrets) Set(ctx context.Context, accountID, key string) (KeyLocation, error) {
	if key == "" {
		return KeyLocation{}, s.Delete(ctx, accountID)
	}
	err := s.callKeyring(ctx, func(r Keyring) error { return r.Set(keyringService, accountID, key) })
	if err == nil {
		return KeyLocation{Kind: KeyInKeyring}, s.updateFile(accountID, "")
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return KeyLocation{}, ctxErr
	}
	if ferr := s.updateFile(accountID, key); ferr != nil {
		return KeyLocation{}, ferr
	}
	return KeyLocation{Kind: KeyInFile, File: s.file}, nil
}

// Delete removes the account's key from keyring and file; a missing one is fine.
func (s *Secrets) Delete(ctx context.Context, accountID string) error {
	// A keyring without the entry, or no keyring at all, is fine here.
	_ = s.callKeyring(ctx, func(r Keyring) error { return r.Delete(keyringService, accountID) })
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.updateFile(accountID, "")
}

var errNoKeyring = errors.New("no keyring answered")

// callKeyring waits at most the timeout: keyrings can block for long.
func (s *Secrets) callKeyring(ctx context.Context, f func(Keyring) error) error {
	if s.ring == nil || s.down.Load() {
		return errNoKeyring
	}
	done := make(chan error, 1)
	go func() { done <- f(s.ring) }()
	t := time.NewTimer(s.timeout)
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-t.C:
		s.down.Store(true)
		return errNoKeyring
	case <-ctx.Done():
		return ctx.Err()
	}
}

// readFile reads the keys file; s.mu is held.
func (s *Secrets) readFile() (map[string]string, error) {
	keys := map[string]string{}
	data, err := os.ReadFile(s.file)
	if errors.Is(err, fs.ErrNotExist) {
		return keys, nil
	}
	if err != nil {
		return nil, &Error{Op: "read the API keys file", Path: s.file, Reason: plainOSError(err), Err: err}
	}
	if err := json.Unmarshal(data, &keys); err != nil {
		// The message must not quote the file: it holds keys.
		return nil, &Error{Op: "read the API keys file", Path: s.file, Reason: "the file is damaged", Err: errors.New("invalid JSON")}
	}
	return keys, nil
}

// updateFile sets (or with "" removes) one key in the keys file; an empty file is removed.
func (s *Secrets) updateFile(accountID, key string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	keys, err := s.readFile()
	if err != nil {
		if key == "" {
			return nil
		}
		keys = map[string]string{}
	}
	if key == "" {
		if _, ok := keys[accountID]; !ok {
			return nil
		}
		delete(keys, accountID)
	} else {
		keys[accountID] = key
	}
	if len(keys) == 0 {
		if err := os.Remove(s.file); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return &Error{Op: "remove the API keys file", Path: s.file, Reason: plainOSError(err), Err: err}
		}
		return nil
	}
	data, err := json.MarshalIndent(keys, "", "  ")
	if err != nil {
		return fmt.Errorf("encode the API keys file: %w", err)
	}
	if err := replaceFile(s.file, data, 0o600, true); err != nil {
		return &Error{Op: "save the API key", Path: s.file, Reason: plainOSError(err), Err: err}
	}
	return nil
}
