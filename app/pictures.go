package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // pictures in replies may be GIF, JPEG, PNG or WebP
	_ "image/jpeg"
	_ "image/png"
	"io"
	"net/http"
	"sync"
	"time"

	_ "golang.org/x/image/webp"

	"github.com/agentdesk/agentdesk/app/safe"
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
	// PictureUnreadable: not a picture in a format Agent Desk reads.
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

// FetchPicture downloads and decodes a picture a reply names, when the user
// has asked for the message's pictures. Only web addresses are fetched, in
// at most PictureTimeout, up to MaxPictureBytes; the picture's size is
// checked against MaxPicturePixels before it is decoded.
func (a *App) FetchPicture(ctx context.Context, raw string) (image.Image, error) {
	if img, ok := a.pictures.get(raw); ok {
		return img, nil
	}
	img, err := fetchPicture(ctx, raw)
	if err == nil {
		a.pictures.put(raw, img)
	}
	return img, err
}

func fetchPicture(ctx context.Context, raw string) (image.Image, error) {
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
	return DecodePicture(data)
}

// DecodePicture decodes a picture after checking, from its header alone,
// that it is not larger than MaxPicturePixels.
func DecodePicture(data []byte) (image.Image, error) {
	if err := CheckPictureSize(bytes.NewReader(data)); err != nil {
		return nil, err
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, &PictureError{Reason: PictureUnreadable}
	}
	return img, nil
}

// CheckPictureSize reads a picture's header and refuses one that is not a
// picture Agent Desk reads or that has more than MaxPicturePixels: decoding
// such a file whole could take gigabytes from a few hundred kilobytes.
func CheckPictureSize(r io.Reader) error {
	cfg, _, err := image.DecodeConfig(r)
	if err != nil {
		return &PictureError{Reason: PictureUnreadable}
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || int64(cfg.Width)*int64(cfg.Height) > MaxPicturePixels {
		return &PictureError{Reason: PictureTooBig, Width: cfg.Width, Height: cfg.Height}
	}
	return nil
}

// pictureCacheBytes bounds the decoded pictures kept for the session: a
// picture shown again (the row rebuilt, the conversation reopened) is
// not fetched again, and the oldest go first beyond this.
const pictureCacheBytes = 64 << 20

// pictureCache keeps decoded pictures by address, oldest first out.
type pictureCache struct {
	mu    sync.Mutex
	order []string
	byURL map[string]image.Image
	bytes int
}

func pictureBytes(img image.Image) int {
	b := img.Bounds()
	return b.Dx() * b.Dy() * 4
}

func (c *pictureCache) get(url string) (image.Image, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	img, ok := c.byURL[url]
	return img, ok
}

func (c *pictureCache) put(url string, img image.Image) {
	n := pictureBytes(img)
	if n > pictureCacheBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byURL == nil {
		c.byURL = map[string]image.Image{}
	}
	if _, ok := c.byURL[url]; ok {
		return
	}
	for c.bytes+n > pictureCacheBytes && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.bytes -= pictureBytes(c.byURL[old])
		delete(c.byURL, old)
	}
	c.byURL[url] = img
	c.order = append(c.order, url)
	c.bytes += n
}
