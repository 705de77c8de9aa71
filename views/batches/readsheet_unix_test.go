//go:build unix

package batches

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
)

// While a sheet is read its dialog counts the rows read so far, and
// Cancel stops the reading at the next row: the rows come down a pipe, as
// from a disk that is slow, so the sheet is still being read when Cancel
// is pressed; a reading that went on would wait on the pipe for good.
func TestReadingASheetCountsItsRowsAndCancelStopsIt(t *testing.T) {
	e, q, _, _ := env(t, 0)
	ag := agent(t, e.App)
	q.UseClock()
	path := filepath.Join(t.TempDir(), "requests.csv")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no named pipe: %v", err)
	}
	rows := func(from, n int) []byte {
		var b strings.Builder
		for i := from; i < from+n; i++ {
			fmt.Fprintf(&b, "A note on product %d,friendly,40\n", i)
		}
		return []byte(b.String())
	}
	more, done := make(chan struct{}), make(chan struct{})
	defer close(done)
	wrote := make(chan error, 1)
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			wrote <- err
			return
		}
		defer f.Close()
		// More than the reader looks at to tell the text's encoding and
		// separator, so rows are read before the pipe waits.
		if _, err := f.Write(append([]byte("Prompt,Tone,Length\n"), rows(0, 8000)...)); err != nil {
			wrote <- err
			return
		}
		wrote <- nil
		select {
		case <-more:
		case <-done:
			return
		}
		// A reader that stopped may have closed the pipe: nothing to
		// report then.
		_, _ = f.Write(rows(8000, 100))
		<-done
	}()

	ShowPlan(e, ag, path)
	q.WaitUntil(t, func() bool {
		q.Advance(kit.ProgressAfter) // once the reading started, its progress window shows
		top := e.Window.Canvas().Overlays().Top()
		return top != nil && strings.Contains(kittest.AllText(top), "read so far")
	}, func() string { return kittest.AllText(e.Window.Canvas().Overlays().Top()) })
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
	top := e.Window.Canvas().Overlays().Top()
	if !strings.Contains(kittest.AllText(top), "Reading the sheet…") {
		t.Fatalf("the window shows %q", kittest.AllText(top))
	}
	test.Tap(kittest.FindButton(top, "Cancel"))
	close(more)
	// The reading ends, and nothing is shown: no plan, no error.
	q.WaitUntil(t, func() bool { return e.Window.Canvas().Overlays().Top() == nil },
		func() string { return kittest.AllText(e.Window.Canvas().Overlays().Top()) })
}
