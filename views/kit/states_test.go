package kit_test

import (
	"testing"

	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
)

// A loading state replaced by what it waited for stops animating (an
// animation off screen redraws the window every frame), while a progress
// bar inside anything else, such as a reply still streaming in a
// conversation the user switched away from, keeps going.
func TestSetBodyStopsOnlyTheLoadingStateItReplaces(t *testing.T) {
	test.NewTempApp(t)
	loading := kit.Loading("Reading memories…")
	body := container.NewStack(loading)
	test.NewTempWindow(t, body)
	bar := kittest.Find[*widget.ProgressBarInfinite](loading)
	if bar == nil || !bar.Running() {
		t.Fatal("the loading state does not animate while it shows")
	}

	streaming := widget.NewProgressBarInfinite()
	conversation := container.NewVBox(widget.NewLabel("Reply so far"), streaming)
	kit.SetBody(body, conversation)
	if bar.Running() {
		t.Error("the replaced loading state still animates")
	}
	if len(body.Objects) != 1 || body.Objects[0] != conversation {
		t.Fatalf("body shows %v, want the conversation alone", body.Objects)
	}

	kit.SetBody(body, widget.NewLabel("Another conversation"))
	if !streaming.Running() {
		t.Error("a progress bar inside a replaced conversation was stopped")
	}
}
