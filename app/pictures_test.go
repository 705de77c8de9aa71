package app_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"image/jpeg"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	// The window registers more decoders than the four Agent Desk shows
	// (ICO among them): so does this test, to show they are never used.
	_ "github.com/fyne-io/image/ico"
	_ "golang.org/x/image/bmp"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
)

// A picture shown again (a row rebuilt, a conversation reopened) is not
// fetched again; one that failed is tried again.
func TestAPictureIsFetchedOncePerSession(t *testing.T) {
	var hits atomic.Int32
	var pic bytes.Buffer
	_ = png.Encode(&pic, image.NewGray(image.Rect(0, 0, 8, 8)))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/ok.png" {
			_, _ = w.Write(pic.Bytes())
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	a := apptest.Open(t)
	ctx := context.Background()
	for range 3 {
		if _, _, err := a.ShowPicture(ctx, srv.URL+"/ok.png", nil); err != nil {
			t.Fatal(err)
		}
		_, _, _ = a.ShowPicture(ctx, srv.URL+"/missing.png", nil)
	}
	if got := hits.Load(); got != 4 {
		t.Fatalf("%d requests for one picture shown 3 times and a missing one tried 3 times, want 4", got)
	}
}

// ico is an icon file: its directory gives one entry per picture, each
// with the size of its data; data follows the directory.
func ico(entries []uint32, data []byte) []byte {
	var b bytes.Buffer
	_ = binary.Write(&b, binary.LittleEndian, [3]uint16{0, 1, uint16(len(entries))})
	offset := uint32(6 + 16*len(entries))
	for _, size := range entries {
		_ = binary.Write(&b, binary.LittleEndian, struct {
			W, H, Palette, Reserved uint8
			Planes, Bits            uint16
			Size, Offset            uint32
		}{1, 1, 0, 0, 1, 32, size, offset})
		offset += size
	}
	b.Write(data)
	return b.Bytes()
}

// pngHeader is the start of a PNG of w × h pixels: enough for its header
// to be read, not for it to be decoded.
func pngHeader(w, h int) []byte {
	var b bytes.Buffer
	_ = png.Encode(&b, image.NewGray(image.Rect(0, 0, 1, 1)))
	head := b.Bytes()[:33]
	binary.BigEndian.PutUint32(head[16:], uint32(w))
	binary.BigEndian.PutUint32(head[20:], uint32(h))
	return head
}

func pictureFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func wantReason(t *testing.T, what string, err error, want app.PictureReason) {
	t.Helper()
	var pe *app.PictureError
	if !errors.As(err, &pe) || pe.Reason != want {
		t.Errorf("%s: %v, want a picture error of reason %d", what, err, want)
	}
}

// Only PNG, JPEG, GIF and WebP are shown, each read by its own decoder: an
// icon whose first entry is 1 × 1 and whose second is 30,000 × 30,000 is
// not a picture Agent Desk shows (the window's decoders would have checked
// the first entry and decoded the second), nor is a BMP.
func TestOnlyPNGJPEGGIFAndWebPAreShown(t *testing.T) {
	var small bytes.Buffer
	_ = png.Encode(&small, image.NewGray(image.Rect(0, 0, 1, 1)))
	big := pngHeader(30000, 30000)
	trick := ico([]uint32{uint32(small.Len()), uint32(len(big))}, append(small.Bytes(), big...))
	if cfg, format, err := image.DecodeConfig(bytes.NewReader(trick)); err != nil || format != "ico" || cfg.Width != 1 {
		t.Fatalf("the icon should pass for 1 × 1 with the window's decoders: %v %q %v", cfg, format, err)
	}
	bmp := []byte("BM\x3a\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00\x28\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00\x00\x01\x00\x18\x00\x00\x00\x00\x00\x04\x00\x00\x00\x13\x0b\x00\x00\x13\x0b\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xff\x00\x00\x00")
	if _, format, err := image.Decode(bytes.NewReader(bmp)); err != nil || format != "bmp" {
		t.Fatalf("the BMP should decode with the window's decoders: %q %v", format, err)
	}
	a := apptest.Open(t)
	ctx := context.Background()
	for name, data := range map[string][]byte{"icon": trick, "bmp": bmp, "png with a broken start": append([]byte("\x89PNX"), small.Bytes()[4:]...), "nothing": nil} {
		wantReason(t, name+": CheckPictureSize", app.CheckPictureSize(bytes.NewReader(data)), app.PictureUnreadable)
		wantReason(t, name+": CheckPictureFile", app.CheckPictureFile(pictureFile(t, "x", data)), app.PictureUnreadable)
		if img, _, err := a.ShowPictureFile(ctx, pictureFile(t, "x", data), nil); img != nil {
			t.Errorf("%s: shown", name)
		} else {
			wantReason(t, name+": ShowPictureFile", err, app.PictureUnreadable)
		}
	}

	var jpg, gf bytes.Buffer
	_ = jpeg.Encode(&jpg, image.NewGray(image.Rect(0, 0, 30, 20)), nil)
	_ = gif.Encode(&gf, image.NewPaletted(image.Rect(0, 0, 30, 20), palette.Plan9), nil)
	lossless, err := os.ReadFile("testdata/lossless.webp")
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		data []byte
		size image.Point
	}{
		"png":  {small.Bytes(), image.Pt(1, 1)},
		"jpeg": {jpg.Bytes(), image.Pt(30, 20)},
		"gif":  {gf.Bytes(), image.Pt(30, 20)},
		"webp": {lossless, image.Pt(75, 100)},
	} {
		if err := app.CheckPictureSize(bytes.NewReader(c.data)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		img, _, err := a.ShowPictureFile(ctx, pictureFile(t, "x", c.data), nil)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		} else if img.Bounds().Size() != c.size {
			t.Errorf("%s: %v, want %v", name, img.Bounds().Size(), c.size)
		}
	}
}

// An icon of 93 bytes whose entry claims 3 GiB is refused from its first
// bytes: the window's decoders would allocate the 3 GiB to read its header.
func TestAnIconClaimingGigabytesIsRefusedWithoutAllocating(t *testing.T) {
	data := ico([]uint32{3 << 30}, bytes.Repeat([]byte{0}, 71))
	if len(data) != 93 {
		t.Fatalf("the icon is %d bytes", len(data))
	}
	a := apptest.Open(t)
	path := pictureFile(t, "icon", data)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := app.CheckPictureSize(bytes.NewReader(data))
	_, _, showErr := a.ShowPictureFile(context.Background(), path, nil)
	runtime.ReadMemStats(&after)
	wantReason(t, "CheckPictureSize", err, app.PictureUnreadable)
	wantReason(t, "ShowPictureFile", showErr, app.PictureUnreadable)
	if got := after.TotalAlloc - before.TotalAlloc; got > 4<<20 {
		t.Errorf("refusing the icon allocated %d MB", got>>20)
	}
}

// A GIF shows its first frame only, which lies within the screen its header
// gives: a frame larger than that screen is refused.
func TestAGIFShowsItsFirstFrameWithinItsScreen(t *testing.T) {
	frame := func(r image.Rectangle, c uint8) *image.Paletted {
		m := image.NewPaletted(r, color.Palette{color.Black, color.White})
		for i := range m.Pix {
			m.Pix[i] = c
		}
		return m
	}
	var anim bytes.Buffer
	err := gif.EncodeAll(&anim, &gif.GIF{
		Image:  []*image.Paletted{frame(image.Rect(10, 10, 20, 30), 1), frame(image.Rect(0, 0, 40, 40), 0)},
		Delay:  []int{10, 10},
		Config: image.Config{Width: 40, Height: 40, ColorModel: color.Palette{color.Black, color.White}},
	})
	if err != nil {
		t.Fatal(err)
	}
	a := apptest.Open(t)
	img, _, err := a.ShowPictureFile(context.Background(), pictureFile(t, "anim.gif", anim.Bytes()), nil)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds() != image.Rect(10, 10, 20, 30) {
		t.Errorf("decoded %v, want the first frame (10,10)-(20,30)", img.Bounds())
	}
	// The screen said 40 × 40; a first frame of 65,535 × 65,535 follows.
	bomb := anim.Bytes()
	at := bytes.IndexByte(bomb[13:], 0x2c) + 13 // the first image descriptor
	binary.LittleEndian.PutUint16(bomb[at+5:], 0xffff)
	binary.LittleEndian.PutUint16(bomb[at+7:], 0xffff)
	_, _, err = a.ShowPictureFile(context.Background(), pictureFile(t, "bomb.gif", bomb), nil)
	wantReason(t, "a frame beyond the screen", err, app.PictureUnreadable)
}

// compressible is a PNG of w × h pixels of 4 bytes each, a few kilobytes.
func compressible(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	img.Pix[0] = 1
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Pictures shown stay within one memory budget: each small file decodes to
// 4 MB, and with a budget of 10 MB no more than two are held; the one least
// recently seen is dropped, and a dropped one shown again is decoded again.
func TestPicturesStayWithinTheMemoryBudget(t *testing.T) {
	const budget, each = 10_000_000, 4_000_000
	a := apptest.Open(t, func(c *app.Config) { c.PictureBudget = budget })
	data := compressible(t, 1000, 1000)
	var paths []string
	for range 6 {
		paths = append(paths, pictureFile(t, "p.png", data))
	}
	var mu sync.Mutex
	held := map[int]image.Image{}
	seen := map[int]func(keep bool){}
	dropped := map[int]int{}
	show := func(i int) image.Image {
		t.Helper()
		img, s, err := a.ShowPictureFile(context.Background(), paths[i], func() {
			mu.Lock()
			defer mu.Unlock()
			delete(held, i)
			dropped[i]++
		})
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		held[i], seen[i] = img, s
		if len(held)*each > budget {
			t.Fatalf("after picture %d, %d pictures of 4 MB held: %v", i, len(held), held)
		}
		return img
	}
	var base runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&base)
	for i := range 6 {
		show(i)
	}
	mu.Lock()
	if len(held) != 2 || held[4] == nil || held[5] == nil || dropped[0] != 1 || dropped[3] != 1 {
		t.Errorf("held %v, dropped %v; want the last two held, the first four dropped", held, dropped)
	}
	mu.Unlock()
	var now runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&now)
	if grew := int64(now.HeapAlloc) - int64(base.HeapAlloc); grew > budget+2<<20 {
		t.Errorf("the heap grew by %d MB for pictures within a budget of %d MB", grew>>20, budget>>20)
	}

	// Picture 4 was seen last: showing the first again drops 5, and decodes
	// the first again.
	seen[4](true)
	again := show(0)
	mu.Lock()
	if dropped[5] != 1 || dropped[4] != 0 || held[4] == nil {
		t.Errorf("held %v, dropped %v; want 5 dropped, 4 kept", held, dropped)
	}
	if again.Bounds().Dx() != 1000 || held[0] == nil {
		t.Error("the first picture was not decoded again")
	}
	mu.Unlock()

	// A view that no longer draws picture 4 gives it back: the next one
	// fits beside the first without the budget dropping anything.
	seen[4](false)
	mu.Lock()
	delete(held, 4)
	mu.Unlock()
	show(2)
	mu.Lock()
	defer mu.Unlock()
	if dropped[4] != 0 || dropped[0] != 1 || held[0] == nil {
		t.Errorf("held %v, dropped %v; want picture 4 given back, not dropped, and the first kept", held, dropped)
	}
}

// jpegHeader is the start of a colour JPEG of w × h pixels, progressive
// (frame marker 0xc2) or not (0xc0): enough for its header to be read.
func jpegHeader(w, h int, frame byte) []byte {
	b := []byte{0xff, 0xd8, 0xff, frame, 0, 17, 8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), 3}
	for id := byte(1); id <= 3; id++ {
		b = append(b, id, 0x11, 0)
	}
	b = append(b, 0xff, 0xda, 0, 12, 3, 1, 0, 2, 0, 3, 0, 0, 63, 0)
	return b
}

// A progressive JPEG keeps 4 bytes a pixel for each colour until its last
// scan: that counts in the budget too, so a 4200 × 4200 one (70 MB once
// decoded, 212 MB more while decoding) is too large, when the same picture
// stored plainly is decoded.
func TestAProgressiveJPEGCountsItsDecodersMemory(t *testing.T) {
	a := apptest.Open(t)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _, err := a.ShowPictureFile(context.Background(), pictureFile(t, "p.jpg", jpegHeader(4200, 4200, 0xc2)), nil)
	runtime.ReadMemStats(&after)
	wantReason(t, "progressive", err, app.PictureTooBig)
	if got := after.TotalAlloc - before.TotalAlloc; got > 4<<20 {
		t.Errorf("refusing the picture allocated %d MB", got>>20)
	}
	// Plain, it is decoded (and found to hold no picture data).
	_, _, err = a.ShowPictureFile(context.Background(), pictureFile(t, "b.jpg", jpegHeader(4200, 4200, 0xc0)), nil)
	wantReason(t, "plain", err, app.PictureUnreadable)
}

// Decoding lossless WebP data takes a table of Huffman groups as large as
// the file says, up to 176 MB whatever the picture's size: that counts in
// the budget too. Lossy WebP needs none.
func TestLosslessWebPCountsItsDecodersTable(t *testing.T) {
	a := apptest.Open(t, func(c *app.Config) { c.PictureBudget = 100 << 20 })
	for name, want := range map[string]bool{"lossless.webp": false, "lossy.webp": true} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		img, _, err := a.ShowPictureFile(context.Background(), pictureFile(t, name, data), nil)
		if want && (err != nil || img == nil) {
			t.Errorf("%s: %v", name, err)
		}
		if !want {
			wantReason(t, name, err, app.PictureTooBig)
		}
	}
}
