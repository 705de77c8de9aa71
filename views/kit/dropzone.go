package kit

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
)

// newDropHighlight is what dragging files over the window shows: a frame and
// what dropping does, or a plain card where a drop would be refused.
func newDropHighlight() *fyne.Container {
	frame := canvas.NewRectangle(color.Transparent)
	frame.StrokeWidth = 3
	card := canvas.NewRectangle(color.Transparent)
	card.CornerRadius = 2 * theme.InputRadiusSize()
	icon := canvas.NewImageFromResource(nil)
	icon.FillMode = canvas.ImageFillContain
	text := canvas.NewText("", color.White)
	text.TextStyle.Bold = true
	text.Alignment = fyne.TextAlignCenter
	return &fyne.Container{Objects: []fyne.CanvasObject{frame, card, icon, text}}
}

// layoutDropHighlight places the frame and card in the current theme's colours.
func layoutDropHighlight(c *fyne.Container, size fyne.Size, takes bool) {
	frame, card := c.Objects[0].(*canvas.Rectangle), c.Objects[1].(*canvas.Rectangle)
	icon, text := c.Objects[2].(*canvas.Image), c.Objects[3].(*canvas.Text)
	primary := theme.Color(theme.ColorNamePrimary)
	r, g, b, _ := primary.RGBA()
	frame.StrokeColor = primary
	frame.FillColor = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 0x30}
	frame.Hidden = !takes
	frame.Move(fyne.NewPos(2, 2))
	frame.Resize(size.SubtractWidthHeight(4, 4))

	pad := 2 * theme.Padding()
	on, fill, res := theme.ColorNameForegroundOnPrimary, primary, theme.UploadIcon()
	if !takes {
		on, fill, res = theme.ColorNameForeground, theme.Color(theme.ColorNameOverlayBackground), theme.InfoIcon()
	}
	text.Color = theme.Color(on)
	icon.Resource = theme.NewColoredResource(res, on)
	text.TextSize = theme.TextSubHeadingSize()
	ts := text.MinSize()
	ts.Width = min(ts.Width, size.Width-4*pad) // a long hint is cut off, never widens the window
	is := fyne.NewSquareSize(2 * ts.Height)
	cs := fyne.NewSize(max(ts.Width, is.Width)+2*pad, is.Height+ts.Height+3*pad)
	at := fyne.NewPos((size.Width-cs.Width)/2, (size.Height-cs.Height)/2)
	card.FillColor = fill
	card.StrokeColor = theme.Color(theme.ColorNameSeparator)
	card.StrokeWidth = 1
	card.Move(at)
	card.Resize(cs)
	icon.Move(fyne.NewPos(at.X+(cs.Width-is.Width)/2, at.Y+pad))
	icon.Resize(is)
	text.Move(fyne.NewPos(at.X+pad, at.Y+2*pad+is.Height))
	text.Resize(fyne.NewSize(cs.Width-2*pad, ts.Height))
}

// ShowDrop shows or hides the drop highlight; takes is false where it would be refused.
func (l *Layer) ShowDrop(on bool, hint string, takes bool) {
	if !on {
		if l.drop.Visible() {
			l.drop.Hide()
			l.Refresh()
		}
		return
	}
	l.hideTip()
	l.drop.Objects[3].(*canvas.Text).Text = hint
	l.dropTakes = takes
	layoutDropHighlight(l.drop, l.Size(), takes)
	l.drop.Objects[2].Refresh()
	l.drop.Show()
	l.Refresh()
}
