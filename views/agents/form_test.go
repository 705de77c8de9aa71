package agents

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/files"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
	"github.com/agentdesk/agentdesk/views/screen"
)

// fillPrompt answers the request the demo's text, image and video agents
// ask for, when they ask for it.
func fillPrompt(d *detail) {
	if fl := d.form.byName["prompt"]; fl != nil && fl.set != nil {
		fl.set("A short note for the team")
	}
}

// fillRequired answers the questions of the demo agent itself that must be
// answered (prompt, tone, length), so a test's own question decides.
func fillRequired(d *detail) {
	fillPrompt(d)
	if fl := d.form.byName["tone"]; fl != nil {
		fl.set("formal")
	}
	if fl := d.form.byName["length"]; fl != nil {
		fl.set("80")
	}
}

// bodies records the bodies of the executions the service received.
type bodies struct {
	next http.RoundTripper
	mu   sync.Mutex
	got  [][]byte
}

func (b *bodies) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/execute") && r.Body != nil {
		raw, err := io.ReadAll(r.Body)
		r.Body.Close()
		if err != nil {
			return nil, err
		}
		b.mu.Lock()
		b.got = append(b.got, raw)
		b.mu.Unlock()
		r = r.Clone(r.Context())
		r.Body = io.NopCloser(bytes.NewReader(raw))
		r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(raw)), nil }
	}
	return b.next.RoundTrip(r)
}

func (b *bodies) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.got)
}

// answer is the value the last execution body sent for name (at the top
// level, or in its answers object), as JSON text; "" when it sent none.
func (b *bodies) answer(t *testing.T, name string) string {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.got) == 0 {
		t.Fatal("no execution reached the service")
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(b.got[len(b.got)-1], &body); err != nil {
		t.Fatalf("the body %s: %v", b.got[len(b.got)-1], err)
	}
	v, ok := body[name]
	if !ok {
		var answers map[string]json.RawMessage
		if json.Unmarshal(body["answers"], &answers) == nil {
			v = answers[name]
		}
	}
	if len(v) == 0 {
		return ""
	}
	var out bytes.Buffer
	if err := json.Compact(&out, v); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// withQuestions is a screen whose agent 119 (a text agent of the demo)
// asks the questions given (JSON objects) before its own; rec sees every
// execution body the service receives.
func withQuestions(t *testing.T, questions ...string) (*fixture, *bodies) {
	t.Helper()
	return withAbout(t, "", questions...)
}

// withAbout is withQuestions with about (when not "") before agent 119's
// long description.
func withAbout(t *testing.T, about string, questions ...string) (*fixture, *bodies) {
	t.Helper()
	rec := &bodies{}
	f := newFixtureThrough(t, func(next http.RoundTripper) http.RoundTripper {
		if about != "" {
			text, _ := json.Marshal(about)
			next = apptest.Rewriting{Next: next, Prefix: "/agents/119", Old: `"long_description":"`, New: `"long_description":` + strings.TrimSuffix(string(text), `"`)}
		}
		rec.next = apptest.Rewriting{Next: next, Prefix: "/agents/119", Old: `"questions":[`, New: `"questions":[` + strings.Join(questions, ",") + `,`}
		return rec
	})
	return f, rec
}

// runAndWait presses Run and waits for the run to end.
func runAndWait(t *testing.T, f *fixture, d *detail, rec *bodies) {
	t.Helper()
	before := rec.count()
	test.Tap(d.runBtn)
	f.q.Drain()
	if d.active == nil && rec.count() == before && d.formErr.Visible() {
		t.Fatalf("Run did not start; the form says %q; the fields say:\n%s", d.formErr.Text, fieldErrors(d.form))
	}
	f.wait(t, "the run", func() bool { return d.active == nil && rec.count() > before })
}

// fieldErrors are the notes in red of the form, a line each.
func fieldErrors(fm *form) string {
	var b strings.Builder
	for _, fl := range fm.fields {
		if fl.err.Visible() {
			b.WriteString(fl.q.Name + ": " + fl.err.Text + "\n")
		}
	}
	return b.String()
}

// refused presses Run, which must send nothing and show msg at the field.
func refused(t *testing.T, f *fixture, d *detail, rec *bodies, name, msg string) {
	t.Helper()
	before := rec.count()
	test.Tap(d.runBtn)
	f.q.Drain()
	if d.active != nil || rec.count() != before {
		t.Fatal("a run started although the form holds a mistake")
	}
	if got := d.form.byName[name].err; !got.Visible() || !strings.Contains(got.Text, msg) {
		t.Fatalf("the note at %s says %q, want %q", name, got.Text, msg)
	}
}

func TestASelectIsSentAsTheChoice(t *testing.T) {
	f, rec := withQuestions(t, `{"type":"select","name":"region","required":true,"options":["North","South"]}`)
	d := f.open(t, "119")
	fillRequired(d)
	sel := d.form.byName["region"].input.(*kit.Select)
	sel.SetSelected("South")
	runAndWait(t, f, d, rec)
	if got := rec.answer(t, "region"); got != `"South"` {
		t.Fatalf("region sent as %s", got)
	}
}

func TestANumberIsCheckedAgainstTheAgentsBoundsAndSentAsANumber(t *testing.T) {
	f, rec := withQuestions(t, `{"type":"number","name":"minutes","description":"How long it runs.","required":true,"min":5,"max":120}`)
	d := f.open(t, "119")
	fillRequired(d)
	fl := d.form.byName["minutes"]
	if fl.help == nil || !strings.Contains(fl.help.Text, "How long it runs.") || !strings.Contains(fl.help.Text, "From 5 to 120.") {
		t.Fatalf("the help under the name does not give the range: %v", fl.help)
	}
	num := fl.input.(*numberEntry)
	test.Type(num, "50x")
	if !strings.Contains(fl.err.Text, "Only a number goes here") || num.Text != "50" {
		t.Fatalf("a letter in a number field: text %q, note %q", num.Text, fl.err.Text)
	}
	test.Type(num, "0")
	refused(t, f, d, rec, "minutes", "Please enter a number from 5 to 120.")
	if !strings.Contains(d.formErr.Text, "Minutes") {
		t.Fatalf("the line by Run says %q", d.formErr.Text)
	}
	num.SetText("")
	test.Type(num, "60")
	if fl.err.Visible() {
		t.Fatal("the note stays after the answer was changed")
	}
	runAndWait(t, f, d, rec)
	if got := rec.answer(t, "minutes"); got != "60" {
		t.Fatalf("minutes sent as %s", got)
	}
}

func TestAListIsEditedLineByLineAndSentAsAList(t *testing.T) {
	f, rec := withQuestions(t, `{"type":"array","name":"points","description":"The points to cover.","required":true}`)
	d := f.open(t, "119")
	fillRequired(d)
	fl := d.form.byName["points"]
	refused(t, f, d, rec, "points", "Please add at least one line.")

	l := fl.list
	add := kittest.FindButton(fl.input, "Add a line")
	test.Type(l.rows[0].entry, "apples")
	test.Tap(add)
	if f.w.Canvas().Focused() != l.rows[1].entry {
		t.Fatal("a new line does not get the keyboard")
	}
	test.Type(l.rows[1].entry, "bread")
	// Enter in a line adds the next one.
	l.rows[1].entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if len(l.rows) != 3 || f.w.Canvas().Focused() != l.rows[2].entry {
		t.Fatalf("Enter should add a line and move to it: %d lines", len(l.rows))
	}
	test.Type(l.rows[2].entry, "cheese")
	test.Tap(l.rows[2].up) // cheese above bread
	test.Tap(l.rows[0].drop)
	if got := strings.Join(texts(l), "|"); got != "cheese|bread" {
		t.Fatalf("the lines read %q", got)
	}
	if !l.rows[0].up.Disabled() || !l.rows[1].down.Disabled() || l.rows[0].down.Disabled() {
		t.Fatal("the first line can go up or the last down")
	}
	runAndWait(t, f, d, rec)
	if got := rec.answer(t, "points"); got != `["cheese","bread"]` {
		t.Fatalf("points sent as %s", got)
	}
	// Kept for next time as it was left.
	if err := f.a.FlushDrafts(); err != nil {
		t.Fatal(err)
	}
	if got := f.a.Agents().LastAnswers(d.agent)["points"]; got != `["cheese","bread"]` {
		t.Fatalf("remembered as %q", got)
	}
}

// Tab goes through each line and its buttons, then "Add a line".
func TestAListIsReachedWithTheKeyboard(t *testing.T) {
	test.NewTempApp(t)
	agent := client.Agent{Type: client.AgentText, Questions: []client.Question{{Type: "array", Name: "points"}}}
	fm := newForm(agent, map[string]string{"points": `["a","b"]`}, func() {}, nil)
	w := test.NewTempWindow(t, fm.content)
	c := w.Canvas()
	l := fm.byName["points"].list
	want := []fyne.Focusable{l.rows[0].entry, l.rows[0].down, l.rows[0].drop, l.rows[1].entry, l.rows[1].up, l.rows[1].drop}
	c.Focus(l.rows[0].entry)
	for i, o := range want[1:] {
		c.FocusNext()
		if c.Focused() != o {
			t.Fatalf("Tab %d reached %T, want %T", i+1, c.Focused(), o)
		}
	}
	c.FocusNext()
	if b, ok := c.Focused().(*kit.Button); !ok || b.Text != "Add a line" {
		t.Fatalf("after the last line Tab reached %T", c.Focused())
	}
	// Space on a focused button moves its line, and the keyboard moves
	// with it.
	c.Focus(l.rows[1].up)
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	if got := strings.Join(texts(l), "|"); got != "b|a" || c.Focused() != l.rows[0].up {
		t.Fatalf("after moving up: %q, focus on %T", got, c.Focused())
	}
}

func texts(l *listEditor) []string {
	out := make([]string, len(l.rows))
	for i, r := range l.rows {
		out[i] = r.entry.Text
	}
	return out
}

func TestADateIsTypedOrPickedAndSentAsYearMonthDay(t *testing.T) {
	f, rec := withQuestions(t, `{"type":"date","name":"due","required":true}`)
	d := f.open(t, "119")
	fillRequired(d)
	fl := d.form.byName["due"]
	e := fl.input.(*dateField)

	test.Type(e, "next week")
	refused(t, f, d, rec, "due", "Please enter a date")

	// Typed the way the user writes dates.
	e.SetText("")
	test.Type(e, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC).Format(e.layout))
	if fl.err.Visible() {
		t.Fatal("the note stays after the date was typed again")
	}
	runAndWait(t, f, d, rec)
	if got := rec.answer(t, "due"); got != `"2026-12-01"` {
		t.Fatalf("due sent as %s", got)
	}

	// Typed as the service writes them.
	e.SetText("")
	test.Type(e, "2027-01-31")
	runAndWait(t, f, d, rec)
	if got := rec.answer(t, "due"); got != `"2027-01-31"` {
		t.Fatalf("due sent as %s", got)
	}

	// Picked from the calendar: the 15th of the month it opens on.
	e.SetText("")
	now := time.Now()
	test.Tap(e.ActionItem.(*widget.Button))
	day := kittest.FindButton(f.w.Canvas().Overlays().Top(), "15")
	if day == nil {
		t.Fatal("the calendar shows no 15th")
	}
	test.Tap(day)
	want := time.Date(now.Year(), now.Month(), 15, 0, 0, 0, 0, time.UTC).Format(app.DateLayout)
	runAndWait(t, f, d, rec)
	if got := rec.answer(t, "due"); got != `"`+want+`"` {
		t.Fatalf("due sent as %s, want %s", got, want)
	}
}

func TestAYesOrNoIsSentAsTrueOrFalse(t *testing.T) {
	f, rec := withQuestions(t, `{"type":"boolean","name":"urgent"}`)
	d := f.open(t, "119")
	fillRequired(d)
	check := d.form.byName["urgent"].input.(*kit.Check)
	runAndWait(t, f, d, rec)
	if got := rec.answer(t, "urgent"); got != "false" {
		t.Fatalf("an unticked box sent as %s", got)
	}
	test.Tap(check)
	runAndWait(t, f, d, rec)
	if got := rec.answer(t, "urgent"); got != "true" {
		t.Fatalf("a ticked box sent as %s", got)
	}
}

func TestTextAndTextareaAreSentAsWritten(t *testing.T) {
	f, rec := withQuestions(t,
		`{"type":"text","name":"subject","required":true,"placeholder":"For example: Office closed"}`,
		`{"type":"textarea","name":"notes"}`)
	d := f.open(t, "119")
	fillRequired(d)
	subject := d.form.byName["subject"].input.(*kit.FormEntry)
	if subject.PlaceHolder != "For example: Office closed" {
		t.Fatalf("the agent's placeholder is not shown: %q", subject.PlaceHolder)
	}
	notes := d.form.byName["notes"].input.(*kit.FormEntry)
	if !notes.MultiLine || !subject.MultiLine {
		t.Fatal("text questions take several lines")
	}
	test.Type(subject, "Closed on Friday")
	test.Type(notes, "Line one")
	notes.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	test.Type(notes, "Line two")
	runAndWait(t, f, d, rec)
	if got := rec.answer(t, "subject"); got != `"Closed on Friday"` {
		t.Fatalf("subject sent as %s", got)
	}
	if got := rec.answer(t, "notes"); got != `"Line one\nLine two"` {
		t.Fatalf("notes sent as %s", got)
	}
}

func TestSeveralChoicesAreSentAsAList(t *testing.T) {
	f, rec := withQuestions(t, `{"type":"multiselect","name":"channels","description":"Print, Web, Social media, Email","required":true}`)
	d := f.open(t, "119")
	fillRequired(d)
	fl := d.form.byName["channels"]
	if fl.help != nil {
		t.Fatalf("the choices show again as help: %q", fl.help.Text)
	}
	group := kittest.Find[*kit.CheckGroup](fl.input)
	if strings.Join(group.Options(), "|") != "Print|Web|Social media|Email" {
		t.Fatalf("the choices are %q", group.Options())
	}
	refused(t, f, d, rec, "channels", "Please choose at least one.")
	for _, o := range kittest.Children(test.WidgetRenderer(group).Objects()[0]) {
		if c, ok := o.(*kit.Check); ok && (c.Text == "Email" || c.Text == "Web") {
			test.Tap(c)
		}
	}
	runAndWait(t, f, d, rec)
	if got := rec.answer(t, "channels"); got != `["Web","Email"]` {
		t.Fatalf("channels sent as %s", got)
	}
}

func TestAnObjectIsCheckedAndSentAsAnObject(t *testing.T) {
	f, rec := withQuestions(t, `{"type":"object","name":"settings","required":true}`)
	d := f.open(t, "119")
	fillRequired(d)
	e := d.form.byName["settings"].input.(*kit.FormEntry)
	test.Type(e, "city Lisbon")
	refused(t, f, d, rec, "settings", "curly brackets")
	e.SetText("")
	test.Type(e, `{"city": "Lisbon", "days": 3}`)
	runAndWait(t, f, d, rec)
	if got := rec.answer(t, "settings"); got != `{"city":"Lisbon","days":3}` {
		t.Fatalf("settings sent as %s", got)
	}
}

func TestAnUnknownTypeIsALineOfText(t *testing.T) {
	f, rec := withQuestions(t, `{"type":"color","name":"brand_color","required":true}`)
	d := f.open(t, "119")
	fillRequired(d)
	e := d.form.byName["brand_color"].input.(*kit.FormEntry)
	if !strings.Contains(e.PlaceHolder, "color") {
		t.Fatalf("the placeholder %q does not name what is asked", e.PlaceHolder)
	}
	test.Type(e, "#0055AA")
	runAndWait(t, f, d, rec)
	if got := rec.answer(t, "brand_color"); got != `"#0055AA"` {
		t.Fatalf("brand_color sent as %s", got)
	}
}

// An agent's default fills a question that has no remembered answer; a
// remembered answer wins the next time.
func TestDefaultsFillTheFormUntilAnAnswerIsRemembered(t *testing.T) {
	f, rec := withQuestions(t,
		`{"type":"number","name":"copies","default":3}`,
		`{"type":"multiselect","name":"channels","options":["Print","Web"],"default":["Web"]}`,
		`{"type":"textarea","name":"greeting","default":"Dear all,\u202e\nthanks"}`,
		`{"type":"boolean","name":"urgent","default":true}`)
	d := f.open(t, "119")
	fillRequired(d)
	got := d.form.answers()
	if got["copies"] != "3" || got["channels"] != `["Web"]` || got["greeting"] != "Dear all,\nthanks" || got["urgent"] != "true" {
		t.Fatalf("the defaults fill in %v", got)
	}
	d.form.byName["copies"].input.(*numberEntry).SetText("")
	test.Type(d.form.byName["copies"].input.(*numberEntry), "7")
	runAndWait(t, f, d, rec)
	if got := rec.answer(t, "copies"); got != "7" {
		t.Fatalf("copies sent as %s", got)
	}
	fm := newForm(d.agent, f.a.Agents().LastAnswers(d.agent), func() {}, nil)
	if got := fm.answers()["copies"]; got != "7" {
		t.Fatalf("the next form shows %q, want the remembered 7", got)
	}
}

// A file question takes a file dropped on the Run tab (before the general
// attachments), Run waits for its upload, and its id is sent.
func TestAFileIsDroppedUploadedAndSentAsItsID(t *testing.T) {
	f, rec := withQuestions(t, `{"type":"file","name":"document","description":"The document to work from.","required":true}`)
	var made []screen.Attachments
	f.nav.newAtt = func() screen.Attachments {
		at := files.NewAttachments(screen.Env{App: f.a, Window: f.w, Nav: f.nav})
		made = append(made, at)
		return at
	}
	d := f.open(t, "119")
	fillRequired(d)
	fl := d.form.byName["document"]
	if fl.att == nil || d.att == nil || fl.att == d.att {
		t.Fatal("the file question has no attachments of its own")
	}
	if kittest.FindButton(fl.input, "Choose file…") == nil {
		t.Fatal("the file question offers no Choose file…")
	}
	refused(t, f, d, rec, "document", "Please choose a file.")

	path := filepath.Join(t.TempDir(), "report.txt")
	if err := os.WriteFile(path, []byte("Quarterly figures"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := d.tabs.Selected().Content.(screen.DropTarget); !ok {
		t.Fatal("the Run tab does not take dropped files")
	}
	f.s.Dropped([]string{path})
	f.wait(t, "the upload", func() bool { return len(fl.att.FileIDs()) == 1 && !fl.att.Pending() })
	if len(d.att.FileIDs()) != 0 || d.att.Pending() {
		t.Fatal("the dropped file went to the general attachments too")
	}
	id := fl.att.FileIDs()[0]
	runAndWait(t, f, d, rec)
	if got := rec.answer(t, "document"); got != string(id) || !strings.ContainsAny(got[:1], "0123456789") {
		t.Fatalf("document sent as %s, want the file's id %s as a number", got, id)
	}
	// The question has its file: another drop goes with the run.
	f.s.Dropped([]string{path})
	f.wait(t, "the second upload", func() bool { return len(d.att.FileIDs()) == 1 })
	if len(fl.att.FileIDs()) != 1 {
		t.Fatal("the file question took a second file")
	}
	// A second file chosen for the question: the first one still goes,
	// and the form says so.
	fl.att.Dropped([]string{path})
	f.wait(t, "the third upload", func() bool { return len(fl.att.FileIDs()) == 2 })
	if !fl.oneFile.Visible() || d.form.answers()["document"] != string(id) {
		t.Fatalf("with two files the question answers %q", d.form.answers()["document"])
	}
}

// Run waits for a file question's upload.
func TestRunWaitsForAFileQuestionsUpload(t *testing.T) {
	f, rec := withQuestions(t, `{"type":"file","name":"document"}`)
	// The form's file question is made first, then the run's attachments.
	made := 0
	f.nav.newAtt = func() screen.Attachments {
		made++
		if made == 1 {
			return uploadingAttachments{&fakeAttachments{}}
		}
		return &fakeAttachments{}
	}
	d := f.open(t, "119")
	fillRequired(d)
	if d.att.Pending() || !d.form.byName["document"].att.Pending() {
		t.Fatal("the test's attachments are not as meant")
	}
	test.Tap(d.runBtn)
	f.q.Drain()
	if d.active != nil || rec.count() != 0 || !strings.Contains(d.formErr.Text, "still uploading") {
		t.Fatalf("Run went ahead while a file was uploading: %q", d.formErr.Text)
	}
}

type uploadingAttachments struct{ *fakeAttachments }

func (uploadingAttachments) Pending() bool { return true }

// Each field's note stands under that field, not under another.
func TestEachErrorStandsUnderItsOwnField(t *testing.T) {
	test.NewTempApp(t)
	agent := client.Agent{Type: client.AgentText, Questions: []client.Question{
		{Type: "number", Name: "minutes", Required: true, Extra: map[string]json.RawMessage{"min": json.RawMessage("5"), "max": json.RawMessage("120")}},
		{Type: "select", Name: "tone", Options: []string{"a", "b"}},
		{Type: "date", Name: "due", Required: true},
		{Type: "textarea", Name: "notes"},
	}}
	fm := newForm(agent, map[string]string{"minutes": "500", "due": "soon"}, func() {}, nil)
	w := test.NewTempWindow(t, fm.content)
	w.Resize(fyne.NewSize(600, 900))
	errs := app.CheckAnswers(agent, fm.answers())
	if len(errs) != 2 {
		t.Fatalf("errors %v", errs)
	}
	fm.showErrors(errs)
	w.Content().Refresh()
	drv := fyne.CurrentApp().Driver()
	top := func(o fyne.CanvasObject) float32 { return drv.AbsolutePositionForObject(o).Y }
	bottom := func(o fyne.CanvasObject) float32 { return top(o) + o.Size().Height }
	order := []string{"minutes", "tone", "due", "notes"}
	for i, name := range order {
		fl := fm.byName[name]
		if errs[name] == "" {
			if fl.err.Visible() {
				t.Fatalf("%s shows a note: %q", name, fl.err.Text)
			}
			continue
		}
		// The field's own words: a date's example as the field writes it.
		if want := fm.errorFor(fl, errs); !fl.err.Visible() || fl.err.Text != want {
			t.Fatalf("%s shows %q, want %q", name, fl.err.Text, want)
		}
		if top(fl.err) < bottom(fl.input) {
			t.Fatalf("%s's note stands above its field", name)
		}
		if i+1 < len(order) && bottom(fl.err) > top(fm.byName[order[i+1]].label) {
			t.Fatalf("%s's note stands below the next question's name", name)
		}
		if top(fl.input) < bottom(fl.label) {
			t.Fatalf("%s's field stands above its name", name)
		}
	}
	if !strings.Contains(fm.byName["minutes"].err.Text, "from 5 to 120") || !strings.Contains(fm.byName["due"].err.Text, "date") {
		t.Fatalf("the notes are swapped: minutes %q, due %q", fm.byName["minutes"].err.Text, fm.byName["due"].err.Text)
	}
}

// A name and help text of any length never widen the form; names are
// shown as text, one line, with a star when required, and the form says
// once what the star means.
func TestLongNamesAndChoicesNeverWidenTheForm(t *testing.T) {
	test.NewTempApp(t)
	long := strings.Repeat("Very long question name ", 20)
	agent := client.Agent{Type: client.AgentText, Questions: []client.Question{
		{Type: "textarea", Name: long + "\u202e\nexe", Required: true, Description: strings.Repeat("Help that goes on and on. ", 40)},
		{Type: "multiselect", Name: "pick", Options: []string{strings.Repeat("A choice that is very long ", 10), "short"}},
		{Type: "array", Name: "lines"},
		{Type: "date", Name: "due"},
		{Type: "object", Name: "settings"},
		{Type: strings.Repeat("strange", 30), Name: "odd"},
	}}
	fm := newForm(agent, nil, func() {}, nil)
	if w := fm.content.MinSize().Width; w > 400 {
		t.Fatalf("the form asks for %v wide", w)
	}
	label := fm.fields[0].label
	if label.Truncation != fyne.TextTruncateEllipsis || strings.ContainsAny(label.Text, "\u202e\n") || !strings.HasSuffix(label.Text, " *") {
		t.Fatalf("the name shows as %q", label.Text)
	}
	if !strings.Contains(kittest.Labels(fm.content), requiredNote()) {
		t.Fatal("the form does not say what the star means")
	}
	if fm := newForm(client.Agent{Questions: []client.Question{{Type: "text", Name: "x"}}}, nil, func() {}, nil); strings.Contains(kittest.Labels(fm.content), requiredNote()) {
		t.Fatal("a form without required questions explains the star")
	}
}

// Run, Cancel and the line that says what to fix stay in sight under a
// long description and a long form, at the smallest window.
func TestRunStaysInSightWhateverTheLengthOfTheForm(t *testing.T) {
	var qs []string
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"} {
		qs = append(qs, `{"type":"textarea","name":"note_`+n+`","required":true,"description":"`+strings.Repeat("Explained at length. ", 20)+`"}`)
	}
	about := "## What it does\n\n" + strings.Repeat("- writes **one** more line of the description\n", 60)
	f, _ := withAbout(t, about, qs...)
	f.w.Resize(fyne.NewSize(800, 600))
	d := f.open(t, "119")
	more := kittest.FindButton(d.content, "Show more")
	if more == nil {
		t.Fatal("the long description offers no Show more")
	}
	test.Tap(more)
	f.q.Drain()
	test.Tap(d.runBtn)
	f.q.Drain()
	// Lay the window out again from the top, as a frame would.
	f.w.Resize(fyne.NewSize(800, 601))
	f.w.Resize(fyne.NewSize(800, 600))
	if min := f.w.Content().MinSize(); min.Height > 600 || min.Width > 800 {
		t.Fatalf("the screen asks for %v, more than the window", min)
	}
	drv := fyne.CurrentApp().Driver()
	h := f.w.Canvas().Size().Height
	for name, o := range map[string]fyne.CanvasObject{"Run": d.runBtn, "the line by Run": d.formErr} {
		if !o.Visible() {
			t.Fatalf("%s is hidden", name)
		}
		if pos := drv.AbsolutePositionForObject(o); pos.Y+o.Size().Height > h || o.Size().Height <= 0 {
			t.Fatalf("%s stands at %v (%v tall), below the window's %v", name, pos.Y, o.Size().Height, h)
		}
	}
	if !strings.HasPrefix(d.formErr.Text, "Check ") {
		t.Fatalf("the line by Run says %q", d.formErr.Text)
	}
	if w := f.w.Canvas().Size().Width; w > 800 {
		t.Fatalf("the window grew to %v wide", w)
	}
}

// A choice the agent spells with spaces around it (or with characters that
// turn text around) is shown clean, told apart from one that looks alike,
// picked, sent as spelled, and picked again from a draft.
func TestChoicesAreShownCleanAndSentAsSpelled(t *testing.T) {
	f, rec := withQuestions(t,
		`{"type":"select","name":"region","required":true,"options":[" North ","South\u202e","South"]}`,
		`{"type":"multiselect","name":"channels","required":true,"options":[" Web ","Print"]}`)
	d := f.open(t, "119")
	fillRequired(d)
	sel := d.form.byName["region"].input.(*kit.Select)
	if strings.Join(sel.Options, "|") != "North|South|South (2)" {
		t.Fatalf("the select shows %q", sel.Options)
	}
	sel.SetSelectedIndex(0)
	group := kittest.Find[*kit.CheckGroup](d.form.byName["channels"].input)
	group.SetSelected([]string{"Web"})
	runAndWait(t, f, d, rec)
	if got := rec.answer(t, "region"); got != `" North "` {
		t.Fatalf("region sent as %s", got)
	}
	if got := rec.answer(t, "channels"); got != `[" Web "]` {
		t.Fatalf("channels sent as %s", got)
	}
	sel.SetSelectedIndex(1)
	if got := d.form.answers()["region"]; got != "South\u202e" {
		t.Fatalf("the second choice answers %q", got)
	}
	// The draft picks the same choices again.
	fm := newForm(d.agent, map[string]string{"region": " North ", "channels": `[" Web "]`}, func() {}, nil)
	defer fm.close()
	if got := fm.byName["region"].input.(*kit.Select).Selected; got != "North" {
		t.Fatalf("the draft's choice shows as %q", got)
	}
	if got := fm.answers(); got["region"] != " North " || got["channels"] != `[" Web "]` {
		t.Fatalf("the draft's answers are %q", got)
	}
}

// Re-opening a past run shows only what it answered: every other field is
// emptied, whatever its type, so nothing else is sent again.
func TestReopeningARunEmptiesWhatItDidNotAnswer(t *testing.T) {
	f, _ := withQuestions(t,
		`{"type":"select","name":"region","options":["North","South"]}`,
		`{"type":"number","name":"copies","default":3}`,
		`{"type":"boolean","name":"urgent","default":true}`,
		`{"type":"textarea","name":"notes"}`,
		`{"type":"object","name":"settings"}`,
		`{"type":"date","name":"due"}`,
		`{"type":"multiselect","name":"channels","options":["Print","Web"]}`,
		`{"type":"array","name":"items"}`,
		`{"type":"file","name":"document"}`,
		`{"type":"colour","name":"shade"}`)
	att := &fakeAttachments{}
	f.nav.newAtt = func() screen.Attachments { return att }
	d := f.open(t, "119")
	fillRequired(d)
	for name, v := range map[string]string{
		"region": "South", "notes": "Hello", "settings": `{"a": 1}`, "due": "2026-12-01",
		"channels": `["Web"]`, "items": `["one"]`, "shade": "teal",
	} {
		d.form.byName[name].set(v)
	}
	cleared := att.cleared
	d.form.setAnswers(map[string]string{"prompt": "Again", "notes": "Kept"})
	got := d.form.answers()
	want := map[string]string{"prompt": "Again", "notes": "Kept", "copies": "", "urgent": "false"}
	if len(got) != len(want) {
		t.Fatalf("after re-opening, the form answers %q; want %q", got, want)
	}
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			t.Fatalf("after re-opening, the form answers %q; want %q", got, want)
		}
	}
	if d.form.byName["region"].input.(*fyne.Container).Objects[0].(*kit.Select).Selected != "" {
		t.Fatal("the select still shows a choice")
	}
	if att.cleared == cleared {
		t.Fatal("the file question keeps its files")
	}
}

// A question with a default that the user empties stays empty: nothing is
// sent for it, and the next form does not fill the default in again.
func TestAClearedDefaultStaysCleared(t *testing.T) {
	f, rec := withQuestions(t,
		`{"type":"number","name":"copies","default":3}`,
		`{"type":"select","name":"region","options":["North","South"],"default":"South"}`)
	d := f.open(t, "119")
	fillRequired(d)
	d.form.byName["copies"].input.(*numberEntry).SetText("")
	d.form.byName["region"].set("")
	runAndWait(t, f, d, rec)
	if got := rec.answer(t, "copies"); got != "" {
		t.Fatalf("copies sent as %s", got)
	}
	if got := rec.answer(t, "region"); got != "" {
		t.Fatalf("region sent as %s", got)
	}
	fm := newForm(d.agent, f.a.Agents().LastAnswers(d.agent), func() {}, nil)
	defer fm.close()
	if got := fm.answers(); got["copies"] != "" || got["region"] != "" {
		t.Fatalf("the next form fills in %q", got)
	}
}

// A number field takes the digits 0 to 9 only, and says why another
// script's digit was not typed in.
func TestANumberTakesOnlyTheDigitsZeroToNine(t *testing.T) {
	f, _ := withQuestions(t, `{"type":"number","name":"copies"}`)
	d := f.open(t, "119")
	fl := d.form.byName["copies"]
	num := fl.input.(*numberEntry)
	test.Type(num, "1٣")
	if num.Text != "1" || !strings.Contains(fl.err.Text, "0 to 9") || !strings.Contains(fl.err.Text, "٣") {
		t.Fatalf("an Arabic-Indic digit: text %q, note %q", num.Text, fl.err.Text)
	}
	test.Type(num, "２")
	if num.Text != "1" || !strings.Contains(fl.err.Text, "0 to 9") {
		t.Fatalf("a full-width digit: text %q, note %q", num.Text, fl.err.Text)
	}
	test.Type(num, "5")
	if num.Text != "15" {
		t.Fatalf("the text is %q", num.Text)
	}
}

// The note at a date that is none gives the example the field shows, as
// the field writes dates.
func TestADatesNoteGivesTheFieldsOwnExample(t *testing.T) {
	f, rec := withQuestions(t, `{"type":"date","name":"due","required":true}`)
	d := f.open(t, "119")
	fillRequired(d)
	e := d.form.byName["due"].input.(*dateField)
	e.layout = "02/01/2006"
	test.Type(e, "soon")
	refused(t, f, d, rec, "due", "for example 25/11/2026,")
	if note := d.form.byName["due"].err.Text; strings.Contains(note, "2026-11-25") || !strings.Contains(e.example(), "25/11/2026") {
		t.Fatalf("the note %q and the example %q differ", note, e.example())
	}
}

// Where files cannot be added, a required file question says it cannot be
// answered (the app's files screen always makes attachments).
func TestARequiredFileWithoutAttachmentsSaysWhy(t *testing.T) {
	f, _ := withQuestions(t, `{"type":"file","name":"document","required":true}`)
	d := f.open(t, "119")
	if got := kittest.Labels(d.form.byName["document"].input); !strings.Contains(got, "can't be answered") {
		t.Fatalf("the file question says %q", got)
	}
}

// Space on the focused Run button starts no run (a run costs credits);
// Ctrl+Enter, which the window gives the screen wherever the keyboard is
// but in a field, runs once; and nothing when the Run tab is not the one
// shown.
func TestSpaceOnRunStartsNothingAndCtrlEnterRunsOnce(t *testing.T) {
	f, rec := withQuestions(t, `{"type":"select","name":"region","required":true,"options":["North","South"]}`)
	d := f.open(t, "119")
	fillRequired(d)
	d.form.byName["region"].set("North")
	f.w.Canvas().Focus(d.runBtn)
	d.runBtn.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	if d.active != nil || rec.count() != 0 {
		t.Fatal("Space on the focused Run button started a run")
	}
	d.tabs.SelectIndex(1) // History
	f.s.Submit()
	if d.active != nil || rec.count() != 0 {
		t.Fatal("Ctrl+Enter ran the agent from its History tab")
	}
	d.tabs.SelectIndex(0)
	f.s.Submit()
	f.wait(t, "the run", func() bool { return rec.count() == 1 && d.active == nil })
	if n := rec.count(); n != 1 {
		t.Fatalf("Ctrl+Enter should send one run, the service got %d", n)
	}
}

// A form's choices read in plain words (a language by its name, a model by
// its product name) and send the service's own value.
func TestFormChoicesReadInPlainWords(t *testing.T) {
	test.NewTempApp(t)
	agent := client.Agent{Type: client.AgentText, Questions: []client.Question{
		{Type: client.QuestionSelect, Name: "language", Required: true, Options: []string{"en", "de", "pt-BR"}},
		{Type: client.QuestionSelect, Name: "model", Required: true, Options: []string{"gpt-4o", "claude-3-5-sonnet-20240620"}},
	}}
	fm := newForm(agent, nil, func() {}, nil)
	test.NewTempWindow(t, fm.content)
	lang := fm.byName["language"].input.(*kit.Select)
	model := fm.byName["model"].input.(*kit.Select)
	if !slices.Equal(lang.Options, []string{"English", "German", "Brazilian Portuguese"}) {
		t.Fatalf("the languages read %v", lang.Options)
	}
	if !slices.Equal(model.Options, []string{"GPT-4o", "Claude 3.5 Sonnet (June 2024)"}) {
		t.Fatalf("the models read %v", model.Options)
	}
	if got := kittest.Labels(fm.content); !strings.Contains(got, "Language") {
		t.Fatalf("the question's label: %s", got)
	}
	lang.SetSelected("German")
	model.SetSelected("Claude 3.5 Sonnet (June 2024)")
	if a := fm.answers(); a["language"] != "de" || a["model"] != "claude-3-5-sonnet-20240620" {
		t.Fatalf("the form sends %v, want the service's own values", a)
	}
}
