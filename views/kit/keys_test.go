package kit

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
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
