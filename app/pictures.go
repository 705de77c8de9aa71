package app

import (
	"bufio"
	"bytes"
	"container/list"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"net/http"
	"os"
	"sync"
	"time"

	"golang.org/x/image/webp"

	"github.com/agentdesk/agentdesk/internal/recovered"
	"github.com/agentdesk/agentdesk/internal/safe"
)

// Limits on a picture a reply names, fetched only when the user asks.
const (
	// PictureTimeout bounds one picture's download.
	PictureTimeout = 10 * time.Second
	// MaxPictureBytes is the largest picture file downloaded.
	MaxPictureBytes = 10_000_000
	// MaxPicturePixels is the largest picture decoded; the size is read from
	// the header first, as a small file can decode to gigabytes.
	MaxPicturePixels = 40_000_000
)

// PictureError says why a picture was not shown; Explain words it.
type PictureError struct {
	// Reason is one of the Picture* reasons below.
	Reason PictureReason
	// Width and Height are the size the picture claims, for PictureTooBig.
	Width, Height int
	// Status is the HTTP status its host answered, for PictureUnavailable.
	Status int
}

// PictureReason is why a picture was not shown.
type PictureReason int

// The reasons a picture is not shown.
const (
	// PictureNotWeb: the address is not a web address.
	PictureNotWeb PictureReason = iota
	// PictureTooLarge: the file is larger than MaxPictureBytes.
	PictureTooLarge
	// PictureTooBig: the picture has more than MaxPicturePixels.
	PictureTooBig
	// PictureUnreadable: not a PNG, JPEG, GIF or WebP its decoder could read.
	PictureUnreadable
	// PictureUnavailable: its host answered with an error.
	PictureUnavailable
)

func (e *PictureError) Error() string {
	return fmt.Sprintf("picture not shown (reason %d, %d×%d, status %d)", e.Reason, e.Width, e.Height, e.Status)
}

// pictureClient fetches reply pictures: no key, no cookies, redirects only to the web.
var pictureClient = &http.Client{
	CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) >= 5 {
			return errors.New("too many redirects")
		}
		if u, ok := safe.Link(req.URL.String()); !ok || u.Scheme == "mailto" {
			return &PictureError{Reason: PictureNotWeb}
		}
		return nil
	},
}

// ShowPicture returns a reply's picture, counted against the budget until
// dropped is called; seen(true) marks it drawn (the least recently seen go
// first), seen(false) gives it back when the view no longer draws it.
func (a *App) ShowPicture(ctx context.Context, raw string, dropped func()) (img image.Image, seen func(keep bool), err error) {
	key := "web " + raw
	if img, seen := a.pictures.share(key, dropped); img != nil {
		return img, seen, nil
	}
	data, ok := a.pictures.file(key)
	if !ok {
		if data, err = fetchPicture(ctx, raw); err != nil {
			return nil, nil, err
		}
	}
	img, seen, err = a.pictures.show(ctx, key, bytes.NewReader(data), dropped)
	if err == nil {
		a.pictures.keepFile(key, data)
	}
	return img, seen, err
}

// ShowPictureFile is ShowPicture for a local file.
func (a *App) ShowPictureFile(ctx context.Context, path string, dropped func()) (image.Image, func(keep bool), error) {
	key := "file " + path
	if img, seen := a.pictures.share(key, dropped); img != nil {
		return img, seen, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, &PictureError{Reason: PictureUnreadable}
	}
	defer f.Close()
	return a.pictures.show(ctx, key, f, dropped)
}

func fetchPicture(ctx context.Context, raw string) ([]byte, error) {
	u, ok := safe.Link(raw)
	if !ok || u.Scheme == "mailto" {
		return nil, &PictureError{Reason: PictureNotWeb}
	}
	ctx, cancel := context.WithTimeout(ctx, PictureTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, &PictureError{Reason: PictureNotWeb}
	}
	req.Header.Set("Accept", "image/*")
	resp, err := pictureClient.Do(req)
	if err != nil {
		if pe, ok := errors.AsType[*PictureError](err); ok {
			return nil, pe
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, &PictureError{Reason: PictureUnavailable, Status: resp.StatusCode}
	}
	if resp.ContentLength > MaxPictureBytes {
		return nil, &PictureError{Reason: PictureTooLarge}
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxPictureBytes+1))
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	if len(data) > MaxPictureBytes {
		return nil, &PictureError{Reason: PictureTooLarge}
	}
	return data, nil
}

// pictureFormat is a format with its own header reader and decoder: image.Decode
// would try any registered decoder, whose header may disagree with the size checked.
type pictureFormat struct {
	config func(io.Reader) (image.Config, error)
	decode func(io.Reader) (image.Image, error)
	// working is the memory its decoder takes besides the picture, or nil.
	working func(*bufio.Reader, image.Config) int64
}

// pictureFormats are the formats shown, by the extension safe.Sniff tells
// from the first bytes (never the address or content type).
var pictureFormats = map[string]pictureFormat{
	".png": {png.DecodeConfig, png.Decode, pngWorking},
	".jpg": {jpeg.DecodeConfig, jpeg.Decode, jpegWorking},
	// gif.Decode reads the first frame, within DecodeConfig's screen.
	".gif": {gif.DecodeConfig, gif.Decode, nil},
	// webp.Decode refuses a frame other than DecodeConfig's canvas.
	".webp": {webp.DecodeConfig, webp.Decode, webpWorking},
}

// readPictureHeader reads the format and size, refusing any beyond MaxPicturePixels.
func readPictureHeader(r io.Reader) (pictureFormat, image.Config, error) {
	unreadable := &PictureError{Reason: PictureUnreadable}
	br := bufio.NewReader(r)
	head, err := br.Peek(safe.SniffLen)
	if err != nil && !errors.Is(err, io.EOF) {
		return pictureFormat{}, image.Config{}, unreadable
	}
	_, ext := safe.Sniff(head)
	f, ok := pictureFormats[ext]
	if !ok {
		return pictureFormat{}, image.Config{}, unreadable
	}
	cfg, err := unpanicked(func() (image.Config, error) { return f.config(br) })
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return pictureFormat{}, image.Config{}, unreadable
	}
	if int64(cfg.Width)*int64(cfg.Height) > MaxPicturePixels {
		return pictureFormat{}, image.Config{}, &PictureError{Reason: PictureTooBig, Width: cfg.Width, Height: cfg.Height}
	}
	return f, cfg, nil
}

// decodePicture decodes after reserve made room for the picture and its working memory.
func decodePicture(r io.ReadSeeker, reserve func(cfg image.Config, working int64) error) (image.Image, error) {
	f, cfg, err := readPictureHeader(r)
	if err != nil {
		return nil, err
	}
	unreadable := &PictureError{Reason: PictureUnreadable}
	if reserve != nil {
		var working int64
		if f.working != nil {
			if _, err := r.Seek(0, io.SeekStart); err != nil {
				return nil, unreadable
			}
			working = f.working(bufio.NewReader(r), cfg)
		}
		if err := reserve(cfg, working); err != nil {
			return nil, err
		}
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, unreadable
	}
	img, err := unpanicked(func() (image.Image, error) { return f.decode(bufio.NewReader(r)) })
	if err != nil {
		return nil, unreadable
	}
	// What was decoded is never larger than the header said.
	if b := img.Bounds(); b.Dx() > cfg.Width || b.Dy() > cfg.Height {
		return nil, unreadable
	}
	return img, nil
}

// unpanicked turns a decoder's panic over server data into PictureUnreadable.
func unpanicked[T any](fn func() (T, error)) (v T, err error) {
	defer func() {
		if recovered.From("a picture", recover()) != nil {
			var zero T
			v, err = zero, &PictureError{Reason: PictureUnreadable}
		}
	}()
	return fn()
}

// decodedSize is a decoded picture's memory: 4 bytes a pixel, 8 for 16-bit PNG.
func decodedSize(cfg image.Config) int64 {
	bpp := int64(4)
	if cfg.ColorModel == color.RGBA64Model || cfg.ColorModel == color.NRGBA64Model {
		bpp = 8
	}
	return int64(cfg.Width) * int64(cfg.Height) * bpp
}

// pngWorking: an interlaced PNG's passes take about the picture's size again.
func pngWorking(r *bufio.Reader, cfg image.Config) int64 {
	// The header is the first chunk; its last byte says interlaced.
	head, err := r.Peek(29)
	if err == nil && head[28] == 0 {
		return 0
	}
	return decodedSize(cfg)
}

// jpegWorking: a progressive (or unreadable) JPEG takes 4 bytes a pixel per component.
func jpegWorking(r *bufio.Reader, cfg image.Config) int64 {
	if progressive, ok := jpegProgressive(r); ok && !progressive {
		return 0
	}
	comps := int64(4)
	switch cfg.ColorModel {
	case color.GrayModel:
		comps = 1
	case color.YCbCrModel:
		comps = 3
	}
	// Blocks cover whole units of up to 16 × 16 pixels.
	w, h := (int64(cfg.Width)+15)/16*16, (int64(cfg.Height)+15)/16*16
	return w * h * 4 * comps
}

// jpegProgressive reads markers to the first frame header, as image/jpeg does.
func jpegProgressive(r *bufio.Reader) (progressive, ok bool) {
	var m [2]byte
	if _, err := io.ReadFull(r, m[:]); err != nil {
		return false, false
	}
	for {
		if _, err := io.ReadFull(r, m[:]); err != nil {
			return false, false
		}
		// Bytes other than a marker's are skipped.
		for m[0] != 0xff {
			c, err := r.ReadByte()
			if err != nil {
				return false, false
			}
			m[0], m[1] = m[1], c
		}
		marker := m[1]
		if marker == 0 {
			continue
		}
		for marker == 0xff {
			c, err := r.ReadByte()
			if err != nil {
				return false, false
			}
			marker = c
		}
		switch {
		case marker == 0xd9: // the end, and no frame
			return false, false
		case marker >= 0xd0 && marker <= 0xd7: // restart markers carry nothing
			continue
		}
		if _, err := io.ReadFull(r, m[:]); err != nil {
			return false, false
		}
		n := int64(m[0])<<8 + int64(m[1]) - 2
		if n < 0 {
			return false, false
		}
		switch marker {
		case 0xc0, 0xc1:
			return false, true
		case 0xc2:
			return true, true
		}
		if _, err := r.Discard(int(n)); err != nil {
			return false, false
		}
	}
}

// losslessWorking is lossless WebP's working memory: 65,536 Huffman groups of 2,680 bytes.
const losslessWorking = 65536 * 2680

// losslessPerByte is how much the Huffman tables may grow per data byte.
const losslessPerByte = 256

// webpWorking is losslessWorking for lossless (or unreadable) WebP, else 0.
func webpWorking(r *bufio.Reader, _ image.Config) int64 {
	if _, err := r.Discard(12); err != nil {
		return losslessWorking
	}
	var head [8]byte
	for {
		if _, err := io.ReadFull(r, head[:]); err != nil {
			return losslessWorking
		}
		n := int64(binary.LittleEndian.Uint32(head[4:]))
		switch string(head[:4]) {
		case "VP8 ":
			return 0
		case "VP8L", "ALPH":
			return losslessWorking + losslessPerByte*n
		}
		n += n & 1 // chunks are padded to an even length
		if _, err := r.Discard(int(n)); err != nil {
			return losslessWorking
		}
	}
}

// PictureBudget is the memory decoded pictures may take at once; beyond it
// the least recently seen are dropped.
const PictureBudget = 256 << 20

// keptPictureFiles bounds kept picture downloads, so a redraw need not download again.
const keptPictureFiles = 64 << 20

// minHeldSize is the least a shown picture counts for, its view included.
const minHeldSize = 64 << 10

// pictureStore keeps decoded pictures within one budget and downloads within another.
type pictureStore struct {
	budget int64
	// decoding allows one decode at a time: its working memory adds to the picture's.
	decoding chan struct{}

	mu sync.Mutex
	// held are the pictures views hold, most recently seen first.
	held list.List
	used int64
	// files are the downloaded files, most recently used first.
	files     list.List
	fileByKey map[string]*list.Element
	fileBytes int64
}

type heldPicture struct {
	key     string
	img     image.Image // nil while it is being decoded
	size    int64
	dropped func()
	el      *list.Element // nil once dropped
}

type keptFile struct {
	key  string
	data []byte
}

func newPictureStore(budget int64) *pictureStore {
	if budget <= 0 {
		budget = PictureBudget
	}
	return &pictureStore{budget: budget, decoding: make(chan struct{}, 1), fileByKey: map[string]*list.Element{}}
}

// show decodes src and holds it until dropped; one that cannot fit is PictureTooBig.
func (s *pictureStore) show(ctx context.Context, key string, src io.ReadSeeker, dropped func()) (image.Image, func(keep bool), error) {
	select {
	case s.decoding <- struct{}{}:
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	defer func() { <-s.decoding }()
	// The same picture may have been decoded while this one waited.
	if img, seen := s.share(key, dropped); img != nil {
		return img, seen, nil
	}
	var h *heldPicture
	var n int64
	img, err := decodePicture(src, func(cfg image.Config, working int64) error {
		n = decodedSize(cfg)
		if n+working > s.budget {
			return &PictureError{Reason: PictureTooBig, Width: cfg.Width, Height: cfg.Height}
		}
		h = s.hold(key, nil, n+working, dropped)
		return nil
	})
	if err != nil {
		if h != nil {
			s.forget(h)
		}
		return nil, nil, err
	}
	// Decoded: the decoder's working memory is given back.
	s.mu.Lock()
	if h.el != nil {
		h.img = img
		s.used -= h.size - max(n, minHeldSize)
		h.size = max(n, minHeldSize)
	}
	s.mu.Unlock()
	return img, s.seenOrGone(h), nil
}

// share holds an already decoded picture for another view, counted again.
func (s *pictureStore) share(key string, dropped func()) (image.Image, func(keep bool)) {
	s.mu.Lock()
	var img image.Image
	var size int64
	for el := s.held.Front(); el != nil; el = el.Next() {
		if h := el.Value.(*heldPicture); h.key == key && h.img != nil {
			img, size = h.img, h.size
			break
		}
	}
	s.mu.Unlock()
	if img == nil {
		return nil, nil
	}
	h := s.hold(key, img, size, dropped)
	return img, s.seenOrGone(h)
}

// hold counts a picture, dropping the least recently seen until it fits.
func (s *pictureStore) hold(key string, img image.Image, size int64, dropped func()) *heldPicture {
	h := &heldPicture{key: key, img: img, size: max(size, minHeldSize), dropped: dropped}
	var out []*heldPicture
	s.mu.Lock()
	h.el = s.held.PushFront(h)
	s.used += h.size
	for s.used > s.budget && s.held.Back() != h.el {
		old := s.held.Back().Value.(*heldPicture)
		s.remove(old)
		out = append(out, old)
	}
	s.mu.Unlock()
	for _, old := range out {
		if old.dropped != nil {
			old.dropped()
		}
	}
	return h
}

func (s *pictureStore) remove(h *heldPicture) {
	s.held.Remove(h.el)
	h.el, h.img = nil, nil
	s.used -= h.size
}

func (s *pictureStore) forget(h *heldPicture) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h.el != nil {
		s.remove(h)
	}
}

// seenOrGone is what a view tells of its picture: drawn, or no longer held.
func (s *pictureStore) seenOrGone(h *heldPicture) func(keep bool) {
	return func(keep bool) {
		if keep {
			s.seen(h)
		} else {
			s.forget(h)
		}
	}
}

func (s *pictureStore) seen(h *heldPicture) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h.el != nil {
		s.held.MoveToFront(h.el)
	}
}

func (s *pictureStore) file(key string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	el, ok := s.fileByKey[key]
	if !ok {
		return nil, false
	}
	s.files.MoveToFront(el)
	return el.Value.(*keptFile).data, true
}

// keepFile keeps a download, dropping the least recently used beyond keptPictureFiles.
func (s *pictureStore) keepFile(key string, data []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.fileByKey[key]; ok || len(data) > keptPictureFiles {
		return
	}
	s.fileByKey[key] = s.files.PushFront(&keptFile{key: key, data: data})
	s.fileBytes += int64(len(data))
	for s.fileBytes > keptPictureFiles {
		old := s.files.Remove(s.files.Back()).(*keptFile)
		delete(s.fileByKey, old.key)
		s.fileBytes -= int64(len(old.data))
	}
}
