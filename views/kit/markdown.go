package kit

import (
	"context"
	"fyne.io/fyne/v2/lang"
	"image"
	"net/url"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/safe"
)

// Markdown parses markdown a server sent into rich-text segments under the
// house rules for server text (see Guard). Every screen that shows a reply
// or a result builds its rich text here, never with Fyne's parser alone:
// that one opens links of any kind and loads pictures from any address or
// local path as soon as they are drawn.
func Markdown(md string) (segs []widget.RichTextSegment, pictures []*Picture) {
	segs = renderMarkdown(md)
	return segs, Guard(segs)
}

// NewMarkdownText is a word-wrapped RichText of md under the same rules,
// with the pictures it names (not loaded: see LoadPictures).
func NewMarkdownText(md string) (*widget.RichText, []*Picture) {
	segs, pics := Markdown(md)
	r := widget.NewRichText(segs...)
	r.Wrapping = fyne.TextWrapWord
	for _, p := range pics {
		p.owner = r
	}
	return r, pics
}

// Guard rewrites segments in place so that what a server wrote can only be
// shown: a link opens only if safe.Link allows it, and then through
// OpenLink (which shows the full address first when the words differ); any
// other link is shown as its words and address, as text. A picture becomes
// a Picture, which shows its description until the user loads the
// message's pictures. It returns the pictures, in order.
func Guard(segs []widget.RichTextSegment) []*Picture {
	var pics []*Picture
	var walk func([]widget.RichTextSegment)
	walk = func(segs []widget.RichTextSegment) {
		for i, s := range segs {
			switch t := s.(type) {
			case *widget.ParagraphSegment:
				walk(t.Texts)
			case *widget.ListSegment:
				walk(t.Items)
			case *widget.HyperlinkSegment:
				segs[i] = guardLink(t)
			case *widget.ImageSegment:
				p := &Picture{Title: safe.Text(t.Title, 120)}
				if t.Source != nil {
					p.Address = t.Source.String()
				}
				pics = append(pics, p)
				segs[i] = p
			}
		}
	}
	walk(segs)
	return pics
}

func guardLink(h *widget.HyperlinkSegment) widget.RichTextSegment {
	raw := ""
	if h.URL != nil {
		raw = h.URL.String()
	}
	u, ok := safe.Link(raw)
	if !ok {
		text := safe.Text(h.Text, 0)
		if addr := safe.Text(raw, 200); addr != "" && addr != text {
			text += " (" + addr + ")"
		}
		return &widget.TextSegment{Style: widget.RichTextStyleInline, Text: text}
	}
	words := h.Text
	h.URL = u
	h.OnTapped = func() { OpenLink(words, u) }
	return h
}

// linkOpener opens an address with the system; tests replace it to see
// what would have been opened.
var linkOpener = func(u *url.URL) error { return fyne.CurrentApp().OpenURL(u) }

// OpenLink opens a link a server sent, after safe.Link allowed it. When
// the words shown differ from where the link goes, it first shows the full
// address and opens it only if the user says so.
func OpenLink(words string, u *url.URL) {
	if !safe.LinkNeedsConfirm(words, u) {
		_ = linkOpener(u)
		return
	}
	w := mainWindow()
	if w == nil {
		return
	}
	addr := widget.NewLabel(u.String())
	addr.Wrapping = fyne.TextWrapBreak
	msg := widget.NewLabel(lang.L("This link goes to:"))
	d := dialog.NewCustomConfirm(lang.L("Open this link?"), lang.L("Open"), lang.L("Cancel"),
		container.NewVBox(msg, addr), func(ok bool) {
			if ok {
				_ = linkOpener(u)
			}
		}, w)
	d.Resize(fyne.NewSize(min(w.Canvas().Size().Width*0.8, 560), 0))
	ShowDialog(d, w)
}

// mainWindow is the window dialogs about server content belong to: Agent
// Desk has one window, the newest the driver knows of.
func mainWindow() fyne.Window {
	a := fyne.CurrentApp()
	if a == nil {
		return nil
	}
	if ws := a.Driver().AllWindows(); len(ws) > 0 {
		return ws[len(ws)-1]
	}
	return nil
}

// Picture is a picture a reply names. Until the user loads the message's
// pictures it shows a line with its description; then the picture itself,
// or a line saying why it is not shown. It is a rich-text segment standing
// where the picture is in the text.
type Picture struct {
	Title   string // the description the reply gave, neutralised
	Address string // where the reply says the picture is

	mu    sync.Mutex
	img   image.Image
	err   error
	busy  bool
	owner *widget.RichText
	// version counts changes of state; drawn is the version last drawn, so
	// that redrawing the text does not rebuild an unchanged picture.
	version, drawn int
}

// maxPictureSize is the most room a picture takes in a reply; larger
// pictures are scaled down, never widening the window.
var maxPictureSize = fyne.NewSize(480, 360)

// Inline reports false: a picture stands on its own line.
func (p *Picture) Inline() bool { return false }

// Textual is what copying the message gives for the picture.
func (p *Picture) Textual() string {
	return lang.L("Picture {{.Title}}", map[string]any{"Title": p.Title})
}

// Visual builds the picture's place in the text; Update fills it.
func (p *Picture) Visual() fyne.CanvasObject {
	box := container.NewStack()
	p.Update(box)
	return box
}

// Update shows the picture's current state in its place.
func (p *Picture) Update(o fyne.CanvasObject) {
	box, ok := o.(*fyne.Container)
	if !ok {
		return
	}
	p.mu.Lock()
	img, err, busy := p.img, p.err, p.busy
	if len(box.Objects) > 0 && p.drawn == p.version {
		p.mu.Unlock()
		return
	}
	p.drawn = p.version
	p.mu.Unlock()
	var obj fyne.CanvasObject
	switch {
	case img != nil:
		c := canvas.NewImageFromImage(img)
		c.FillMode = canvas.ImageFillContain
		b := img.Bounds()
		scale := min(1, maxPictureSize.Width/float32(b.Dx()), maxPictureSize.Height/float32(b.Dy()))
		c.SetMinSize(fyne.NewSize(float32(b.Dx())*scale, float32(b.Dy())*scale))
		obj = container.NewHBox(c)
	default:
		text := lang.L("Picture")
		if p.Title != "" {
			text = lang.L("Picture: {{.Title}}", map[string]any{"Title": p.Title})
		}
		switch {
		case busy:
			text = lang.L("{{.Picture}} (loading…)", map[string]any{"Picture": text})
		case err != nil:
			text += " — " + app.Describe(err)
		case p.Address != "":
			if u, ok := safe.Link(p.Address); ok && u.Host != "" {
				text = lang.L("{{.Picture}} (from {{.Host}})", map[string]any{"Picture": text, "Host": u.Host})
			}
		}
		l := widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
		l.Wrapping = fyne.TextWrapWord
		l.Importance = widget.LowImportance
		obj = container.NewBorder(nil, nil, widget.NewIcon(theme.FileImageIcon()), nil, l)
	}
	box.Objects = []fyne.CanvasObject{obj}
	box.Refresh()
}

// Select does nothing: a picture has no text to select.
func (p *Picture) Select(_, _ fyne.Position) {}

// SelectedText is empty: a picture has no text to select.
func (p *Picture) SelectedText() string { return "" }

// Unselect does nothing: a picture has no text to select.
func (p *Picture) Unselect() {}

// Loaded reports whether the picture is shown.
func (p *Picture) Loaded() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.img != nil
}

// Err is why the picture is not shown after loading, or nil.
func (p *Picture) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// ShowPictures is the words of the button that loads a message's
// pictures. It stays short, so a reply's actions fit at 800 px: each
// picture's own line already names the host it comes from.
func ShowPictures() string { return lang.L("Show pictures") }

// LoadPictures fetches pictures the user asked to see, one after another in
// the background (app.FetchPicture: web addresses only, time, size and
// pixel limits), and shows each as it arrives. done, when not nil, runs on
// the UI goroutine after the last.
func LoadPictures(a *app.App, pics []*Picture, done func()) {
	for _, p := range pics {
		p.mu.Lock()
		p.busy, p.err = p.img == nil, nil
		p.version++
		p.mu.Unlock()
		p.refresh()
	}
	Act(a, func(ctx context.Context) {
		for _, p := range pics {
			if p.Loaded() {
				continue
			}
			img, err := a.FetchPicture(ctx, p.Address)
			p.mu.Lock()
			p.img, p.err, p.busy = img, err, false
			p.version++
			p.mu.Unlock()
			Do(p.refresh)
		}
	}, done)
}

// refresh redraws the rich text the picture stands in.
func (p *Picture) refresh() {
	if p.owner != nil {
		p.owner.Refresh()
	}
}

// SetOwner names the rich text a picture stands in, when it was not built
// by NewMarkdownText.
func (p *Picture) SetOwner(r *widget.RichText) { p.owner = r }
