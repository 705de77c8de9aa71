package demoservice

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// signed is an answer of POST /v2/files/sign.
type signed struct {
	url, object string
	headers     map[string]string
}

// sign signs an upload and checks the answer's shape.
func (e *env) sign(name, contentType string, size int64) signed {
	e.t.Helper()
	out := e.call("POST", "/v2/files/sign", map[string]any{"filename": name, "content_type": contentType, "size": size}, 200)
	s := signed{headers: map[string]string{}}
	s.url, _ = out["upload_url"].(string)
	s.object, _ = out["object_path"].(string)
	hdr, _ := out["required_headers"].(map[string]any)
	for k, v := range hdr {
		s.headers[k], _ = v.(string)
	}
	if s.url == "" || s.object == "" || len(hdr) != 2 || len(out) != 3 {
		e.t.Fatalf("sign: %v", out)
	}
	return s
}

// put PUTs body (of length size; -1 sends it chunked) to the signed address
// with its required headers, then hdr's name/value pairs ("" removes one).
func (e *env) put(s signed, body io.Reader, size int64, hdr ...string) (int, string, error) {
	e.t.Helper()
	req, err := http.NewRequest(http.MethodPut, s.url, body)
	if err != nil {
		e.t.Fatal(err)
	}
	req.ContentLength = size
	for k, v := range s.headers {
		req.Header.Set(k, v)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i+1] == "" {
			req.Header.Del(hdr[i])
		} else {
			req.Header.Set(hdr[i], hdr[i+1])
		}
	}
	// A connection of its own each time: a PUT on a reused connection that
	// breaks would be sent again by the transport.
	res, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	return res.StatusCode, string(data), err
}

func (e *env) register(s signed, extra map[string]any, want int) map[string]any {
	e.t.Helper()
	body := map[string]any{"object_path": s.object, "filename": "report.pdf", "content_type": "application/pdf", "process": false}
	for k, v := range extra {
		body[k] = v
	}
	return e.call("POST", "/v2/files/register", body, want)
}

func TestRealLargeFileFlow(t *testing.T) {
	e := startReal(t, Options{})
	content := bytes.Repeat([]byte("quarterly figures\n"), 1000)
	s := e.sign("report.pdf", "application/pdf", int64(len(content)))
	api, _ := url.Parse(e.srv.URL)
	put, _ := url.Parse(s.url)
	if put.Host == api.Host || put.Hostname() != api.Hostname() || !strings.HasPrefix(s.url, "http://") || put.Query().Get("X-Goog-Signature") == "" {
		t.Fatalf("upload_url %s is not a signed address on another origin than %s", s.url, e.srv.URL)
	}
	if s.headers["Content-Type"] != "application/pdf" || s.headers[lengthRangeHeader] != itoa(len(content))+","+itoa(len(content)) || !strings.HasSuffix(s.object, "/report.pdf") {
		t.Fatalf("signed %+v", s)
	}
	e.expectReal("POST", "/v2/files/register", map[string]any{"object_path": s.object}, 400, "Validation failed", "object_path")

	status, body, err := e.put(s, bytes.NewReader(content), int64(len(content)))
	if err != nil || status != 200 || body != "" {
		t.Fatalf("PUT: %d %q %v", status, body, err)
	}
	f := e.register(s, nil, 200)
	if f["object"] != "file" || f["status"] != FileWaiting || num(f["credits"]) != 0 || num(f["bytes"]) != float64(len(content)) || f["filename"] != "report.pdf" || !offsetPattern.MatchString(f["created_at"].(string)) || len(f) != 7 {
		t.Fatalf("registered %v", f)
	}
	sum := sha256.Sum256(content)
	if got := e.svc.Files()[0]; float64(got.ID) != num(f["id"]) || got.SHA256 != hex.EncodeToString(sum[:]) || got.ObjectPath != s.object {
		t.Fatalf("stored %+v", got)
	}
	if got := e.call("GET", "/files/"+itoa(int(num(f["id"]))), nil, 200); got["status"] != FileWaiting {
		t.Fatalf("GET /files/{id}: %v", got)
	}
	// Once only; an unknown object is refused too.
	if out := e.register(s, nil, 409); out["error"] != "The object has already been registered." {
		t.Fatalf("again: %v", out)
	}
	e.expectReal("POST", "/v2/files/register", map[string]any{"object_path": "uploads/1/nothing/x.pdf"}, 400, "Validation failed", "object_path")
	e.expectReal("POST", "/v2/files/register", map[string]any{}, 400, "Validation failed", "object_path")

	// process true; another name given at registering; content_type defaults.
	s = e.sign("notes.txt", "", 3)
	if s.headers["Content-Type"] != "application/octet-stream" {
		t.Fatalf("default content type %v", s.headers)
	}
	if status, _, err := e.put(s, strings.NewReader("abc"), 3); status != 200 || err != nil {
		t.Fatalf("PUT: %d %v", status, err)
	}
	e.expectReal("POST", "/v2/files/register", map[string]any{"object_path": s.object, "filename": "notes.exe"}, 400, "Validation failed", "filename")
	if f := e.register(s, map[string]any{"filename": "minutes.md", "process": true}, 200); f["status"] != FileCompleted || num(f["credits"]) <= 0 || f["filename"] != "minutes.md" {
		t.Fatalf("processed at once: %v", f)
	}
	if n := e.svc.UploadPuts(); n != 2 {
		t.Fatalf("%d PUTs counted", n)
	}

	// The spec reading has no such routes.
	spec := start(t, Options{})
	spec.expectError("POST", "/v2/files/sign", map[string]any{"filename": "report.pdf", "size": 3}, 404, "", "")
	spec.expectError("POST", "/v2/files/register", map[string]any{"object_path": s.object}, 404, "", "")
}

func TestRealSignRefusals(t *testing.T) {
	e := startReal(t, Options{})
	sign := func(name string, size any) map[string]any { return map[string]any{"filename": name, "size": size} }
	for _, c := range []struct {
		body  map[string]any
		field string
	}{
		{sign("report.pdf", 0), "size"},
		{sign("report.pdf", -5), "size"},
		{sign("report.pdf", "many"), "size"},
		{sign("report.pdf", 1.5), "size"},
		{map[string]any{"size": 10}, "filename"},
		{sign("setup.exe", 10), "filename"},
		{sign("archive", 10), "filename"},
		{map[string]any{"filename": "a.pdf", "size": 10, "content_type": "not a type"}, "content_type"},
	} {
		e.expectReal("POST", "/v2/files/sign", c.body, 400, "Validation failed", c.field)
	}
	if out := e.expectReal("POST", "/v2/files/sign", sign("film.mp4", RealMaxUploadBytes+1), 413, "", ""); out["error"] != "File too large. The limit is 200 MB." {
		t.Fatalf("over 200 MB: %v", out)
	}
	e.sign("film.MP4", "video/mp4", RealMaxUploadBytes)
	for _, ext := range []string{"mp3", "wav", "aac", "ogg", "flac", "m4a"} {
		if out := e.expectReal("POST", "/v2/files/sign", sign("talk."+ext, 10_000_001), 413, "", ""); out["error"] != "Audio files are limited to 10 MB." {
			t.Fatalf("%s over 10 MB: %v", ext, out)
		}
	}
	e.sign("talk.mp3", "audio/mpeg", 10_000_000)
	e.sign("talk.MP4", "video/mp4", 10_000_001) // video is not sound

	// POST /files refuses the same types; over 10 MB a sound file is 413.
	if status, out := e.upload("file", "setup.exe", []byte("MZ")); status != 400 || out["messages"].(map[string]any)["file"] == nil {
		t.Fatalf("POST /files setup.exe: %d %v", status, out)
	}
	if status, out := e.upload("file", "talk.mp3", make([]byte, 10_000_001)); status != 413 || out["error"] != "Audio files are limited to 10 MB." {
		t.Fatalf("POST /files talk.mp3: %d %v", status, out)
	}
	if status, out := e.upload("file", "talk.mp3", make([]byte, 1000)); status != 200 {
		t.Fatalf("POST /files small talk.mp3: %d %v", status, out)
	}

	// A full workspace refuses signing and registering.
	s := e.sign("last.txt", "text/plain", 1)
	if status, _, err := e.put(s, strings.NewReader("x"), 1); status != 200 || err != nil {
		t.Fatalf("PUT: %d %v", status, err)
	}
	for len(e.svc.Files()) < maxStoredFiles {
		if status, out := e.upload("file", "fill.txt", []byte("x")); status != 200 {
			t.Fatalf("filling: %d %v", status, out)
		}
	}
	e.expectReal("POST", "/v2/files/sign", sign("more.txt", 1), 400, "Validation failed", "file")
	e.expectReal("POST", "/v2/files/register", map[string]any{"object_path": s.object}, 400, "Validation failed", "file")
}

func TestSignedPutRefusals(t *testing.T) {
	clk := newFakeClock()
	e := startReal(t, Options{Now: clk.Now})
	content := []byte("0123456789")
	s := e.sign("report.pdf", "application/pdf", 10)
	tampered := s
	tampered.url = strings.Replace(s.url, "X-Goog-Expires=900", "X-Goog-Expires=9000", 1)
	other := s
	other.url = strings.Replace(s.url, "report.pdf", "other.pdf", 1)
	get := func() (int, string, error) {
		res, err := http.Get(s.url)
		if err != nil {
			return 0, "", err
		}
		defer res.Body.Close()
		data, err := io.ReadAll(res.Body)
		return res.StatusCode, string(data), err
	}
	for _, c := range []struct {
		name   string
		send   func() (int, string, error)
		status int
		code   string
	}{
		{"Authorization", func() (int, string, error) {
			return e.put(s, bytes.NewReader(content), 10, "Authorization", "Bearer "+testKey)
		}, 403, "AccessDenied"},
		{"x-workspace-id", func() (int, string, error) { return e.put(s, bytes.NewReader(content), 10, "x-workspace-id", "1") }, 403, "AccessDenied"},
		{"signature", func() (int, string, error) {
			bad := s
			bad.url = strings.Replace(s.url, "X-Goog-Signature=", "X-Goog-Signature=0", 1)
			return e.put(bad, bytes.NewReader(content), 10)
		}, 403, "SignatureDoesNotMatch"},
		{"longer expiry", func() (int, string, error) { return e.put(tampered, bytes.NewReader(content), 10) }, 403, "SignatureDoesNotMatch"},
		{"another object", func() (int, string, error) { return e.put(other, bytes.NewReader(content), 10) }, 403, "SignatureDoesNotMatch"},
		{"content type", func() (int, string, error) {
			return e.put(s, bytes.NewReader(content), 10, "Content-Type", "text/plain")
		}, 403, "SignatureDoesNotMatch"},
		{"no length range", func() (int, string, error) { return e.put(s, bytes.NewReader(content), 10, lengthRangeHeader, "") }, 403, "SignatureDoesNotMatch"},
		{"short body", func() (int, string, error) { return e.put(s, bytes.NewReader(content[:9]), 9) }, 400, "InvalidArgument"},
		{"chunked", func() (int, string, error) { return e.put(s, io.MultiReader(bytes.NewReader(content)), -1) }, 411, "MissingContentLength"},
		{"GET", get, 405, "MethodNotAllowed"},
	} {
		status, body, err := c.send()
		if err != nil || status != c.status || !strings.Contains(body, "<Code>"+c.code+"</Code>") {
			t.Errorf("%s: %d %q %v", c.name, status, body, err)
		}
	}
	e.expectReal("POST", "/v2/files/register", map[string]any{"object_path": s.object}, 400, "Validation failed", "object_path")
	if n := e.svc.UploadPuts(); n != 10 {
		t.Fatalf("%d PUTs counted, want 10", n)
	}

	// The address lasts 15 minutes on the service's clock.
	clk.Advance(signedFor - time.Second)
	if status, _, err := e.put(s, bytes.NewReader(content), 10); status != 200 || err != nil {
		t.Fatalf("before expiry: %d %v", status, err)
	}
	clk.Advance(time.Second)
	if status, body, _ := e.put(s, bytes.NewReader(content), 10); status != 403 || !strings.Contains(body, "ExpiredToken") {
		t.Fatalf("expired: %d %s", status, body)
	}
}

func TestFaultCutUploadPut(t *testing.T) {
	e := startReal(t, Options{})
	content := bytes.Repeat([]byte("x"), 1<<20)
	s := e.sign("data.csv", "text/csv", int64(len(content)))
	e.svc.SetFaults(Faults{CutUploadPut: 1})
	if status, _, err := e.put(s, bytes.NewReader(content), int64(len(content))); err == nil {
		t.Fatalf("a cut PUT answered %d", status)
	}
	e.expectReal("POST", "/v2/files/register", map[string]any{"object_path": s.object}, 400, "Validation failed", "object_path")
	if status, _, err := e.put(s, bytes.NewReader(content), int64(len(content))); status != 200 || err != nil {
		t.Fatalf("PUT again: %d %v", status, err)
	}
	e.register(s, map[string]any{"filename": "data.csv"}, 200)
	if n := e.svc.UploadPuts(); n != 2 {
		t.Fatalf("%d PUTs counted", n)
	}
}

// TestSignedAddressOfAListeningServer: a service started with Listen (as
// --serve-demo does) signs addresses its clients reach, and Close closes them.
func TestSignedAddressOfAListeningServer(t *testing.T) {
	srv, err := Listen("127.0.0.1:0", Options{APIKey: testKey})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, svc: srv.Service}
	req := func(method, path string, body any) *http.Request { return e.requestTo(srv.URL(), method, path, body) }
	res, err := http.DefaultClient.Do(req("POST", "/v2/files/sign", map[string]any{"filename": "a.txt", "size": 2}))
	if err != nil {
		t.Fatal(err)
	}
	var s signed
	var out struct {
		URL     string            `json:"upload_url"`
		Object  string            `json:"object_path"`
		Headers map[string]string `json:"required_headers"`
	}
	err = json.NewDecoder(res.Body).Decode(&out)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	s.url, s.object, s.headers = out.URL, out.Object, out.Headers
	if status, _, err := e.put(s, strings.NewReader("ok"), 2); status != 200 || err != nil {
		t.Fatalf("PUT: %d %v", status, err)
	}
	res, err = http.DefaultClient.Do(req("POST", "/v2/files/register", map[string]any{"object_path": s.object}))
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("register: %v %v", res, err)
	}
	res.Body.Close()
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.put(s, strings.NewReader("ok"), 2); err == nil {
		t.Fatal("the signed address still answers after Close")
	}
}

// TestLargePutDoesNotGrowHeap PUTs 200 MB to a signed address and checks
// the heap stays far below the upload's size.
func TestLargePutDoesNotGrowHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("large upload")
	}
	e := startReal(t, Options{})
	s := e.sign("film.mp4", "video/mp4", RealMaxUploadBytes)
	grew := heapGrowthDuring(func() {
		body := io.LimitReader(repeatReader{}, RealMaxUploadBytes)
		if status, _, err := e.put(s, body, RealMaxUploadBytes); status != 200 || err != nil {
			t.Errorf("PUT: %d %v", status, err)
		}
	})
	if grew > 48<<20 {
		t.Fatalf("heap grew by %d MiB during a 200 MB PUT", grew>>20)
	}
	if f := e.register(s, map[string]any{"filename": "film.mp4"}, 200); num(f["bytes"]) != float64(RealMaxUploadBytes) {
		t.Fatalf("registered %v", f)
	}
}

// repeatReader reads an endless run of one byte.
type repeatReader struct{}

func (repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'z'
	}
	return len(p), nil
}

func TestUploadRoutesRateLimited(t *testing.T) {
	e := startReal(t, Options{})
	s := e.sign("a.txt", "text/plain", 1)
	e.svc.SetFaults(Faults{RateLimit: 3})
	if status, out := e.upload("file", "a.txt", []byte("x")); status != 429 || out["error"] != "Rate limit exceeded" {
		t.Fatalf("POST /files: %d %v", status, out)
	}
	e.expectReal("POST", "/v2/files/sign", map[string]any{"filename": "a.txt", "size": 1}, 429, "Rate limit exceeded", "")
	e.expectReal("POST", "/v2/files/register", map[string]any{"object_path": s.object}, 429, "Rate limit exceeded", "")
}

// FuzzSignedPut: a PUT stores an object only with the signed path, date,
// expiry, signature and headers, whatever else its address carries.
func FuzzSignedPut(f *testing.F) {
	svc := New(Options{APIKey: testKey})
	f.Cleanup(func() { svc.Close() })
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/v2/files/sign", strings.NewReader(`{"filename":"a.pdf","content_type":"application/pdf","size":10}`))
	req.Header.Set("Authorization", "Bearer "+testKey)
	svc.ServeHTTP(rec, req)
	var out struct {
		URL string `json:"upload_url"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		f.Fatal(err)
	}
	signedURL, _ := url.Parse(out.URL)
	want := signedURL.Query()
	f.Add(signedURL.Path, signedURL.RawQuery, "application/pdf", "10,10")
	f.Add(signedURL.Path, signedURL.RawQuery+"&X-Goog-Expires=999999", "application/pdf", "10,10")
	f.Add(signedURL.Path+"/", strings.ReplaceAll(signedURL.RawQuery, "X-Goog", "x-goog"), "application/pdf", "0,10")
	f.Fuzz(func(t *testing.T, path, rawQuery, contentType, lengthRange string) {
		req := httptest.NewRequest("PUT", "/", strings.NewReader("0123456789"))
		req.URL = &url.URL{Path: path, RawQuery: rawQuery}
		req.Header.Set("Content-Type", contentType)
		req.Header.Set(lengthRangeHeader, lengthRange)
		rec := httptest.NewRecorder()
		svc.receivePut(rec, req)
		if rec.Code != http.StatusOK {
			return
		}
		q := req.URL.Query()
		for _, k := range []string{"X-Goog-Date", "X-Goog-Expires", "X-Goog-Signature"} {
			if q.Get(k) != want.Get(k) {
				t.Fatalf("stored with %s=%q", k, q.Get(k))
			}
		}
		if path != signedURL.Path || req.Header.Get("Content-Type") != "application/pdf" || req.Header.Get(lengthRangeHeader) != "10,10" {
			t.Fatalf("stored %q with %q and %q", path, req.Header.Get("Content-Type"), req.Header.Get(lengthRangeHeader))
		}
	})
}
