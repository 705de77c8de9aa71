package storage

import (
	"cmp"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// testPaths points every XDG_* home at a fresh temporary folder and returns
// Agent Desk's folders under them, as the app would see them.
func testPaths(t testing.TB) Paths {
	t.Helper()
	root := t.TempDir()
	for env, dir := range map[string]string{
		"XDG_CONFIG_HOME": "config", "XDG_DATA_HOME": "data",
		"XDG_CACHE_HOME": "cache", "XDG_STATE_HOME": "state",
	} {
		t.Setenv(env, filepath.Join(root, dir))
	}
	t.Setenv(EnvAPIKey, "")
	return DefaultPaths()
}

func openTestDB(t testing.TB, p Paths, opts ...Option) *DB {
	t.Helper()
	db, err := Open(context.Background(), p, opts...)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func newConversation(t testing.TB, db *DB, account, title string) Conversation {
	t.Helper()
	c, err := db.CreateConversation(context.Background(), Conversation{AccountID: account, AgentID: "7", AgentTitle: "Helper", Title: title})
	if err != nil {
		t.Fatalf("CreateConversation: %v", err)
	}
	return c
}

// message reads message id of conversation convID back (ErrNotFound when it is gone).
func message(db *DB, convID, id int64) (Message, error) {
	msgs, err := db.Messages(context.Background(), convID)
	if i := slices.IndexFunc(msgs, func(m Message) bool { return m.ID == id }); i >= 0 {
		return msgs[i], err
	}
	return Message{}, cmp.Or(err, ErrNotFound)
}

// run reads run id of account back (ErrNotFound when there is none).
func run(db *DB, account string, id int64) (Run, error) {
	runs, err := db.Runs(context.Background(), account, "", 1000)
	if i := slices.IndexFunc(runs, func(r Run) bool { return r.ID == id }); i >= 0 {
		return runs[i], err
	}
	return Run{}, cmp.Or(err, ErrNotFound)
}

func addMessage(t testing.TB, db *DB, convID int64, role, content, status string) Message {
	t.Helper()
	m, err := db.AddMessage(context.Background(), Message{ConversationID: convID, Role: role, Content: content, Status: status})
	if err != nil {
		t.Fatalf("AddMessage: %v", err)
	}
	return m
}

// mountTmpfs mounts a tmpfs of the given size (e.g. "256k") on a new
// folder, or skips the test where mounting is not permitted.
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size+",mode=0700", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v: %s", err, out)
	}
	t.Cleanup(func() {
		for i := 0; i < 20; i++ {
			if exec.Command("umount", dir).Run() == nil {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Errorf("could not unmount %s", dir)
	})
	return dir
}

// makeReadOnly makes dir unwritable for this process: by permissions for
// an ordinary user; for root (whom permissions do not stop) by remounting
// a tmpfs read-only. It returns the folder to use, which the caller fills
// through the fill function before it turns read-only.
func makeReadOnly(t *testing.T, fill func(dir string)) string {
	t.Helper()
	if os.Geteuid() != 0 {
		dir := t.TempDir()
		fill(dir)
		filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
			if err == nil {
				if info.IsDir() {
					os.Chmod(p, 0o500)
				} else {
					os.Chmod(p, 0o400)
				}
			}
			return nil
		})
		t.Cleanup(func() {
			filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
				if err == nil && info.IsDir() {
					os.Chmod(p, 0o700)
				}
				return nil
			})
		})
		return dir
	}
	dir := mountTmpfs(t, "8m")
	fill(dir)
	if out, err := exec.Command("mount", "-o", "remount,ro", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot remount read-only: %v: %s", err, out)
	}
	return dir
}

// Settings only tests change.

func WithBusyTimeout(d time.Duration) Option { return func(o *options) { o.busyTimeout = d } }

func WithClock(now func() time.Time) Option { return func(o *options) { o.now = now } }

func withPragma(p string) Option { return func(o *options) { o.pragmas = append(o.pragmas, p) } }

// withKeyringTimeout has s wait at most d for its keyring.
func withKeyringTimeout(s *Secrets, d time.Duration) *Secrets {
	s.timeout = d
	return s
}

// keyExt is the plain-alphanumeric extension Put keeps from key, or "".
func keyExt(key string) string {
	return cleanExt(filepath.Ext(strings.SplitN(strings.SplitN(key, "?", 2)[0], "#", 2)[0]))
}

// Put stores r under key and returns the path; a failure leaves nothing behind.
func (c *Cache) Put(ctx context.Context, key string, r io.Reader) (string, error) {
	p, err := c.Create()
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(p.f, ctxReader{ctx, r}); err != nil {
		p.Abort()
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return "", err
		}
		return "", &Error{Op: "save the download", Path: c.dir, Reason: plainOSError(err), Err: err}
	}
	return p.Commit(key, keyExt(key))
}

// Remove drops the file stored under key.
func (c *Cache) Remove(key string) error {
	s := stem(key)
	name := s + keyExt(key)
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[s]; ok {
		c.size -= e.size
		delete(c.entries, s)
		name = e.name
	}
	err := os.Remove(filepath.Join(c.dir, name))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return &Error{Op: "remove the download", Path: filepath.Join(c.dir, name), Reason: plainOSError(err), Err: err}
	}
	return nil
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

// Describe says where the key is, and why when it is in the keys file.
func (l KeyLocation) Describe() string {
	switch l.Kind {
	case KeyInKeyring:
		return "stored in the system keyring"
	case KeyInFile:
		return "kept in a file on this computer that only you can read, because the system keyring did not answer: " + l.File
	case KeyInEnv:
		return "taken from " + EnvAPIKey
	}
	return "not stored"
}

// Active returns the active account, or the demo when the active one is gone.
func (s Settings) Active() Account {
	if a, ok := s.Account(s.ActiveAccount); ok {
		return a
	}
	return DemoAccount()
}

// Err is the last background save error; the text is retried at the next flush.
func (w *ReplyWriter) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Path is the database file.
func (db *DB) Path() string { return db.path }
