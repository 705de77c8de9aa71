package demoservice

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// File statuses.
// Assumption (spec): a new upload is "processing" for a short time (ten Pace
// steps) and then "completed"; the interface shows only completed. In the
// real reading an upload is "waiting" with no credits until it is
// processed (at upload with process=true, or POST /files/{id}/process):
// "in_progress" for ten Pace steps, then "completed" with its credits.
// files_count's in_progress counts every file not completed yet.
const (
	FileProcessing = "processing"
	FileCompleted  = "completed"
	FileWaiting    = "waiting"
	FileInProgress = "in_progress"
)

// maxStoredFiles is the real service's storage limit per workspace.
const maxStoredFiles = 30

// File is a file as the service returns it.
type File struct {
	ID        int64   `json:"id"`
	Object    string  `json:"object"`
	Bytes     int64   `json:"bytes"`
	CreatedAt string  `json:"created_at"`
	Filename  string  `json:"filename"`
	Credits   float64 `json:"credits"`
	Status    string  `json:"status"`
	// WorkspaceID is the workspace the file belongs to.
	WorkspaceID int64 `json:"-"`
	// SHA256 is the hex digest of an uploaded file's content ("" for seeded files).
	SHA256  string    `json:"-"`
	created time.Time // for ordering
}

// Files returns a snapshot of every file in every workspace, newest first.
func (s *Service) Files() []File {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]File, 0, len(s.files))
	for _, f := range s.files {
		out = append(out, *f)
	}
	sortFiles(out, "desc")
	return out
}

// sortFiles orders by created_at (ties by id) ascending or descending.
func sortFiles(fs []File, order string) {
	sort.Slice(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if !a.created.Equal(b.created) {
			if order == "asc" {
				return a.created.Before(b.created)
			}
			return a.created.After(b.created)
		}
		if order == "asc" {
			return a.ID < b.ID
		}
		return a.ID > b.ID
	})
}

// listFiles answers GET /files with page, per_page and order.
// Assumption: the answer is {"data":[File...]} only, as the interface shows.
// A page holding fewer than per_page files is the last one; a client that
// receives a full page asks for the next and may get an empty list.
func (s *Service) listFiles(w http.ResponseWriter, r *http.Request) {
	p, ok := readPage(w, r)
	if !ok {
		return
	}
	order := r.URL.Query().Get("order")
	if order == "" {
		order = "desc"
	}
	if order != "asc" && order != "desc" {
		validationError(w, r, "order", "The selected order is invalid. Allowed values: asc, desc.")
		return
	}
	ws := workspaceOf(r)
	s.mu.Lock()
	var all []File
	for _, f := range s.files {
		if f.WorkspaceID == ws {
			all = append(all, *f)
		}
	}
	s.mu.Unlock()
	sortFiles(all, order)
	writeJSON(w, http.StatusOK, map[string]any{"data": pageOf(all, p)})
}

// countingWriter counts and hashes what it is given and keeps nothing else.
type countingWriter struct {
	n    int64
	hash io.Writer
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return c.hash.Write(p)
}

// uploadFile answers POST /files. The content is only counted and hashed, so
// a large upload never grows memory.
func (s *Service) uploadFile(w http.ResponseWriter, r *http.Request) {
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mediaType != "multipart/form-data" {
		validationError(w, r, "file", "The file must be sent as multipart/form-data in the field \"file\".")
		return
	}
	ws := workspaceOf(r)
	if s.real && s.storedFiles(ws) >= maxStoredFiles {
		s.refuseStorage(w, r)
		return
	}
	mr, err := r.MultipartReader()
	if err != nil {
		validationError(w, r, "file", "The multipart body could not be read.")
		return
	}
	limit := s.opts.MaxUploadBytes
	var (
		stored  bool
		name    string
		size    int64
		digest  string
		process string
	)
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			writeError(w, r, http.StatusUnprocessableEntity, "The multipart body is malformed.")
			return
		}
		switch {
		case part.FormName() == "file" && !stored:
			h := sha256.New()
			cw := &countingWriter{hash: h}
			if _, err := io.Copy(cw, io.LimitReader(part, limit+1)); err != nil {
				writeError(w, r, http.StatusUnprocessableEntity, "The upload was interrupted.")
				return
			}
			if cw.n > limit {
				w.Header().Set("Connection", "close")
				if s.real {
					writeError(w, r, http.StatusRequestEntityTooLarge, "File too large. The limit is "+sizeText(limit)+".")
				} else {
					writeError(w, r, http.StatusRequestEntityTooLarge, "File is too large")
				}
				return
			}
			if cw.n == 0 {
				validationError(w, r, "file", "The file must not be empty.")
				return
			}
			name = filepath.Base(strings.ReplaceAll(part.FileName(), "\\", "/"))
			if name == "" || name == "." || name == "/" {
				name = "upload"
			}
			stored, size, digest = true, cw.n, hex.EncodeToString(h.Sum(nil))
			if !s.real {
				// The spec reading has no other field to wait for.
				writeJSON(w, http.StatusOK, s.addFile(ws, name, size, digest))
				return
			}
		case part.FormName() == "process" && s.real:
			v, _ := io.ReadAll(io.LimitReader(part, 16))
			process = strings.ToLower(strings.TrimSpace(string(v)))
		default:
			_, _ = io.Copy(io.Discard, part)
		}
	}
	if !stored {
		validationError(w, r, "file", "The file field is required.")
		return
	}
	var processNow bool
	switch process {
	case "", "false", "0":
	case "true", "1":
		processNow = true
	default:
		validationError(w, r, "process", "The process field must be true or false.")
		return
	}
	f, ok := s.addWaitingFile(ws, name, size, digest)
	if !ok {
		s.refuseStorage(w, r)
		return
	}
	if processNow {
		f, _ = s.beginProcessing(ws, f.ID)
	}
	writeJSON(w, http.StatusOK, f)
}

// sizeText writes a byte limit the way people read it: "200 MB".
func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// storedFiles counts the workspace's files.
func (s *Service) storedFiles(ws int64) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, f := range s.files {
		if f.WorkspaceID == ws {
			n++
		}
	}
	return n
}

func (s *Service) refuseStorage(w http.ResponseWriter, r *http.Request) {
	validationError(w, r, "file", fmt.Sprintf("You can store at most %d files. Delete some first.", maxStoredFiles))
}

// addFile stores a new upload and starts its processing (spec reading).
func (s *Service) addFile(ws int64, name string, n int64, digest string) File {
	now := s.now()
	s.mu.Lock()
	s.nextFileID++
	f := &File{
		ID: s.nextFileID, Object: "file", Bytes: n, CreatedAt: offsetUTC(now), Filename: name,
		Credits: fileCredits(n), Status: FileCompleted, WorkspaceID: ws, SHA256: digest, created: now,
	}
	if s.opts.Pace > 0 {
		f.Status = FileProcessing
	}
	s.files[f.ID] = f
	snapshot := *f
	s.mu.Unlock()
	if s.opts.Pace > 0 {
		s.goBackground(func() {
			s.sleep(s.ctx, 10*s.opts.Pace)
			s.mu.Lock()
			f.Status = FileCompleted
			s.mu.Unlock()
		})
	}
	return snapshot
}

// addWaitingFile stores a new waiting upload (real reading); false when the
// workspace is full.
func (s *Service) addWaitingFile(ws int64, name string, n int64, digest string) (File, bool) {
	if s.storedFiles(ws) >= maxStoredFiles {
		return File{}, false
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextFileID++
	f := &File{
		ID: s.nextFileID, Object: "file", Bytes: n, CreatedAt: offsetUTC(now), Filename: name,
		Status: FileWaiting, WorkspaceID: ws, SHA256: digest, created: now,
	}
	s.files[f.ID] = f
	return *f, true
}

// beginProcessing processes a waiting file: in progress for ten Pace steps,
// then completed with its credits. Others are left as they are; ok is false
// when there is no such file.
func (s *Service) beginProcessing(ws, id int64) (File, bool) {
	s.mu.Lock()
	f, found := s.files[id]
	if !found || f.WorkspaceID != ws {
		s.mu.Unlock()
		return File{}, false
	}
	if f.Status != FileWaiting {
		snap := *f
		s.mu.Unlock()
		return snap, true
	}
	if s.opts.Pace <= 0 {
		f.Status, f.Credits = FileCompleted, fileCredits(f.Bytes)
		snap := *f
		s.mu.Unlock()
		return snap, true
	}
	f.Status = FileInProgress
	snap := *f
	s.mu.Unlock()
	s.goBackground(func() {
		if !s.sleep(s.ctx, 10*s.opts.Pace) {
			return
		}
		s.mu.Lock()
		if f.Status == FileInProgress {
			f.Status, f.Credits = FileCompleted, fileCredits(f.Bytes)
		}
		s.mu.Unlock()
	})
	return snap, true
}

// fileFromPath finds {id} among the workspace's files, else answers 404.
func (s *Service) fileFromPath(w http.ResponseWriter, r *http.Request) (File, bool) {
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	s.mu.Lock()
	f, found := s.files[id]
	var snap File
	if found {
		snap = *f
	}
	s.mu.Unlock()
	if !found || snap.WorkspaceID != workspaceOf(r) {
		writeError(w, r, http.StatusNotFound, "File not found")
		return File{}, false
	}
	return snap, true
}

// getFile answers GET /files/{id} (real reading).
func (s *Service) getFile(w http.ResponseWriter, r *http.Request) {
	if f, ok := s.fileFromPath(w, r); ok {
		writeJSON(w, http.StatusOK, f)
	}
}

// processFile answers POST /files/{id}/process (real reading) with the file.
// Assumption: processing a file again costs nothing and changes nothing.
func (s *Service) processFile(w http.ResponseWriter, r *http.Request) {
	f, ok := s.fileFromPath(w, r)
	if !ok {
		return
	}
	if f, ok = s.beginProcessing(f.WorkspaceID, f.ID); !ok {
		writeError(w, r, http.StatusNotFound, "File not found")
		return
	}
	writeJSON(w, http.StatusOK, f)
}

// deleteFile answers DELETE /files/{id} (real reading), unlinking it from every agent.
func (s *Service) deleteFile(w http.ResponseWriter, r *http.Request) {
	f, ok := s.fileFromPath(w, r)
	if !ok {
		return
	}
	s.mu.Lock()
	delete(s.files, f.ID)
	for agent, ids := range s.agentFiles {
		kept := make([]int64, 0, len(ids))
		for _, id := range ids {
			if id != f.ID {
				kept = append(kept, id)
			}
		}
		s.agentFiles[agent] = kept
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]string{"message": "File deleted successfully"})
}

// agentFileSet is the answer of the link and list operations.
type agentFileSet struct {
	ID         int64       `json:"id"`
	Files      []File      `json:"files"`
	FilesCount *filesCount `json:"files_count,omitempty"`
	Status     string      `json:"status"`
}

type filesCount struct {
	Total      int `json:"total"`
	Completed  int `json:"completed"`
	Failed     int `json:"failed"`
	InProgress int `json:"in_progress"`
}

// fileSet builds the agent's file set; withCount adds files_count.
// Assumption: the set's status is "completed" when every linked file is
// completed and "processing" while any is still being processed (real
// reading: "in_progress" while any is waiting or in progress).
func (s *Service) fileSet(agentID int64, withCount bool) agentFileSet {
	s.mu.Lock()
	defer s.mu.Unlock()
	set := agentFileSet{ID: agentID, Files: []File{}, Status: FileCompleted}
	var c filesCount
	for _, id := range s.agentFiles[agentID] {
		f, ok := s.files[id]
		if !ok {
			continue
		}
		set.Files = append(set.Files, *f)
		c.Total++
		switch f.Status {
		case FileCompleted:
			c.Completed++
		case FileProcessing, FileInProgress, FileWaiting:
			c.InProgress++
			set.Status = FileProcessing
			if s.real {
				set.Status = FileInProgress
			}
		default:
			c.Failed++
		}
	}
	if withCount {
		set.FilesCount = &c
	}
	return set
}

// linkAgentFiles answers POST /agents/{id}/files with body file_ids.
func (s *Service) linkAgentFiles(w http.ResponseWriter, r *http.Request) {
	a, body, ok := s.agentBody(w, r)
	if !ok {
		return
	}
	raw, present := body["file_ids"]
	list, isList := raw.([]any)
	if !present || raw == nil || (isList && len(list) == 0) {
		validationError(w, r, "file_ids", "The file_ids field is required.")
		return
	}
	var errs fieldErrors
	ids := s.checkFileIDs(&errs, workspaceOf(r), raw)
	if errs.any() {
		errs.write(w, r)
		return
	}
	s.mu.Lock()
	for _, id := range ids {
		if !containsID(s.agentFiles[a.ID], id) {
			s.agentFiles[a.ID] = append(s.agentFiles[a.ID], id)
		}
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, s.fileSet(a.ID, true))
}

// listAgentFiles answers GET /agents/{id}/files.
func (s *Service) listAgentFiles(w http.ResponseWriter, r *http.Request) {
	a, ok := s.agentFromPath(w, r)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, s.fileSet(a.ID, false))
}

// deleteAgentFile answers DELETE /agents/{id}/files/{fileId}; the file itself stays.
func (s *Service) deleteAgentFile(w http.ResponseWriter, r *http.Request) {
	a, ok := s.agentFromPath(w, r)
	if !ok {
		return
	}
	fileID, _ := strconv.ParseInt(r.PathValue("fileId"), 10, 64)
	s.mu.Lock()
	linked := s.agentFiles[a.ID]
	f, exists := s.files[fileID]
	if !exists || !containsID(linked, fileID) {
		s.mu.Unlock()
		writeError(w, r, http.StatusNotFound, "File not found")
		return
	}
	kept := make([]int64, 0, len(linked)-1)
	for _, id := range linked {
		if id != fileID {
			kept = append(kept, id)
		}
	}
	s.agentFiles[a.ID] = kept
	file := *f
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"id": a.ID, "file": file, "removed": true})
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
