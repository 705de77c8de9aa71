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
	"strconv"
	"strings"
)

// mediaItem is a generated picture or clip, rendered on first request.
type mediaItem struct {
	contentType string
	seed        uint64
	width       int
	height      int
	data        []byte
}

// Assumption: generated media is served without authentication at
// /generated/images/{id}.png and /generated/videos/{id}.mp4, like a CDN link
// in an agent's output.

// registerImage reserves the picture of execution id and returns its
// absolute URL on the request's host.
func (s *Service) registerImage(r *http.Request, id int64, input string, answers map[string]any) string {
	w, h := sizeFor(answers["aspect_ratio"], 640)
	seed := seedOf(input, fmt.Sprint(answers["style"]), fmt.Sprint(answers["seed"]))
	s.mu.Lock()
	s.media[mediaKey("images", id)] = &mediaItem{contentType: "image/png", seed: seed, width: w, height: h}
	s.mu.Unlock()
	return fmt.Sprintf("%s/generated/images/%d.png", baseURL(r), id)
}

// registerVideo reserves the clip of execution id and returns its URL.
func (s *Service) registerVideo(r *http.Request, id int64, input string, answers map[string]any) string {
	seed := seedOf(input, fmt.Sprint(answers["duration"]))
	s.mu.Lock()
	s.media[mediaKey("videos", id)] = &mediaItem{contentType: "video/mp4", seed: seed}
	s.mu.Unlock()
	return fmt.Sprintf("%s/generated/videos/%d.mp4", baseURL(r), id)
}

func mediaKey(kind string, id int64) string { return kind + "/" + strconv.FormatInt(id, 10) }

func seedOf(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// sizeFor maps an aspect ratio answer to pixel dimensions.
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

// serveMedia answers GET /generated/{kind}/{name}.
func (s *Service) serveMedia(w http.ResponseWriter, r *http.Request) {
	kind, name := r.PathValue("kind"), r.PathValue("name")
	ext := map[string]string{"images": ".png", "videos": ".mp4"}[kind]
	idText, found := strings.CutSuffix(name, ext)
	id, err := strconv.ParseInt(idText, 10, 64)
	if ext == "" || !found || err != nil {
		writeError(w, r, http.StatusNotFound, "Media not found")
		return
	}
	s.mu.Lock()
	m, ok := s.media[mediaKey(kind, id)]
	s.mu.Unlock()
	if !ok {
		writeError(w, r, http.StatusNotFound, "Media not found")
		return
	}
	// Rendering is deterministic, so two first requests racing render the
	// same bytes; the item is filled once under the lock.
	s.mu.Lock()
	data := m.data
	s.mu.Unlock()
	if data == nil {
		if kind == "images" {
			data = renderPNG(m.seed, m.width, m.height)
		} else {
			data = renderMP4(m.seed)
		}
		s.mu.Lock()
		m.data = data
		s.mu.Unlock()
	}
	w.Header().Set("Content-Type", m.contentType)
	w.Header().Set("Cache-Control", "public, max-age=86400")
	// ServeContent answers HEAD and byte ranges, which video players use to seek.
	http.ServeContent(w, r, name, seedEpoch, bytes.NewReader(data))
}

// renderPNG draws a diagonal two-colour gradient with a few soft circles and
// a band, all chosen by seed.
func renderPNG(seed uint64, w, h int) []byte {
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
			c := color.RGBA{lerp(from.R, to.R, t), lerp(from.G, to.G, t), lerp(from.B, to.B, t), 255}
			for _, ci := range circles {
				if d := math.Hypot(float64(x)-ci.x, float64(y)-ci.y); d < ci.r {
					a := 0.55 * (1 - d/ci.r)
					c = color.RGBA{lerp(c.R, accent.R, a), lerp(c.G, accent.G, a), lerp(c.B, accent.B, a), 255}
				}
			}
			if y >= bandY && y < bandY+h/20 {
				c = color.RGBA{lerp(c.R, 255, 0.35), lerp(c.G, 255, 0.35), lerp(c.B, 255, 0.35), 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	return buf.Bytes()
}

func lerp(a, b uint8, t float64) uint8 { return uint8(float64(a) + (float64(b)-float64(a))*t) }

// renderMP4 builds a small ISO media file: an ftyp box, a free box naming
// the service, and an mdat box of seeded bytes. Players recognise the type;
// it carries no decodable frames.
func renderMP4(seed uint64) []byte {
	box := func(typ string, payload []byte) []byte {
		b := make([]byte, 8, 8+len(payload))
		binary.BigEndian.PutUint32(b, uint32(8+len(payload)))
		copy(b[4:], typ)
		return append(b, payload...)
	}
	ftyp := box("ftyp", []byte("isom\x00\x00\x02\x00isomiso2avc1mp41"))
	free := box("free", []byte("Agent Desk demo clip"))
	payload := make([]byte, 4096)
	for i := 0; i < len(payload); i += 8 {
		seed = seed*6364136223846793005 + 1442695040888963407
		binary.LittleEndian.PutUint64(payload[i:], seed)
	}
	out := append(ftyp, free...)
	return append(out, box("mdat", payload)...)
}
