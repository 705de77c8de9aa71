package kit

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// A form's text field runs the form on Ctrl+Enter only, passes the
// window's own shortcuts (Ctrl+K) on to the window, and keeps its own
// (Select all).
func TestFormEntryRunsOnCtrlEnterAndPassesTheWindowsShortcuts(t *testing.T) {
	test.NewTempApp(t)
	runs, searches := 0, 0
	e := NewFormEntry()
	e.OnCtrlEnter = func() { runs++ }
	w := test.NewTempWindow(t, e)
	w.Canvas().AddShortcut(SearchShortcut, func(fyne.Shortcut) { searches++ })
	test.Type(e, "a note")
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if runs != 0 {
		t.Fatal("Enter ran the form")
	}
	e.TypedShortcut(CtrlEnterShortcut)
	e.TypedShortcut(SearchShortcut)
	if runs != 1 || searches != 1 {
		t.Fatalf("Ctrl+Enter should run the form once (%d) and Ctrl+K reach the window once (%d)", runs, searches)
	}
	e.TypedShortcut(&fyne.ShortcutSelectAll{})
	if e.SelectedText() != "a note" {
		t.Fatalf("the field's own shortcuts should still work; selected %q", e.SelectedText())
	}
}

// Down in a search field takes the keyboard to its list's first row, and
// Enter there opens the row, as Space does.
func TestDownFromASearchEntersItsListAndEnterOpensTheRow(t *testing.T) {
	test.NewTempApp(t)
	rows := []string{"Newsletter Writer", "Meeting Minutes Writer"}
	l := NewList(func() int { return len(rows) }, func() fyne.CanvasObject { return widget.NewLabel("") },
		func(i widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(rows[i]) })
	opened := -1
	l.OnSelected = func(id widget.ListItemID) { opened = id }
	search := NewSearchEntry()
	DownInto(search, l)
	w := test.NewTempWindow(t, container.NewBorder(search, nil, nil, nil, l))
	w.Resize(fyne.NewSize(300, 300))
	w.Canvas().Focus(search)
	search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	if w.Canvas().Focused() != l {
		t.Fatalf("Down in the search should take the keyboard to the list, it is on %T", w.Canvas().Focused())
	}
	l.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	l.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if opened != 1 {
		t.Fatalf("Enter on the second row should open it, opened %d", opened)
	}
}

// Enter on a focused button that costs credits runs it; Space, pressed by
// mistake while typing, runs nothing and says to press Enter.
func TestEnterRunsAPaidButtonAndSpaceSaysHow(t *testing.T) {
	test.NewTempApp(t)
	runs := 0
	b := NewPaidButton("Run agent", nil, func() { runs++ })
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.SetContent(container.NewStack(container.NewCenter(b), NewLayer(w.Canvas())))
	w.Resize(fyne.NewSize(300, 200))
	w.Canvas().Focus(b)
	b.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	l := LayerOf(w.Canvas())
	if runs != 0 || l.tip.Hidden || l.tipText.Text != "Press Enter to do this. It uses credits." {
		t.Fatalf("Space ran %d times and the tip reads %q (shown: %v)", runs, l.tipText.Text, !l.tip.Hidden)
	}
	b.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if runs != 1 {
		t.Fatalf("Enter should run once, ran %d", runs)
	}
	b.Disable()
	b.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnter})
	if runs != 1 {
		t.Fatal("Enter on a disabled button ran it")
	}
}

// The wheel over a one-line field scrolls the form around it.
func TestTheWheelOverAFieldScrollsTheFormAroundIt(t *testing.T) {
	test.NewTempApp(t)
	field := NewFormEntry()
	field.SetText("Lisbon")
	form := container.NewVBox(widget.NewLabel("City"), field)
	for range 30 {
		form.Add(widget.NewLabel("another question"))
	}
	scroll := container.NewVScroll(form)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.SetContent(container.NewStack(scroll, NewLayer(w.Canvas())))
	w.Resize(fyne.NewSize(300, 300))
	at := fyne.NewPos(field.Position().X+10, field.Position().Y+10)
	test.Scroll(w.Canvas(), at, 0, -120)
	if scroll.Offset.Y == 0 {
		t.Fatal("the wheel over a field should scroll the form")
	}
}
