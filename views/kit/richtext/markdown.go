// Package richtext shows Markdown a server sent: parsed under the link and
// picture rules, streamed block by block, with code blocks and pipe tables
// laid out as a browser would.
package richtext

import (
	"context"
	"image"
	"image/color"
	"net/url"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/internal/safe"
	"github.com/agentdesk/agentdesk/views/kit"
)

// Parse parses server markdown into rich-text segments under Guard's rules.
// Never use Fyne's parser alone: it opens any link and loads any picture,
// even local paths, once drawn.
func Parse(md string) (segs []widget.RichTextSegment, pictures []*Picture) {
	segs = renderMarkdown(md)
	return segs, Guard(segs)
}

// NewMarkdownText is a word-wrapped RichText of md with its pictures, not loaded.
func NewMarkdownText(md string) (*widget.RichText, []*Picture) {
	return newGuardedText(renderMarkdown(md))
}

// newGuardedText is a word-wrapped RichText of segs under Guard's rules.
func newGuardedText(segs []widget.RichTextSegment) (*widget.RichText, []*Picture) {
	pics := Guard(segs)
	r := widget.NewRichText(segs...)
	r.Wrapping = fyne.TextWrapWord
	for _, p := range pics {
		p.owner = r
	}
	return r, pics
}

// Guard rewrites segments so server text can only be shown: a link opens only
// if safe.Link allows it, through OpenLink; others show as text. Pictures
// wait for the user (Picture). It returns the pictures in order.
func Guard(segs []widget.RichTextSegment) []*Picture {
	var pics []*Picture
	visit(segs, func(s *widget.RichTextSegment) {
		switch t := (*s).(type) {
		case *widget.HyperlinkSegment:
			*s = guardLink(t)
		case *widget.ImageSegment:
			p := &Picture{Title: safe.Text(t.Title, 120)}
			if t.Source != nil {
				p.Address = t.Source.String()
			}
			pics = append(pics, p)
			*s = p
		}
	})
	return pics
}

// visit calls f for each segment of segs not a paragraph or list, at any depth.
func visit(segs []widget.RichTextSegment, f func(s *widget.RichTextSegment)) {
	for i := range segs {
		switch t := segs[i].(type) {
		case *widget.ParagraphSegment:
			visit(t.Texts, f)
		case *widget.ListSegment:
			visit(t.Items, f)
		default:
			f(&segs[i])
		}
	}
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

// OpenLink opens a server link safe.Link allowed; when its words differ from
// its address, the user confirms the full address first.
func OpenLink(words string, u *url.URL) {
	if !safe.LinkNeedsConfirm(words, u) {
		_ = fyne.CurrentApp().OpenURL(u)
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
				_ = fyne.CurrentApp().OpenURL(u)
			}
		}, w)
	d.Resize(fyne.NewSize(min(w.Canvas().Size().Width*0.8, 560), 0))
	kit.ShowDialog(d, w)
}

// mainWindow is the window dialogs about server content belong to: the newest.
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

// Picture is a rich-text segment for a picture a reply names or an agent made.
// It shows its description until the user loads the message's pictures. The
// budget may drop it; its place stays and it decodes again when redrawn.
type Picture struct {
	Title   string // the description the reply gave, neutralised
	Address string // where the reply says the picture is

	mu  sync.Mutex
	src pictureSource
	img image.Image // nil before it loads and while it is dropped
	// size is kept while dropped, so its place does not change.
	size image.Point
	// seen tells the app's budget the picture was drawn (true) or is let
	// go (false); nil when not held.
	seen func(keep bool)
	// loads and lost make a drop meant for an earlier load ignored.
	loads, lost int
	err         error
	busy        bool
	// quiet is set while the picture's own change redraws its text.
	quiet bool
	// after runs on the UI goroutine when reloading failed: the place changed.
	after func()
	owner *widget.RichText
	// version and drawn spare rebuilding an unchanged picture on redraw.
	version, drawn int
}

// pictureSource is where a Picture comes from: load decodes within a's limits.
type pictureSource struct {
	a    Pictures
	load func(ctx context.Context, dropped func()) (image.Image, func(keep bool), error)
}

// Pictures is what richtext needs of the app to show pictures.
type Pictures interface {
	kit.Runner
	ShowPicture(ctx context.Context, address string, dropped func()) (image.Image, func(keep bool), error)
	ShowPictureFile(ctx context.Context, path string, dropped func()) (image.Image, func(keep bool), error)
	Describe(err error) string
}

// maxPictureSize bounds a picture in a reply, so it never widens the window.
var maxPictureSize = fyne.NewSize(480, 360)

func (p *Picture) Inline() bool { return false }

// Textual is what copying the message gives for the picture.
func (p *Picture) Textual() string {
	return lang.L("Picture {{.Title}}", map[string]any{"Title": p.Title})
}

// Visual builds the picture's place in the text; Update fills it.
func (p *Picture) Visual() fyne.CanvasObject {
	b := &pictureBox{p: p, box: container.NewStack()}
	b.ExtendBaseWidget(b)
	p.Update(b)
	return b
}

// pictureBox draws a Picture. Fyne destroys a widget's renderer once it
// has not been drawn for its cache's minute: the decoded picture is let go
// then, and decoded again when drawn again. Only what is drawn is kept.
type pictureBox struct {
	widget.BaseWidget
	p   *Picture
	box *fyne.Container
}

func (b *pictureBox) CreateRenderer() fyne.WidgetRenderer {
	b.p.inView()
	return pictureRenderer{widget.NewSimpleRenderer(b.box), b.p}
}

type pictureRenderer struct {
	fyne.WidgetRenderer
	p *Picture
}

func (r pictureRenderer) Destroy() {
	r.p.letGo()
	r.WidgetRenderer.Destroy()
}

func (p *Picture) Update(o fyne.CanvasObject) {
	b, ok := o.(*pictureBox)
	if !ok {
		return
	}
	box := b.box
	p.inView()
	p.mu.Lock()
	img, size, err, busy := p.img, p.size, p.err, p.busy
	unchanged := len(box.Objects) > 0 && p.drawn == p.version
	p.drawn = p.version
	p.mu.Unlock()
	if unchanged {
		return
	}
	var obj fyne.CanvasObject
	switch {
	case img != nil:
		c := canvas.NewImageFromImage(img)
		c.FillMode = canvas.ImageFillContain
		c.SetMinSize(pictureSize(size))
		obj = container.NewHBox(c)
	case size != (image.Point{}):
		// Dropped: its place stays until it is decoded again.
		r := canvas.NewRectangle(color.Transparent)
		r.SetMinSize(pictureSize(size))
		obj = container.NewHBox(r)
	default:
		text := lang.L("Picture")
		if p.Title != "" {
			text = lang.L("Picture: {{.Title}}", map[string]any{"Title": p.Title})
		}
		switch {
		case busy:
			text = lang.L("{{.Picture}} (loading…)", map[string]any{"Picture": text})
		case err != nil:
			text += " — " + p.src.a.Describe(err)
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

func pictureSize(px image.Point) fyne.Size {
	scale := min(1, maxPictureSize.Width/float32(px.X), maxPictureSize.Height/float32(px.Y))
	return fyne.NewSize(float32(px.X)*scale, float32(px.Y)*scale)
}

// Select, SelectedText, Unselect: a picture has no text to select.
func (p *Picture) Select(_, _ fyne.Position) {}
func (p *Picture) SelectedText() string      { return "" }
func (p *Picture) Unselect()                 {}

func (p *Picture) Loaded() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.size != (image.Point{})
}

// Err is why the picture is not shown after loading, or nil.
func (p *Picture) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// ShowPictures is the words of the button that loads a message's pictures;
// short, so a reply's actions fit a narrow window.
func ShowPictures() string { return lang.L("Show pictures") }

// LoadPictures fetches the pictures the user asked for one by one in the
// background, within app.ShowPicture's limits. done runs on the UI goroutine
// after the last, and when a reload fails.
func LoadPictures(a Pictures, pics []*Picture, done func()) {
	for _, p := range pics {
		addr := p.Address
		p.mu.Lock()
		p.src = pictureSource{a, func(ctx context.Context, dropped func()) (image.Image, func(keep bool), error) {
			return a.ShowPicture(ctx, addr, dropped)
		}}
		p.after = done
		p.busy, p.err = p.img == nil, nil
		p.version++
		p.mu.Unlock()
		p.refresh()
	}
	kit.Act(a, func(ctx context.Context) {
		for _, p := range pics {
			p.mu.Lock()
			held := p.img != nil
			p.mu.Unlock()
			if !held {
				_ = p.load(ctx)
			}
		}
	}, done)
}

// NewPictureFile shows an agent's picture file, decoded within the app's
// limits (Fyne's loader would use any decoder). done runs on the UI goroutine
// once it shows or says why not.
func NewPictureFile(a Pictures, path, title string, done func()) *widget.RichText {
	p := &Picture{Title: title, busy: true, after: done}
	p.src = pictureSource{a, func(ctx context.Context, dropped func()) (image.Image, func(keep bool), error) {
		return a.ShowPictureFile(ctx, path, dropped)
	}}
	r := widget.NewRichText(p)
	p.owner = r
	kit.Act(a, func(ctx context.Context) { _ = p.load(ctx) }, done)
	return r
}

func (p *Picture) load(ctx context.Context) error {
	p.mu.Lock()
	p.loads++
	n, src := p.loads, p.src
	p.mu.Unlock()
	img, seen, err := src.load(ctx, func() { p.drop(n) })
	p.mu.Lock()
	if n != p.loads {
		// A later load shows the picture.
		p.mu.Unlock()
		return err
	}
	p.busy = false
	switch {
	case err != nil:
		p.img, p.seen, p.size, p.err = nil, nil, image.Point{}, err
	case p.lost == n:
		// Dropped already, before it was drawn.
		p.img, p.seen, p.size, p.err = nil, nil, img.Bounds().Size(), nil
		if seen != nil {
			seen(false)
		}
	default:
		p.img, p.seen, p.size, p.err = img, seen, img.Bounds().Size(), nil
	}
	p.version++
	p.mu.Unlock()
	kit.Do(p.refresh)
	return err
}

// PicturesInView tells pictures their text is drawn again, for rows rebound
// rather than redrawn.
func PicturesInView(pics []*Picture) {
	for _, p := range pics {
		p.inView()
	}
}

// inView marks a picture seen and reloads one the budget dropped, unless its
// own change is being drawn.
func (p *Picture) inView() {
	p.mu.Lock()
	seen := p.seen
	again := p.img == nil && p.size != (image.Point{}) && !p.busy && !p.quiet && p.src.load != nil
	if again {
		p.busy = true
	}
	src, after := p.src, p.after
	p.mu.Unlock()
	if seen != nil {
		seen(true)
	}
	if !again {
		return
	}
	var err error
	kit.Act(src.a, func(ctx context.Context) { err = p.load(ctx) }, func() {
		if err != nil && after != nil {
			after()
		}
	})
}

// letGo gives the decoded picture back to the app when it is no longer
// drawn; a load under way is let go as it ends. Its place is kept.
func (p *Picture) letGo() {
	p.mu.Lock()
	seen := p.seen
	if p.img != nil {
		p.img, p.seen = nil, nil
		p.version++
	}
	if p.busy {
		p.lost = p.loads
	}
	p.mu.Unlock()
	if seen != nil {
		seen(false)
	}
}

// drop lets go of the picture of load n, which the app's budget dropped.
func (p *Picture) drop(n int) {
	p.mu.Lock()
	if n != p.loads {
		p.mu.Unlock()
		return
	}
	p.lost = n
	held := p.img != nil
	p.img, p.seen = nil, nil
	if held {
		p.version++
	}
	p.mu.Unlock()
	if held {
		kit.Do(p.refresh)
	}
}

// refresh redraws the picture's text. Dropped pictures reload only on a redraw
// for another reason, so pictures that do not fit together take turns rather
// than drop each other for ever.
func (p *Picture) refresh() {
	if p.owner == nil {
		return
	}
	pics := append(picturesIn(p.owner.Segments), p)
	quiet := func(q bool) {
		for _, pic := range pics {
			pic.mu.Lock()
			pic.quiet = q
			pic.mu.Unlock()
		}
	}
	quiet(true)
	p.owner.Refresh()
	quiet(false)
}

func picturesIn(segs []widget.RichTextSegment) (pics []*Picture) {
	visit(segs, func(s *widget.RichTextSegment) {
		if p, ok := (*s).(*Picture); ok {
			pics = append(pics, p)
		}
	})
	return pics
}
