package resources

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
)

func TestResourcesSearchFilterAllPagesAndDetail(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	srv, _ := demoservice.NewTestService(t, demoservice.Options{APIKey: "k"})
	a := apptest.Open(t, func(c *app.Config) {
		c.ClientOptions = []client.Option{client.WithBaseURL(srv.URL), client.WithAPIKey("k")}
	})
	w := test.NewTempWindow(t, widget.NewLabel(""))
	s := New(kit.Env{App: a, Window: w, Nav: kittest.Nav{}}).(*Screen)
	w.SetContent(s.Content())
	w.Resize(fyne.NewSize(1100, 700))
	s.Shown()
	settled := func(want string) {
		t.Helper()
		q.WaitUntil(t, func() bool { return s.count.Text == want }, func() string { return s.count.Text + " / " + kittest.Labels(s.stack) })
	}
	settled("22 resources") // more than one page of 15

	s.typ.SetText("prompt")
	settled("4 resources")
	s.typ.SetText(anyType)
	test.Type(s.search, "reminder")
	settled("2 resources")

	s.list.Select(0)
	detail := kittest.Labels(s.detail)
	if !strings.Contains(detail, "Payment Reminder") || !strings.Contains(detail, "Reference: rsc_") {
		t.Fatalf("detail = %q", detail)
	}

	s.search.SetText("no such template anywhere")
	q.WaitUntil(t, func() bool { return strings.Contains(kittest.Labels(s.stack), "No resources match") }, func() string { return kittest.Labels(s.stack) })
}
