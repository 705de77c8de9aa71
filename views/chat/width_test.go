package chat

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
)

// TestARepliesLinesStayReadableAndItsActionsReachable: in a window as wide
// as a 4K screen a reply is drawn at most about 80 characters wide, in the
// middle; in a narrow one its actions wrap under it, inside the row the
// list gives it; and Copy copies its words without Markdown.
func TestARepliesLinesStayReadableAndItsActionsReachable(t *testing.T) {
	s, a := openScreen(t)
	v := startChat(t, s, a)
	test.Type(v.entry, "Please write a long answer with a **table**")
	v.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	settle(v)
	last := len(v.msgs) - 1
	row := container.NewStack()

	for _, width := range []float32{3840, 1920, 800, 560} {
		w := s.env.Window
		w.Resize(fyne.NewSize(width, 900))
		v.rows = map[int64]*rowCache{} // rows are measured for the new width
		v.bindRow(last, row)
		obj := v.rows[v.msgs[last].ID].obj
		h := v.heights[last]
		obj.Resize(fyne.NewSize(v.rowWidth(), h)) // as the list lays the row out
		md := markdownIn(obj)
		if md == nil {
			t.Fatal("the reply should be shown as markdown")
		}
		at := kittest.AbsolutePos(md, obj)
		if md.Size().Width > ChatWidth() || (width >= 1920 && at.X < (v.rowWidth()-ChatWidth())/2-20) {
			t.Fatalf("at %v px the reply is %v wide at x %v; it should be at most %v, centred", width, md.Size().Width, at.X, ChatWidth())
		}
		// The reply's own Copy comes after its code blocks' ones.
		var cp fyne.CanvasObject
		for _, b := range buttonsIn(obj) {
			if b.Text == "Copy" {
				cp = b.CanvasObject
			}
		}
		if cp == nil {
			t.Fatal("a reply offers Copy")
		}
		p := kittest.AbsolutePos(cp, obj)
		if bottom := p.Y + cp.Size().Height; bottom > h+1 {
			t.Fatalf("at %v px the reply's actions end at %v, below its row's %v: they would be cut off", width, bottom, h)
		}
		for _, b := range buttonsIn(obj) {
			p := kittest.AbsolutePos(b, obj)
			if right := p.X + b.Size().Width; right > v.rowWidth()+1 || p.Y+b.Size().Height > h+1 {
				t.Fatalf("at %v px %q ends at %v, %v, outside the row's %v × %v", width, b.Text, right, p.Y+b.Size().Height, v.rowWidth(), h)
			}
		}
		test.Tap(cp.(fyne.Tappable))
		got := fyne.CurrentApp().Clipboard().Content()
		if strings.Contains(got, "**") || strings.Contains(got, "\n|") || strings.Contains(got, "---|") || !strings.Contains(got, "Team\tOwner\t") || got == "" {
			t.Fatalf("Copy should give the words without Markdown marks and tables as tab-separated cells, got %.80q", got)
		}
	}
}

// shownButton is a visible button: the object in the tree (a Button, or
// a PaidButton around one) and its text.
type shownButton struct {
	fyne.CanvasObject
	Text string
}

// buttonsIn are the visible buttons under o.
func buttonsIn(o fyne.CanvasObject) []shownButton {
	if !o.Visible() {
		return nil
	}
	switch b := o.(type) {
	case *widget.Button:
		return []shownButton{{b, b.Text}}
	case *kit.Button:
		return []shownButton{{b, b.Text}}
	case *kit.PaidButton:
		return []shownButton{{b, b.Text}}
	}
	var out []shownButton
	for _, c := range kittest.Children(o) {
		out = append(out, buttonsIn(c)...)
	}
	return out
}
