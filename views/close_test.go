package views

import (
	"context"
	"runtime"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

// TestNoScreenOutlivesClose opens the window with every screen, visits each
// (so each loads its lists, and the agents screen opens an agent), then
// closes Agent Desk: no goroutine any screen started may be left running.
func TestNoScreenOutlivesClose(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	before := runtime.NumGoroutine()
	a, err := app.Open(context.Background(), app.Config{Paths: storage.PathsIn(t.TempDir()), StartDemo: apptest.DemoStarter(demoservice.Options{}), Keyring: apptest.NewKeyring()})
	if err != nil {
		t.Fatal(err)
	}
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(fyne.NewSize(1180, 760))
	shell := NewShell(a, w)
	for _, spec := range defaultScreens() {
		shell.Show(spec.Name)
		// Let each screen start what it starts when shown.
		for end := time.Now().Add(300 * time.Millisecond); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
			q.Drain()
		}
	}
	shell.Show(screen.ScreenAgents)
	q.Drain()
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	q.Drain()
	apptest.NothingOutlives(t, before, func() { q.Drain() })
}
