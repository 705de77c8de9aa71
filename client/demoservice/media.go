package demoservice

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"image"
	"image/color"
	"image/png"
	"math"
	"net/http"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

var mediaKinds = map[string]struct{ ext, contentType string }{
	"images": {".png", "image/png"},
	"videos": {".mp4", "video/mp4"},
}

// Assumption: generated media is served without authentication at
// /generated/images/{id}.png and /generated/videos/{id}.mp4, like a CDN link
// in an agent's output.

// registerImage reserves execution id's picture, captioned with the request,
// and returns its absolute URL.
func (s *Service) registerImage(r *http.Request, id int64, input string, answers map[string]any) string {
	w, h := sizeFor(answers["aspect_ratio"], 640)
	seed := seedOf(input, fmt.Sprint(answers["style"]), fmt.Sprint(answers["seed"]))
	caption := promptAnswer(answers)
	return s.registerMedia(r, "images", id, func() []byte { return renderPNG(seed, w, h, caption) })
}

// registerMedia reserves execution id's media of kind, rendered once on
// first request, and returns its absolute URL.
func (s *Service) registerMedia(r *http.Request, kind string, id int64, render func() []byte) string {
	name := fmt.Sprintf("%s/%d%s", kind, id, mediaKinds[kind].ext)
	s.mu.Lock()
	s.media[name] = sync.OnceValue(render)
	s.mu.Unlock()
	return baseURL(r) + "/generated/" + name
}

func seedOf(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

func sizeFor(ratio any, long int) (int, int) {
	switch ratio {
	case "16:9":
		return long, long * 9 / 16
	case "9:16":
		return long * 9 / 16, long
	case "4:3":
		return long, long * 3 / 4
	}
	return long * 3 / 4, long * 3 / 4
}

func (s *Service) serveMedia(w http.ResponseWriter, r *http.Request) {
	kind, name := r.PathValue("kind"), r.PathValue("name")
	s.mu.Lock()
	render, ok := s.media[kind+"/"+name]
	s.mu.Unlock()
	if !ok {
		writeError(w, r, http.StatusNotFound, "Media not found")
		return
	}
	data := render()
	w.Header().Set("Content-Type", mediaKinds[kind].contentType)
	w.Header().Set("Cache-Control", "public, max-age=86400")
	// ServeContent answers HEAD and byte ranges, which video players use to seek.
	http.ServeContent(w, r, name, seedEpoch, bytes.NewReader(data))
}

// renderPNG draws a seeded gradient picture captioned with the user's request.
func renderPNG(seed uint64, w, h int, caption string) []byte {
	next := func() uint64 {
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		return seed
	}
	if seed == 0 {
		seed = 0x2545f4914f6cdd1d
	}
	col := func() color.RGBA {
		v := next()
		return color.RGBA{uint8(v), uint8(v >> 8), uint8(v >> 16), 255}
	}
	from, to, accent := col(), col(), col()
	type circle struct{ x, y, r float64 }
	circles := make([]circle, 3+next()%3)
	for i := range circles {
		circles[i] = circle{float64(next() % uint64(w)), float64(next() % uint64(h)), float64(h)/8 + float64(next()%uint64(h/4+1))}
	}
	bandY := int(next() % uint64(h))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			t := (float64(x)/float64(w) + float64(y)/float64(h)) / 2
			c := blend(from, to, t)
			for _, ci := range circles {
				if d := math.Hypot(float64(x)-ci.x, float64(y)-ci.y); d < ci.r {
					c = blend(c, accent, 0.55*(1-d/ci.r))
				}
			}
			if y >= bandY && y < bandY+h/20 {
				c = blend(c, color.RGBA{255, 255, 255, 255}, 0.35)
			}
			img.SetRGBA(x, y, c)
		}
	}
	drawCaption(img, caption)
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	return buf.Bytes()
}

// drawCaption writes text on a dark strip at img's foot with the built-in
// face; missing letters are left out.
func drawCaption(img *image.RGBA, text string) {
	words := strings.Fields(text)
	if len(words) == 0 {
		return
	}
	face := basicfont.Face7x13
	const lineH, pad, maxLines = 15, 8, 3
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	perLine := max(8, (w-2*pad)/face.Advance)
	var lines []string
	cur := ""
	for _, word := range words {
		switch {
		case cur == "":
			cur = word
		case len([]rune(cur))+1+len([]rune(word)) <= perLine:
			cur += " " + word
		default:
			lines = append(lines, cur)
			cur = word
		}
	}
	lines = append(lines, cur)
	if len(lines) > maxLines {
		lines = append(lines[:maxLines-1], lines[maxLines-1]+" ...")
	}
	for i, l := range lines {
		if r := []rune(l); len(r) > perLine {
			lines[i] = string(r[:perLine-3]) + "..."
		}
	}
	top := h - len(lines)*lineH - 2*pad
	for y := max(0, top); y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetRGBA(x, y, blend(img.RGBAAt(x, y), color.RGBA{0, 0, 0, 255}, 0.6))
		}
	}
	d := font.Drawer{Dst: img, Src: image.White, Face: face}
	for i, l := range lines {
		d.Dot = fixed.P(pad, top+pad+(i+1)*lineH-3)
		d.DrawString(l)
	}
}

// blend moves c towards to by t (0 to 1); the result is opaque.
func blend(c, to color.RGBA, t float64) color.RGBA {
	lerp := func(a, b uint8) uint8 { return uint8(float64(a) + (float64(b)-float64(a))*t) }
	return color.RGBA{lerp(c.R, to.R), lerp(c.G, to.G), lerp(c.B, to.B), 255}
}

// renderMP4 builds a small ISO media file players recognise, with no
// decodable frames.
func renderMP4(seed uint64, caption string) []byte {
	box := func(typ string, payload []byte) []byte {
		b := make([]byte, 8, 8+len(payload))
		binary.BigEndian.PutUint32(b, uint32(8+len(payload)))
		copy(b[4:], typ)
		return append(b, payload...)
	}
	ftyp := box("ftyp", []byte("isom\x00\x00\x02\x00isomiso2avc1mp41"))
	note := "Agent Desk demo clip"
	if caption != "" {
		note += ": " + caption
	}
	free := box("free", []byte(note))
	payload := make([]byte, 4096)
	for i := 0; i < len(payload); i += 8 {
		seed = seed*6364136223846793005 + 1442695040888963407
		binary.LittleEndian.PutUint64(payload[i:], seed)
	}
	out := append(ftyp, free...)
	return append(out, box("mdat", payload)...)
}
