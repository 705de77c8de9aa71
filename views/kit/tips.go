package kit

import (
	"image/color"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/agentdesk/agentdesk/internal/clock"
)

// TipDelay is how long the pointer rests on a button before its tip shows.
const TipDelay = 600 * time.Millisecond

// Layer is drawn over a window's content without taking clicks or keys:
// button tips (Fyne has none) and the drop highlight. It asks for no room.
// It also keeps the window's own state: awaited work and dialogs' keys.
type Layer struct {
	widget.BaseWidget
	canvas fyne.Canvas

	tip     *fyne.Container
	tipText *canvas.Text
	tipFor  fyne.CanvasObject // the button the tip is shown or waited for
	timer   clock.Timer

	drop      *fyne.Container
	dropTakes bool
	// releasing is true while a text release sets the content again.
	releasing bool

	background atomic.Bool                      // the window is behind others (TrackForeground)
	busy       bool                             // awaited work is under way (ActShowing)
	dialogs    map[fyne.CanvasObject]dialogKeys // the keys of each dialog shown, by overlay
	settling   settleState                      // UI goroutine only
}

// NewLayer is the layer over the window drawn on c; put it last in the root
// container, where LayerOf finds it.
func NewLayer(c fyne.Canvas) *Layer {
	l := &Layer{canvas: c, tipText: canvas.NewText("", color.Transparent), dialogs: map[fyne.CanvasObject]dialogKeys{}}
	bg := canvas.NewRectangle(color.Transparent)
	bg.StrokeWidth = 1
	l.tip = &fyne.Container{Objects: []fyne.CanvasObject{bg, l.tipText}}
	l.tip.Hide()
	l.drop = newDropHighlight()
	l.drop.Hide()
	l.ExtendBaseWidget(l)
	return l
}

// LayerOf is the layer over the content of the window drawn on c, or nil.
func LayerOf(c fyne.Canvas) *Layer {
	if c == nil {
		return nil
	}
	root, _ := c.Content().(*fyne.Container)
	if root == nil || len(root.Objects) == 0 {
		return nil
	}
	l, _ := root.Objects[len(root.Objects)-1].(*Layer)
	return l
}

// windowLayer is the layer of the window drawn on c, put over its content
// if it has none yet (a window built without one), as the window's state
// lives there.
func windowLayer(c fyne.Canvas) *Layer {
	if l := LayerOf(c); l != nil {
		return l
	}
	l := NewLayer(c)
	if content := c.Content(); content != nil {
		c.SetContent(container.NewStack(content, l))
	} else {
		c.SetContent(container.NewStack(l))
	}
	return l
}

// MinSize is asked by Fyne of every object shown before it draws a frame:
// the layer settles the window's layout after the frame (settle.go).
func (l *Layer) MinSize() fyne.Size {
	l.frameDrawn()
	return fyne.Size{}
}

func (l *Layer) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(&fyne.Container{Layout: layerLayout{l}, Objects: []fyne.CanvasObject{l.drop, l.tip}})
}

// layerLayout stretches the drop highlight over the window; the tip places itself.
type layerLayout struct{ l *Layer }

func (layerLayout) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.Size{} }

func (ll layerLayout) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	ll.l.drop.Resize(size)
	layoutDropHighlight(ll.l.drop, size, ll.l.dropTakes)
}

// hovered starts the wait for o's tip, unless a dialog is open (it would show under it).
func hovered(o fyne.CanvasObject, tip string) {
	l := LayerOf(canvasOf(o))
	if tip == "" || l == nil || l.canvas.Overlays().Top() != nil {
		return
	}
	l.hideTip()
	l.tipFor = o
	l.timer = clockNow().AfterFunc(TipDelay, func() {
		Do(func() {
			// Fyne reports focus, not the pointer, leaving the window.
			if l.tipFor == o && !l.background.Load() {
				l.showTip(o, tip)
			}
		})
	})
}

func left(o fyne.CanvasObject) {
	if l := LayerOf(canvasOf(o)); l != nil && l.tipFor == o {
		l.hideTip()
	}
}

func canvasOf(o fyne.CanvasObject) fyne.Canvas {
	if a := fyne.CurrentApp(); a != nil {
		return a.Driver().CanvasForObject(o)
	}
	return nil
}

// HideTip hides the tip in the window drawn on c, or stops waiting for one.
func HideTip(c fyne.Canvas) {
	if l := LayerOf(c); l != nil {
		l.hideTip()
	}
}

func (l *Layer) hideTip() {
	if l.timer != nil {
		l.timer.Stop()
		l.timer = nil
	}
	l.tipFor = nil
	if l.tip.Visible() {
		l.tip.Hide()
		l.Refresh()
	}
}

// showTip shows tip under o, or over it without room, inside the window.
func (l *Layer) showTip(o fyne.CanvasObject, tip string) {
	if !o.Visible() || l.canvas.Overlays().Top() != nil {
		return
	}
	pad := theme.Padding()
	bg := l.tip.Objects[0].(*canvas.Rectangle)
	bg.FillColor = theme.Color(theme.ColorNameOverlayBackground)
	bg.StrokeColor = theme.Color(theme.ColorNameSeparator)
	bg.CornerRadius = theme.InputRadiusSize()
	l.tipText.Text = tip
	l.tipText.Color = theme.Color(theme.ColorNameForeground)
	l.tipText.TextSize = theme.CaptionTextSize()
	text := l.tipText.MinSize()
	size := text.AddWidthHeight(4*pad, 2*pad)
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
	win := l.Size()
	pos := fyne.NewPos(at.X, at.Y+o.Size().Height+pad)
	if pos.Y+size.Height > win.Height {
		pos.Y = at.Y - size.Height - pad
	}
	pos.X = max(0, min(pos.X, win.Width-size.Width))
	pos.Y = max(0, pos.Y)
	bg.Resize(size)
	l.tipText.Move(fyne.NewPos(2*pad, pad))
	l.tipText.Resize(text)
	l.tip.Move(pos)
	l.tip.Resize(size)
	l.tip.Show()
	l.Refresh()
}

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
