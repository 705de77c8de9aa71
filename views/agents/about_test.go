package agents

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

// A long description written in markdown shows formatted and folded, so
// the questions and Run stay in sight; Show more unfolds it. A short one
// shows whole, without the button.
func TestALongDescriptionIsFoldedBehindShowMore(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	long := "## What it does\n\n" + strings.Repeat("- writes **one** more line of the description\n", 30)
	holder := container.NewVBox()
	view := aboutView(long, func() { holder.Refresh() })
	holder.Add(view)
	w := test.NewTempWindow(t, container.NewBorder(holder, widget.NewButton("Run", nil), nil, nil))
	w.Resize(fyne.NewSize(700, 600))
	q.Drain()
	more := kittest.FindButton(view, "Show more")
	if more == nil || !more.Visible() {
		t.Fatal("a long description offers no Show more")
	}
	if txt := kittest.AllText(view); strings.Contains(txt, "**") || strings.Contains(txt, "## ") {
		t.Errorf("the description shows its markdown marks: %q", txt)
	}
	folded := view.Size().Height
	if folded > aboutFold+more.MinSize().Height+20 {
		t.Fatalf("the folded description stands %v tall, want about %v", folded, aboutFold)
	}
	test.Tap(more)
	q.Drain()
	w.Resize(fyne.NewSize(700, 1600))
	if view.Size().Height < folded*3 {
		t.Fatalf("Show more unfolds to %v, want the whole text", view.Size().Height)
	}
	if kittest.FindButton(view, "Show less") == nil {
		t.Fatal("an unfolded description offers no Show less")
	}

	short := aboutView("Drafts polite replies.", func() {})
	w.SetContent(short)
	q.Drain()
	if b := kittest.FindButton(short, "Show more"); b != nil && b.Visible() {
		t.Fatal("a short description offers Show more")
	}
}
