package kit

import (
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"

	"github.com/agentdesk/agentdesk/internal/safe"
)

// How long a notification's title and text may be. Longer text is cut with
// "…": a desktop notification is a short hint to open Agent Desk, and an
// error of 10,000 characters would not fit on the screen anyway.
const (
	NotifyTitleMax = 64
	NotifyBodyMax  = 200
)

// Notify shows a desktop notification. Every notification of Agent Desk goes
// through here, never through fyne.App.SendNotification directly.
//
// Why: a notification often names an agent or repeats an error, words that
// come from the service, not from Agent Desk. On Windows, Fyne shows the
// notification by writing a small PowerShell script with that text pasted
// between double quotes. There, a dollar sign ("$(calc)") runs a command, a
// backtick or a quote mark (straight or curly) ends the text early, so an
// agent called Report “Q3” would break every notification and a title
// chosen to harm could start a program. Notify makes the text one plain
// line, cuts it to a readable length and swaps those few characters for
// look-alikes that mean nothing to the script.
//
// On Linux, Fyne hands the text as it is to the desktop's notification
// server (org.freedesktop.Notifications), and most servers read tags and
// entities in it: <a href=…> would make a link, <img> fetch a picture, and
// &amp; show as "&". Notify swaps < > & for look-alikes too, rather than
// writing entities, since servers that read no markup, and the portal a
// Flatpak uses, would show "&amp;" as it is.
//
// It does so on every computer, so what people see is the same everywhere
// and can be tested.
func Notify(a fyne.App, title, body string) {
	if a == nil {
		return
	}
	t := NotifyText(title, NotifyTitleMax)
	if t == "" {
		t = "Agent Desk"
	}
	a.SendNotification(fyne.NewNotification(t, NotifyText(body, NotifyBodyMax)))
}

// NotifyText is s as a notification may show it: one line without control,
// direction-changing or invisible characters (safe.Text), at most max
// characters, and with the characters that are special to the Windows
// notification script or to a Linux notification server's markup replaced
// by ones that look alike (see Notify).
func NotifyText(s string, max int) string {
	// Cut first, so 10,000 characters are not copied twice; the swap below
	// keeps the length.
	t := safe.Text(s, max)
	if max > 1 && utf8.RuneCountInString(t) > max {
		// safe.Text may add its "…" after max characters: leave room for it.
		t = safe.Text(s, max-1)
	}
	return strings.Map(notifyRune, t)
}

// notifyRune swaps one character special inside the PowerShell text of a
// Windows notification, or in a Linux notification's markup, for a harmless
// look-alike. PowerShell reads the curly quotes ‘ ’ ‚ ‛ “ ” „ as quote marks
// too, so they are swapped as well.
func notifyRune(r rune) rune {
	switch r {
	case '<':
		return '‹' // SINGLE LEFT-POINTING ANGLE QUOTATION MARK: starts no tag
	case '>':
		return '›' // SINGLE RIGHT-POINTING ANGLE QUOTATION MARK
	case '&':
		return '＆' // FULLWIDTH AMPERSAND: starts no entity
	case '$':
		return '＄' // FULLWIDTH DOLLAR SIGN: "$(…)" and "$name" no longer run or read anything
	case '`':
		return 'ˋ' // MODIFIER LETTER GRAVE ACCENT: PowerShell's escape character no longer escapes
	case '\'', '‘', '’', '‚', '‛':
		return 'ʼ' // MODIFIER LETTER APOSTROPHE: reads as an apostrophe ("Müllerʼs")
	case '"', '“', '”', '„', '‟':
		return 'ʺ' // MODIFIER LETTER DOUBLE PRIME: reads as a quote mark
	}
	return r
}
