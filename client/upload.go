package client

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
)

// UploadParams names the file to upload: Path, or Reader with Filename and Size.
type UploadParams struct {
	Path        string
	Reader      io.Reader
	Filename    string // default: Path's base name
	Size        int64  // Reader's size; -1 or 0: unknown, sent chunked
	ContentType string // default application/octet-stream
	// Progress is called on the sending goroutine as bytes go (total -1: unknown).
	Progress func(sent, total int64)
	// Process asks the service to process the file at once, for credits.
	Process bool
}

// Limits of the real service's file storage: the largest file, and how many an account keeps.
const (
	MaxUploadBytes int64 = 200 << 20
	MaxStoredFiles       = 30
)

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

// UploadFile uploads a file and returns its record. Assumption: POST /files,
// multipart field "file". The content streams, with an exact Content-Length
// when the size is known; never retried.
func (c *Client) UploadFile(ctx context.Context, params UploadParams, opts ...Option) (*File, error) {
	cfg := c.callConfig(opts)
	src, name, size := params.Reader, params.Filename, params.Size
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
		src, size = f, st.Size()
		if name == "" {
			name = filepath.Base(params.Path)
		}
	}
	if src == nil {
		return nil, errors.New("agentdesk: UploadParams needs a Path or a Reader")
	}
	name = cmp.Or(name, "upload")
	if size > MaxUploadBytes {
		return nil, &InputError{Field: "file", Message: fmt.Sprintf("%s is %s; the service takes files of up to 200 MB.", name, humanBytes(size))}
	}

	// Build the multipart head and tail once; the content goes between them.
	var head bytes.Buffer
	mw := multipart.NewWriter(&head)
	if params.Process {
		if err := mw.WriteField("process", "true"); err != nil {
			return nil, err
		}
	}
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="file"; filename="%s"`, quoteEscaper.Replace(name)))
	h.Set("Content-Type", cmp.Or(params.ContentType, "application/octet-stream"))
	if _, err := mw.CreatePart(h); err != nil {
		return nil, err
	}
	headBytes := append([]byte(nil), head.Bytes()...)
	head.Reset()
	if err := mw.Close(); err != nil {
		return nil, err
	}
	tail := head.Bytes()

	total, length, content := int64(-1), int64(-1), io.Reader(src)
	if size > 0 {
		// A file that grows while it is read still sends exactly size bytes.
		total, length, content = size, int64(len(headBytes))+size+int64(len(tail)), io.LimitReader(src, size)
	}
	body := io.MultiReader(bytes.NewReader(headBytes), &progressReader{r: content, total: total, fn: params.Progress}, bytes.NewReader(tail))

	req := request{
		method:        http.MethodPost,
		path:          "/files",
		raw:           body,
		contentType:   mw.FormDataContentType(),
		contentLength: length,
	}
	return doRecord[File](ctx, c, cfg, req, "data", "file")
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
