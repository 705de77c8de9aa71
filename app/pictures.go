package app

import (
	"bufio"
	"bytes"
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
	"strings"
	"time"

	"golang.org/x/image/webp"

	"github.com/agentdesk/agentdesk/internal/recovered"
	"github.com/agentdesk/agentdesk/internal/safe"
)

// What a picture named in a reply may cost before anyone sees it. A reply
// can name any address: the picture is fetched only when the user asks,
// and never beyond these limits.
const (
	// PictureTimeout bounds one picture's download: a slow host must not
	// keep a reply's pictures loading for ever.
	PictureTimeout = 10 * time.Second
	// MaxPictureBytes is the largest picture file downloaded (10 MB): far
	// above any picture worth showing in a reply.
	MaxPictureBytes = 10_000_000
	// MaxPicturePixels is the largest picture decoded: 40 megapixels take
	// 160 MB once decoded. A small file can claim to be far bigger (a
	// "decompression bomb"), so the size is read from its header first.
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
	// PictureNotWeb: the address is not a web address (a file on this
	// computer or the network, another program's link).
	PictureNotWeb PictureReason = iota
	// PictureTooLarge: the file is larger than MaxPictureBytes.
	PictureTooLarge
	// PictureTooBig: the picture has more than MaxPicturePixels.
	PictureTooBig
	// PictureUnreadable: not a PNG, JPEG, GIF or WebP picture, or one
	// its decoder could not read.
	PictureUnreadable
	// PictureUnavailable: its host answered with an error.
	PictureUnavailable
)

func (e *PictureError) Error() string {
	return fmt.Sprintf("picture not shown (reason %d, %d×%d, status %d)", e.Reason, e.Width, e.Height, e.Status)
}

// pictureClient fetches pictures named in replies. It carries no key and no
// cookies, and follows redirects only to other web addresses.
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

// ShowPicture returns a picture a reply names, decoded, when the user has
// asked for the message's pictures. Only web addresses are fetched, in at
// most PictureTimeout, up to MaxPictureBytes; only PNG, JPEG, GIF and WebP
// are decoded, each by its own decoder once its header showed it within
// MaxPicturePixels and the memory budget (decodePicture). The picture
// counts against that budget until dropped is called (from any goroutine):
// the view then lets go of it, and asks again when it is drawn again. seen
// tells the budget the picture was drawn: the pictures least recently seen
// are dropped first.
func (a *App) ShowPicture(ctx context.Context, raw string, dropped func()) (img image.Image, seen func(), err error) {
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

// ShowPictureFile is ShowPicture for a picture file on this computer (a
// picture an agent made): Fyne's own loader would hand it to any decoder
// it knows.
func (a *App) ShowPictureFile(ctx context.Context, path string, dropped func()) (image.Image, func(), error) {
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
		var pe *PictureError
		if errors.As(err, &pe) {
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

// pictureFormat is one of the formats Agent Desk shows, with its own header
// reader and decoder. image.DecodeConfig and image.Decode hand a file to
// whichever registered decoder claims it (Fyne registers more, ICO among
// them), and a second decoder's header can say another size than the one
// checked, or make the check itself allocate gigabytes.
type pictureFormat struct {
	config func(io.Reader) (image.Config, error)
	decode func(io.Reader) (image.Image, error)
	// working, when not nil, is the memory its decoder takes besides the
	// picture, from the file (read from its start) and its header.
	working func(*bufio.Reader, image.Config) int64
}

// pictureHeadLen is how many first bytes tell the formats apart.
const pictureHeadLen = 12

// sniffPicture tells the format from the file's first bytes, never from
// its address or the content type its host gave.
func sniffPicture(head []byte) (pictureFormat, bool) {
	s := string(head)
	switch {
	case strings.HasPrefix(s, "\x89PNG\r\n\x1a\n"):
		return pictureFormat{png.DecodeConfig, png.Decode, pngWorking}, true
	case strings.HasPrefix(s, "\xff\xd8\xff"):
		return pictureFormat{jpeg.DecodeConfig, jpeg.Decode, jpegWorking}, true
	case strings.HasPrefix(s, "GIF87a"), strings.HasPrefix(s, "GIF89a"):
		// gif.Decode reads the first frame only, which must lie within
		// the logical screen DecodeConfig reports.
		return pictureFormat{gif.DecodeConfig, gif.Decode, nil}, true
	case len(s) >= 12 && s[:4] == "RIFF" && s[8:12] == "WEBP":
		// webp.Decode refuses a frame of another size than the canvas
		// DecodeConfig reports.
		return pictureFormat{webp.DecodeConfig, webp.Decode, webpWorking}, true
	}
	return pictureFormat{}, false
}

// readPictureHeader reads which of PNG, JPEG, GIF or WebP r holds, and the
// size that format's own header gives, refusing anything else and any
// picture of more than MaxPicturePixels.
func readPictureHeader(r io.Reader) (pictureFormat, image.Config, error) {
	unreadable := &PictureError{Reason: PictureUnreadable}
	br := bufio.NewReader(r)
	head, err := br.Peek(pictureHeadLen)
	if err != nil && !errors.Is(err, io.EOF) {
		return pictureFormat{}, image.Config{}, unreadable
	}
	f, ok := sniffPicture(head)
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

// CheckPictureSize reads a picture's header and refuses one that is not a
// picture Agent Desk reads or that has more than MaxPicturePixels: decoding
// such a file whole could take gigabytes from a few hundred kilobytes.
func CheckPictureSize(r io.Reader) error {
	_, _, err := readPictureHeader(r)
	return err
}

// decodePicture decodes the picture r holds with its format's own decoder,
// after readPictureHeader, and after reserve (when not nil) made room in
// memory for the picture and for working, what its decoder takes besides,
// or refused it. Nothing else is decoded.
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

// unpanicked runs a decoder over data a server sent: a decoder's bug that
// panics on some file must not end Agent Desk, the picture is unreadable.
func unpanicked[T any](fn func() (T, error)) (v T, err error) {
	defer func() {
		if recovered.From("a picture", recover()) != nil {
			var zero T
			v, err = zero, &PictureError{Reason: PictureUnreadable}
		}
	}()
	return fn()
}

// decodedSize is the memory a picture of this header takes once decoded:
// 4 bytes a pixel, 8 for 16 bits a channel (deep-colour PNG).
func decodedSize(cfg image.Config) int64 {
	bpp := int64(4)
	if cfg.ColorModel == color.RGBA64Model || cfg.ColorModel == color.NRGBA64Model {
		bpp = 8
	}
	return int64(cfg.Width) * int64(cfg.Height) * bpp
}

// pngWorking is what an interlaced PNG takes to decode besides the picture:
// its passes are decoded apart, about the picture's size again (measured:
// 303 MB allocated for a 6300 × 6300 picture of 151 MB).
func pngWorking(r *bufio.Reader, cfg image.Config) int64 {
	// The header is the first chunk; its last byte says interlaced.
	head, err := r.Peek(29)
	if err == nil && head[28] == 0 {
		return 0
	}
	return decodedSize(cfg)
}

// jpegWorking is what a progressive JPEG takes to decode besides the
// picture: 4 bytes a pixel for each colour component until its last scan
// (measured: 568 MB allocated for a 6300 × 6300 colour picture of 700 kB).
// A JPEG whose markers cannot be read counts as progressive.
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

// jpegProgressive reads a JPEG's markers up to its frame header the way
// image/jpeg does: the first frame header decides, and says progressive.
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

// losslessWorking is what decoding lossless WebP data may take besides the
// picture, whatever its size: a table of up to 65,536 Huffman groups of
// 2,680 bytes (measured: 128 MB allocated for a file of 34 bytes).
const losslessWorking = 65536 * 2680

// losslessPerByte is what the lossless decoder's Huffman tables may grow
// by for each byte of its data: counted whole, so a crafted file is refused
// rather than trusted (a lossless picture of more than about 300 kB does
// not fit the budget, and is offered as a file to save).
const losslessPerByte = 256

// webpWorking is losslessWorking for a WebP picture holding lossless data
// (its picture, or the transparency of a lossy one), else nothing. Its
// chunks are read up to the picture's; one that cannot be read counts as
// lossless.
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
