package demoservice

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"regexp"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

var offsetPattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$`)

// upload sends content as the multipart field (default "file").
func (e *env) upload(field, name string, content []byte, hdr ...string) (int, map[string]any) {
	e.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	if field != "" {
		fw, _ := mw.CreateFormFile(field, name)
		fw.Write(content)
	} else {
		mw.WriteField("note", "no file here")
	}
	return e.postForm(&buf, mw, hdr...)
}

// postForm closes mw and posts what it wrote to POST /files, answering the
// status and the decoded body.
func (e *env) postForm(buf *bytes.Buffer, mw *multipart.Writer, hdr ...string) (int, map[string]any) {
	e.t.Helper()
	mw.Close()
	req := e.request("POST", "/files", buf.Bytes(), hdr...)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	res, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		e.t.Fatal(err)
	}
	return res.StatusCode, out
}

func TestUploadAndListFiles(t *testing.T) {
	e := start(t, Options{})
	content := []byte("Minutes of the board meeting\nDecisions: approve budget\n")
	status, f := e.upload("file", "minutes.txt", content)
	if status != 200 || f["object"] != "file" || num(f["bytes"]) != float64(len(content)) || f["filename"] != "minutes.txt" || f["status"] != "completed" || num(f["credits"]) <= 0 {
		t.Fatalf("upload: %d %v", status, f)
	}
	if !offsetPattern.MatchString(f["created_at"].(string)) {
		t.Fatalf("created_at %v", f["created_at"])
	}
	sum := sha256.Sum256(content)
	var stored File
	for _, x := range e.svc.Files() {
		if float64(x.ID) == num(f["id"]) {
			stored = x
		}
	}
	if stored.SHA256 != hex.EncodeToString(sum[:]) || stored.WorkspaceID != 1 {
		t.Fatalf("stored %+v", stored)
	}

	if status, out := e.upload("file", "empty.txt", nil); status != 422 || out["errors"].(map[string]any)["file"] == nil {
		t.Fatalf("empty file: %d %v", status, out)
	}
	if status, out := e.upload("", "", nil); status != 422 || out["errors"].(map[string]any)["file"] == nil {
		t.Fatalf("missing field: %d %v", status, out)
	}
	e.expectError("POST", "/files", map[string]any{"file": "x"}, 422, "", "file")

	// Newest first by default; the upload is first.
	page := e.call("GET", "/files", nil, 200)["data"].([]any)
	if len(page) != 15 || num(page[0].(map[string]any)["id"]) != num(f["id"]) {
		t.Fatalf("default list: %d items, first %v", len(page), page[0])
	}
	asc := e.call("GET", "/files?order=asc&per_page=100", nil, 200)["data"].([]any)
	if num(asc[0].(map[string]any)["id"]) != 8001 || num(asc[len(asc)-1].(map[string]any)["id"]) != num(f["id"]) {
		t.Fatalf("asc order: first %v last %v", asc[0], asc[len(asc)-1])
	}
	prev := ""
	for _, it := range asc {
		c := it.(map[string]any)["created_at"].(string)
		if c < prev {
			t.Fatalf("asc order broken at %s", c)
		}
		prev = c
	}
	total := len(asc)
	second := e.call("GET", "/files?page=2", nil, 200)["data"].([]any)
	if len(second) != total-15 {
		t.Fatalf("second page %d, want %d (fewer than per_page marks the last page)", len(second), total-15)
	}
	if beyond := e.call("GET", "/files?page=50", nil, 200)["data"].([]any); len(beyond) != 0 {
		t.Fatalf("beyond: %v", beyond)
	}
	one := e.call("GET", "/files?per_page=1", nil, 200)["data"].([]any)
	if len(one) != 1 {
		t.Fatalf("per_page=1: %d", len(one))
	}
	for _, bad := range []string{"0", "101", "ten"} {
		out := e.expectError("GET", "/files?per_page="+bad, nil, 422, "", "per_page")
		if !regexp.MustCompile(`per_page`).MatchString(out["message"].(string)) {
			t.Fatalf("message %q does not name per_page", out["message"])
		}
	}
	e.expectError("GET", "/files?order=newest", nil, 422, "", "order")
	e.expectError("GET", "/files?page=0", nil, 422, "", "page")
}

func TestUploadLimitsAndProcessing(t *testing.T) {
	e := start(t, Options{MaxUploadBytes: 1024, Pace: time.Millisecond})
	status, out := e.upload("file", "big.bin", bytes.Repeat([]byte("x"), 1025))
	if status != 413 || out["message"] != "File is too large" {
		t.Fatalf("too large: %d %v", status, out)
	}
	status, f := e.upload("file", "ok.bin", bytes.Repeat([]byte("x"), 1024))
	if status != 200 || f["status"] != "processing" {
		t.Fatalf("processing: %d %v", status, f)
	}
	link := e.call("POST", "/agents/102/files", map[string]any{"file_ids": []any{f["id"]}}, 200)
	if link["status"] != "processing" || num(link["files_count"].(map[string]any)["in_progress"]) != 1 {
		t.Fatalf("link while processing: %v", link)
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		for _, x := range e.svc.Files() {
			if float64(x.ID) == num(f["id"]) && x.Status == FileCompleted {
				return
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("file never completed processing")
}

func TestAgentFiles(t *testing.T) {
	e := start(t, Options{})
	_, f := e.upload("file", "brief.pdf", []byte("%PDF-1.4 brief"))
	set := e.call("POST", "/agents/103/files", map[string]any{"file_ids": []any{f["id"], "8003"}}, 200)
	count := set["files_count"].(map[string]any)
	if num(set["id"]) != 103 || set["status"] != "completed" || num(count["total"]) != 2 || num(count["completed"]) != 2 || num(count["failed"]) != 0 || num(count["in_progress"]) != 0 {
		t.Fatalf("link: %v", set)
	}
	// Linking again does not duplicate.
	e.call("POST", "/agents/103/files", map[string]any{"file_ids": []any{f["id"]}}, 200)
	list := e.call("GET", "/agents/103/files", nil, 200)
	if _, has := list["files_count"]; has || len(list["files"].([]any)) != 2 {
		t.Fatalf("list: %v", list)
	}
	fid := itoa(int(num(f["id"])))
	del := e.call("DELETE", "/agents/103/files/"+fid, nil, 200)
	if num(del["id"]) != 103 || del["removed"] != true || num(del["file"].(map[string]any)["id"]) != num(f["id"]) {
		t.Fatalf("delete: %v", del)
	}
	e.expectError("DELETE", "/agents/103/files/"+fid, nil, 404, "", "")
	e.expectError("DELETE", "/agents/103/files/nope", nil, 404, "", "")
	if files := e.call("GET", "/agents/103/files", nil, 200)["files"].([]any); len(files) != 1 {
		t.Fatalf("after delete: %v", files)
	}
	seeded := e.call("GET", "/agents/101/files", nil, 200)
	if len(seeded["files"].([]any)) == 0 {
		t.Fatal("seeded agent has no linked files")
	}

	e.expectError("POST", "/agents/103/files", map[string]any{"file_ids": []int{999}}, 422, "", "file_ids")
	e.expectError("POST", "/agents/103/files", map[string]any{"file_ids": []int{}}, 422, "", "file_ids")
	e.expectError("POST", "/agents/103/files", map[string]any{}, 422, "", "file_ids")
	e.expectError("POST", "/agents/103/files", map[string]any{"file_ids": []int{otherWSFileID}}, 422, "", "file_ids")
	e.expectError("GET", "/agents/999/files", nil, 404, "Agent not found", "")
	e.expectError("POST", "/agents/abc/files", map[string]any{"file_ids": []int{8001}}, 404, "Agent not found", "")
}

// TestLargeUploadDoesNotGrowHeap streams 200 MB through the upload and
// checks the heap stays far below the upload's size.
func TestLargeUploadDoesNotGrowHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("large upload")
	}
	e := start(t, Options{})
	const size = 200 << 20
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		fw, err := mw.CreateFormFile("file", "archive.bin")
		if err != nil {
			pw.CloseWithError(err)
			return
		}
		chunk := bytes.Repeat([]byte("0123456789abcdef"), 4096) // 64 KiB
		for sent := 0; sent < size; sent += len(chunk) {
			if _, err := fw.Write(chunk); err != nil {
				pw.CloseWithError(err)
				return
			}
		}
		pw.CloseWithError(mw.Close())
	}()
	var res *http.Response
	var err error
	grew := heapGrowthDuring(func() {
		req := e.request("POST", "/files", nil)
		req.Body = pr
		req.Header.Set("Content-Type", mw.FormDataContentType())
		res, err = e.srv.Client().Do(req)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var f map[string]any
	json.NewDecoder(res.Body).Decode(&f)
	if res.StatusCode != http.StatusOK || num(f["bytes"]) != size {
		t.Fatalf("upload: %d %v", res.StatusCode, f)
	}
	if grew > 48<<20 {
		t.Fatalf("heap grew by %d MiB during a %d MiB upload", grew>>20, size>>20)
	}
}

// heapGrowthDuring runs f and returns how far the heap grew above its
// start, sampled every 20 ms.
func heapGrowthDuring(f func()) int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
				runtime.ReadMemStats(&m)
				if m.HeapAlloc > peak.Load() {
					peak.Store(m.HeapAlloc)
				}
			}
		}
	}()
	f()
	close(stop)
	<-sampled
	return int64(peak.Load()) - int64(base)
}
