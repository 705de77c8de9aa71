package kit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/internal/safe"
)

// Line is a server's text as a one-line label draws it: without controls or
// line breaks (safe.Text, at most max characters when max > 0), with
// right-to-left words (Hebrew, Arabic) in the order they are read
// (BidiVisual). The line itself runs left to right, as the window does, so
// that a label cut short with "…" keeps a mixed title's first words; a
// title wholly in Hebrew or Arabic is one right-to-left run, whose
// beginning is drawn on the right, where "…" cuts: where such titles are
// long, BidiLines cuts them in reading order. It is for drawing only:
// never copy, send or store it, and never let Fyne wrap it.
func Line(s string, max int) string {
	t := safe.Text(s, max)
	if !bidiHasRTL(t) {
		return t
	}
	return BidiVisual(string(bidiLRM) + t)
}

// NewLine is one line of a server's text in a list row, cut short with "…"
// where the row is narrow, whatever its script: a label for text that
// starts left to right, BidiLines for a title in Hebrew or Arabic (whose
// beginning a label's "…" would cut off). Fill it with SetLine.
func NewLine(style fyne.TextStyle, quiet bool) fyne.CanvasObject {
	l := widget.NewLabelWithStyle("", fyne.TextAlignLeading, style)
	l.Truncation = fyne.TextTruncateEllipsis
	b := BidiLines("", style, theme.SizeNameText, false)
	if quiet {
		l.Importance = widget.LowImportance
		b.(*fyne.Container).Layout.(*bidiLayout).colour = theme.ColorNamePlaceHolder
	}
	b.Hide()
	return container.NewStack(l, b)
}

// SetLine shows text, as the server wrote it, in a NewLine; it reports
// whether the line shows something else than before.
func SetLine(o fyne.CanvasObject, text string) (changed bool) {
	c := o.(*fyne.Container)
	l, b := c.Objects[0].(*widget.Label), c.Objects[1]
	t := safe.Text(text, 0)
	if BidiIsRTL(t) {
		changed = !b.Visible() || b.(*fyne.Container).Layout.(*bidiLayout).text != t
		SetBidiLines(b, t)
		l.Hide()
		b.Show()
		l.Text = t
		return changed
	}
	shown := Line(t, 0)
	changed = !l.Visible() || l.Text != shown
	b.Hide()
	l.Show()
	if changed {
		// Unchanged text is not measured again: a list refreshed for one
		// changed row leaves the others as they are.
		l.SetText(shown)
	}
	return changed
}

// LineText is what a NewLine or BidiLines shows, as the server wrote it
// (for tests and for reading a row back).
func LineText(o fyne.CanvasObject) (string, bool) {
	c, ok := o.(*fyne.Container)
	if !ok {
		return "", false
	}
	if l, ok := c.Layout.(*bidiLayout); ok {
		return l.text, true
	}
	if len(c.Objects) == 2 {
		if l, ok := c.Objects[0].(*widget.Label); ok {
			if b, ok := c.Objects[1].(*fyne.Container); ok {
				if bl, ok := b.Layout.(*bidiLayout); ok {
					if b.Visible() {
						return bl.text, true
					}
					return l.Text, true
				}
			}
		}
	}
	return "", false
}
