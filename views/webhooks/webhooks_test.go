package webhooks

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
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

func env(t *testing.T, variant string) (screen.Env, *kit.Queue) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	srv, _ := demoservice.NewTestService(t, demoservice.Options{APIKey: "k", WebhookVariant: variant, API: demoservice.APISpec})
	a := apptest.OnURL(t, srv.URL)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(fyne.NewSize(1100, 700))
	return screen.Env{App: a, Window: w, Nav: screen.NoNav{}}, q
}

// row renders list row i as the screen would.
func row(l *list, i int) *fyne.Container {
	o := l.List.CreateItem()
	l.List.UpdateItem(i, o)
	return kit.RowContent(o).(*fyne.Container)
}

func TestWebhooksScreenShowsEitherVariantWithMaskedSecrets(t *testing.T) {
	for _, v := range []string{"A", "B"} {
		t.Run(v, func(t *testing.T) {
			e, q := env(t, v)
			s := New(e).(*Screen)
			e.Window.SetContent(s.Content())
			s.Shown()
			q.WaitUntil(t, func() bool { return len(s.list.Items) > 0 }, func() string { return s.summary.Text })
			if !strings.HasSuffix(s.summary.Text, "webhooks") {
				t.Fatalf("summary = %q", s.summary.Text)
			}
			r := row(s.list, 0)
			if kittest.FindButton(r, "Delete…") == nil {
				t.Fatal("a webhook row offers Delete…")
			}
			left := r.Objects[0].(*fyne.Container)
			url := left.Objects[0].(*widget.Label).Text
			details := left.Objects[1].(*widget.Label).Text
			if !strings.HasPrefix(url, "https://") || details == "" || left.Objects[2].(*widget.Label).Text == "" {
				t.Fatalf("row: %q / %q", url, details)
			}
			secretCell, secret, reveal, _ := secretParts(r)
			if v == "A" {
				if secretCell.Visible() || !strings.Contains(details, "messages sent") || strings.Contains(details, "POST") {
					t.Fatalf("variant A row: %q, secret shown %v", details, secretCell.Visible())
				}
				// The agent is named once its title has been read.
				ag, err := e.App.Agents().Get(context.Background(), s.list.Items[0].TemplateID)
				if err != nil {
					t.Fatal(err)
				}
				q.WaitUntil(t, func() bool {
					d := row(s.list, 0).Objects[0].(*fyne.Container).Objects[1].(*widget.Label).Text
					return strings.HasPrefix(d, ag.Title+" · ")
				}, func() string { return row(s.list, 0).Objects[0].(*fyne.Container).Objects[1].(*widget.Label).Text })
				return
			}
			if !strings.Contains(details, "agent.completed") {
				t.Fatalf("variant B events missing: %q", details)
			}
			if !secretCell.Visible() || secret.Text != "Signing secret: "+masked {
				t.Fatalf("secret shown as %q", secret.Text)
			}
			test.Tap(reveal)
			_, secret, _, copyBtn := secretParts(row(s.list, 0))
			real := strings.TrimPrefix(secret.Text, "Signing secret: ")
			if !strings.HasPrefix(real, "whsec_") {
				t.Fatalf("Reveal shows %q", secret.Text)
			}
			test.Tap(copyBtn)
			if got := fyne.CurrentApp().Clipboard().Content(); got != real {
				t.Fatalf("clipboard = %q", got)
			}
		})
	}
}

func TestAgentTabListsTheAgentsWebhooks(t *testing.T) {
	e, q := env(t, "A")
	tab := NewAgentTab(e, client.Agent{ID: "101", Title: "Meeting Minutes Writer"})
	e.Window.SetContent(tab)
	var l *kit.List
	q.WaitUntil(t, func() bool {
		l = kittest.Find[*kit.List](tab)
		return l != nil && l.Length() > 0
	}, func() string { return "no list yet" })
	if !strings.Contains(kittest.Labels(tab), AgentBanner()) {
		t.Fatal("the tab does not say webhooks are set up on the service")
	}
}

func TestWebhooksErrorSaysWhatHappenedAndRetries(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	a, svc := apptest.OnService(t, demoservice.Options{APIKey: "k"})
	w := test.NewTempWindow(t, widget.NewLabel(""))
	s := New(screen.Env{App: a, Window: w, Nav: screen.NoNav{}}).(*Screen)
	w.SetContent(s.Content())
	svc.SetFaults(demoservice.Faults{Fail500: 1})
	s.Shown()
	q.WaitUntil(t, func() bool { return strings.Contains(kittest.Labels(s.list.Stack), "The service had a problem") },
		func() string { return "error state shows: " + kittest.Labels(s.list.Stack) })
	test.Tap(kittest.FindButton(s.list.Stack, app.ActionTryAgain.Label()))
	q.WaitUntil(t, func() bool { return len(s.list.Items) > 0 }, func() string { return kittest.Labels(s.list.Stack) })
}

// Turning a webhook off and deleting it from the list: the row changes,
// then goes, and the service has what the list shows.
func TestWebhookIsSwitchedOffAndDeletedFromTheList(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	a, _ := apptest.OnService(t, demoservice.Options{APIKey: "k", API: demoservice.APIReal})
	ctx := context.Background()
	const url = "https://example.com/finished"
	if _, err := a.Catalog().AddWebhook(ctx, "101", url, "POST", true); err != nil {
		t.Fatal(err)
	}
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(fyne.NewSize(1100, 700))
	s := New(screen.Env{App: a, Window: w, Nav: screen.NoNav{}}).(*Screen)
	w.SetContent(s.Content())
	s.Shown()
	find := func() (int, client.Webhook) {
		for i, h := range s.list.Items {
			if h.URL == url {
				return i, h
			}
		}
		return -1, client.Webhook{}
	}
	q.WaitUntil(t, func() bool { i, _ := find(); return i >= 0 }, func() string { return kittest.Labels(s.list.Stack) })

	i, before := find()
	s.list.ScrollTo(i)
	var active *kit.Check // the new webhook's switch, as drawn
	q.WaitUntil(t, func() bool {
		r := shownRows(s.list)[url]
		if r != nil {
			active = kittest.Find[*kit.Check](r)
		}
		return active != nil
	}, func() string { return "the new webhook's row is not drawn" })
	if !active.Checked {
		t.Fatal("the new webhook shows as active")
	}
	// Switching says first that the webhook is set up again; Cancel leaves it.
	switchOff := func() fyne.CanvasObject {
		active.SetChecked(false)
		top := w.Canvas().Overlays().Top()
		if top == nil || !strings.Contains(kittest.AllText(top), switchNote()) || kittest.FindButton(top, "Switch off") == nil {
			t.Fatal("switching a webhook off does not say first that its number and counts start again")
		}
		return top
	}
	test.Tap(kittest.FindButton(switchOff(), "Cancel"))
	q.WaitUntil(t, func() bool { return active.Checked }, func() string { return "the switch stays off after Cancel" })
	if _, h := find(); h.ID != before.ID || h.Status != client.WebhookActive {
		t.Fatalf("after Cancel the webhook is %+v", h)
	}
	test.Tap(kittest.FindButton(switchOff(), "Switch off"))
	q.WaitUntil(t, func() bool { _, h := find(); return h.ID != before.ID && h.Status == client.WebhookInactive },
		func() string { _, h := find(); return h.Status })

	i, off := find()
	test.Tap(kittest.FindButton(row(s.list, i), "Delete…"))
	top := w.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("Delete… asks first")
	}
	test.Tap(kittest.FindButton(top, "Delete"))
	q.WaitUntil(t, func() bool { i, _ := find(); return i < 0 }, func() string { return kittest.Labels(s.list.Stack) })
	hooks, err := a.Catalog().AgentWebhooks(ctx, "101")
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hooks {
		if h.ID == off.ID || h.ID == before.ID {
			t.Fatalf("the service still has %+v", h)
		}
	}
}

// secretParts are a webhook row's signing-secret line, its text, and its
// Reveal and Copy buttons.
func secretParts(r *fyne.Container) (cell *fyne.Container, secret *widget.Label, reveal, copyBtn *kit.Button) {
	cell = r.Objects[0].(*fyne.Container).Objects[3].(*fyne.Container)
	buttons := cell.Objects[1].(*fyne.Container)
	return cell, cell.Objects[0].(*widget.Label), buttons.Objects[0].(*kit.Button), buttons.Objects[1].(*kit.Button)
}

// A list whose later pages keep failing shows the webhooks it read, says
// that the rest could not be read, and Load the rest tries again.
func TestWebhooksKeepWhatWasReadWhenLaterPagesFail(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	svc := demoservice.New(demoservice.Options{APIKey: "k", API: demoservice.APISpec})
	var failing atomic.Bool
	failing.Store(true)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/webhooks" {
			query := r.URL.Query()
			if p := query.Get("page"); p != "" && p != "1" && failing.Load() {
				w.Header().Set("Content-Type", "text/html")
				w.WriteHeader(http.StatusBadGateway)
				fmt.Fprint(w, "<html><body>Bad gateway</body></html>")
				return
			}
			query.Set("per_page", "5") // pages of five
			r.URL.RawQuery = query.Encode()
		}
		svc.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	a := apptest.OnURL(t, srv.URL)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(fyne.NewSize(1100, 700))
	s := New(screen.Env{App: a, Window: w, Nav: screen.NoNav{}}).(*Screen)
	w.SetContent(s.Content())
	s.Shown()
	q.WaitUntil(t, func() bool { return strings.Contains(kittest.Labels(s.list.Stack), "Only 5 webhooks could be read") },
		func() string { return "shows: " + kittest.Labels(s.list.Stack) })
	if len(s.list.Items) != 5 {
		t.Fatalf("the five webhooks read should show, %d do", len(s.list.Items))
	}
	failing.Store(false)
	test.Tap(kittest.FindButton(s.list.Stack, "Load the rest"))
	q.WaitUntil(t, func() bool {
		return len(s.list.Items) > 5 && !strings.Contains(kittest.Labels(s.list.Stack), "could be read")
	},
		func() string { return fmt.Sprintf("%d shown: %s", len(s.list.Items), kittest.Labels(s.list.Stack)) })
}

// Webhooks that could not be read are read by themselves when the service
// can be reached again.
func TestWebhooksLoadByThemselvesWhenTheServiceIsBack(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	a, svc := apptest.OnService(t, demoservice.Options{APIKey: "k"})
	a.SetReachable(true)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	s := New(screen.Env{App: a, Window: w, Nav: screen.NoNav{}}).(*Screen)
	w.SetContent(s.Content())
	svc.SetFaults(demoservice.Faults{Fail500: 1000})
	s.Shown()
	q.WaitUntil(t, func() bool { return strings.Contains(kittest.Labels(s.list.Stack), "The service had a problem") },
		func() string { return kittest.Labels(s.list.Stack) })
	svc.SetFaults(demoservice.Faults{})
	a.SetReachable(false)
	a.SetReachable(true)
	q.WaitUntil(t, func() bool { return len(s.list.Items) > 0 }, func() string { return kittest.Labels(s.list.Stack) })
}

// An address that is not https is said once, under the field, with Add off;
// a good one takes the words away and turns Add on.
func TestAWebhookAddressIsCheckedOnceAsTyped(t *testing.T) {
	test.NewTempApp(t)
	kit.UseQueue(t)
	a, _ := apptest.OnService(t, demoservice.Options{APIKey: "k", API: demoservice.APIReal})
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(fyne.NewSize(1100, 700))
	env := screen.Env{App: a, Window: w, Nav: screen.NoNav{}}
	showAdd(env, client.Agent{ID: "101", Title: "Writer"}, a.Catalog().NewAgentWebhooks("101"))
	top := w.Canvas().Overlays().Top()
	url := kittest.Find[*kit.FormEntry](top)
	add := kittest.FindButton(top, "Add")
	test.Type(url, "http://example.com/finished")
	const said = "The service only calls secure addresses"
	if n := strings.Count(drawnText(top), said); n != 1 || !add.Disabled() {
		t.Fatalf("an http address should be said once (%d) with Add off (%v):\n%s", n, add.Disabled(), kittest.AllText(top))
	}
	url.SetText("https://example.com/finished")
	if strings.Contains(drawnText(top), said) || add.Disabled() {
		t.Fatalf("a good address should take the words away and turn Add on:\n%s", kittest.AllText(top))
	}
}

// drawnText is every text drawn under o, Fyne's own lines included.
func drawnText(o fyne.CanvasObject) string {
	if !o.Visible() {
		return ""
	}
	if t, ok := o.(*canvas.Text); ok {
		return t.Text + "\n"
	}
	var b strings.Builder
	for _, c := range kittest.Children(o) {
		b.WriteString(drawnText(c))
	}
	return b.String()
}

// TestTheWebhooksScreenLaysOutAfterEachAction: the list, an error said and
// cleared by Try again, a webhook asked to be deleted, at each size:
// nothing drawn over anything, nothing cut.
func TestTheWebhooksScreenLaysOutAfterEachAction(t *testing.T) {
	kittest.EachLanguage(t, apptest.Speak, func(t *testing.T, size fyne.Size) {
		test.NewTempApp(t)
		q := kit.UseQueue(t)
		a, svc := apptest.OnService(t, demoservice.Options{APIKey: "k"})
		w := test.NewTempWindow(t, widget.NewLabel(""))
		s := New(screen.Env{App: a, Window: w, Nav: screen.NoNav{}}).(*Screen)
		w.SetContent(container.NewStack(s.Content(), kit.NewLayer(w.Canvas())))
		w.Resize(size)
		frames := kittest.NewFrames(w.Canvas())
		svc.SetFaults(demoservice.Faults{Fail500: 1})
		s.Shown()
		q.WaitUntil(t, func() bool { return strings.Contains(kittest.Labels(s.list.Stack), lang.L("Service problem")) },
			func() string { return kittest.Labels(s.list.Stack) })
		kittest.Look(t, frames, q, w, "an error said")
		test.Tap(kittest.FindButton(s.list.Stack, app.ActionTryAgain.Label()))
		q.WaitUntil(t, func() bool { return len(s.list.Items) > 0 }, func() string { return kittest.Labels(s.list.Stack) })
		kittest.Look(t, frames, q, w, "the error cleared, the webhooks listed")
		test.Tap(kittest.FindButton(row(s.list, 0), lang.L("Delete…")))
		kittest.Look(t, frames, q, w, "asked to delete one")
		test.Tap(kittest.FindButton(w.Canvas().Overlays().Top(), lang.L("Cancel")))
		kittest.Find[*kit.Check](row(s.list, 0)).SetChecked(false)
		kittest.Look(t, frames, q, w, "asked to switch one off")
		test.Tap(kittest.FindButton(w.Canvas().Overlays().Top(), lang.L("Cancel")))
		showAdd(screen.Env{App: a, Window: w, Nav: screen.NoNav{}}, client.Agent{ID: "101"}, a.Catalog().NewAgentWebhooks("101"))
		kittest.Look(t, frames, q, w, "asked for a new webhook")
	})
}

// shownRows are the rows the list draws, by address.
func shownRows(l *list) map[string]*fyne.Container {
	out := map[string]*fyne.Container{}
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if r, ok := o.(*fyne.Container); ok && len(r.Objects) == 2 {
			if left, ok := r.Objects[0].(*fyne.Container); ok && len(left.Objects) == 5 && r.Visible() {
				out[left.Objects[0].(*widget.Label).Text] = r
				return
			}
		}
		for _, c := range kittest.Children(o) {
			walk(c)
		}
	}
	walk(l.List)
	return out
}

// details are the second lines of the rows the list draws, by address.
func details(l *list) map[string]string {
	out := map[string]string{}
	for url, r := range shownRows(l) {
		out[url] = r.Objects[0].(*fyne.Container).Objects[1].(*widget.Label).Text
	}
	return out
}

// Opening the Webhooks screen with 246 webhooks costs at most five requests:
// the list in pages of a hundred and the titles of the agents in view, each
// read once; a row scrolled into view names its agent too.
func TestOpeningWebhooksWithManyOfThemCostsFewRequests(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	svc := demoservice.New(demoservice.Options{APIKey: "k", API: demoservice.APIReal})
	svc.FillWebhooks(246)
	var mu sync.Mutex
	asked := map[string]int{} // requests by path
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked[r.URL.Path]++
		mu.Unlock()
		svc.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	a := apptest.OnURL(t, srv.URL)
	titles := map[client.ID]string{}
	agents, err := a.Client().ListAgents(context.Background(), client.ListAgentsParams{PerPage: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, ag := range agents.Data {
		titles[ag.ID] = ag.Title
	}
	requests := func() (n int, twice []string) {
		mu.Lock()
		defer mu.Unlock()
		for p, k := range asked {
			n += k
			if k > 1 && strings.HasPrefix(p, "/agents/") {
				twice = append(twice, p)
			}
		}
		return n, twice
	}
	mu.Lock()
	clear(asked)
	mu.Unlock()

	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(fyne.NewSize(1100, 700))
	s := New(screen.Env{App: a, Window: w, Nav: screen.NoNav{}}).(*Screen)
	w.SetContent(s.Content())
	s.Shown()
	// named says whether the rows drawn name their agents, row i among them.
	named := func(i int) bool {
		rows := details(s.list)
		if _, ok := rows[s.list.Items[i].URL]; !ok {
			return false
		}
		for _, h := range s.list.Items {
			if d, ok := rows[h.URL]; ok && !strings.HasPrefix(d, titles[h.TemplateID]+" · ") {
				return false
			}
		}
		return true
	}
	q.WaitUntil(t, func() bool { return len(s.list.Items) == 246 && named(0) },
		func() string { return fmt.Sprintf("%d webhooks, rows %q", len(s.list.Items), details(s.list)) })
	n, _ := requests()
	mu.Lock()
	t.Logf("opening the screen cost %d requests: %v", n, asked)
	mu.Unlock()
	if n > 5 {
		t.Fatal("more than five")
	}

	s.list.ScrollTo(200)
	q.WaitUntil(t, func() bool { return named(200) }, func() string { return fmt.Sprintf("rows %q", details(s.list)) })
	if _, twice := requests(); len(twice) > 0 {
		t.Fatalf("read more than once: %v", twice)
	}
}

// The add dialog offers GET as well as POST, POST chosen; a webhook added
// with GET is called with GET.
func TestAWebhookIsAddedWithGETOrPOST(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	a, _ := apptest.OnService(t, demoservice.Options{APIKey: "k", API: demoservice.APIReal})
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(fyne.NewSize(1100, 700))
	showAdd(screen.Env{App: a, Window: w, Nav: screen.NoNav{}}, client.Agent{ID: "102", Title: "Writer"}, a.Catalog().NewAgentWebhooks("102"))
	top := w.Canvas().Overlays().Top()
	method := kittest.Find[*kit.RadioGroup](top)
	if method == nil || method.Selected != http.MethodPost {
		t.Fatal("the add dialog offers POST, chosen, and GET")
	}
	method.SetSelected(http.MethodGet)
	test.Type(kittest.Find[*kit.FormEntry](top), "https://example.com/by-get")
	test.Tap(kittest.FindButton(top, "Add"))
	var got []client.Webhook
	q.WaitUntil(t, func() bool {
		got, _ = a.Catalog().AgentWebhooks(context.Background(), "102")
		return len(got) == 1
	}, func() string { return fmt.Sprintf("the agent has %+v", got) })
	if got[0].Method != http.MethodGet || got[0].URL != "https://example.com/by-get" {
		t.Fatalf("added %+v", got[0])
	}
}
