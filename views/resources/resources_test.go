package resources

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/views/kit"
)

type nav struct{}

func (nav) Show(string)                                 {}
func (nav) OpenChat(client.Agent)                       {}
func (nav) OpenConversation(int64)                      {}
func (nav) AgentTabs(client.Agent) []*container.TabItem { return nil }
func (nav) NewAttachments() kit.Attachments             { return nil }
func (nav) ShowCredits()                                {}

func dump(o fyne.CanvasObject) string {
	switch v := o.(type) {
	case *widget.Label:
		return v.Text + "\n"
	case *fyne.Container:
		var b strings.Builder
		for _, c := range v.Objects {
			b.WriteString(dump(c))
		}
		return b.String()
	case *container.Scroll:
		return dump(v.Content)
	case *widget.Form:
		var b strings.Builder
		for _, it := range v.Items {
			b.WriteString(it.Text + ": " + dump(it.Widget))
		}
		return b.String()
	}
	return ""
}

func TestResourcesSearchFilterAllPagesAndDetail(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	srv, _ := demoservice.NewTestService(t, demoservice.Options{APIKey: "k"})
	a := apptest.Open(t, func(c *app.Config) {
		c.ClientOptions = []client.Option{client.WithBaseURL(srv.URL), client.WithAPIKey("k")}
	})
	w := test.NewTempWindow(t, widget.NewLabel(""))
	s := New(kit.Env{App: a, Window: w, Nav: nav{}}).(*Screen)
	w.SetContent(s.Content())
	w.Resize(fyne.NewSize(1100, 700))
	s.Shown()
	settled := func(want string) {
		t.Helper()
		q.WaitUntil(t, func() bool { return s.count.Text == want }, func() string { return s.count.Text + " / " + dump(s.stack) })
	}
	settled("22 resources") // more than one page of 15

	s.typ.SetText("prompt")
	settled("4 resources")
	s.typ.SetText(anyType)
	test.Type(s.search, "reminder")
	settled("2 resources")

	s.list.Select(0)
	detail := dump(s.detail)
	if !strings.Contains(detail, "Payment Reminder") || !strings.Contains(detail, "Number: rsc_") {
		t.Fatalf("detail = %q", detail)
	}

	s.search.SetText("no such template anywhere")
	q.WaitUntil(t, func() bool { return strings.Contains(dump(s.stack), "No resources match") }, func() string { return dump(s.stack) })
}
