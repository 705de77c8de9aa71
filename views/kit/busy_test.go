package kit_test

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
)

// Work the user waits on shows that it is under way once it takes longer
// than half a second, and only then; the window says what it does.
func TestSlowWorkShowsItIsUnderWay(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	a := apptest.Open(t)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	kit.AnswerDialogKeys(w)
	q.UseClock()

	// Quick work: nothing shows.
	quick := false
	kit.ActShowing(a, w, "Linking the files…", func(context.Context) {}, func() { quick = true })
	q.WaitUntil(t, func() bool { return quick }, func() string { return "the quick work" })
	q.Advance(2 * kit.ProgressAfter)
	if w.Canvas().Overlays().Top() != nil {
		t.Fatal("quick work showed a progress window")
	}

	// Slow work: the window says what is under way until it ends.
	release := make(chan struct{})
	finished := false
	kit.ActShowing(a, w, "Linking the files…", func(context.Context) { <-release }, func() { finished = true })
	q.Advance(kit.ProgressAfter)
	q.WaitUntil(t, func() bool {
		top := w.Canvas().Overlays().Top()
		return top != nil && strings.Contains(kittest.AllText(top), "Linking the files…")
	}, func() string { return "the progress window" })
	// A second awaited action meanwhile is not started (no double send).
	again := false
	kit.ActShowing(a, w, "Linking the files…", func(context.Context) { again = true }, nil)
	close(release)
	q.WaitUntil(t, func() bool { return finished }, func() string { return "the end of the work" })
	if w.Canvas().Overlays().Top() != nil {
		t.Fatal("the progress window stayed after the work ended")
	}
	if again {
		t.Fatal("a second action started while the first was under way")
	}

	// Cancel (or Esc) stops slow work: its context ends.
	stopped := make(chan struct{})
	ended := false
	kit.ActShowing(a, w, "Processing the files…", func(ctx context.Context) { <-ctx.Done(); close(stopped) }, func() { ended = true })
	q.Advance(kit.ProgressAfter)
	q.WaitUntil(t, func() bool { return w.Canvas().Overlays().Top() != nil }, func() string { return "the progress window" })
	w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
	<-stopped
	q.WaitUntil(t, func() bool { return ended && w.Canvas().Overlays().Top() == nil }, func() string { return "the cancelled work's end" })
}

// Slow work that says how far it has gone fills a bar and shows its line
// under it, the latest it said; Cancel still stops it.
func TestSlowWorkShowsHowFarItHasGone(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	a := apptest.Open(t)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	q.UseClock()

	said := make(chan struct{})
	ended := false
	kit.ActShowingProgress(a, w, "Reading the sheet…", func(ctx context.Context, p *kit.Progress) {
		p.Set(0.25, "1,000 rows read so far")
		p.Set(0.5, "2,000 rows read so far")
		close(said)
		<-ctx.Done()
	}, func() { ended = true })
	<-said
	q.Advance(kit.ProgressAfter)
	q.WaitUntil(t, func() bool {
		top := w.Canvas().Overlays().Top()
		bar := kittest.Find[*widget.ProgressBar](top)
		return top != nil && strings.Contains(kittest.AllText(top), "2,000 rows read so far") && bar != nil && bar.Visible() && bar.Value == 0.5
	}, func() string { return kittest.AllText(w.Canvas().Overlays().Top()) })
	test.Tap(kittest.FindButton(w.Canvas().Overlays().Top(), "Cancel"))
	q.WaitUntil(t, func() bool { return ended && w.Canvas().Overlays().Top() == nil }, func() string { return "the cancelled work's end" })
}
