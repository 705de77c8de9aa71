package demoservice

import (
	"cmp"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The real reading's large-file flow (real-service.md §8.1, seen in a
// client): POST /v2/files/sign names an object and a signed address for it
// on a storage listener of the service's own, another origin as a cloud
// bucket is; the client PUTs the bytes there with the required headers and
// nothing of the account's; POST /v2/files/register makes the stored object
// a File.
//
// Assumption: the wire follows a cloud bucket's V4 signed URL:
//
//	POST /v2/files/sign {"filename","content_type","size"} →
//	  {"upload_url","object_path","required_headers":{"Content-Type","x-goog-content-length-range":"N,N"}}
//	PUT upload_url (query X-Goog-Algorithm, X-Goog-Date, X-Goog-Expires,
//	  X-Goog-SignedHeaders, X-Goog-Signature), the required headers,
//	  Content-Length N → 200, empty body, ETag; errors are the bucket's XML
//	POST /v2/files/register {"object_path","filename","content_type","process"} → File
const (
	uploadBucket      = "agentdesk-demo-uploads"
	lengthRangeHeader = "x-goog-content-length-range"
	signDateLayout    = "20060102T150405Z"
	// signedFor is how long a signed address takes a PUT.
	signedFor = 15 * time.Minute
)

// maxAudioBytes is the real service's limit for sound files (for transcription).
const maxAudioBytes = 10_000_000

// uploadTypes are the file types the real service takes (real-service.md
// §8.1 "Supported types"), by extension.
var uploadTypes = strings.Fields(`txt doc docx csv pdf xls xlsx ppt pptx
	jpg jpeg png gif bmp svg tiff webp mp4 avi mov mkv wmv flv
	mp3 wav aac ogg flac m4a
	bas bat xml css dart html htm inc js json kt lua pas php pl ps1 py r sh vsd sql swift ts vb vba yml yaml md`)

var audioTypes = strings.Fields("mp3 wav aac ogg flac m4a")

// object is one signed upload: what was signed and, once a whole PUT
// arrived, its digest; fields other than sha256 and registered never change.
type object struct {
	ws                    int64
	filename, contentType string
	size                  int64
	sha256                string // hex; "" until a whole PUT arrived
	registered            bool
}

// storage is the listener signed addresses point at, started by the first sign.
type storage struct {
	host   string // the address to listen on; "" is 127.0.0.1
	secret [32]byte
	puts   atomic.Int64 // UploadPuts

	mu     sync.Mutex
	srv    *http.Server
	ln     net.Listener
	done   chan struct{}
	closed bool
}

func (st *storage) init() { _, _ = rand.Read(st.secret[:]) }

// UploadPuts counts requests received at signed addresses, refused and cut ones included.
func (s *Service) UploadPuts() int { return int(s.storage.puts.Load()) }

// storageBase starts the storage listener when needed and returns its URL
// as a client of the service reaches it by r.
func (s *Service) storageBase(r *http.Request) string {
	st := &s.storage
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed {
		abort(http.StatusServiceUnavailable, "The service is shutting down.")
	}
	if st.ln == nil {
		host := st.host
		if host == "" {
			host = "127.0.0.1"
		}
		ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
		if err != nil {
			abort(http.StatusInternalServerError, "Internal server error")
		}
		srv, done := &http.Server{Handler: http.HandlerFunc(s.receivePut), ReadHeaderTimeout: 10 * time.Second}, make(chan struct{})
		st.ln, st.srv, st.done = ln, srv, done
		go func() {
			defer close(done)
			_ = srv.Serve(ln) // http.ErrServerClosed once closed
		}()
	}
	addr := st.ln.Addr().(*net.TCPAddr)
	host := addr.IP.String()
	if addr.IP.IsUnspecified() {
		host = r.Host // the name the client used for the service
		if h, _, err := net.SplitHostPort(r.Host); err == nil {
			host = h
		}
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(addr.Port))
}

func (st *storage) close() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	open := !st.closed && st.srv != nil
	st.closed = true
	if !open {
		return nil
	}
	err := st.srv.Close()
	<-st.done
	return err
}

// signature signs a PUT of o at path, dated date for expires seconds.
func (st *storage) signature(path, date, expires string, o *object) string {
	mac := hmac.New(sha256.New, st.secret[:])
	fmt.Fprintf(mac, "PUT\n%s\n%s\n%s\ncontent-type:%s\n%s:%s", path, date, expires, o.contentType, lengthRangeHeader, o.lengthRange())
	return hex.EncodeToString(mac.Sum(nil))
}

func (o *object) lengthRange() string { return fmt.Sprintf("%d,%d", o.size, o.size) }

// checkUpload refuses, in the real reading, a file type the service does
// not take (400 naming field) and a sound file over 10 MB (413).
func (s *Service) checkUpload(field, name string, size int64) {
	if !s.real {
		return
	}
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(name), "."))
	if !slices.Contains(uploadTypes, ext) {
		invalid(field, "The "+field+" must be a file of type: "+strings.Join(uploadTypes, ", ")+".")
	}
	if slices.Contains(audioTypes, ext) && size > maxAudioBytes {
		abort(http.StatusRequestEntityTooLarge, "Audio files are limited to "+sizeText(maxAudioBytes)+".")
	}
}

// signUpload answers POST /v2/files/sign (real reading).
// Assumption: signing refuses what POST /files would (type, size, a full
// workspace), so nobody uploads 200 MB in vain; content_type defaults to
// application/octet-stream.
func (s *Service) signUpload(w http.ResponseWriter, r *http.Request) {
	body := readJSONObject(w, r)
	var errs fieldErrors
	name := cleanFilename(body["filename"])
	if name == "" {
		errs.add("filename", "The filename field is required.")
	}
	contentType := "application/octet-stream"
	if v := body["content_type"]; v != nil && v != "" {
		str, _ := v.(string)
		if _, _, err := mime.ParseMediaType(str); err != nil {
			errs.add("content_type", "The content type must be a media type, such as application/pdf.")
		}
		contentType = str
	}
	size, ok := asInt(body["size"])
	if !ok || size < 1 {
		errs.add("size", "The size must be an integer of at least 1.")
	}
	errs.check()
	s.checkUpload("filename", name, size)
	if size > s.opts.MaxUploadBytes {
		s.tooLarge()
	}
	ws := workspaceOf(r)
	s.refuseIfFull(ws)

	o := &object{ws: ws, filename: name, contentType: contentType, size: size}
	objectPath := fmt.Sprintf("uploads/%d/%s/%s", ws, strings.ToLower(rand.Text()), name)
	s.mu.Lock()
	s.objects[objectPath] = o
	s.mu.Unlock()
	u := url.URL{Path: "/" + uploadBucket + "/" + objectPath}
	date := s.now().Format(signDateLayout)
	expires := strconv.Itoa(int(signedFor / time.Second))
	u.RawQuery = url.Values{
		"X-Goog-Algorithm":     {"GOOG4-HMAC-SHA256"},
		"X-Goog-Date":          {date},
		"X-Goog-Expires":       {expires},
		"X-Goog-SignedHeaders": {"content-type;" + lengthRangeHeader},
		"X-Goog-Signature":     {s.storage.signature(u.Path, date, expires, o)},
	}.Encode()
	writeJSON(w, http.StatusOK, map[string]any{
		"upload_url":       s.storageBase(r) + u.String(),
		"object_path":      objectPath,
		"required_headers": map[string]string{"Content-Type": contentType, lengthRangeHeader: o.lengthRange()},
	})
}

// receivePut takes a PUT to a signed address: the bytes are only counted
// and hashed, so a large upload never grows memory.
func (s *Service) receivePut(w http.ResponseWriter, r *http.Request) {
	s.storage.puts.Add(1)
	q := r.URL.Query()
	s.mu.Lock()
	o := s.objects[strings.TrimPrefix(r.URL.Path, "/"+uploadBucket+"/")]
	s.mu.Unlock()
	date, dateErr := time.Parse(signDateLayout, q.Get("X-Goog-Date"))
	expires, expErr := strconv.Atoi(q.Get("X-Goog-Expires"))
	switch {
	case r.Method != http.MethodPut:
		w.Header().Set("Allow", http.MethodPut)
		storageError(w, http.StatusMethodNotAllowed, "MethodNotAllowed", "The specified method is not allowed against this resource.")
	case r.Header.Get("Authorization") != "" || r.Header.Get("x-workspace-id") != "":
		storageError(w, http.StatusForbidden, "AccessDenied", "A signed address carries its own authorisation: send no Authorization or x-workspace-id header.")
	case o == nil || dateErr != nil || expErr != nil ||
		!hmac.Equal([]byte(q.Get("X-Goog-Signature")), []byte(s.storage.signature(r.URL.Path, q.Get("X-Goog-Date"), q.Get("X-Goog-Expires"), o))):
		storageError(w, http.StatusForbidden, "SignatureDoesNotMatch", "The request signature we calculated does not match the signature you provided.")
	case !s.now().Before(date.Add(time.Duration(expires) * time.Second)):
		storageError(w, http.StatusForbidden, "ExpiredToken", "The signed address has expired.")
	case r.Header.Get("Content-Type") != o.contentType || r.Header.Get(lengthRangeHeader) != o.lengthRange():
		storageError(w, http.StatusForbidden, "SignatureDoesNotMatch", "The request's headers differ from the signed ones: send the required headers as given.")
	case r.ContentLength < 0:
		storageError(w, http.StatusLengthRequired, "MissingContentLength", "You must provide the Content-Length HTTP header.")
	case r.ContentLength != o.size:
		storageError(w, http.StatusBadRequest, "InvalidArgument", fmt.Sprintf("The body must be exactly %d bytes, as signed.", o.size))
	default:
		s.storeObject(w, r, o)
	}
}

// storeObject hashes the body into o, or cuts the connection halfway
// (Faults.CutUploadPut), storing nothing.
func (s *Service) storeObject(w http.ResponseWriter, r *http.Request, o *object) {
	s.mu.Lock()
	cut := s.faults.CutUploadPut > 0
	if cut {
		s.faults.CutUploadPut--
	}
	s.mu.Unlock()
	h := sha256.New()
	if cut {
		_, _ = io.CopyN(h, r.Body, o.size/2)
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			_ = conn.Close()
			return
		}
		panic(http.ErrAbortHandler)
	}
	if n, err := io.Copy(h, r.Body); err != nil || n != o.size {
		storageError(w, http.StatusBadRequest, "IncompleteBody", "You did not provide the number of bytes specified by the Content-Length HTTP header.")
		return
	}
	sum := hex.EncodeToString(h.Sum(nil))
	s.mu.Lock()
	o.sha256 = sum
	s.mu.Unlock()
	w.Header().Set("ETag", `"`+sum[:32]+`"`)
	w.WriteHeader(http.StatusOK)
}

// storageError answers as a cloud bucket does, in XML.
func storageError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/xml; charset=UTF-8")
	w.WriteHeader(status)
	_, _ = fmt.Fprintf(w, "<?xml version='1.0' encoding='UTF-8'?><Error><Code>%s</Code><Message>%s</Message></Error>", code, msg)
}

// registerUpload answers POST /v2/files/register (real reading) with the
// new File, as POST /files does.
// Assumption: an object not uploaded (or unknown) is 400 Validation failed
// on object_path; one registered already answers 409, so a client can tell
// its own earlier success from a mistake.
func (s *Service) registerUpload(w http.ResponseWriter, r *http.Request) {
	body := readJSONObject(w, r)
	var errs fieldErrors
	objectPath, _ := body["object_path"].(string)
	if objectPath == "" {
		errs.add("object_path", "The object path field is required.")
	}
	name := cleanFilename(body["filename"])
	if v := body["filename"]; v != nil && name == "" {
		errs.add("filename", "The filename must be a file name.")
	}
	if v := body["content_type"]; v != nil && !is[string](v) {
		errs.add("content_type", "The content type must be a string.")
	}
	process := boolField(&errs, body, "process")
	errs.check()
	ws := workspaceOf(r)
	s.refuseIfFull(ws)

	f := &File{Object: "file", Status: FileWaiting, WorkspaceID: ws, ObjectPath: objectPath}
	func() {
		s.mu.Lock()
		defer s.mu.Unlock() // also when a refusal ends the request
		o, ok := s.objects[objectPath]
		switch {
		case !ok || o.ws != ws:
			invalid("object_path", "The selected object path is invalid.")
		case o.sha256 == "":
			invalid("object_path", "The object has not been uploaded yet: PUT its bytes to the upload_url first.")
		case o.registered:
			abort(http.StatusConflict, "The object has already been registered.")
		}
		f.Filename, f.Bytes, f.SHA256 = cmp.Or(name, o.filename), o.size, o.sha256
		s.checkUpload("filename", f.Filename, f.Bytes)
		o.registered = true
	}()
	s.storeFile(f)
	writeJSON(w, http.StatusOK, s.processFileNow(f, process))
}
