package app

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"image"
	"image/color/palette"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"runtime"
	"sync"
	"testing"

	"github.com/agentdesk/agentdesk/internal/safe"
)

// A decoder that panics on some file makes the picture unreadable; Agent
// Desk goes on.
func TestAPanickingDecoderMakesThePictureUnreadable(t *testing.T) {
	img, err := unpanicked(func() (image.Image, error) { panic("index out of range") })
	var pe *PictureError
	if img != nil || !errors.As(err, &pe) || pe.Reason != PictureUnreadable {
		t.Fatalf("%v, %v; want a PictureUnreadable error", img, err)
	}
}

// Views showing and dropping pictures at once never hold more than the
// budget, and each hears of its own picture's drop once.
func TestThePictureBudgetHoldsUnderConcurrentViews(t *testing.T) {
	s := newPictureStore(3 << 20)
	var files [][]byte
	for _, n := range []int{300, 500, 700} {
		var b bytes.Buffer
		if err := png.Encode(&b, image.NewNRGBA(image.Rect(0, 0, n, n/2))); err != nil {
			t.Fatal(err)
		}
		files = append(files, b.Bytes())
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 30 {
				var once sync.Mutex
				drops := 0
				key := string(rune('a' + (g+i)%len(files)))
				_, seen, err := s.show(context.Background(), key, bytes.NewReader(files[(g+i)%len(files)]), func() {
					once.Lock()
					defer once.Unlock()
					if drops++; drops > 1 {
						t.Error("a picture was dropped twice")
					}
				})
				if err != nil {
					t.Error(err)
					return
				}
				seen(true)
				s.mu.Lock()
				used := s.used
				s.mu.Unlock()
				if used > s.budget {
					t.Errorf("%d bytes held, budget %d", used, s.budget)
				}
			}
		})
	}
	wg.Wait()
}

// vp8x wraps a lossless WebP in an extended header that gives the canvas
// size.
func vp8x(lossless []byte, w, h int) []byte {
	chunk := make([]byte, 18)
	copy(chunk, "VP8X")
	binary.LittleEndian.PutUint32(chunk[4:], 10)
	put24 := func(b []byte, v int) { b[0], b[1], b[2] = byte(v), byte(v>>8), byte(v>>16) }
	put24(chunk[12:], w-1)
	put24(chunk[15:], h-1)
	out := append([]byte("RIFF\x00\x00\x00\x00WEBP"), chunk...)
	out = append(out, lossless[12:]...)
	binary.LittleEndian.PutUint32(out[4:], uint32(len(out)-8))
	return out
}

// FuzzPictureHeader feeds any bytes to the check and the decoder: they
// never panic, never decode more than MaxPicturePixels nor beyond the
// budget, never allocate far beyond it (what a decoder takes besides the
// picture is counted in it), and whatever they accept is a PNG, JPEG, GIF
// or WebP picture no larger than its header said.
func FuzzPictureHeader(f *testing.F) {
	var p, j, g bytes.Buffer
	_ = png.Encode(&p, image.NewNRGBA(image.Rect(0, 0, 3, 2)))
	_ = jpeg.Encode(&j, image.NewGray(image.Rect(0, 0, 9, 8)), nil)
	_ = gif.Encode(&g, image.NewPaletted(image.Rect(0, 0, 5, 4), palette.Plan9), nil)
	f.Add(p.Bytes())
	f.Add(j.Bytes())
	f.Add(g.Bytes())
	for _, name := range []string{"testdata/lossless.webp", "testdata/lossy.webp"} {
		w, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(w)
	}
	if w, err := os.ReadFile("testdata/lossless.webp"); err == nil {
		f.Add(vp8x(w, 75, 100))
		f.Add(vp8x(w, 1<<24, 1))
	}
	f.Add([]byte("GIF89a\xff\xff\xff\xff\x00\x00\x00"))
	f.Add([]byte("\x00\x00\x01\x00\x01\x00\x01\x01\x00\x00\x01\x00\x20\x00\x00\x00\x00\xc0\x16\x00\x00\x00"))
	// Room for small lossless WebP pictures too (losslessWorking).
	const budget = 200 << 20
	f.Fuzz(func(t *testing.T, data []byte) {
		s := newPictureStore(budget)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		img, _, err := s.show(context.Background(), "x", bytes.NewReader(data), nil)
		runtime.ReadMemStats(&after)
		if got := after.TotalAlloc - before.TotalAlloc; got > budget+64<<20 {
			t.Fatalf("%d MB allocated for a picture of %d bytes", got>>20, len(data))
		}
		checkErr := CheckPictureSize(bytes.NewReader(data))
		if err != nil {
			var pe *PictureError
			if !errors.As(err, &pe) {
				t.Fatalf("not a picture error: %v", err)
			}
			return
		}
		if checkErr != nil {
			t.Fatalf("decoded a picture the check refuses: %v", checkErr)
		}
		if _, ext := safe.Sniff(data); pictureFormats[ext].decode == nil {
			t.Fatalf("accepted a file that is not PNG, JPEG, GIF or WebP: %q", data[:min(len(data), 16)])
		}
		_, cfg, err := readPictureHeader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		b := img.Bounds()
		if int64(b.Dx())*int64(b.Dy()) > MaxPicturePixels || decodedSize(cfg) > budget {
			t.Fatalf("decoded %v, header %d × %d, over the limits", b, cfg.Width, cfg.Height)
		}
		if b.Dx() > cfg.Width || b.Dy() > cfg.Height {
			t.Fatalf("decoded %v, larger than its header's %d × %d", b, cfg.Width, cfg.Height)
		}
	})
}
