package agents

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/jpeg"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
	"github.com/agentdesk/agentdesk/views/screen"
)

// outputFixture is the output view alone, on an app whose outputs are
// served by a file host the test controls.
type outputFixture struct {
	o      *outputView
	q      *kit.Queue
	srv    *httptest.Server
	mu     sync.Mutex
	opened []*url.URL
}

func newOutputFixture(t *testing.T, handler http.Handler) *outputFixture {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	a := apptest.Open(t)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	f := &outputFixture{q: q, srv: httptest.NewServer(handler)}
	t.Cleanup(f.srv.Close)
	s := &Screen{env: screen.Env{App: a, Window: w, Nav: screen.NoNav{}, Opener: func(u *url.URL) error {
		f.mu.Lock()
		f.opened = append(f.opened, u)
		f.mu.Unlock()
		return nil
	}}, app: a}
	withPlayer(s, true)
	f.o = newOutputView(s)
	w.SetContent(f.o.content)
	w.Resize(fyne.NewSize(800, 600))
	t.Cleanup(f.o.stopPreview)
	return f
}

// withPlayer sets whether the computer has a video player, for the test.
func withPlayer(s *Screen, has bool) {
	s.hasPlayer = func(context.Context, string) bool { return has }
}

// Where the computer has no video player, Play is not offered (it would do
// nothing): the screen says so and offers Save as….
func TestNoPlayerMeansSaveToWatch(t *testing.T) {
	f := newOutputFixture(t, serveFiles(map[string][]byte{"/clip.mp4": viewMP4}))
	withPlayer(f.o.s, false)
	f.o.show(f.run(client.AgentVideo, "/clip.mp4"), 0)
	f.waitText(t, "no video player")
	if kittest.FindButton(f.o.content, "Play video") != nil {
		t.Fatal("Play video is offered on a computer without a player")
	}
	if kittest.FindButton(f.o.content, "Save as…") == nil {
		t.Fatal("Save as… should stay")
	}
}

func (f *outputFixture) run(agentType, path string) app.Run {
	return app.Run{AgentType: agentType, Output: f.srv.URL + path, Status: client.StatusCompleted}
}

func (f *outputFixture) waitText(t *testing.T, want string) {
	t.Helper()
	f.q.WaitUntil(t, func() bool { return strings.Contains(kittest.Labels(f.o.content), want) },
		func() string { return "no " + strconvQ(want) + " in:\n" + kittest.Labels(f.o.content) })
}

func (f *outputFixture) openedURLs() []*url.URL {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]*url.URL(nil), f.opened...)
}

func strconvQ(s string) string { return "\"" + s + "\"" }

func serveFiles(files map[string][]byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(b)
	})
}

var (
	viewMP4 = []byte("\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2")
	viewEXE = append([]byte("MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00"), make([]byte, 200)...)
)

// viewBomb is a PNG header claiming w × h pixels.
func viewBomb(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 2
	chunk := append([]byte("IHDR"), ihdr...)
	_ = binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	b.Write(chunk)
	_ = binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	b.Write(make([]byte, 1000))
	return b.Bytes()
}

// "Play video" hands the player a local copy only when it really is a
// video: a program behind the address is never opened (nor the address
// itself), and the screen says it can only be saved.
func TestPlayVideoOpensOnlyWhatIsReallyAVideo(t *testing.T) {
	f := newOutputFixture(t, serveFiles(map[string][]byte{"/clip.exe": viewEXE, "/movie.exe": viewMP4}))

	f.o.show(f.run(client.AgentVideo, "/clip.exe"), 0)
	test.Tap(kittest.FindButton(f.o.content, "Play video"))
	f.waitText(t, "It can only be saved")
	if got := f.openedURLs(); len(got) != 0 {
		t.Fatalf("a program must never be opened: %v", got)
	}
	if kittest.FindButton(f.o.content, "Play video") != nil {
		t.Error("Play video should no longer be offered")
	}
	if kittest.FindButton(f.o.content, "Save as…") == nil {
		t.Error("Save as… stays")
	}
	if name := f.o.saveName(f.run(client.AgentVideo, "/clip.exe")); name != "clip" {
		t.Errorf("Save as should propose no program extension, got %q", name)
	}

	f.o.show(f.run(client.AgentVideo, "/movie.exe"), 0)
	test.Tap(kittest.FindButton(f.o.content, "Play video"))
	f.q.WaitUntil(t, func() bool { return len(f.openedURLs()) > 0 }, func() string { return kittest.Labels(f.o.content) })
	u := f.openedURLs()[0]
	if u.Scheme != "file" || filepath.Ext(u.Path) != ".mp4" {
		t.Fatalf("the local copy should open as an .mp4, got %s", u)
	}
	if name := f.o.saveName(f.run(client.AgentVideo, "/movie.exe")); name != "movie.mp4" {
		t.Errorf("Save as should propose movie.mp4, got %q", name)
	}
}

// A picture output is shown only when it is a picture small enough to
// decode safely; otherwise the screen says why, and Save as… stays.
func TestImageOutputRefusesBombsAndNonPictures(t *testing.T) {
	var jpg bytes.Buffer
	_ = jpeg.Encode(&jpg, image.NewGray(image.Rect(0, 0, 8, 8)), nil)
	f := newOutputFixture(t, serveFiles(map[string][]byte{
		"/bomb.png":          viewBomb(40000, 40000),
		"/tool.png":          viewEXE,
		"/..\\..\\photo.exe": jpg.Bytes(),
		"/ok\u202egpj.exe":   jpg.Bytes(),
	}))

	f.o.show(f.run(client.AgentImage, "/bomb.png"), 0)
	f.waitText(t, "too large to show")
	if findImage(f.o.content) != nil || kittest.FindButton(f.o.content, "Save as…") == nil {
		t.Fatal("the picture must not be decoded, and Save as… stays")
	}

	f.o.show(f.run(client.AgentImage, "/tool.png"), 0)
	f.waitText(t, "not a picture")
	if findImage(f.o.content) != nil {
		t.Fatal("a program is not shown as a picture")
	}

	r := f.run(client.AgentImage, "/..%5C..%5Cphoto.exe")
	f.o.show(r, 0)
	f.q.WaitUntil(t, func() bool { return findImage(f.o.content) != nil }, func() string { return kittest.Labels(f.o.content) })
	if name := f.o.saveName(r); name != "photo.jpg" {
		t.Errorf("Save as should propose photo.jpg, got %q", name)
	}
	// A name turned around by a hidden character reads as it is.
	r = f.run(client.AgentImage, "/ok\u202egpj.exe")
	f.o.show(r, 0)
	f.q.WaitUntil(t, func() bool { return findImage(f.o.content) != nil }, func() string { return kittest.Labels(f.o.content) })
	if name := f.o.saveName(r); name != "okgpj.jpg" {
		t.Errorf("Save as should propose okgpj.jpg, got %q", name)
	}
}

// The download shows how much has arrived and can be cancelled; cancelled,
// it says so and offers to try again.
func TestImageDownloadShowsProgressAndCancels(t *testing.T) {
	var jpg bytes.Buffer
	_ = jpeg.Encode(&jpg, image.NewGray(image.Rect(0, 0, 8, 8)), nil)
	release := make(chan struct{})
	var once sync.Once
	f := newOutputFixture(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
			_, _ = w.Write(jpg.Bytes())
			return
		default:
		}
		_, _ = w.Write(jpg.Bytes()[:100])
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(func() { once.Do(func() { close(release) }) })

	f.o.show(f.run(client.AgentImage, "/slow.jpg"), 0)
	f.waitText(t, "so far")
	cancel := kittest.FindButton(f.o.content, "Cancel")
	if cancel == nil {
		t.Fatal("a download can be cancelled")
	}
	test.Tap(cancel)
	f.waitText(t, "You cancelled the download")
	again := kittest.FindButton(f.o.content, "Try again")
	if again == nil {
		t.Fatal("a cancelled download can be tried again")
	}
	once.Do(func() { close(release) })
	test.Tap(again)
	f.q.WaitUntil(t, func() bool { return findImage(f.o.content) != nil }, func() string { return kittest.Labels(f.o.content) })
}

// A picture output in a format Agent Desk does not show (BMP: the window
// knows it, but only PNG, JPEG, GIF and WebP are decoded) is offered as a
// file to save, never handed to the window's own decoders.
func TestImageOutputInAnotherFormatIsOnlySaved(t *testing.T) {
	bmp := []byte("BM\x3a\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00\x28\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00\x00\x01\x00\x18\x00\x00\x00\x00\x00\x04\x00\x00\x00\x13\x0b\x00\x00\x13\x0b\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xff\x00\x00\x00")
	f := newOutputFixture(t, serveFiles(map[string][]byte{"/picture.bmp": bmp}))
	f.o.show(f.run(client.AgentImage, "/picture.bmp"), 0)
	f.waitText(t, "not a picture Agent Desk can show. You can still save it")
	if findImage(f.o.content) != nil || kittest.FindButton(f.o.content, "Save as…") == nil {
		t.Fatal("the BMP must not be decoded, and Save as… stays")
	}
}
