package chat

import (
	"fmt"
	"image"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
	"github.com/agentdesk/agentdesk/views/kit/richtext"
)

// shownPicture is the picture o shows (not an icon), or nil.
func shownPicture(o fyne.CanvasObject) image.Image {
	if c, ok := o.(*canvas.Image); ok && c.Resource == nil && c.Image != nil {
		return c.Image
	}
	for _, c := range kittest.Children(o) {
		if img := shownPicture(c); img != nil {
			return img
		}
	}
	return nil
}

// Two replies' pictures that do not fit in the memory budget together: the
// first is dropped when the second is shown, and comes back when the
// conversation is scrolled back to it, the second dropped in turn.
func TestADroppedPictureComesBackWithItsRow(t *testing.T) {
	// No text is released meanwhile: a release lays the rows on screen out
	// again, and the picture dropped would come back then too.
	// The budget holds one sketch of 480 × 480.
	s, a := openScreen(t, func(c *app.Config) { c.PictureBudget = 1_500_000 })
	s.text = kit.NewTextRelease(s.env.Window, a.Life(), kit.ReleaseLimits{Many: 1 << 30, Few: 1 << 30, Rest: time.Hour})
	s.env.Window.Resize(fyne.NewSize(1000, 500))
	v := startChat(t, s, a)
	var rows []int
	for _, ask := range []string{"Could you make a sketch of the new office?", "And a sketch of the garden?"} {
		test.Type(v.entry, ask)
		v.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		settle(v)
		rows = append(rows, len(v.msgs)-1)
	}
	// The rows as the list bound them, scrolled to.
	row := func(i int) fyne.CanvasObject { return v.rows[v.msgs[rows[i]].ID].obj }
	shown := func(i int) bool { return shownPicture(row(i)) != nil }
	describe := func() string { return fmt.Sprintf("first shown %v, second shown %v", shown(0), shown(1)) }
	scroll := []func(){v.list.ScrollToTop, v.list.ScrollToBottom}
	for i := range rows {
		scroll[i]()
		ui(s).Drain()
		show := kittest.FindButton(row(i), richtext.ShowPictures())
		if show == nil {
			t.Fatalf("reply %d names no picture: %q", i, v.msgs[rows[i]].Content)
		}
		test.Tap(show)
		ui(s).WaitUntil(t, func() bool { return shown(i) }, describe)
	}
	if shown(0) {
		t.Fatalf("both pictures are held within a budget for one: %s", describe())
	}
	v.list.ScrollToTop()
	ui(s).WaitUntil(t, func() bool { return shown(0) && !shown(1) }, describe)
}
