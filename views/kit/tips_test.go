package kit_test

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/views/kit"
)

// tipWindow is a window with the layer over its content, as Agent Desk's.
func tipWindow(t *testing.T, content fyne.CanvasObject) (fyne.Window, *kit.Queue) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	q.UseClock()
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.SetContent(container.NewStack(content, kit.NewLayer(w.Canvas())))
	w.Resize(fyne.NewSize(600, 400))
	return w, q
}

// A button's tip shows when the pointer rests on it,
// and goes when the pointer leaves or the button is pressed.
func TestAButtonsTipShowsWhileThePointerRestsOnIt(t *testing.T) {
	send := kit.NewButton("Send", nil)
	send.Tip = "Send your message (Enter). Each reply uses credits."
	plain := kit.NewButton("Cancel", nil)
	w, q := tipWindow(t, container.NewVBox(layout.NewSpacer(), container.NewHBox(layout.NewSpacer(), plain, send)))
	c := w.Canvas()

	send.MouseIn(&desktop.MouseEvent{})
	q.Advance(kit.TipDelay)
	q.WaitUntil(t, func() bool { return kit.TipShown(c) != "" }, func() string { return "no tip shown" })
	if got := kit.TipShown(c); got != send.Tip {
		t.Fatalf("the tip reads %q, want %q", got, send.Tip)
	}
	send.MouseOut()
	if got := kit.TipShown(c); got != "" {
		t.Fatalf("the tip %q stays after the pointer left", got)
	}

	// Pressed before the wait ends: no tip.
	send.MouseIn(&desktop.MouseEvent{})
	test.Tap(send)
	q.Advance(2 * kit.TipDelay)
	if got := kit.TipShown(c); got != "" {
		t.Fatalf("a tip %q showed after the button was pressed", got)
	}

	// A button without a tip shows none; nor does one while a dialog is open.
	plain.MouseIn(&desktop.MouseEvent{})
	dialog.NewInformation("Saved", "The file was saved.", w).Show()
	send.MouseIn(&desktop.MouseEvent{})
	q.Advance(2 * kit.TipDelay)
	if got := kit.TipShown(c); got != "" {
		t.Fatalf("a tip %q showed for a button without one, or under a dialog", got)
	}
}

// A tip goes when its button is hidden (Stop once the reply ended) or a
// dialog opens, whatever the pointer does.
func TestATipGoesWithItsButtonAndUnderADialog(t *testing.T) {
	stop := kit.NewButton("Stop", nil)
	stop.Tip = "Stop the reply (Esc)"
	w, q := tipWindow(t, container.NewVBox(stop))
	c := w.Canvas()
	shown := func() {
		t.Helper()
		stop.MouseIn(&desktop.MouseEvent{})
		q.Advance(kit.TipDelay)
		q.WaitUntil(t, func() bool { return kit.TipShown(c) != "" }, func() string { return "no tip shown" })
	}
	shown()
	stop.Hide()
	if got := kit.TipShown(c); got != "" {
		t.Fatalf("the tip %q stays over a hidden button", got)
	}
	stop.Show()
	shown()
	kit.ShowInformation("Keys", "F1 lists the keys.", w)
	if got := kit.TipShown(c); got != "" {
		t.Fatalf("the tip %q stays under a dialog", got)
	}
}
