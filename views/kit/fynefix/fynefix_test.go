package fynefix

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// These tests fail when the pinned Fyne no longer keeps a field where
// this package reaches for it: the workaround then silently stops working
// (the list's keyboard row unringed, the caret blinking the window busy),
// so update the reach or retire it before upgrading Fyne.

func TestListFocusIsFyneCurrentFocus(t *testing.T) {
	test.NewTempApp(t)
	l := widget.NewList(func() int { return 5 }, func() fyne.CanvasObject { return widget.NewLabel("") }, func(widget.ListItemID, fyne.CanvasObject) {})
	w := test.NewTempWindow(t, l)
	w.Resize(fyne.NewSize(200, 300))
	w.Canvas().Focus(l)
	l.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	l.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	if id, ok := ListFocus(l); !ok || id != 2 {
		t.Fatalf("ListFocus after two Downs = %d, %v; want 2, true (Fyne's List no longer keeps currentFocus)", id, ok)
	}
	if !SetListFocus(l, 4) {
		t.Fatal("SetListFocus found no currentFocus in Fyne's List")
	}
	var picked widget.ListItemID = -1
	l.OnSelected = func(id widget.ListItemID) { picked = id }
	l.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	if picked != 4 {
		t.Fatalf("Space after SetListFocus(4) selected %d: Fyne's List no longer selects its currentFocus", picked)
	}
}

func TestListScrollerIsFyneScroller(t *testing.T) {
	test.NewTempApp(t)
	l := widget.NewList(func() int { return 3 }, func() fyne.CanvasObject { return widget.NewLabel("") }, func(widget.ListItemID, fyne.CanvasObject) {})
	if ListScroller(l) != nil {
		t.Fatal("a list never drawn has a scroller")
	}
	w := test.NewTempWindow(t, l)
	w.Resize(fyne.NewSize(200, 300))
	if _, ok := ListScroller(l).(*container.Scroll); !ok {
		t.Fatalf("ListScroller of a drawn list = %T, want *container.Scroll (Fyne's List no longer keeps scroller)", ListScroller(l))
	}
}

func TestEntryCaretIsFyneCursorAnimation(t *testing.T) {
	test.NewTempApp(t)
	e := widget.NewEntry()
	w := test.NewTempWindow(t, e)
	w.Resize(fyne.NewSize(200, 60))
	w.Canvas().Focus(e)
	anim, caret, ok := EntryCaret(e)
	if !ok || caret == nil {
		t.Fatal("a focused Entry has no caret where this reach looks (Fyne's Entry no longer keeps cursorAnim.cursor)")
	}
	if !caret.Visible() {
		t.Fatal("the caret of a focused Entry is hidden")
	}
	if anim == nil && fyne.CurrentApp().Settings().ShowAnimations() {
		t.Fatal("a focused Entry's caret does not blink where this reach looks (cursorAnim.anim)")
	}
}
