package files

import (
	"net/http"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

// A file name with a right-to-left override and a line break shows on one
// line, reading in the order its letters were written: "invoice‮fdp.exe"
// would otherwise read as "invoiceexe.pdf".
func TestFileNamesFromTheServiceShowOnOneLineAsWritten(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	a := apptest.Open(t, func(c *app.Config) {
		c.StartDemo = apptest.DemoStarter(demoservice.Options{API: demoservice.APISpec})
		c.HTTPClient = &http.Client{Transport: apptest.Rewriting{Prefix: "/files", Old: `"filename":"`, New: `"filename":"invoice\u202efdp.exe\nsecond line `}}
	})
	w := test.NewTempWindow(t, container.NewStack())
	w.Resize(fyne.NewSize(1000, 700))
	s := newScreen(screen.Env{App: a, Window: w, Nav: fakeNav{}})
	w.SetContent(s.Content())
	s.Shown()
	eventually(t, q, "files listed", func() bool { return len(s.list.Items) > 0 })
	if !strings.Contains(s.list.Items[0].Filename, "\u202e") {
		t.Fatalf("the service should send the hostile name, got %q", s.list.Items[0].Filename)
	}
	row := s.newRow()
	s.updateRow(0, s.list.Items[0], row)
	text := labels(row)
	if strings.ContainsAny(text, "\u202e\n") {
		t.Errorf("the row shows %q", text)
	}
	if !strings.Contains(text, "invoicefdp.exe second line ") {
		t.Errorf("the row should show the name in the order it was written, got %q", text)
	}
}
