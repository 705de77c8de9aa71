package agents

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
	"github.com/agentdesk/agentdesk/views/screen"
)

// hostileTitle starts every agent's title the way a hostile server could
// (JSON text): a right-to-left override, a line break, a PowerShell command
// and curly quotes.
const hostileTitle = `Evil\u202egnp.exe\n$(calc) \u201cq\u201d `

// newHostileFixture is newFixture with a service whose agent titles are
// hostile.
func newHostileFixture(t *testing.T) *fixture {
	return newFixtureThrough(t, func(next http.RoundTripper) http.RoundTripper {
		return apptest.Rewriting{Next: next, Prefix: "/agents", Old: `"title":"`, New: `"title":"` + hostileTitle}
	})
}

// newFixtureThrough is newFixture with the service's answers passed through
// the transport wrap makes.
func newFixtureThrough(t *testing.T, wrap func(http.RoundTripper) http.RoundTripper) *fixture {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	tr := &countingTransport{}
	a := apptest.Open(t, func(c *app.Config) {
		c.HTTPClient = &http.Client{Transport: wrap(tr)}
	})
	nav := &fakeNav{}
	w := test.NewTempWindow(t, widget.NewLabel(""))
	cw := &kittest.CountingWindow{Window: w}
	s := newScreen(screen.Env{App: a, Window: cw, Nav: nav}, options{searchDelay: 20 * time.Millisecond})
	w.SetContent(s.Content())
	w.Resize(fyne.NewSize(1200, 800))
	s.Shown()
	f := &fixture{s: s, a: a, nav: nav, w: w, cw: cw, tr: tr, q: q}
	f.wait(t, "the first page", func() bool { return len(s.shown.Agents) > 0 })
	return f
}

// An agent's title shows on one line, reading in the order it was written,
// in the list and in the detail; a notification naming it cannot run
// anything on Windows.
func TestAgentTitlesFromTheServiceShowOnOneLineAsWritten(t *testing.T) {
	f := newHostileFixture(t)
	row := newAgentRow()
	setAgentRow(row, f.s.shown.Agents[0])
	title, _ := kit.LineText(row.(*fyne.Container).Objects[0].(*fyne.Container).Objects[0])
	if want := "Evilgnp.exe $(calc) “q” Meeting Minutes Writer"; title != want {
		t.Errorf("the list row shows %q, want %q", title, want)
	}

	d := f.open(t, "119")
	shown := kittest.Labels(d.content)
	if strings.Contains(shown, "\u202e") {
		t.Errorf("the detail keeps the override:\n%s", shown)
	}
	if want := "\nEvilgnp.exe $(calc) “q” Newsletter Writer\n"; !strings.Contains("\n"+shown, want) {
		t.Errorf("the detail's header should read %q on one line; it shows:\n%s", want, shown)
	}

	d.form.byName["prompt"].set("A short note for the team")
	d.form.byName["tone"].set("formal")
	f.s.notifyAfter = 0
	kit.SetForeground(f.s.env.Window, false)
	defer kit.SetForeground(f.s.env.Window, true)
	test.AssertNotificationSent(t, &fyne.Notification{
		Title:   "Agent Desk",
		Content: "Evilgnp.exe ＄(calc) ʺqʺ Newsletter Writer has finished. Open Agent Desk to see the result.",
	}, func() {
		test.Tap(d.runBtn)
		f.wait(t, "the run", func() bool { return d.active == nil && d.output.run.Status != "" })
	})
}
