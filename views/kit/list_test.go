package kit

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/agentdesk/agentdesk/views/kit/fynefix"
)

// ringedRows are the texts of the rows of l that show the focus ring.
func ringedRows(l *List) []string {
	var rows []string
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if r, ok := o.(*listRow); ok {
			_, _, _, a := r.ring.StrokeColor.RGBA()
			if r.Visible() && a > 0 && r.ring.StrokeWidth >= 2 {
				rows = append(rows, r.content.(*widget.Label).Text)
			}
			return
		}
		switch o := o.(type) {
		case *fyne.Container:
			for _, c := range o.Objects {
				walk(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(o).Objects() {
				walk(c)
			}
		}
	}
	walk(l)
	return rows
}

// The row the keyboard is on in a list shows a ring while the list has
// the keyboard, follows Up and Down, and no row shows one otherwise.
func TestTheListRowTheKeyboardIsOnHasARing(t *testing.T) {
	test.NewTempApp(t)
	l := NewList(func() int { return 30 },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(id widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(fmt.Sprintf("row %d", id)) })
	other := NewButton("Elsewhere", nil)
	w := test.NewTempWindow(t, NewBorder(other, nil, nil, nil, l))
	w.Resize(fyne.NewSize(300, 400))
	if got := ringedRows(l); len(got) != 0 {
		t.Fatalf("rows %v show a ring before the list has the keyboard", got)
	}
	w.Canvas().Focus(l)
	want := func(row string) {
		t.Helper()
		if got := ringedRows(l); len(got) != 1 || got[0] != row {
			t.Fatalf("rows with a ring: %v, want only %q", got, row)
		}
	}
	want("row 0")
	for range 3 {
		l.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	}
	want("row 3")
	l.TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	want("row 2")
	w.Canvas().Focus(other)
	if got := ringedRows(l); len(got) != 0 {
		t.Fatalf("rows %v keep a ring after the keyboard left the list", got)
	}
	w.Canvas().Focus(l)
	want("row 2")
}

// Select puts the keyboard on the row it selects (Down goes on from
// there), and a list that gets shorter keeps the keyboard on one of its
// rows.
func TestTheListsKeyboardFollowsSelectAndStaysWithinIt(t *testing.T) {
	test.NewTempApp(t)
	rows := 30
	l := NewList(func() int { return rows },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(id widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(fmt.Sprintf("row %d", id)) })
	w := test.NewTempWindow(t, l)
	w.Resize(fyne.NewSize(300, 400))
	l.Select(5)
	w.Canvas().Focus(l)
	l.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	if got := ringedRows(l); len(got) != 1 || got[0] != "row 6" {
		t.Fatalf("after selecting row 5 and Down, rows with a ring: %v, want row 6", got)
	}
	rows = 3
	l.Refresh()
	if got := ringedRows(l); len(got) != 1 || got[0] != "row 2" {
		t.Fatalf("the list got shorter: rows with a ring %v, want its last, row 2", got)
	}
	l.TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	if got := ringedRows(l); len(got) != 1 || got[0] != "row 1" {
		t.Fatalf("Up from the last row: rows with a ring %v, want row 1", got)
	}
}

// A list that grows at its end (a next page) shows the new rows that come
// into view, makes rows for those only, and keeps the rows it had, bound
// to what they showed: no row made to measure, none dropped.
func TestAListThatGrewMakesRowsOnlyForTheRowsInView(t *testing.T) {
	test.NewTempApp(t)
	n, made := 2, 0
	l := NewList(func() int { return n },
		func() fyne.CanvasObject { made++; return widget.NewLabel("") },
		func(id widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(fmt.Sprintf("row %d", id)) })
	w := test.NewTempWindow(t, l)
	w.Resize(fyne.NewSize(300, 400))
	shown := func() []string {
		var rows []string
		for _, o := range test.WidgetRenderer(fynefix.ListScroller(&l.List)).Objects() {
			c, ok := o.(*fyne.Container)
			if !ok {
				continue
			}
			for _, item := range c.Objects {
				if w, ok := item.(fyne.Widget); ok {
					for _, r := range test.WidgetRenderer(w).Objects() {
						if row, ok := r.(*listRow); ok {
							rows = append(rows, row.content.(*widget.Label).Text)
						}
					}
				}
			}
		}
		return rows
	}
	before := shown()
	if len(before) != 2 || before[0] != "row 0" || before[1] != "row 1" {
		t.Fatalf("rows shown: %v, want row 0 and row 1", before)
	}
	madeBefore := made
	n = 40
	l.Grew()
	after := shown()
	if len(after) <= 2 || len(after) >= 40 {
		t.Fatalf("after growing, %d rows shown (%v): want those that fit the window", len(after), after)
	}
	for i, text := range after {
		if want := fmt.Sprintf("row %d", i); text != want {
			t.Fatalf("after growing, row %d shows %q, want %q", i, text, want)
		}
	}
	if got, want := made-madeBefore, len(after)-len(before); got != want {
		t.Fatalf("growing by %d rows in view made %d rows", want, got)
	}
}
