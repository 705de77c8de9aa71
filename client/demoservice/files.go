package demoservice

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"path/filepath"
	"slices"
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

const maxStoredFiles = 30

type File struct {
	ID          int64   `json:"id"`
	Object      string  `json:"object"`
	Bytes       int64   `json:"bytes"`
	CreatedAt   string  `json:"created_at"`
	Filename    string  `json:"filename"`
	Credits     float64 `json:"credits"`
	Status      string  `json:"status"`
	WorkspaceID int64   `json:"-"`
	// SHA256 is the hex digest of an uploaded file's content ("" for seeded files).
	SHA256 string `json:"-"`
	// ObjectPath is the object a large-file flow registered ("" for other files).
	ObjectPath string    `json:"-"`
	created    time.Time // for ordering
}

// Files returns a snapshot of every file in every workspace, newest first.
func (s *Service) Files() []File { return s.workspaceFiles(0, "desc") }

// workspaceFiles snapshots the workspace's files (0: all), ordered by
// created_at (ties by id) "asc" or "desc".
func (s *Service) workspaceFiles(ws int64, order string) []File {
	out := collect(s, s.files, func(f *File) bool { return ws == 0 || f.WorkspaceID == ws })
	slices.SortFunc(out, func(a, b File) int {
		c := cmp.Or(a.created.Compare(b.created), cmp.Compare(a.ID, b.ID))
		if order == "asc" {
			return c
		}
		return -c
	})
	return out
}

// refuseIfFull refuses an upload to a workspace holding as many files as
// the real service stores.
func (s *Service) refuseIfFull(ws int64) {
	if s.real && len(s.workspaceFiles(ws, "desc")) >= maxStoredFiles {
		invalid("file", fmt.Sprintf("You can store at most %d files. Delete some first.", maxStoredFiles))
	}
}

// listFiles answers GET /files with page, per_page and order.
// Assumption: the answer is {"data":[File...]} only, as the interface shows.
// A page holding fewer than per_page files is the last one; a client that
// receives a full page asks for the next and may get an empty list.
func (s *Service) listFiles(w http.ResponseWriter, r *http.Request) {
	p := readPage(r, defaultPerPage, maxPerPage)
	order := cmp.Or(r.URL.Query().Get("order"), "desc")
	if order != "asc" && order != "desc" {
		invalid("order", "The selected order is invalid. Allowed values: asc, desc.")
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": pageOf(s.workspaceFiles(workspaceOf(r), order), p)})
}

// uploadFile answers POST /files. The content is only counted and hashed, so
// a large upload never grows memory.
func (s *Service) uploadFile(w http.ResponseWriter, r *http.Request) {
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mediaType != "multipart/form-data" {
		invalid("file", "The file must be sent as multipart/form-data in the field \"file\".")
	}
	ws := workspaceOf(r)
	s.refuseIfFull(ws)
	mr, err := r.MultipartReader()
	if err != nil {
		invalid("file", "The multipart body could not be read.")
	}
	limit := s.opts.MaxUploadBytes
	f := &File{Object: "file", Status: FileWaiting, WorkspaceID: ws} // Bytes > 0 once stored
	var process string
parts:
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			abort(http.StatusUnprocessableEntity, "The multipart body is malformed.")
		}
		switch {
		case part.FormName() == "file" && f.Bytes == 0:
			h := sha256.New()
			n, err := io.Copy(h, io.LimitReader(part, limit+1))
			if err != nil {
				abort(http.StatusUnprocessableEntity, "The upload was interrupted.")
			}
			if n > limit {
				w.Header().Set("Connection", "close")
				s.tooLarge()
			}
			if n == 0 {
				invalid("file", "The file must not be empty.")
			}
			f.Filename = cmp.Or(cleanFilename(part.FileName()), "upload")
			s.checkUpload("file", f.Filename, n)
			f.Bytes, f.SHA256 = n, hex.EncodeToString(h.Sum(nil))
			if !s.real {
				// The spec reading has no other field to wait for.
				break parts
			}
		case part.FormName() == "process" && s.real:
			v, _ := io.ReadAll(io.LimitReader(part, 16))
			process = string(v)
		default:
			_, _ = io.Copy(io.Discard, part)
		}
	}
	if f.Bytes == 0 {
		invalid("file", "The file field is required.")
	}
	processNow, ok := flagValue(process)
	if !ok {
		invalid("process", "The process field must be true or false.")
	}
	s.refuseIfFull(ws)
	s.storeFile(f)
	writeJSON(w, http.StatusOK, s.processFileNow(f, processNow || !s.real))
}

// storeFile dates f, gives it an id and stores it.
func (s *Service) storeFile(f *File) {
	f.created = s.now()
	f.CreatedAt = offsetUTC(f.created)
	if !s.real {
		f.Credits = fileCredits(f.Bytes) // a spec upload shows its credits at once
	}
	s.mu.Lock()
	s.nextFileID++
	f.ID = s.nextFileID
	s.files[f.ID] = f
	s.mu.Unlock()
}

// cleanFilename is the base name of a file name sent, "" when there is none.
func cleanFilename(v any) string {
	name, _ := v.(string)
	name = filepath.Base(strings.ReplaceAll(name, "\\", "/"))
	if name == "." || name == "/" || name == ".." {
		return ""
	}
	return name
}

// tooLarge ends an upload over the limit with 413.
func (s *Service) tooLarge() {
	msg := "File is too large"
	if s.real {
		msg = "File too large. The limit is " + sizeText(s.opts.MaxUploadBytes) + "."
	}
	abort(http.StatusRequestEntityTooLarge, msg)
}

// sizeText writes a byte limit as the real service's documentation does,
// in decimal units: "200 MB".
func sizeText(n int64) string {
	switch {
	case n >= 1e6 && n%1e6 == 0:
		return fmt.Sprintf("%d MB", n/1e6)
	case n >= 1e3 && n%1e3 == 0:
		return fmt.Sprintf("%d KB", n/1e3)
	}
	return fmt.Sprintf("%d bytes", n)
}

// processFileNow returns a snapshot of f after, with process, starting to
// process it if it is waiting: in progress (spec: processing) for ten Pace
// steps, then completed with its credits.
func (s *Service) processFileNow(f *File, process bool) File {
	s.mu.Lock()
	if !process || f.Status != FileWaiting {
		defer s.mu.Unlock()
		return *f
	}
	busy := s.busy()
	f.Status = busy
	if s.opts.Pace <= 0 {
		f.Status, f.Credits = FileCompleted, fileCredits(f.Bytes)
	}
	snap := *f
	s.mu.Unlock()
	if snap.Status == busy {
		s.goBackground(func() {
			if !s.sleep(s.ctx, 10*s.opts.Pace) {
				return
			}
			s.mu.Lock()
			if f.Status == busy {
				f.Status, f.Credits = FileCompleted, fileCredits(f.Bytes)
			}
			s.mu.Unlock()
		})
	}
	return snap
}

// busy is a file's status while processing: the spec reading's differs.
func (s *Service) busy() string {
	if s.real {
		return FileInProgress
	}
	return FileProcessing
}

// answerFile answers GET /files/{id} or, with process, POST
// /files/{id}/process (real reading) with the file.
// Assumption: processing a file again costs nothing and changes nothing.
func (s *Service) answerFile(process bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		f := byPath(s, r, "id", s.files, func(f *File) bool { return f.WorkspaceID == workspaceOf(r) }, "File not found")
		writeJSON(w, http.StatusOK, s.processFileNow(f, process))
	}
}

// deleteFile answers DELETE /files/{id} (real reading), unlinking it from every agent.
func (s *Service) deleteFile(w http.ResponseWriter, r *http.Request) {
	deleteRecord(s, w, r, s.files, func(f *File) bool { return f.WorkspaceID == workspaceOf(r) }, "File", func(id int64) {
		for agent := range s.agentFiles {
			s.unlink(agent, id)
		}
	})
}

// unlink removes file id from the agent's linked files, reporting whether it
// was linked; called under the lock.
func (s *Service) unlink(agent, id int64) bool {
	i := slices.Index(s.agentFiles[agent], id)
	if i >= 0 {
		s.agentFiles[agent] = slices.Delete(s.agentFiles[agent], i, i+1)
	}
	return i >= 0
}

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
			set.Status = s.busy()
		default:
			c.Failed++
		}
	}
	if withCount {
		set.FilesCount = &c
	}
	return set
}

func (s *Service) linkAgentFiles(w http.ResponseWriter, r *http.Request) {
	a := s.agentFromPath(r)
	raw := readJSONObject(w, r)["file_ids"]
	if list, isList := raw.([]any); raw == nil || (isList && len(list) == 0) {
		invalid("file_ids", "The file_ids field is required.")
	}
	var errs fieldErrors
	ids := s.checkFileIDs(&errs, workspaceOf(r), raw)
	errs.check()
	s.mu.Lock()
	for _, id := range ids {
		if !slices.Contains(s.agentFiles[a.ID], id) {
			s.agentFiles[a.ID] = append(s.agentFiles[a.ID], id)
		}
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, s.fileSet(a.ID, true))
}

func (s *Service) listAgentFiles(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.fileSet(s.agentFromPath(r).ID, false))
}

// deleteAgentFile answers DELETE /agents/{id}/files/{fileId}; the file itself stays.
func (s *Service) deleteAgentFile(w http.ResponseWriter, r *http.Request) {
	a := s.agentFromPath(r)
	fileID, _ := strconv.ParseInt(r.PathValue("fileId"), 10, 64)
	s.mu.Lock()
	f, exists := s.files[fileID]
	if !exists || !s.unlink(a.ID, fileID) {
		s.mu.Unlock()
		abort(http.StatusNotFound, "File not found")
	}
	file := *f
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"id": a.ID, "file": file, "removed": true})
}
