package kit

import (
	"math"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// TextScaled is a theme whose text, and the icons beside it, are Scale
// times their size; the spacing stays, so more words fit as text grows.
type TextScaled struct {
	fyne.Theme
	Scale float32
}

// scaledSizes are the sizes a text size scales.
var scaledSizes = []fyne.ThemeSizeName{theme.SizeNameText, theme.SizeNameHeadingText, theme.SizeNameSubHeadingText, theme.SizeNameCaptionText, theme.SizeNameInlineIcon}

func (t TextScaled) Size(n fyne.ThemeSizeName) float32 {
	if slices.Contains(scaledSizes, n) {
		return float32(math.Round(float64(t.Theme.Size(n) * t.Scale)))
	}
	return t.Theme.Size(n)
}

// TextScaledWidth is a width w meant for Fyne's standard text size, at the
// text size in use: columns and panes grow with the text they hold.
func TextScaledWidth(w float32) float32 {
	return w * theme.TextSize() / theme.DefaultTheme().Size(theme.SizeNameText)
}

// TextScaledBox is o asking for width w at the standard text size, scaled
// as TextScaledWidth, and o's own height: measured at each layout, so a new
// text size is followed at once.
func TextScaledBox(o fyne.CanvasObject, w float32) fyne.CanvasObject {
	return &fyne.Container{Layout: fillLayout(func(o fyne.CanvasObject) fyne.Size {
		return fyne.NewSize(TextScaledWidth(w), o.MinSize().Height)
	}), Objects: []fyne.CanvasObject{o}}
}
