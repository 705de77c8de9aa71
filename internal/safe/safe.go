// Package safe is the one policy for what a server names: links, file
// types, file names and displayed text. Server text is data, never code: it
// cannot start a program, reach another host unasked, or disguise itself.
// Screens never decide this on their own.
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

// Link reports whether a server's link may open, and the address to open.
// Only https, http and mailto open; file:, UNC, javascript:, custom schemes
// and links with credentials stay text.
func Link(raw string) (*url.URL, bool) {
	raw = strings.TrimSpace(raw)
	if raw == "" || len(raw) > 4096 || strings.HasPrefix(raw, `\\`) || strings.HasPrefix(raw, "//") {
		return nil, false
	}
	if strings.ContainsFunc(raw, func(r rune) bool { return unicode.IsControl(r) || isBidi(r) || unicode.IsSpace(r) }) {
		return nil, false
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

// LinkNeedsConfirm reports whether the user must see the full address first:
// when the words shown differ from the target. A mailto opens unasked only as
// one plain address equal to its words, since a query can attach files, add
// recipients or write the mail unseen.
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

// plainAddress reports one mail address of plain characters only, which no
// mail program can read as several addresses, a header or an escape.
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

// Kind is what a file is, judged from its first bytes, never its name or address.
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

var kindNames = [...]string{Other: "file", Image: "picture", Audio: "sound", Video: "video", PDF: "PDF document", PlainText: "text"}

func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return "file"
	}
	return kindNames[k]
}

// Openable reports whether a kind may go to the system viewer: pictures,
// sounds, videos and PDFs only, never programs, scripts or shortcuts.
func Openable(k Kind) bool {
	return k == Image || k == Audio || k == Video || k == PDF
}

// sniffed maps http.DetectContentType's known types to kind and extension.
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

// Sniff tells a file's kind and extension from its first bytes ("" for Other).
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

// maxNameBytes leaves room under file systems' byte limits (eCryptfs is
// tight) for suffixes a batch adds.
const maxNameBytes = 120

// FileName makes a server's proposed name safe for a Save dialog or disk: no
// separators, "..", control or direction characters, or Windows-reserved
// names, at most maxNameBytes, with the extension of what the file is (ext
// from Sniff), never the server's. fallback is used when nothing is left.
func FileName(name, ext, fallback string) string {
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
	// Keep the stem only: the content decides the extension ("v2.1" keeps ".1").
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

// reservedOnWindows reports device names (CON, NUL, COM1…) Windows refuses.
func reservedOnWindows(stem string) bool {
	s, _, _ := strings.Cut(strings.ToUpper(stem), ".")
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

// Text makes server text safe for one line: controls become spaces,
// direction-changing and invisible characters go (they make "exe.txt" read
// "txt.exe"), spaces fold, and at most max characters stay (0: no limit),
// then "…".
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
		if max > 0 && (n >= max || space && n+1 >= max) {
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

// Cell is a CSV cell a spreadsheet reads as text: one that would start a
// formula gets a leading apostrophe. Agent output is data, never a formula.
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

func isBidi(r rune) bool {
	switch {
	case r >= 0x202A && r <= 0x202E, // LRE RLE PDF LRO RLO
		r >= 0x2066 && r <= 0x2069,            // LRI RLI FSI PDI
		r == 0x200E, r == 0x200F, r == 0x061C: // LRM RLM ALM
		return true
	}
	return false
}

// isInvisible reports zero-width, BOM, annotation and tag characters that
// can hide what a name says.
func isInvisible(r rune) bool {
	switch {
	case r == 0x200B, r == 0x2060, r == 0xFEFF, r == 0x00AD,
		r >= 0xFFF9 && r <= 0xFFFB,
		r >= 0xE0000 && r <= 0xE007F:
		return true
	}
	return false
}
