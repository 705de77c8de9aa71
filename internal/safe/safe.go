// Package safe is the one policy for things a server names: links, file
// types, file names and text shown in titles or sent to the desktop. Server
// text is data, never code: whatever a reply says, nothing here lets it start
// a program, reach another host unasked, or disguise what it is.
//
// Every screen and the app go through these functions; none of them decides
// on its own whether a link may open or what a file is called.
package safe

import (
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Link reports whether a link a server sent may be opened, and the address
// to open. Only https, http and mailto links open; everything else (file:,
// UNC paths, javascript:, custom schemes that start other programs, links
// carrying a user name or password) is shown as text only.
func Link(raw string) (*url.URL, bool) {
	raw = strings.TrimSpace(raw)
	if raw == "" || len(raw) > 4096 || strings.HasPrefix(raw, `\\`) || strings.HasPrefix(raw, "//") {
		return nil, false
	}
	for _, r := range raw {
		if unicode.IsControl(r) || isBidi(r) || unicode.IsSpace(r) {
			return nil, false
		}
	}
	u, err := url.Parse(raw)
	if err != nil || u.Opaque != "" && u.Scheme != "mailto" {
		return nil, false
	}
	switch strings.ToLower(u.Scheme) {
	case "https", "http":
		if u.Host == "" || u.User != nil || strings.ContainsAny(u.Host, `\`) {
			return nil, false
		}
	case "mailto":
		if u.Opaque == "" || strings.ContainsAny(u.Opaque, `\/`) {
			return nil, false
		}
	default:
		return nil, false
	}
	u.Scheme = strings.ToLower(u.Scheme)
	return u, true
}

// LinkNeedsConfirm reports whether the user should see a link's full
// address before it opens: when the words shown differ from where it goes.
//
// A mail link opens unasked only when it is one plain address and the words
// are that address: a query can attach a file (attach=), copy someone in
// (cc=, bcc=, to=) or write the mail (body=, subject=), and mail programs
// act on it while the words show only the address, so any query, fragment,
// second address or %-escape asks first.
func LinkNeedsConfirm(text string, target *url.URL) bool {
	text = strings.TrimSpace(text)
	if target == nil {
		return true
	}
	t := target.String()
	if target.Scheme == "mailto" {
		addr := target.Opaque
		return t != "mailto:"+addr || !plainAddress(addr) || text != addr && text != t
	}
	return text != t
}

// plainAddress reports one mail address in its plainest form: a name, one
// "@" and a domain, of letters, digits and . - _ + ' only, so no mail
// program can read it as several addresses, a header or an escape.
func plainAddress(s string) bool {
	local, domain, ok := strings.Cut(s, "@")
	if !ok || local == "" || domain == "" || strings.Contains(domain, "@") ||
		strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") || strings.Contains(domain, "..") {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) && !strings.ContainsRune("@.-_+'", r) {
			return false
		}
	}
	return true
}

// Kind is what a file is, judged from its first bytes, never from its name
// or its address.
type Kind int

const (
	// Other is anything not recognised: it can only be saved.
	Other Kind = iota
	Image
	Audio
	Video
	PDF
	PlainText
)

func (k Kind) String() string {
	switch k {
	case Image:
		return "picture"
	case Audio:
		return "sound"
	case Video:
		return "video"
	case PDF:
		return "PDF document"
	case PlainText:
		return "text"
	}
	return "file"
}

// Openable reports whether a file of this kind may be handed to the
// computer's own viewer or player. Only pictures, sounds, videos and PDFs
// are: a program, a script or a shortcut never is, whatever its name says.
func Openable(k Kind) bool {
	return k == Image || k == Audio || k == Video || k == PDF
}

// sniffed are the content types http.DetectContentType names that Agent
// Desk knows, with their kind and extension.
var sniffed = map[string]struct {
	kind Kind
	ext  string
}{
	"image/png":       {Image, ".png"},
	"image/jpeg":      {Image, ".jpg"},
	"image/gif":       {Image, ".gif"},
	"image/webp":      {Image, ".webp"},
	"image/bmp":       {Image, ".bmp"},
	"video/webm":      {Video, ".webm"},
	"video/avi":       {Video, ".avi"},
	"audio/mpeg":      {Audio, ".mp3"},
	"audio/wave":      {Audio, ".wav"},
	"audio/ogg":       {Audio, ".ogg"},
	"application/ogg": {Audio, ".ogg"},
	"audio/aiff":      {Audio, ".aiff"},
	"audio/midi":      {Audio, ".mid"},
	"application/pdf": {PDF, ".pdf"},
}

// SniffLen is how many first bytes Sniff looks at.
const SniffLen = 512

// Sniff tells a file's kind and the extension that kind goes by from its
// first bytes (SniffLen of them are enough). ext is "" for Other.
func Sniff(head []byte) (k Kind, ext string) {
	if len(head) > SniffLen {
		head = head[:SniffLen]
	}
	// ISO media (mp4, mov, m4a): "ftyp" at offset 4, whatever the brand.
	if len(head) >= 12 && string(head[4:8]) == "ftyp" {
		switch string(head[8:12]) {
		case "M4A ", "M4B ":
			return Audio, ".m4a"
		case "qt  ":
			return Video, ".mov"
		}
		return Video, ".mp4"
	}
	ct := http.DetectContentType(head)
	if strings.HasPrefix(ct, "text/plain") {
		return PlainText, ".txt"
	}
	if t, ok := sniffed[ct]; ok {
		return t.kind, t.ext
	}
	return Other, ""
}

// maxNameBytes bounds a whole name, extension included. File systems count
// bytes, not characters: most allow 255, encrypted home folders (eCryptfs)
// 143, and a batch's files folder adds " (2)" and a word to its sheet's
// name.
const maxNameBytes = 120

// FileName makes a name a server proposed fit to offer in a Save dialog or
// to write on disk: no folder separators, no "..", no control or
// direction-changing characters, no names Windows reserves, at most
// maxNameBytes bytes with the extension (cut between two characters), and
// the extension that fits what the file is (ext, from Sniff), never the one
// the server gave. fallback names the file when nothing usable is left (for
// example "image").
func FileName(name, ext, fallback string) string {
	// The last part of a path or address only.
	name = strings.ReplaceAll(name, `\`, "/")
	if i := strings.IndexAny(name, "?#"); i >= 0 && strings.Contains(name[:i], "/") {
		name = name[:i]
	}
	name = path.Base("/" + name)
	if u, err := url.PathUnescape(name); err == nil {
		name = strings.ReplaceAll(u, `\`, "/")
		name = path.Base("/" + name)
	}
	if name == "/" {
		name = ""
	}
	var b strings.Builder
	for _, r := range name {
		switch {
		case r == utf8.RuneError, unicode.IsControl(r), isBidi(r), isInvisible(r):
			continue
		case strings.ContainsRune(`<>:"/\|?*`, r):
			b.WriteRune('_')
		default:
			b.WriteRune(r)
		}
	}
	name = strings.Trim(b.String(), " .")
	// Keep the stem only: the extension is decided by the content. What
	// follows a last dot counts as an extension when it looks like one
	// (letters and digits, at least one letter): "v2.1" keeps its ".1".
	if i := strings.LastIndex(name, "."); i > 0 && looksLikeExt(name[i+1:]) {
		name = name[:i]
	}
	name = strings.Trim(name, " .")
	if limit := maxNameBytes - len(ext); len(name) > limit {
		name = strings.TrimRight(cutBytes(name, limit), " .")
	}
	if name == "" || reservedOnWindows(name) {
		name = fallback
	}
	if name == "" {
		name = "download"
	}
	return name + ext
}

// cutBytes is the longest start of s of at most n bytes that ends between
// two characters.
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func looksLikeExt(s string) bool {
	letter := false
	for _, r := range s {
		switch {
		case r < 128 && unicode.IsLetter(r):
			letter = true
		case r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return letter && len(s) <= 10
}

// reservedOnWindows reports names Windows gives to devices (CON, NUL,
// COM1…), which it refuses as file names whatever their extension.
func reservedOnWindows(stem string) bool {
	s := strings.ToUpper(stem)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	switch s {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if strings.HasPrefix(s, "COM") || strings.HasPrefix(s, "LPT") {
		rest := s[3:]
		return len(rest) == 1 && rest[0] >= '0' && rest[0] <= '9' || rest == "¹" || rest == "²" || rest == "³"
	}
	return false
}

// Text neutralises text a server sent for showing on one line (a title, a
// name, a notification): control characters and line breaks become spaces,
// characters that turn writing direction around or hide themselves are
// dropped (they can make "exe.txt" read as "txt.exe"), runs of spaces fold,
// and at most max characters are kept (0: no limit), followed by "…" when
// some were cut.
func Text(s string, max int) string {
	var b strings.Builder
	b.Grow(min(len(s), 4*max+4))
	n := 0
	space := false
	for _, r := range s {
		switch {
		case r == utf8.RuneError, isBidi(r), isInvisible(r):
			continue
		case unicode.IsControl(r), unicode.IsSpace(r):
			if n > 0 {
				space = true
			}
			continue
		}
		if max > 0 && n+btoi(space) >= max {
			return strings.TrimRight(b.String(), " ") + "…"
		}
		if space {
			b.WriteByte(' ')
			n++
			space = false
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// Cell is text for one cell of a CSV file that a spreadsheet program reads
// as text: a cell that would start a formula (=, +, @, a tab or a carriage
// return; a minus not starting a number) gets a leading apostrophe, as
// spreadsheet programs themselves mark text. What an agent wrote or a
// service named is data, never a formula that runs or calls out.
func Cell(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '@', '\t', '\r':
		return "'" + s
	case '-':
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			return "'" + s
		}
	}
	return s
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// isBidi reports the characters that change the direction text is laid out
// in: embeddings, overrides, isolates and marks.
func isBidi(r rune) bool {
	switch {
	case r >= 0x202A && r <= 0x202E, // LRE RLE PDF LRO RLO
		r >= 0x2066 && r <= 0x2069,            // LRI RLI FSI PDI
		r == 0x200E, r == 0x200F, r == 0x061C: // LRM RLM ALM
		return true
	}
	return false
}

// isInvisible reports characters that take no space and can hide what a
// name says: zero-width spaces and joiners kept out of names, byte order
// marks, interlinear annotations and tag characters.
func isInvisible(r rune) bool {
	switch {
	case r == 0x200B, r == 0x2060, r == 0xFEFF, r == 0x00AD,
		r >= 0xFFF9 && r <= 0xFFFB,
		r >= 0xE0000 && r <= 0xE007F:
		return true
	}
	return false
}
