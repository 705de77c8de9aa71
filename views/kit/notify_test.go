package kit_test

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"

	"github.com/agentdesk/agentdesk/views/kit"
)

// recordingApp keeps the notifications sent instead of showing them.
type recordingApp struct {
	fyne.App
	sent []*fyne.Notification
}

func (a *recordingApp) SendNotification(n *fyne.Notification) { a.sent = append(a.sent, n) }

// special are the characters that mean something inside the double-quoted
// PowerShell text of Fyne's Windows notification script (app_windows.go):
// $ starts a variable or a command, ` escapes, and PowerShell takes the
// curly quotes as quote marks as well as the straight ones.
const special = "$`\"'‘’‚‛“”„‟"

// hostile are texts a server could put in an agent's title or an error.
var hostile = map[string]string{
	"command":           "$(calc)",
	"command in title":  "Report $(Start-Process calc.exe) ready",
	"variable":          "${env:USERPROFILE} $HOME",
	"backticks":         "`$(calc)` and ``double``",
	"straight quotes":   `"; Start-Process calc; "`,
	"escaped quote":     "`\"; calc; `\"",
	"curly doubles":     "“); calc; (” „German“ ‟x",
	"curly singles":     "‘quoted’ ‚low‛ and 'single'",
	"newlines":          "first line\nsecond\r\n$(calc)\u2028third\u0085fourth",
	"controls and bidi": "invoice\u202Efdp.exe\x00\x1b[31m\u200b",
	"10,000 characters": strings.Repeat("A", 10000),
	"10,000 commands":   strings.Repeat("$(calc)“", 1250),
	"invalid UTF-8":     "a\xff\xfe$(calc)",
	"markup":            `<a href="https://evil.example">Open your bank</a> <b>now</b> <img src="file:///x">`,
	"entities":          "&amp;lt;b&gt; &#60;i&#x3e; &nbsp;",
	"broken markup":     "<b>unclosed & <i",
}

// markup are the characters a Linux notification server reads as markup in
// a notification's text (the freedesktop body markup: tags and entities).
const markup = "<>&"

func TestNotifyTextCannotRunOrBreakTheWindowsScript(t *testing.T) {
	for name, in := range hostile {
		for _, max := range []int{kit.NotifyTitleMax, kit.NotifyBodyMax} {
			out := kit.NotifyText(in, max)
			if i := strings.IndexAny(out, special); i >= 0 {
				t.Errorf("%s: %q keeps %q", name, out, out[i:])
			}
			if n := utf8.RuneCountInString(out); n > max || n == 0 {
				t.Errorf("%s: %d characters, want 1 to %d", name, n, max)
			}
			for _, r := range out {
				if unicode.IsControl(r) || r == '\u202E' || r == '\u2028' || r == utf8.RuneError {
					t.Errorf("%s: %q keeps %U", name, out, r)
				}
			}
			if !literalEndsWhereItShould(out) {
				t.Errorf("%s: %q does not stay one PowerShell text", name, out)
			}
		}
	}
}

// literalEndsWhereItShould pastes s into the script's first line the way
// Fyne 2.7.1 does (escapeNotificationString, then `$title = "%s"`) and reads
// it back as PowerShell would: the text must end at the line's last quote,
// with nothing in it PowerShell would expand.
func literalEndsWhereItShould(s string) bool {
	escaped := strings.ReplaceAll(strings.ReplaceAll(s, "`", "``"), `"`, "`\"")
	line := []rune(`$title = "` + escaped + `"`)
	start := len([]rune(`$title = "`))
	for i := start; i < len(line); i++ {
		switch r := line[i]; {
		case r == '`':
			i++ // the next character is taken as it is
		case r == '$':
			return false // a variable or "$(command)" would be read
		case r == '\n' || r == '\r':
			return false
		case strings.ContainsRune(`"“”„`, r):
			return i == len(line)-1
		}
	}
	return false
}

// Fyne sends a notification's text on Linux to the desktop's notification
// server as it is, and most servers read tags and entities in it: a
// service's text never becomes a link, a picture or bold words there.
func TestNotifyTextIsNoMarkup(t *testing.T) {
	for name, in := range hostile {
		for _, max := range []int{kit.NotifyTitleMax, kit.NotifyBodyMax} {
			if out := kit.NotifyText(in, max); strings.ContainsAny(out, markup) {
				t.Errorf("%s: %q keeps markup", name, out)
			}
		}
	}
	if got, want := kit.NotifyText("Tom & Jerry <draft>", kit.NotifyBodyMax), "Tom ＆ Jerry ‹draft›"; got != want {
		t.Errorf("NotifyText = %q, want %q", got, want)
	}
}

func TestNotifyTextReadsAsWritten(t *testing.T) {
	for in, want := range map[string]string{
		"Reply ready":            "Reply ready",
		"Report for Q3 — Müller": "Report for Q3 — Müller",
		"Newsletter Writer has finished. Open Agent Desk to see the result.": "Newsletter Writer has finished. Open Agent Desk to see the result.",
		"Writer has answered in “Plans for May”.":                            "Writer has answered in ʺPlans for Mayʺ.",
		"Müller's report costs $5":                                           "Müllerʼs report costs ＄5",
		"  two\n\nlines  ":                                                   "two lines",
	} {
		if got := kit.NotifyText(in, kit.NotifyBodyMax); got != want {
			t.Errorf("NotifyText(%q) = %q, want %q", in, got, want)
		}
	}
	long := kit.NotifyText(strings.Repeat("word ", 100), kit.NotifyTitleMax)
	if !strings.HasSuffix(long, "…") || !strings.HasPrefix(long, "word word") {
		t.Errorf("a long title is cut with …: %q", long)
	}
}

func TestNotifySendsTheSafeText(t *testing.T) {
	a := &recordingApp{}
	kit.Notify(a, "Agent Desk", "Report $(calc) stopped: “bad”\nthing")
	kit.Notify(a, "\u202E\n", hostile["10,000 commands"])
	kit.Notify(nil, "no app", "nothing happens")
	kit.Notify(a, "<b>Writer</b>", "<a href=\"https://evil.example\">Open</a> &amp;")
	if len(a.sent) != 3 {
		t.Fatalf("%d notifications sent, want 3", len(a.sent))
	}
	if n := a.sent[2]; n.Title != "‹b›Writer‹/b›" || n.Content != "‹a href=ʺhttps://evil.exampleʺ›Open‹/a› ＆amp;" {
		t.Errorf("markup sent: %+v", n)
	}
	if n := a.sent[0]; n.Title != "Agent Desk" || n.Content != "Report ＄(calc) stopped: ʺbadʺ thing" {
		t.Errorf("sent %+v", n)
	}
	if n := a.sent[1]; n.Title != "Agent Desk" || utf8.RuneCountInString(n.Content) > kit.NotifyBodyMax || strings.ContainsAny(n.Content, special) {
		t.Errorf("a title with nothing to show is Agent Desk, the text is bounded: %+v", n)
	}
}

func FuzzNotificationText(f *testing.F) {
	for _, s := range hostile {
		f.Add(s, kit.NotifyBodyMax)
	}
	f.Add("&lt;b&gt;", 3)
	f.Fuzz(func(t *testing.T, in string, max int) {
		max = max % 300
		if max < 0 {
			max = -max
		}
		if max < 2 {
			max = 2
		}
		out := kit.NotifyText(in, max)
		if !utf8.ValidString(out) {
			t.Fatalf("NotifyText(%q, %d) = %q is not UTF-8", in, max, out)
		}
		if n := utf8.RuneCountInString(out); n > max {
			t.Fatalf("NotifyText(%q, %d) = %q has %d characters", in, max, out, n)
		}
		if i := strings.IndexAny(out, markup+special); i >= 0 {
			t.Fatalf("NotifyText(%q, %d) = %q keeps %q", in, max, out, out[i:])
		}
		for _, r := range out {
			if unicode.IsControl(r) || r == utf8.RuneError || r == '\u2028' || r == '\u2029' {
				t.Fatalf("NotifyText(%q, %d) = %q keeps %U", in, max, out, r)
			}
		}
		if !literalEndsWhereItShould(out) && out != "" {
			t.Fatalf("NotifyText(%q, %d) = %q does not stay one PowerShell text", in, max, out)
		}
	})
}
