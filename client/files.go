package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/url"
)

// LinkFiles links uploaded files to an agent (POST /agents/{agentId}/files); not retried.
func (c *Client) LinkFiles(ctx context.Context, agentID ID, fileIDs []ID, opts ...Option) (*AgentFiles, error) {
	if fileIDs == nil {
		fileIDs = []ID{}
	}
	req := request{method: http.MethodPost, path: pathf("/agents/%s/files", agentID), body: map[string]any{"file_ids": fileIDs}}
	return doRecord[AgentFiles](ctx, c, c.callConfig(opts), req, "data")
}

// ListAgentFiles lists the files linked to an agent (GET /agents/{agentId}/files).
func (c *Client) ListAgentFiles(ctx context.Context, agentID ID, opts ...Option) (*AgentFiles, error) {
	return doRecord[AgentFiles](ctx, c, c.callConfig(opts), request{method: http.MethodGet, path: pathf("/agents/%s/files", agentID), retry: true}, "data")
}

// UnlinkFile removes a file from an agent (DELETE /agents/{agentId}/files/{fileId}); not retried.
func (c *Client) UnlinkFile(ctx context.Context, agentID, fileID ID, opts ...Option) (*Unlinked, error) {
	return doRecord[Unlinked](ctx, c, c.callConfig(opts), request{method: http.MethodDelete, path: pathf("/agents/%s/files/%s", agentID, fileID)})
}

// ListFilesParams pages the file list.
type ListFilesParams struct {
	Page    int // 1-based; 0 means the first page
	PerPage int // 1 to 100; 0 means the server's default (15)
	// Order sorts on created_at: "desc" (the default) or "asc".
	Order string
}

// ListFiles returns one page of files (GET /files).
func (c *Client) ListFiles(ctx context.Context, params ListFilesParams, opts ...Option) (*Page[File], error) {
	if params.PerPage > 100 {
		params.PerPage = 100
	}
	return listPage[File](ctx, c, "/files", "", map[string]any{"order": params.Order}, params.Page, params.PerPage, opts)
}

// Files iterates over every file of every page, stopping at the first error.
func (c *Client) Files(ctx context.Context, params ListFilesParams, opts ...Option) iter.Seq2[File, error] {
	return iterate(ctx, c.ListFiles, params, opts)
}

// Download fetches an output file into w and returns its content type; a
// relative URL is resolved against the base URL, and only that origin gets the key.
func (c *Client) Download(ctx context.Context, rawURL string, w io.Writer, opts ...Option) (contentType string, err error) {
	cfg := c.callConfig(opts)
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", fmt.Errorf("agentdesk: invalid download URL: %w", errors.Unwrap(err))
	}
	if !u.IsAbs() {
		if cfg.baseURL == nil {
			return "", cfg.baseErr
		}
		base := *cfg.baseURL
		base.Path = base.Path + "/"
		u = base.ResolveReference(u)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("agentdesk: cannot download a %q URL", u.Scheme)
	}
	cfg.pacer = nil // downloads are not paced
	res, err := c.send(ctx, cfg, request{method: http.MethodGet, path: u.Path, url: u, retry: true, accept: "*/*"}, nil)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	if _, err := io.Copy(w, res.Body); err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("agentdesk: GET %s: %w", u.Path, ctx.Err())
		}
		return "", fmt.Errorf("agentdesk: GET %s: download interrupted: %w", u.Path, err)
	}
	return res.Header.Get("Content-Type"), nil
}

// GetFile reads one file's record (GET /files/{id}).
func (c *Client) GetFile(ctx context.Context, id ID, opts ...Option) (*File, error) {
	return doRecord[File](ctx, c, c.callConfig(opts), request{method: http.MethodGet, path: pathf("/files/%s", id), retry: true}, "data", "file")
}

// DeleteFile deletes a stored file (DELETE /files/{id}); not retried.
func (c *Client) DeleteFile(ctx context.Context, id ID, opts ...Option) error {
	return c.do(ctx, c.callConfig(opts), request{method: http.MethodDelete, path: pathf("/files/%s", id)}, nil)
}

// ProcessFile asks the service to process a stored file, for credits (POST /files/{id}/process).
func (c *Client) ProcessFile(ctx context.Context, id ID, opts ...Option) (*File, error) {
	return doRecord[File](ctx, c, c.callConfig(opts), request{method: http.MethodPost, path: pathf("/files/%s/process", id)}, "data", "file")
}
