package kit

import (
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"

	"github.com/agentdesk/agentdesk/internal/safe"
)

// Notification length caps: a notification is a short hint, cut with "…".
const (
	NotifyTitleMax = 64
	NotifyBodyMax  = 200
)

// Notify shows a desktop notification; never call SendNotification directly.
// Server text is data: on Windows Fyne pastes it into a PowerShell string,
// where "$(…)", backticks and quotes (curly too) break out; on Linux servers
// read markup in it. Notify makes one plain line, capped, with those
// characters swapped for look-alikes on every OS, so it can be tested.
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

// NotifyText is s as a notification may show it: safe.Text, at most max
// characters, special characters swapped for look-alikes (see Notify).
func NotifyText(s string, max int) string {
	// Cut first, so a long text is not copied twice; the swap keeps length.
	t := safe.Text(s, max)
	if max > 1 && utf8.RuneCountInString(t) > max {
		// safe.Text may add its "…" after max characters: leave room for it.
		t = safe.Text(s, max-1)
	}
	return strings.Map(notifyRune, t)
}

// notifyRune swaps a character special to PowerShell strings or notification
// markup for a harmless look-alike.
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
