package resources

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
	"github.com/agentdesk/agentdesk/views/screen"
)

func TestResourcesSearchFilterAllPagesAndDetail(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	srv, _ := demoservice.NewTestService(t, demoservice.Options{APIKey: "k"})
	a := apptest.OnURL(t, srv.URL)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	s := New(screen.Env{App: a, Window: w, Nav: screen.NoNav{}}).(*Screen)
	w.SetContent(s.Content())
	w.Resize(fyne.NewSize(1100, 700))
	s.Shown()
	settled := func(want string) {
		t.Helper()
		q.WaitUntil(t, func() bool { return s.count.Text == want }, func() string { return s.count.Text + " / " + kittest.Labels(s.list.Stack) })
	}
	settled("22 resources") // more than one page of 15

	s.typ.SetText("prompt")
	settled("4 resources")
	s.typ.SetText(anyType())
	test.Type(s.search, "reminder")
	settled("2 resources")

	s.list.Select(0)
	detail := kittest.Labels(s.detail)
	if !strings.Contains(detail, "Payment Reminder") || !strings.Contains(detail, "Reference: rsc_") {
		t.Fatalf("detail = %q", detail)
	}

	s.search.SetText("no such template anywhere")
	q.WaitUntil(t, func() bool { return strings.Contains(kittest.Labels(s.list.Stack), "No resources match") }, func() string { return kittest.Labels(s.list.Stack) })
}

// Another account's resources replace the last account's: while they are
// read, and when they cannot be, none of the old ones show.
func TestAccountSwitchClearsAndReloadsResources(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	a, svc := apptest.OnService(t, demoservice.Options{APIKey: "k"})
	w := test.NewTempWindow(t, widget.NewLabel(""))
	s := New(screen.Env{App: a, Window: w, Nav: screen.NoNav{}}).(*Screen)
	w.SetContent(s.Content())
	w.Resize(fyne.NewSize(1100, 700))
	s.Shown()
	labels := func() string { return s.count.Text + " / " + kittest.Labels(s.list.Stack) }
	q.WaitUntil(t, func() bool { return s.count.Text == "22 resources" }, labels)

	ctx := context.Background()
	demo := a.AccountID()
	other, err := a.Accounts().Save(ctx, app.Account{Name: "Other", BaseURL: "http://127.0.0.1:9"}, "k")
	if err != nil {
		t.Fatal(err)
	}
	svc.SetFaults(demoservice.Faults{Fail500: 1000}) // the other account's service fails
	if err := a.Activate(ctx, other.ID); err != nil {
		t.Fatal(err)
	}
	q.WaitUntil(t, func() bool { return strings.Contains(kittest.Labels(s.list.Stack), "The service had a problem") }, labels)
	if len(s.list.Items) != 0 || s.count.Text != "" {
		t.Fatalf("the last account's resources stay: %d, %q", len(s.list.Items), s.count.Text)
	}
	svc.SetFaults(demoservice.Faults{})
	if err := a.Activate(ctx, demo); err != nil {
		t.Fatal(err)
	}
	q.WaitUntil(t, func() bool { return s.count.Text == "22 resources" }, labels)
}

// When later pages keep failing, the resources read show, the screen says
// the rest could not be read, and Load the rest reads them.
func TestResourcesKeepWhatWasReadWhenLaterPagesFail(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	svc := demoservice.New(demoservice.Options{APIKey: "k"})
	var failing atomic.Bool
	failing.Store(true)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Query().Get("page"); r.URL.Path == "/resources" && p != "" && p != "1" && failing.Load() {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadGateway)
			fmt.Fprint(w, "<html><body>Bad gateway</body></html>")
			return
		}
		svc.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	a := apptest.OnURL(t, srv.URL)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	s := New(screen.Env{App: a, Window: w, Nav: screen.NoNav{}}).(*Screen)
	w.SetContent(s.Content())
	w.Resize(fyne.NewSize(1100, 700))
	s.Shown()
	q.WaitUntil(t, func() bool { return strings.Contains(kittest.Labels(s.list.Stack), "Only 15 resources could be read") },
		func() string { return s.count.Text + " / " + kittest.Labels(s.list.Stack) })
	if len(s.list.Items) != 15 || s.count.Text != "15 resources" {
		t.Fatalf("the first page should show: %d items, %q", len(s.list.Items), s.count.Text)
	}
	failing.Store(false)
	test.Tap(kittest.FindButton(s.list.Stack, "Load the rest"))
	q.WaitUntil(t, func() bool { return s.count.Text == "22 resources" }, func() string { return s.count.Text + " / " + kittest.Labels(s.list.Stack) })
	if strings.Contains(kittest.Labels(s.list.Stack), "could be read") {
		t.Fatal("once all are read, the note goes")
	}
}

// openedNav remembers the agents opened with a request.
type openedNav struct {
	screen.NoNav
	agents   []app.AgentItem
	requests []string
}

func (n *openedNav) OpenAgentWith(ag app.AgentItem, request string) {
	n.agents, n.requests = append(n.agents, ag), append(n.requests, request)
}

// A resource is used as a template: "Write with an agent…" asks which
// writing agent, and opens it with the resource's words in its request.
func TestAResourceStartsAWritingAgentsRequest(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	a := apptest.Open(t)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	kit.AnswerDialogKeys(w)
	nav := &openedNav{}
	s := New(screen.Env{App: a, Window: w, Nav: nav, PickerDelay: time.Millisecond}).(*Screen)
	w.SetContent(s.Content())
	w.Resize(fyne.NewSize(1100, 700))
	s.Shown()
	test.Type(s.search, "reminder")
	q.WaitUntil(t, func() bool { return s.count.Text == "2 resources" }, func() string { return s.count.Text })
	s.list.Select(0)
	use := kittest.FindButton(s.detail, "Write with an agent…")
	if use == nil {
		t.Fatalf("the resource offers no way to use it:\n%s", kittest.Labels(s.detail))
	}
	test.Tap(use)
	c := w.Canvas()
	q.WaitUntil(t, func() bool {
		return c.Overlays().Top() != nil && strings.Contains(kittest.AllText(c.Overlays().Top()), "Newsletter Writer")
	}, func() string { return "the writing agents" })
	c.OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if len(nav.agents) != 1 || nav.agents[0].Type != client.AgentText {
		t.Fatalf("Enter should open the chosen writing agent, opened %+v", nav.agents)
	}
	if r := nav.requests[0]; !strings.HasPrefix(r, "Payment Reminder") || !strings.Contains(r, "\n\n") {
		t.Fatalf("the request should carry the resource's words, got %q", r)
	}
}

// TestTheResourcesScreenLaysOutAfterEachAction: the list, a search that
// finds nothing, a resource opened, at each size: nothing drawn over
// anything, nothing cut.
func TestTheResourcesScreenLaysOutAfterEachAction(t *testing.T) {
	kittest.EachLanguage(t, apptest.Speak, func(t *testing.T, size fyne.Size) {
		test.NewTempApp(t)
		q := kit.UseQueue(t)
		srv, _ := demoservice.NewTestService(t, demoservice.Options{APIKey: "k"})
		a := apptest.OnURL(t, srv.URL)
		w := test.NewTempWindow(t, widget.NewLabel(""))
		s := New(screen.Env{App: a, Window: w, Nav: screen.NoNav{}}).(*Screen)
		w.SetContent(container.NewStack(s.Content(), kit.NewLayer(w.Canvas())))
		w.Resize(size)
		frames := kittest.NewFrames(w.Canvas())
		s.Shown()
		q.WaitUntil(t, func() bool { return strings.HasPrefix(s.count.Text, "22 ") }, func() string { return s.count.Text })
		kittest.Look(t, frames, q, w, "the resources listed")
		s.search.SetText("no such template anywhere")
		q.WaitUntil(t, func() bool { return strings.Contains(kittest.Labels(s.list.Stack), lang.L("No resources match")) }, func() string { return kittest.Labels(s.list.Stack) })
		kittest.Look(t, frames, q, w, "a search that finds nothing")
		s.search.SetText("")
		q.WaitUntil(t, func() bool { return strings.HasPrefix(s.count.Text, "22 ") }, func() string { return s.count.Text })
		s.list.Select(0)
		kittest.Look(t, frames, q, w, "a resource opened")
	})
}
