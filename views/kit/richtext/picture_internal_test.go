package richtext

import (
	"context"
	"errors"
	"image"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/agentdesk/agentdesk/views/kit"
)

// oneAtATime is a memory budget of one picture: loading one drops the
// other. It counts the loads.
type oneAtATime struct {
	dropHeld func()
	loads    int
}

// inUI runs a picture's work on the UI goroutine: after the drawing that asked.
type inUI struct{ Pictures }

func (inUI) Go(fn func()) bool {
	kit.Do(fn)
	return true
}
func (inUI) Life() context.Context     { return context.Background() }
func (inUI) Describe(err error) string { return err.Error() }

func (b *oneAtATime) source(size int) pictureSource {
	return pictureSource{
		a: inUI{},
		load: func(_ context.Context, dropped func()) (image.Image, func(keep bool), error) {
			if b.loads++; b.loads > 50 {
				return nil, nil, errors.New("loaded again and again")
			}
			if b.dropHeld != nil {
				b.dropHeld()
			}
			b.dropHeld = dropped
			return image.NewGray(image.Rect(0, 0, size, size)), func(bool) {}, nil
		},
	}
}

// Two pictures of one text that do not fit in the budget together take
// turns, one load each time the text is drawn for another reason, rather
// than drop each other for ever: drawing a picture's own change does not
// load the other again.
func TestPicturesThatDoNotFitTogetherTakeTurns(t *testing.T) {
	q := kit.UseQueue(t)
	test.NewTempApp(t)
	var b oneAtATime
	a, c := &Picture{Title: "a"}, &Picture{Title: "c"}
	rich := widget.NewRichText(a, c)
	a.owner, c.owner = rich, rich
	a.src, c.src = b.source(100), b.source(100)
	test.NewTempWindow(t, rich)
	for _, p := range []*Picture{a, c} {
		if err := p.load(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	q.Drain()
	held := func(p *Picture) bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.img != nil
	}
	if held(a) || !held(c) || b.loads != 2 {
		t.Fatalf("held %v %v after %d loads; want the second only, after 2", held(a), held(c), b.loads)
	}
	for turn := range 4 {
		rich.Refresh()
		q.Drain()
		if b.loads != 3+turn {
			t.Fatalf("%d loads after %d drawings, want %d", b.loads, turn+1, 3+turn)
		}
		if held(a) == held(c) {
			t.Fatalf("drawing %d: held %v %v, want one", turn+1, held(a), held(c))
		}
	}
}

// A picture no longer drawn (Fyne destroys the renderer of what was not
// drawn for its cache's minute) is given back to the app, and decoded
// again when drawn again: the day's pictures are not all kept.
func TestAPictureNoLongerDrawnIsGivenBackAndComesBack(t *testing.T) {
	q := kit.UseQueue(t)
	test.NewTempApp(t)
	loads, given := 0, 0
	p := &Picture{Title: "a chart"}
	p.src = pictureSource{a: inUI{}, load: func(_ context.Context, _ func()) (image.Image, func(keep bool), error) {
		loads++
		return image.NewGray(image.Rect(0, 0, 50, 40)), func(keep bool) {
			if !keep {
				given++
			}
		}, nil
	}}
	p.owner = widget.NewRichText(p)
	test.NewTempWindow(t, p.owner)
	if err := p.load(context.Background()); err != nil {
		t.Fatal(err)
	}
	q.Drain()
	box := p.Visual().(*pictureBox)
	test.WidgetRenderer(box).Destroy()
	p.mu.Lock()
	img, size := p.img, p.size
	p.mu.Unlock()
	if given != 1 || img != nil || size != image.Pt(50, 40) {
		t.Fatalf("after its renderer went: given back %d times, still held %v, place %v; want given once, its place kept", given, img != nil, size)
	}
	box.CreateRenderer() // drawn again
	q.Drain()
	p.mu.Lock()
	img = p.img
	p.mu.Unlock()
	if img == nil || loads != 2 {
		t.Fatalf("drawn again: held %v after %d loads; want it decoded again", img != nil, loads)
	}
}
