package kit

import "github.com/agentdesk/agentdesk/app/safe"

// Line is a server's text as a one-line label draws it: without controls or
// line breaks (safe.Text, at most max characters when max > 0), with
// right-to-left words (Hebrew, Arabic) in the order they are read
// (BidiVisual). The line itself runs left to right, as the window does, so
// that a label cut short with "…" keeps the text's beginning whatever its
// script. It is for drawing only: never copy, send or store it.
func Line(s string, max int) string {
	t := safe.Text(s, max)
	if !bidiHasRTL(t) {
		return t
	}
	return BidiVisual(string(bidiLRM) + t)
}
