package richtext_test

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
	"github.com/agentdesk/agentdesk/views/kit/richtext"
	"github.com/agentdesk/agentdesk/views/screen"
)

func links(segs []widget.RichTextSegment) []*widget.HyperlinkSegment {
	var out []*widget.HyperlinkSegment
	for _, s := range segs {
		switch t := s.(type) {
		case *widget.HyperlinkSegment:
			out = append(out, t)
		case *widget.ParagraphSegment:
			out = append(out, links(t.Texts)...)
		case *widget.ListSegment:
			out = append(out, links(t.Items)...)
		}
	}
	return out
}

func textOf(segs []widget.RichTextSegment) string {
	var b strings.Builder
	for _, s := range segs {
		switch t := s.(type) {
		case *widget.ParagraphSegment:
			b.WriteString(textOf(t.Texts))
		case *widget.ListSegment:
			b.WriteString(textOf(t.Items))
		default:
			b.WriteString(s.Textual())
		}
	}
	return b.String()
}

// A reply's links to files, network shares and other programs are shown as
// text; a web link opens, after showing its address when its words name
// something else.
func TestARepliesLinksOpenOnlyOnTheWebAndShowWhereTheyGo(t *testing.T) {
	var opened []string
	fyne.SetCurrentApp(openingApp{test.NewTempApp(t), &opened})
	md := "See [the file](file:///etc/passwd), [help](ms-msdt:/id%20x), [share](\\\\host\\share) and\n\n" +
		"- [your bank](https://attacker.example/login)\n- [https://example.com/docs](https://example.com/docs)\n"
	segs, _ := richtext.Parse(md)
	ls := links(segs)
	if len(ls) != 2 {
		t.Fatalf("%d links can be clicked, want the 2 web links: %q", len(ls), textOf(segs))
	}
	if all := textOf(segs); !strings.Contains(all, "file:///etc/passwd") {
		t.Errorf("a link that does not open does not show where it points: %q", all)
	}
	w := test.NewTempWindow(t, widget.NewRichText(segs...))
	w.Resize(fyne.NewSize(700, 500))

	// The link whose words are its address opens at once.
	bare := ls[1]
	bare.OnTapped()
	if len(opened) != 1 || opened[0] != "https://example.com/docs" {
		t.Fatalf("opened %q, want the address tapped", opened)
	}
	// "your bank" goes elsewhere: its address shows first.
	ls[0].OnTapped()
	if len(opened) != 1 {
		t.Fatalf("a worded link opened without showing its address: %q", opened)
	}
	top := w.Canvas().Overlays().Top()
	if top == nil || !strings.Contains(kittest.AllText(top), "https://attacker.example/login") {
		t.Fatalf("no dialog shows the link's full address (%d windows, overlay %v)", len(fyne.CurrentApp().Driver().AllWindows()), top)
	}
	open := kittest.FindButton(top, "Open")
	if open == nil {
		t.Fatal("the dialog has no Open button")
	}
	test.Tap(open)
	if len(opened) != 2 || opened[1] != "https://attacker.example/login" {
		t.Fatalf("opened %q after Open, want the link's address", opened)
	}
}

// openingApp is a test app that notes the addresses it is asked to open.
type openingApp struct {
	fyne.App
	opened *[]string
}

func (a openingApp) OpenURL(u *url.URL) error { *a.opened = append(*a.opened, u.String()); return nil }

func pngBytes(w, h int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.NRGBA{R: 255, A: 255})
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

// Pictures a reply names are not fetched until the user asks; then only
// from the web, and one that claims billions of pixels is refused from its
// header.
func TestARepliesPicturesWaitUntilAskedAndStayWithinLimits(t *testing.T) {
	q := kit.UseQueue(t)
	test.NewTempApp(t)
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.Header.Get("Authorization") != "" {
			t.Error("a picture request carried a key")
		}
		switch r.URL.Path {
		case "/chart.png":
			_, _ = w.Write(pngBytes(40, 30))
		case "/bomb.gif":
			// A GIF header claiming 65,535 × 65,535 pixels, 13 bytes long.
			_, _ = w.Write([]byte("GIF89a\xff\xff\xff\xff\x00\x00\x00"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	a := apptest.Open(t)
	md := "![chart](" + srv.URL + "/chart.png)\n\n![secret](/etc/hostname)\n\n![share](\\\\host\\x.png)\n\n![bomb](" + srv.URL + "/bomb.gif)\n"
	rich, pics := richtext.NewMarkdownText(md)
	w := test.NewTempWindow(t, rich)
	w.Resize(fyne.NewSize(700, 600))
	if len(pics) != 4 {
		t.Fatalf("%d pictures found, want 4", len(pics))
	}
	if hits.Load() != 0 {
		t.Fatalf("%d pictures fetched before the user asked", hits.Load())
	}
	if !strings.Contains(kittest.AllText(rich), "chart") {
		t.Errorf("a picture not loaded does not show its description: %q", kittest.AllText(rich))
	}
	done := false
	richtext.LoadPictures(screen.Pictures(a), pics, func() { done = true })
	q.WaitUntil(t, func() bool { return done }, func() string { return "pictures still loading" })
	if !pics[0].Loaded() {
		t.Fatalf("the web picture did not load: %v", pics[0].Err())
	}
	var pe *app.PictureError
	for i, want := range []app.PictureReason{app.PictureNotWeb, app.PictureNotWeb, app.PictureTooBig} {
		p := pics[i+1]
		if p.Loaded() || !errors.As(p.Err(), &pe) || pe.Reason != want {
			t.Errorf("picture %q: loaded %v, error %v; want reason %d", p.Address, p.Loaded(), p.Err(), want)
		}
	}
	if got := hits.Load(); got != 2 {
		t.Errorf("%d requests, want 2 (the two web pictures)", got)
	}
	if txt := kittest.AllText(rich); !strings.Contains(txt, "too large to show") {
		t.Errorf("the refused picture does not say why: %q", txt)
	}
}

// shownImage is the picture o shows (not an icon), or nil when it shows
// none.
func shownImage(o fyne.CanvasObject) image.Image {
	if c, ok := o.(*canvas.Image); ok && c.Resource == nil && c.Image != nil {
		return c.Image
	}
	for _, c := range kittest.Children(o) {
		if img := shownImage(c); img != nil {
			return img
		}
	}
	return nil
}

// The pictures of replies stay within the app's memory budget: a picture
// the budget dropped is let go of (its place stays), and decoded again
// when its text is drawn again, dropping the one least recently seen.
func TestPicturesShownStayWithinTheMemoryBudget(t *testing.T) {
	q := kit.UseQueue(t)
	test.NewTempApp(t)
	pic := pngBytes(1000, 1000) // 4 MB decoded
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write(pic)
	}))
	defer srv.Close()
	a := apptest.Open(t, func(c *app.Config) { c.PictureBudget = 10_000_000 })
	var texts []*widget.RichText
	var pics []*richtext.Picture
	box := container.NewVBox()
	for i := range 3 {
		rich, p := richtext.NewMarkdownText(fmt.Sprintf("![picture %d](%s/%d.png)", i, srv.URL, i))
		texts, pics = append(texts, rich), append(pics, p...)
		box.Add(rich)
	}
	w := test.NewTempWindow(t, box)
	w.Resize(fyne.NewSize(700, 1600))
	shown := func() (n int) {
		for _, r := range texts {
			if shownImage(r) != nil {
				n++
			}
		}
		return n
	}
	describe := func() string { return fmt.Sprintf("%d shown: %q", shown(), kittest.AllText(box)) }
	for i := range 3 {
		done := false
		richtext.LoadPictures(screen.Pictures(a), pics[i:i+1], func() { done = true })
		q.WaitUntil(t, func() bool { return done }, describe)
		if shown() > 2 {
			t.Fatalf("after picture %d, %d pictures of 4 MB shown with a budget of 10 MB", i, shown())
		}
	}
	if shownImage(texts[0]) != nil || shownImage(texts[1]) == nil || shownImage(texts[2]) == nil {
		t.Fatalf("the first picture should be dropped, the last two shown: %s", describe())
	}
	if !pics[0].Loaded() || texts[0].MinSize().Height < 300 {
		t.Errorf("a dropped picture's place should stay: loaded %v, height %v", pics[0].Loaded(), texts[0].MinSize().Height)
	}
	// The first text comes back into view after the third was seen: the
	// second, seen least recently, makes room.
	texts[2].Refresh()
	texts[0].Refresh()
	q.WaitUntil(t, func() bool { return shownImage(texts[0]) != nil && shownImage(texts[1]) == nil },
		func() string { return "the first picture was not shown again in place of the second: " + describe() })
	if shownImage(texts[2]) == nil {
		t.Errorf("the picture seen most recently should stay: %s", describe())
	}
}
