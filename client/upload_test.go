package client_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
)

func TestCheckUploadFollowsTheDocumentedLimits(t *testing.T) {
	for _, tc := range []struct {
		name string
		size int64
		want error
	}{
		{"report.pdf", 200_000_000, nil},
		{"report.pdf", 200_000_001, client.ErrUploadTooLarge}, // MB, not MiB
		{"Film.MOV", 150_000_000, nil},
		{"minutes.m4a", 10_000_000, nil},
		{"minutes.m4a", 10_000_001, client.ErrAudioTooLarge},
		{"call.WAV", 12_000_000, client.ErrAudioTooLarge},
		{"archive.zip", 10, client.ErrUploadType},
		{"setup.exe", 10, client.ErrUploadType},
		{"no extension", 10, client.ErrUploadType},
		{"notes.md", 10, nil},
	} {
		err := client.CheckUpload(tc.name, tc.size)
		if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
			t.Errorf("%s, %d bytes: %v, want %v", tc.name, tc.size, err, tc.want)
		}
		var in *client.InputError
		if err != nil && (!errors.As(err, &in) || in.Field != "file") {
			t.Errorf("%s: not an input error: %v", tc.name, err)
		}
	}
}

func TestUploadRefusedBeforeSendingSendsNothing(t *testing.T) {
	c, svc, _ := demo(t, demoservice.Options{})
	ctx := context.Background()
	for _, p := range []client.UploadParams{
		{Reader: strings.NewReader("PK"), Filename: "photos.zip", Size: 2},
		{Reader: strings.NewReader(""), Filename: "interview.mp3", Size: 10_000_001},
	} {
		if _, err := c.UploadFile(ctx, p); err == nil {
			t.Fatalf("%s went up", p.Filename)
		}
	}
	if n := len(svc.Files()); n != seededFiles(t) {
		t.Fatalf("the service holds %d files", n)
	}
}

// seededFiles is how many files a new built-in service holds.
func seededFiles(t *testing.T) int {
	t.Helper()
	_, svc := demoservice.NewTestService(t, demoservice.Options{})
	return len(svc.Files())
}

func TestUploadRefusedWith429GoesAgainWhenItCanBeReadAgain(t *testing.T) {
	c, svc, _ := demo(t, demoservice.Options{API: demoservice.APIReal})
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "brief.txt")
	if err := os.WriteFile(path, []byte(strings.Repeat("brief ", 2000)), 0o600); err != nil {
		t.Fatal(err)
	}
	before := len(svc.Files())
	svc.SetFaults(demoservice.Faults{RateLimit: 1, RetryAfter: time.Second})
	var sent []int64
	f, err := c.UploadFile(ctx, client.UploadParams{Path: path, Progress: func(n, _ int64) { sent = append(sent, n) }})
	if err != nil {
		t.Fatalf("a file refused with 429 should go again: %v", err)
	}
	if f.Bytes != 12000 || len(svc.Files()) != before+1 {
		t.Fatalf("stored %+v; %d files, want %d", f, len(svc.Files()), before+1)
	}
	if sent[len(sent)-1] != 12000 {
		t.Fatalf("progress ended at %d", sent[len(sent)-1])
	}

	// Content that cannot be read again is not sent again.
	svc.SetFaults(demoservice.Faults{RateLimit: 1, RetryAfter: time.Second})
	_, err = c.UploadFile(ctx, client.UploadParams{Reader: readOnce{strings.NewReader("once")}, Filename: "once.txt", Size: 4})
	if client.StatusCode(err) != 429 || len(svc.Files()) != before+1 {
		t.Fatalf("a stream read once: %v, %d files", err, len(svc.Files()))
	}
}

// readOnce hides a reader's Seek.
type readOnce struct{ r *strings.Reader }

func (o readOnce) Read(b []byte) (int, error) { return o.r.Read(b) }

// sent is one request as it left the client.
type sent struct {
	method, host, path string
	key, workspace     bool
}

// recording sends requests on and notes each.
type recording struct {
	mu   sync.Mutex
	seen []sent
}

func (rec *recording) RoundTrip(r *http.Request) (*http.Response, error) {
	rec.mu.Lock()
	rec.seen = append(rec.seen, sent{r.Method, r.URL.Host, r.URL.Path, r.Header.Get("Authorization") != "", r.Header.Get("x-workspace-id") != ""})
	rec.mu.Unlock()
	return http.DefaultTransport.RoundTrip(r)
}

func (rec *recording) requests() []sent {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return slices.Clone(rec.seen)
}

// largeFile writes a file of n zero bytes (sparse, so quick) named name.
func largeFile(t *testing.T, name string, n int64) (path, digest string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(n); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	if _, err := io.CopyN(h, zeros{}, n); err != nil {
		t.Fatal(err)
	}
	return path, hex.EncodeToString(h.Sum(nil))
}

type zeros struct{}

func (zeros) Read(b []byte) (int, error) { clear(b); return len(b), nil }

// onService is a client of a new built-in service in reading api whose
// requests rec notes.
func onService(t *testing.T, api string) (*client.Client, *demoservice.Service, *httptest.Server, *recording) {
	srv, svc := demoservice.NewTestService(t, demoservice.Options{API: api, APIKey: testKey})
	rec := &recording{}
	return client.New(fastOptions(srv.URL, testKey, client.WithWorkspace("1"), client.WithHTTPClient(&http.Client{Transport: rec}))...), svc, srv, rec
}

// A file over 32 MB goes up the real service's way: signed, PUT to the
// signed address (another origin) with nothing of the account's, then
// registered once; its progress counts the bytes PUT.
func TestALargeFileGoesUpThroughASignedAddressWithoutTheKey(t *testing.T) {
	c, svc, srv, rec := onService(t, demoservice.APIReal)
	path, digest := largeFile(t, "site survey.mp4", 40_000_000)
	before := len(svc.Files())
	var last atomic.Int64
	f, err := c.UploadFile(context.Background(), client.UploadParams{Path: path, Progress: func(n, _ int64) { last.Store(n) }})
	if err != nil {
		t.Fatal(err)
	}
	files := svc.Files()
	if f.Bytes != 40_000_000 || f.Filename != "site survey.mp4" || len(files) != before+1 || files[0].SHA256 != digest {
		t.Fatalf("uploaded %+v; the service holds %d files, the newest %+v", f, len(files), files[0])
	}
	if last.Load() != 40_000_000 {
		t.Fatalf("progress ended at %d", last.Load())
	}
	api := strings.TrimPrefix(srv.URL, "http://")
	var steps []string
	for _, r := range rec.requests() {
		steps = append(steps, r.method+" "+map[bool]string{true: "api", false: "other"}[r.host == api]+" "+r.path)
		if r.host == api && (!r.key || !r.workspace) || r.host != api && (r.key || r.workspace) {
			t.Errorf("%s %s%s: key %v, workspace %v", r.method, r.host, r.path, r.key, r.workspace)
		}
	}
	if len(steps) != 3 || steps[0] != "POST api /v2/files/sign" || !strings.HasPrefix(steps[1], "PUT other ") || steps[2] != "POST api /v2/files/register" {
		t.Fatalf("want sign, PUT elsewhere, register; got %q", steps)
	}
}

// A PUT cut off goes again from the start once; a second cut gives up, and
// nothing is ever registered twice.
func TestACutPutIsTriedAgainOnceAndNeverRegisteredTwice(t *testing.T) {
	c, svc, _, rec := onService(t, demoservice.APIReal)
	path, digest := largeFile(t, "plans.pdf", 33_000_000)
	before := len(svc.Files())
	svc.SetFaults(demoservice.Faults{CutUploadPut: 1})
	if _, err := c.UploadFile(context.Background(), client.UploadParams{Path: path}); err != nil {
		t.Fatalf("one cut PUT should be tried again: %v", err)
	}
	if files := svc.Files(); svc.UploadPuts() != 2 || len(files) != before+1 || files[0].SHA256 != digest {
		t.Fatalf("%d PUTs, %d files (was %d)", svc.UploadPuts(), len(files), before)
	}
	svc.SetFaults(demoservice.Faults{CutUploadPut: 2})
	_, err := c.UploadFile(context.Background(), client.UploadParams{Path: path})
	if !client.IsOffline(err) && !errors.As(err, new(*client.NetworkError)) {
		t.Fatalf("two cut PUTs: %v", err)
	}
	if svc.UploadPuts() != 4 || len(svc.Files()) != before+1 {
		t.Fatalf("after two cuts: %d PUTs, %d files", svc.UploadPuts(), len(svc.Files()))
	}
	registers := 0
	for _, r := range rec.requests() {
		if strings.HasSuffix(r.path, "/register") {
			registers++
		}
	}
	if registers != 1 {
		t.Fatalf("%d registrations for one stored file", registers)
	}
}

// A server without the large-file flow (the spec reading) takes a large
// file in one POST /files.
func TestALargeFileGoesInOneRequestWhereThereIsNoLargeFileFlow(t *testing.T) {
	c, svc, _, rec := onService(t, demoservice.APISpec)
	path, _ := largeFile(t, "plans.pdf", 33_000_000)
	before := len(svc.Files())
	if _, err := c.UploadFile(context.Background(), client.UploadParams{Path: path}); err != nil {
		t.Fatal(err)
	}
	if len(svc.Files()) != before+1 {
		t.Fatal("not stored")
	}
	var posts []string
	for _, r := range rec.requests() {
		posts = append(posts, r.method+" "+r.path)
	}
	if posts[len(posts)-1] != "POST /files" {
		t.Fatalf("requests: %q", posts)
	}
}

// A service that sends a call on to another host is not followed: the
// other host's answer would be taken for the service's.
func TestARedirectToAnotherHostIsNotFollowed(t *testing.T) {
	c, svc, _, rec := onService(t, demoservice.APIReal)
	otherSrv, _ := demoservice.NewTestService(t, demoservice.Options{APIKey: testKey})
	svc.SetFaults(demoservice.Faults{RedirectTo: otherSrv.URL})
	_, err := c.ListAgents(context.Background(), client.ListAgentsParams{})
	if !errors.Is(err, client.ErrRedirectedAway) {
		t.Fatalf("want the redirect refused, got %v", err)
	}
	for _, r := range rec.requests() {
		if r.host == strings.TrimPrefix(otherSrv.URL, "http://") {
			t.Fatalf("the other host was asked: %+v", r)
		}
	}
	if n := len(rec.requests()); n != 1 {
		t.Fatalf("a refused redirect is not asked again: %d requests", n)
	}
}

// Cancelling a large upload while its bytes go stops it: nothing is
// registered, and the error says it was cancelled.
func TestCancellingALargeUploadRegistersNothing(t *testing.T) {
	c, svc, _, rec := onService(t, demoservice.APIReal)
	path, _ := largeFile(t, "plans.pdf", 60_000_000)
	before := len(svc.Files())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := c.UploadFile(ctx, client.UploadParams{Path: path, Progress: func(n, _ int64) {
		if n > 1_000_000 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("want cancelled, got %v", err)
	}
	if len(svc.Files()) != before {
		t.Fatal("a cancelled upload was stored")
	}
	for _, r := range rec.requests() {
		if strings.HasSuffix(r.path, "/register") {
			t.Fatal("a cancelled upload was registered")
		}
	}
}
