package kit

import "fyne.io/fyne/v2"

// TipShown is the tip on show in the window drawn on c ("" for none).
func TipShown(c fyne.Canvas) string {
	if l := LayerOf(c); l != nil && l.tip.Visible() {
		return l.tipText.Text
	}
	return ""
}
