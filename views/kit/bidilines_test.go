package kit

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// drawnLines is what each line of a BidiLines shows, as Fyne draws it.
func drawnLines(o fyne.CanvasObject) []string {
	var out []string
	for _, t := range o.(*fyne.Container).Objects {
		out = append(out, fyneDraw(t.(*canvas.Text).Text))
	}
	return out
}

// TestBidiLinesWrapInReadingOrder: a Hebrew title too long for one line
// is broken in reading order, its first words on the first line, each line
// reading right to left and aligned right; cut to one line, it keeps its
// first words, not its last.
func TestBidiLinesWrapInReadingOrder(t *testing.T) {
	test.NewTempApp(t)
	text := "אחת שתיים שלוש ארבע חמש שש"
	width := fyne.MeasureText("אחת שתיים", theme.TextSize(), fyne.TextStyle{}).Width + 2*theme.InnerPadding() + 2

	w := BidiLines(text, fyne.TextStyle{}, theme.SizeNameText, true)
	w.Resize(fyne.NewSize(width, 100))
	lines := drawnLines(w)
	if len(lines) < 3 || lines[0] != "םייתש תחא" {
		t.Fatalf("wrapped, the first line should be the first two words reading right to left: %q", lines)
	}
	if got := w.MinSize().Height; got < 3*fyne.MeasureText("א", theme.TextSize(), fyne.TextStyle{}).Height {
		t.Fatalf("the wrapped title should ask for its %d lines, asks for %v", len(lines), got)
	}
	if a := w.(*fyne.Container).Objects[0].(*canvas.Text).Alignment; a != fyne.TextAlignTrailing {
		t.Fatalf("a right-to-left title should be aligned right, got %v", a)
	}

	one := BidiLines(text, fyne.TextStyle{}, theme.SizeNameText, false)
	one.Resize(fyne.NewSize(width, 40))
	cut := drawnLines(one)
	if len(cut) != 1 || !strings.HasPrefix(cut[0], "…") || !strings.HasSuffix(cut[0], "תחא") {
		t.Fatalf("cut short, the title should keep its first word (drawn on the right) and end in …: %q", cut)
	}
}

// TestARowLineFollowsItsText: a list row reused for another item shows a
// left-to-right title in a label and a Hebrew one in reading order, and
// reads back as written either way.
func TestARowLineFollowsItsText(t *testing.T) {
	test.NewTempApp(t)
	o := NewLine(fyne.TextStyle{Bold: true}, false)
	for _, text := range []string{"Meeting Minutes Writer", "עוזר חשבוניות", "Office IT Helpdesk"} {
		SetLine(o, text)
		o.Resize(fyne.NewSize(300, 40))
		if got, _ := LineText(o); got != text {
			t.Fatalf("the row reads back %q, want %q", got, text)
		}
		c := o.(*fyne.Container)
		if rtl := BidiIsRTL(text); c.Objects[0].Visible() == rtl || c.Objects[1].Visible() != rtl {
			t.Fatalf("%q: label shown %v, reading-order line shown %v", text, c.Objects[0].Visible(), c.Objects[1].Visible())
		}
	}
	if SetLine(o, "Office IT Helpdesk") {
		t.Fatal("the same title again should not count as a change")
	}
}
