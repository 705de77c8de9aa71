package kit

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// TestHeaderActionsWrapUnderTheTitleWhenNarrow: a header's buttons sit on
// the title's right, ending at the right edge, while they fit; in a narrow
// pane they go under the title, on as many lines as they need, none cut
// off; and a button hidden later leaves no gap.
func TestHeaderActionsWrapUnderTheTitleWhenNarrow(t *testing.T) {
	test.NewTempApp(t)
	a, b := widget.NewButton("Add files…", nil), widget.NewButton("Open by number", nil)
	h := Header("Files", "Every file of your workspace.", a, b).(*fyne.Container)
	row := h.Objects[1].(*fyne.Container)
	at := func(o fyne.CanvasObject) fyne.Position { return row.Position().Add(o.Position()) }

	h.Resize(fyne.NewSize(700, h.MinSize().Height))
	right := at(b).X + b.Size().Width
	if right < 699 || at(a).Y > h.Size().Height/2 || at(a).X > at(b).X {
		t.Fatalf("wide: the buttons should end at the right edge, beside the title: %v %v", at(a), at(b))
	}
	// Hidden, a button leaves its room to the next one at the edge.
	b.Hide()
	h.Refresh()
	if got := h.MinSize(); got.Width >= 699 {
		t.Fatalf("the header asks for %v with one button hidden", got)
	}
	h.Resize(fyne.NewSize(700, h.MinSize().Height))
	if r := at(a).X + a.Size().Width; r < 699 {
		t.Fatalf("the remaining button should end at the right edge, ends at %v", r)
	}
	b.Show()

	narrow := fyne.NewSize(200, 10)
	h.Resize(narrow)
	h.Resize(fyne.NewSize(200, h.MinSize().Height))
	if at(a).Y == 0 || at(b).Y <= at(a).Y {
		t.Fatalf("narrow: each button should go under the title, on its own line: %v %v", at(a), at(b))
	}
	for _, o := range []fyne.CanvasObject{a, b} {
		if at(o).X+o.Size().Width > 200+1 || at(o).Y+o.Size().Height > h.Size().Height+1 {
			t.Fatalf("narrow: a button is cut off at %v %v in %v", at(o), o.Size(), h.Size())
		}
	}
}
