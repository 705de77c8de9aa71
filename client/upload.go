package client

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
)

// UploadParams names the file to upload: Path, or Reader with Filename and Size.
type UploadParams struct {
	Path        string
	Reader      io.Reader // an io.ReadSeeker can be sent again after a 429
	Filename    string    // default: Path's base name
	Size        int64     // Reader's size; -1 or 0: unknown, sent chunked
	ContentType string    // default: from the name's extension
	// Progress is called on the sending goroutine as bytes go (total -1:
	// unknown); a file sent again after a refusal counts from 0 again.
	Progress func(sent, total int64)
	// Process asks the service to process the file at once, for credits.
	Process bool
}

// Limits of the real service's file storage, in the decimal units its
// documentation uses: the largest file, the largest sound file (for
// transcription), how many files an account keeps, and the size above
// which a file takes the large-file flow.
const (
	MaxUploadBytes      int64 = 200_000_000
	MaxAudioUploadBytes int64 = 10_000_000
	MaxStoredFiles            = 30
	LargeFileBytes      int64 = 32_000_000
)

// Why a file is refused before any byte is sent (CheckUpload).
var (
	ErrUploadTooLarge = errors.New("the service takes files of up to 200 MB")
	ErrAudioTooLarge  = errors.New("the service takes sound files of up to 10 MB")
	ErrUploadType     = errors.New("the service does not take this type of file")
)

// uploadTypes are the file types the real service documents.
var uploadTypes = strings.Fields(`txt doc docx csv pdf xls xlsx ppt pptx
	jpg jpeg png gif bmp svg tiff webp mp4 avi mov mkv wmv flv
	mp3 wav aac ogg flac m4a
	bas bat xml css dart html htm inc js json kt lua pas php pl ps1 py r sh vsd sql swift ts vb vba yml yaml md`)

var audioTypes = []string{"mp3", "wav", "aac", "ogg", "flac", "m4a"}

// CheckUpload says whether the service takes a file of this name and size:
// nil, or an *InputError wrapping ErrUploadType, ErrAudioTooLarge or ErrUploadTooLarge.
func CheckUpload(name string, size int64) error {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(name), "."))
	var why error
	switch {
	case !slices.Contains(uploadTypes, ext):
		why = ErrUploadType
	case size > MaxAudioUploadBytes && slices.Contains(audioTypes, ext):
		why = ErrAudioTooLarge
	case size > MaxUploadBytes:
		why = ErrUploadTooLarge
	default:
		return nil
	}
	return &InputError{Field: "file", Message: fmt.Sprintf("%s (%s): %v.", name, humanBytes(size), why), Err: why}
}

// humanBytes writes a size 1000-based with one decimal, like file managers.
func humanBytes(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d bytes", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 3; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %cB", float64(n)/float64(div), "kMGT"[exp])
}

// upload is one file's content, which can be read again from its start.
type upload struct {
	name, contentType string
	size              int64 // -1: unknown
	src               io.Reader
	progress          func(sent, total int64)
}

// rewind returns the content from its start with progress counted anew, or
// nil when the content cannot be read again.
func (u *upload) rewind() io.Reader {
	if s, ok := u.src.(io.Seeker); ok {
		if _, err := s.Seek(0, io.SeekStart); err != nil {
			return nil
		}
	}
	return u.content()
}

// content is the content as it reads now: exactly size bytes when known, so
// a file that grows while it is read still sends what it announced.
func (u *upload) content() io.Reader {
	r := u.src
	if u.size > 0 {
		r = io.LimitReader(r, u.size)
	}
	return &progressReader{r: r, total: u.size, fn: u.progress}
}

func (u *upload) resendable() bool {
	_, ok := u.src.(io.Seeker)
	return ok
}

// UploadFile uploads a file and returns its record, after CheckUpload.
// Files up to LargeFileBytes go in one multipart POST /files (field
// "file"); larger ones take the large-file flow where the service offers
// it. The content streams with an exact length when the size is known. A
// 429 sends it again when it can be read again; nothing else is repeated.
func (c *Client) UploadFile(ctx context.Context, params UploadParams, opts ...Option) (*File, error) {
	cfg := c.callConfig(opts)
	u := &upload{src: params.Reader, name: params.Filename, size: params.Size, progress: params.Progress}
	if params.Path != "" {
		f, err := os.Open(params.Path)
		if err != nil {
			return nil, fmt.Errorf("agentdesk: opening the file to upload: %w", err)
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return nil, fmt.Errorf("agentdesk: reading the file to upload: %w", err)
		}
		if st.IsDir() {
			return nil, fmt.Errorf("agentdesk: %s is a folder, not a file", filepath.Base(params.Path))
		}
		u.src, u.size = f, st.Size()
		u.name = cmp.Or(u.name, filepath.Base(params.Path))
	}
	if u.src == nil {
		return nil, errors.New("agentdesk: UploadParams needs a Path or a Reader")
	}
	if u.size <= 0 {
		u.size = -1
	}
	u.name = cmp.Or(u.name, "upload")
	if err := CheckUpload(u.name, max(u.size, 0)); err != nil {
		return nil, err
	}
	u.contentType = cmp.Or(params.ContentType, contentTypeOf(u.name))
	if u.size > LargeFileBytes {
		f, err := c.uploadLarge(ctx, cfg, u, params.Process)
		if !errors.Is(err, errNoLargeFlow) {
			return f, err
		}
		// A service without the large-file flow takes it in one request, or says why not.
	}
	return c.uploadMultipart(ctx, cfg, u, params.Process)
}

// contentTypeOf guesses a file's type from its name, like a browser's form.
func contentTypeOf(name string) string {
	t, _, err := mime.ParseMediaType(mime.TypeByExtension(filepath.Ext(name)))
	if err != nil || t == "" {
		return "application/octet-stream"
	}
	return t
}

// uploadMultipart sends the file in one POST /files.
func (c *Client) uploadMultipart(ctx context.Context, cfg *config, u *upload, process bool) (*File, error) {
	// Build the multipart head and tail once; the content goes between them.
	var head bytes.Buffer
	mw := multipart.NewWriter(&head)
	if process {
		if err := mw.WriteField("process", "true"); err != nil {
			return nil, err
		}
	}
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="file"; filename="%s"`, quoteEscaper.Replace(u.name)))
	h.Set("Content-Type", u.contentType)
	if _, err := mw.CreatePart(h); err != nil {
		return nil, err
	}
	headBytes := append([]byte(nil), head.Bytes()...)
	head.Reset()
	if err := mw.Close(); err != nil {
		return nil, err
	}
	tail := head.Bytes()
	length := int64(-1)
	if u.size > 0 {
		length = int64(len(headBytes)) + u.size + int64(len(tail))
	}
	body := func(content io.Reader) io.Reader {
		return io.MultiReader(bytes.NewReader(headBytes), content, bytes.NewReader(tail))
	}
	req := request{method: http.MethodPost, path: "/files", raw: body(u.content()),
		contentType: mw.FormDataContentType(), contentLength: length}
	if u.resendable() {
		req.rewind = func() io.Reader {
			if r := u.rewind(); r != nil {
				return body(r)
			}
			return nil
		}
	}
	return doRecord[File](ctx, c, cfg, req, "data", "file")
}

// errNoLargeFlow means the service has no large-file flow.
var errNoLargeFlow = errors.New("agentdesk: the service has no large-file flow")

// signedUpload is the service's answer to POST /v2/files/sign.
type signedUpload struct {
	URL     string            `json:"upload_url"`
	URL2    string            `json:"uploadUrl"`
	Object  string            `json:"object_path"`
	Object2 string            `json:"objectPath"`
	Headers map[string]string `json:"required_headers"`
	Header2 map[string]string `json:"requiredHeaders"`
}

// uploadLarge sends a large file the real service's way: POST
// /v2/files/sign, PUT of the bytes to the signed address (which carries its
// own authorisation, so neither key nor workspace goes with it), then POST
// /v2/files/register. A PUT cut off is tried again from the start once;
// register is never sent twice.
func (c *Client) uploadLarge(ctx context.Context, cfg *config, u *upload, process bool) (*File, error) {
	sign := request{method: http.MethodPost, path: "/v2/files/sign", retry: true,
		body: map[string]any{"filename": u.name, "content_type": u.contentType, "size": u.size}}
	var signed signedUpload
	if err := c.do(ctx, cfg, sign, &signed); err != nil {
		if s := StatusCode(err); s == http.StatusNotFound || s == http.StatusMethodNotAllowed {
			return nil, errNoLargeFlow
		}
		return nil, err
	}
	target, object := cmp.Or(signed.URL, signed.URL2), cmp.Or(signed.Object, signed.Object2)
	headers := signed.Headers
	if headers == nil {
		headers = signed.Header2
	}
	dest, err := url.Parse(target)
	if err != nil || (dest.Scheme != "https" && dest.Scheme != "http") || dest.Host == "" || object == "" {
		return nil, cfg.decodeError(sign.method, sign.path, fmt.Errorf("no usable upload address"), nil)
	}
	if err := c.putSigned(ctx, cfg, dest, headers, u); err != nil {
		return nil, err
	}
	register := request{method: http.MethodPost, path: "/v2/files/register",
		body: map[string]any{"object_path": object, "filename": u.name, "content_type": u.contentType, "process": process}}
	return doRecord[File](ctx, c, cfg, register, "data", "file")
}

// putSigned PUTs u to a signed address with its required headers and
// nothing of the account's; a PUT cut off goes again from the start once.
func (c *Client) putSigned(ctx context.Context, cfg *config, dest *url.URL, headers map[string]string, u *upload) error {
	anon := *cfg
	anon.apiKey, anon.workspace, anon.pacer = "", "", nil
	h := http.Header{}
	for k, v := range headers {
		h.Set(k, v)
	}
	req := request{method: http.MethodPut, path: dest.Path, url: dest, stay: true, raw: u.content(),
		contentLength: u.size, contentType: cmp.Or(h.Get("Content-Type"), u.contentType), header: h}
	if u.resendable() {
		req.rewind = u.rewind
	}
	for attempt := 0; ; attempt++ {
		res, err := c.send(ctx, &anon, req, nil)
		if err == nil {
			_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
			return res.Body.Close()
		}
		_, cut := errors.AsType[*NetworkError](err)
		if !cut || attempt > 0 || req.rewind == nil || ctx.Err() != nil {
			return err
		}
		if req.raw = req.rewind(); req.raw == nil {
			return err
		}
	}
}

var quoteEscaper = strings.NewReplacer("\\", "\\\\", `"`, "\\\"", "\r", "", "\n", "")

// progressReader reports bytes read through fn.
type progressReader struct {
	r     io.Reader
	sent  atomic.Int64
	total int64
	fn    func(sent, total int64)
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if n > 0 && p.fn != nil {
		p.fn(p.sent.Add(int64(n)), p.total)
	}
	return n, err
}
