package safe

import (
	"net/url"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestOnlyWebAndMailLinksOpen(t *testing.T) {
	opens := []string{
		"https://example.com/a?b=c#d",
		"HTTPS://Example.com",
		"http://example.com",
		"mailto:someone@example.com",
	}
	for _, raw := range opens {
		if _, ok := Link(raw); !ok {
			t.Errorf("%q should open", raw)
		}
	}
	stays := []string{
		"file:///etc/passwd",
		`file://C:/Windows/System32/calc.exe`,
		`\\attacker\share\x.png`,
		"//attacker/share",
		"javascript:alert(1)",
		"ms-msdt:/id PCWDiagnostic",
		"search-ms:query=x",
		"steam://run/1",
		"vbscript:x",
		"data:text/html,<script>",
		"https://user:secret@example.com/",
		"https:///no-host",
		"https://exa\u202emple.com",
		"https://example.com/\nx",
		"relative/path",
		"/absolute/path",
		"C:\\Users\\x.exe",
		"",
	}
	for _, raw := range stays {
		if u, ok := Link(raw); ok {
			t.Errorf("%q should stay text, would open %v", raw, u)
		}
	}
}

func TestALinkWhoseWordsDifferShowsItsAddressFirst(t *testing.T) {
	u, _ := Link("https://example.com/x")
	if LinkNeedsConfirm("https://example.com/x", u) {
		t.Error("a bare address asks for confirmation")
	}
	if !LinkNeedsConfirm("https://bank.example", u) {
		t.Error("words that name another address open without showing where the link goes")
	}
	if !LinkNeedsConfirm("click here", u) {
		t.Error("a worded link opens without showing its address")
	}
}

func TestAMailLinkOpensUnaskedOnlyWhenItIsTheAddressShown(t *testing.T) {
	quiet := []struct{ raw, text string }{
		{"mailto:ana@example.com", "ana@example.com"},
		{"mailto:ana@example.com", "mailto:ana@example.com"},
		{"mailto:ana.müller+q3@example.de", "ana.müller+q3@example.de"},
	}
	for _, tc := range quiet {
		u, ok := Link(tc.raw)
		if !ok || LinkNeedsConfirm(tc.text, u) {
			t.Errorf("%q shown as %q asks before opening", tc.raw, tc.text)
		}
	}
	asks := []struct{ raw, text string }{
		{"mailto:ana@example.com?attach=/home/ana/.ssh/id_rsa", "ana@example.com"},
		{"mailto:ana@example.com?attachment=~/.gnupg/secring.gpg", "ana@example.com"},
		{"mailto:ana@example.com?cc=thief@example.net", "ana@example.com"},
		{"mailto:ana@example.com?bcc=thief@example.net", "ana@example.com"},
		{"mailto:ana@example.com?to=thief@example.net", "ana@example.com"},
		{"mailto:ana@example.com?body=Send%20me%20the%20files", "ana@example.com"},
		{"mailto:ana@example.com?subject=Hi", "ana@example.com"},
		{"mailto:ana@example.com?Attach=x", "mailto:ana@example.com?Attach=x"},
		{"mailto:ana@example.com?", "ana@example.com"},
		{"mailto:ana@example.com#x", "ana@example.com"},
		{"mailto:ana@example.com,thief@example.net", "ana@example.com,thief@example.net"},
		{"mailto:ana@example.com;thief@example.net", "ana@example.com;thief@example.net"},
		{"mailto:ana@example.com&attach=x", "ana@example.com&attach=x"},
		{"mailto:ana%40example.com", "ana%40example.com"},
		{"mailto:ana@example.com%3Fattach=x", "ana@example.com%3Fattach=x"},
		{"mailto:%61na@example.com", "%61na@example.com"},
		{`mailto:"ana@x"@example.com`, `"ana@x"@example.com`},
		{"mailto:ana", "ana"},
		{"mailto:ana@example.com", "bank@example.com"},
	}
	for _, tc := range asks {
		u, ok := Link(tc.raw)
		if ok && !LinkNeedsConfirm(tc.text, u) {
			t.Errorf("%q shown as %q opens without asking", tc.raw, tc.text)
		}
	}
}

func TestACellIsNeverAFormula(t *testing.T) {
	for in, want := range map[string]string{
		`=HYPERLINK("https://evil.example","x")`: `'=HYPERLINK("https://evil.example","x")`,
		"+1+1":                                   "'+1+1",
		"@SUM(A1)":                               "'@SUM(A1)",
		"\t=1":                                   "'\t=1",
		"\r=1":                                   "'\r=1",
		"-2+3+cmd|' /C'":                         "'-2+3+cmd|' /C'",
		"-1.5":                                   "-1.5",
		"Writer":                                 "Writer",
		"":                                       "",
		"a=b":                                    "a=b",
	} {
		if got := Cell(in); got != want {
			t.Errorf("Cell(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFileKindsComeFromContentNotName(t *testing.T) {
	cases := []struct {
		name string
		head []byte
		kind Kind
		ext  string
	}{
		{"png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), Image, ".png"},
		{"jpeg", []byte("\xff\xd8\xff\xe0\x00\x10JFIF"), Image, ".jpg"},
		{"mp4", []byte("\x00\x00\x00\x18ftypisom\x00\x00\x02\x00"), Video, ".mp4"},
		{"pdf", []byte("%PDF-1.7\n"), PDF, ".pdf"},
		{"windows program", []byte("MZ\x90\x00\x03\x00\x00\x00\x04\x00"), Other, ""},
		{"shell script", []byte("#!/bin/sh\nrm -rf ~\n"), PlainText, ".txt"},
		{"desktop entry", []byte("[Desktop Entry]\nExec=calc\n"), PlainText, ".txt"},
		{"shortcut", []byte("L\x00\x00\x00\x01\x14\x02\x00\x00\x00\x00\x00\xc0\x00\x00\x00\x00\x00\x00F"), Other, ""},
		{"html", []byte("<html><script>x</script>"), Other, ""},
	}
	for _, tc := range cases {
		k, ext := Sniff(tc.head)
		if k != tc.kind || ext != tc.ext {
			t.Errorf("%s: Sniff = %v %q, want %v %q", tc.name, k, ext, tc.kind, tc.ext)
		}
		if Openable(k) && (tc.name == "windows program" || tc.name == "shell script" || tc.name == "shortcut" || tc.name == "html") {
			t.Errorf("%s would be handed to the system to open", tc.name)
		}
	}
}

func TestFileNamesFromTheServerAreMadeSafe(t *testing.T) {
	cases := []struct{ in, ext, fallback, want string }{
		{"https://cdn.example.com/out/report.png?sig=1", ".png", "image", "report.png"},
		{`..\..\Windows\System32\evil.exe`, ".png", "image", "evil.png"},
		{"../../.bashrc", ".txt", "output", "bashrc.txt"},
		{"photo\u202egnp.exe", ".jpg", "image", "photognp.jpg"},
		{"CON.png", ".png", "image", "image.png"},
		{"lpt1", ".png", "image", "image.png"},
		{"a:b*c?.png", ".png", "image", "a_b_c_.png"},
		{"", ".mp4", "video", "video.mp4"},
		{"Budget v2.1", ".md", "conversation", "Budget v2.1.md"},
		{"notes.tar.gz", ".txt", "file", "notes.tar.txt"},
		{"....", ".mp4", "video", "video.mp4"},
		{"%2e%2e%2fetc%2fpasswd", "", "file", "passwd"},
		{strings.Repeat("ü", 300) + ".png", ".png", "image", strings.Repeat("ü", 58) + ".png"},
		// File systems count bytes: 80 emoji are 320 of them.
		{strings.Repeat("😀", 80), ".png", "image", strings.Repeat("😀", 29) + ".png"},
		{"a" + strings.Repeat("😀", 80), ".docx", "image", "a" + strings.Repeat("😀", 28) + ".docx"},
		{strings.Repeat("x", 200) + ".txt", ".txt", "file", strings.Repeat("x", 116) + ".txt"},
	}
	for _, tc := range cases {
		if got := FileName(tc.in, tc.ext, tc.fallback); got != tc.want {
			t.Errorf("FileName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestTextForOneLineHasNoControlsOrDirectionTricks(t *testing.T) {
	cases := []struct {
		in   string
		max  int
		want string
	}{
		{"Report\u202eexe.txt", 0, "Reportexe.txt"},
		{"Two\nlines\r\n\there", 0, "Two lines here"},
		{"bell\x07\x1b[31mred", 0, "bell [31mred"},
		{"  padded  ", 0, "padded"},
		{"Müller — Q3 report", 0, "Müller — Q3 report"},
		{"abcdefghij", 5, "abcde…"},
		{"abc def", 4, "abc…"},
		{"zero\u200bwidth", 0, "zerowidth"},
	}
	for _, tc := range cases {
		if got := Text(tc.in, tc.max); got != tc.want {
			t.Errorf("Text(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
}

func FuzzLink(f *testing.F) {
	for _, s := range []string{"https://example.com", "file:///x", `\\h\s`, "mailto:a@b", "javascript:x", "https://u:p@h/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, ok := Link(raw)
		if !ok {
			return
		}
		if u.Scheme != "https" && u.Scheme != "http" && u.Scheme != "mailto" {
			t.Fatalf("%q opens with scheme %q", raw, u.Scheme)
		}
		if u.User != nil {
			t.Fatalf("%q opens with a user name", raw)
		}
		if u.Scheme != "mailto" && u.Host == "" {
			t.Fatalf("%q opens without a host", raw)
		}
		// What opens is what the policy saw: parsing it again agrees.
		again, err := url.Parse(u.String())
		if err != nil || again.Scheme != u.Scheme || again.Host != u.Host {
			t.Fatalf("%q opens as %q, which reads differently", raw, u.String())
		}
	})
}

func FuzzMailto(f *testing.F) {
	for _, s := range [][2]string{
		{"mailto:a@example.com", "a@example.com"},
		{"mailto:a@example.com?attach=/etc/passwd", "a@example.com"},
		{"mailto:a@example.com?cc=b@example.com&subject=x", "mailto:a@example.com?cc=b@example.com&subject=x"},
		{"mailto:a@example.com,b@example.com", "a@example.com,b@example.com"},
		{"mailto:a%40example.com", "a%40example.com"},
		{"mailto:a@example.com#x", "a@example.com"},
		{"MAILTO:a@example.com?", "a@example.com"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, raw, text string) {
		u, ok := Link(raw)
		if !ok || u.Scheme != "mailto" || LinkNeedsConfirm(text, u) {
			return
		}
		addr := u.Opaque
		text = strings.TrimSpace(text)
		if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || u.RawFragment != "" {
			t.Fatalf("%q shown as %q opens unasked with more than an address: %q", raw, text, u.String())
		}
		if strings.Count(addr, "@") != 1 || strings.ContainsAny(addr, ",;%&?#\"<>()[]:\\/ ") {
			t.Fatalf("%q shown as %q opens unasked to %q, not one plain address", raw, text, addr)
		}
		if text != addr && text != "mailto:"+addr {
			t.Fatalf("%q shown as %q opens unasked to another address, %q", raw, text, addr)
		}
		// What opens reads as the same plain address.
		again, err := url.Parse(u.String())
		if err != nil || u.String() != "mailto:"+addr || again.Opaque != addr || again.RawQuery != "" || again.Fragment != "" {
			t.Fatalf("%q opens as %q, which reads differently", raw, u.String())
		}
	})
}

func FuzzFileName(f *testing.F) {
	for _, s := range []string{"a.png", `..\..\x.exe`, "CON", "x\u202egnp.exe", "%2e%2e/", "\x00", strings.Repeat("😀", 80)} {
		f.Add(s, ".png")
	}
	f.Fuzz(func(t *testing.T, name, ext string) {
		if ext != "" && ext != ".png" && ext != ".mp4" {
			ext = ".png"
		}
		got := FileName(name, ext, "file")
		stem := strings.TrimSuffix(got, ext)
		if stem == "" || !utf8.ValidString(got) {
			t.Fatalf("FileName(%q) = %q", name, got)
		}
		if strings.ContainsAny(got, `/\<>:"|?*`) || stem == "." || stem == ".." || strings.HasPrefix(got, ".") {
			t.Fatalf("FileName(%q) = %q holds a separator or a dot name", name, got)
		}
		if len(got) > maxNameBytes {
			t.Fatalf("FileName(%q) = %q is %d bytes, more than %d", name, got, len(got), maxNameBytes)
		}
		if reservedOnWindows(stem) {
			t.Fatalf("FileName(%q) = %q is a device name on Windows", name, got)
		}
		for _, r := range got {
			if unicode.IsControl(r) || isBidi(r) || isInvisible(r) {
				t.Fatalf("FileName(%q) = %q holds %U", name, got, r)
			}
		}
	})
}

func FuzzText(f *testing.F) {
	f.Add("a\u202eb\nc", 10)
	f.Fuzz(func(t *testing.T, s string, max int) {
		max = max % 300
		if max < 0 {
			max = -max
		}
		got := Text(s, max)
		for _, r := range got {
			if unicode.IsControl(r) || isBidi(r) || isInvisible(r) {
				t.Fatalf("Text(%q) = %q holds %U", s, got, r)
			}
		}
		if max > 0 && utf8.RuneCountInString(got) > max+1 {
			t.Fatalf("Text(%q, %d) = %q is longer than asked", s, max, got)
		}
	})
}
