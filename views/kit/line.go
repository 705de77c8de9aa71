package kit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/internal/safe"
)

// Line is server text for a one-line label: safe.Text (capped at max > 0)
// in BidiVisual order. The line runs left to right so "…" keeps a mixed
// title's start; long right-to-left titles need BidiLines. For drawing
// only: never copy, send, store, or let Fyne wrap it.
func Line(s string, max int) string {
	t := safe.Text(s, max)
	if !bidiHasRTL(t) {
		return t
	}
	return BidiVisual(string(bidiLRM) + t)
}

// NewLine is one line of server text in a list row, cut with "…" whatever its
// script (BidiLines for right-to-left titles). Fill it with SetLine.
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
		// Unchanged text is not measured again.
		l.SetText(shown)
	}
	return changed
}

// LineText is what a NewLine or BidiLines shows, as the server wrote it.
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

// Fitting shows l only where its whole text fits on one line: a hint cut to
// "Us…" says nothing. l's own Show and Hide still count.
func Fitting(l *widget.Label) fyne.CanvasObject {
	inner := container.NewStack(l)
	return &fyne.Container{Layout: &fittingLayout{l: l, inner: inner}, Objects: []fyne.CanvasObject{inner}}
}

type fittingLayout struct {
	l     *widget.Label
	inner *fyne.Container
}

func (f *fittingLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(0, f.l.MinSize().Height)
}

func (f *fittingLayout) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	// Fyne cuts a text exactly as wide as its room, hence the pixel more.
	whole := fyne.MeasureText(f.l.Text, theme.TextSize(), f.l.TextStyle).Width + 2*theme.InnerPadding() + 1
	if fits := size.Width >= whole; fits != f.inner.Visible() {
		if fits {
			f.inner.Show()
		} else {
			f.inner.Hide()
		}
	}
	f.inner.Resize(size)
}
