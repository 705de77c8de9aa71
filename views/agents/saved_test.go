package agents

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
)

// saveFor keeps answers for agent id of the fixture's account under name;
// change, when given, edits the agent first (as it was when saved).
func saveFor(t *testing.T, f *fixture, id client.ID, name string, answers map[string]string, change ...func(*client.Agent)) app.SavedAnswer {
	t.Helper()
	ctx := context.Background()
	agent, err := f.a.Agents().Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range change {
		c(agent)
	}
	s, err := f.a.SavedAnswers().Save(ctx, *agent, name, answers, false)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// casualTone is agent 119 as it was when it still offered a casual tone.
func casualTone(a *client.Agent) {
	q := a.Question("tone")
	q.Options = append(slices.Clone(q.Options), "casual")
}

// showSaved opens the agent's saved answers and waits for them to be read.
func showSaved(t *testing.T, f *fixture, d *detail) *savedPanel {
	t.Helper()
	test.Tap(d.savedBtn)
	f.wait(t, "the saved answers read", func() bool { return d.saved != nil && d.saved.placed })
	return d.saved
}

// chooseSaved chooses the saved answer called name in the dialog.
func chooseSaved(t *testing.T, p *savedPanel, name string) {
	t.Helper()
	i := slices.IndexFunc(p.items, func(s app.SavedAnswer) bool { return s.Name == name })
	if i < 0 {
		t.Fatalf("no saved answer %q among %d", name, len(p.items))
	}
	p.rows.Select(i)
}

// Keyboard only: on the agent's Run tab, Tab reaches Saved answers…, Space
// opens them with the keyboard on the list; Down and Space choose one, Tab
// reaches Run and Enter runs it: the dialog closes, the form shows the
// answers run and the result shows.
func TestASavedAnswerRunsByKeyboard(t *testing.T) {
	f := newFixture(t, 0)
	lunch := saveFor(t, f, "119", "Lunch note", map[string]string{"prompt": "A note inviting the team to lunch on Friday", "tone": "friendly", "length": "80"})
	saveFor(t, f, "119", "Board letter", map[string]string{"prompt": "A letter to the board", "tone": "formal"})
	d := f.open(t, "119")
	c := f.w.Canvas()
	c.Focus(firstInput(d))
	for i := 0; i < 40 && c.Focused() != fyne.Focusable(d.savedBtn); i++ {
		c.FocusNext()
	}
	if c.Focused() != fyne.Focusable(d.savedBtn) {
		t.Fatal("Tab never reaches Saved answers…")
	}
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	f.wait(t, "the saved answers, the keyboard on them", func() bool {
		return d.saved != nil && len(d.saved.items) == 2 && c.Focused() == fyne.Focusable(d.saved.rows)
	})
	p := d.saved
	if p.items[0].Name != "Board letter" || p.chosen != p.items[0].ID {
		t.Fatalf("the one saved last should come first, chosen: %+v", p.items)
	}
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	if p.chosen != lunch.ID || p.note.Visible() {
		t.Fatalf("Down and Space should choose the lunch note, which fits: chosen %d, note %q", p.chosen, p.note.Text)
	}
	for i := 0; i < 10 && c.Focused() != fyne.Focusable(p.run); i++ {
		c.FocusNext()
	}
	if c.Focused() != fyne.Focusable(p.run) {
		t.Fatal("Tab never reaches Run")
	}
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	f.wait(t, "the result", func() bool { return d.active == nil && d.output.run.Output != "" })
	if c.Overlays().Top() != nil {
		t.Fatal("the saved answers stay open over the result")
	}
	if got := d.output.run.Inputs; !maps.Equal(got, lunch.Answers) {
		t.Fatalf("the run sent %v, want the lunch note's %v", got, lunch.Answers)
	}
	if got := d.form.answers(); got["tone"] != "friendly" || got["prompt"] != lunch.Answers["prompt"] {
		t.Fatalf("the form should show the answers run, shows %v", got)
	}
	if n := len(apptest.Demo(f.a).Service.Executions()); n != 1 {
		t.Fatalf("the service ran %d executions, want 1", n)
	}
}

// The command box's way in: RunSaved opens the agent and runs its saved
// answer as Run would; one that no longer fits opens instead, the notes
// under the questions saying what to change, and nothing is sent.
func TestRunSavedOpensTheAgentAndRunsIt(t *testing.T) {
	f := newFixture(t, 0)
	lunch := saveFor(t, f, "119", "Lunch note", map[string]string{"prompt": "A note inviting the team to lunch on Friday", "tone": "friendly"})
	casual := saveFor(t, f, "119", "Casual", map[string]string{"prompt": "A note", "tone": "casual", "audience": "Staff"}, casualTone)
	item := app.AgentItem{ID: "119", Title: "Newsletter Writer", Type: client.AgentText}
	f.s.RunSaved(item, lunch.ID)
	d := f.s.current
	f.wait(t, "the run's result", func() bool { return d.loaded && d.active == nil && d.output.run.Output != "" })
	if got := d.output.run.Inputs; !maps.Equal(got, lunch.Answers) {
		t.Fatalf("the run sent %v", got)
	}
	if d.tabs.Selected() != d.runTab {
		t.Fatal("the Run tab should show the result")
	}

	f.s.RunSaved(item, casual.ID)
	f.wait(t, "the saved answer opened", func() bool { return d.form.byName["tone"].err.Visible() })
	if got := d.form.byName["tone"].err.Text; got != "“Tone” now offers Neutral, Friendly, Formal, Persuasive; the saved answer says Casual." {
		t.Fatalf("the note at Tone reads %q", got)
	}
	if got := d.formErr.Text; !strings.Contains(got, "“Audience” is no longer asked, so its saved answer, “Staff”, is left out.") {
		t.Fatalf("the line under the form reads %q", got)
	}
	if got := d.form.answers(); got["tone"] != "" || got["prompt"] != "A note" {
		t.Fatalf("Open should fill what still fits: %v", got)
	}
	if n := len(apptest.Demo(f.a).Service.Executions()); n != 1 {
		t.Fatalf("a saved answer that no longer fits was sent: %d executions", n)
	}
}

// A file for a colleague comes back in: one of this agent is listed and
// chosen, one whose name is taken asks before replacing, one of another
// agent is kept for that agent and said so.
func TestAnImportedSavedAnswerIsListed(t *testing.T) {
	f := newFixture(t, 0)
	d := f.open(t, "119")
	p := showSaved(t, f, d)
	dir := t.TempDir()
	write := func(name string, s app.SavedAnswer) string {
		data, err := f.a.SavedAnswers().Export(s)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	mine := write("mine.json", app.SavedAnswer{AgentID: "119", AgentTitle: "Newsletter Writer", Name: "From Ana", Answers: map[string]string{"prompt": "Hello", "tone": "formal"}})
	p.importFile(mine, false)
	f.wait(t, "the import listed", func() bool { return len(p.items) == 1 && p.chosen == p.items[0].ID })
	c := f.w.Canvas()
	again := write("again.json", app.SavedAnswer{AgentID: "119", Name: "from ana", Answers: map[string]string{"prompt": "Hello", "tone": "friendly"}})
	p.importFile(again, false)
	f.wait(t, "the question", func() bool {
		return strings.Contains(kittest.AllText(c.Overlays().Top()), "Replace it with the one in the file?")
	})
	test.Tap(kittest.FindButton(c.Overlays().Top(), "Replace"))
	f.wait(t, "the saved answer replaced", func() bool {
		return len(p.items) == 1 && p.items[0].Answers["tone"] == "friendly" && p.items[0].Name == "from ana"
	})

	other := write("other.json", app.SavedAnswer{AgentID: "120", AgentTitle: "Product Description Writer", Name: "For 120", Answers: map[string]string{}})
	p.importFile(other, false)
	f.wait(t, "the word on it", func() bool {
		return strings.Contains(kittest.AllText(c.Overlays().Top()), "“For 120” was saved for the agent Product Description Writer. Open that agent to run it.")
	})
	if len(p.items) != 1 {
		t.Fatalf("another agent's saved answer is listed here: %+v", p.items)
	}
}

// The saved answers' dialog and the Run tab under it lay out after each
// action: none yet, naming the answers, saved, what no longer fits shown,
// opened with the notes under the questions, deleted.
func TestSavedAnswersLayOutAfterEachAction(t *testing.T) {
	kittest.EachLanguage(t, apptest.Speak, func(t *testing.T, size fyne.Size) {
		f := newFixture(t, 0)
		w := f.w
		c := w.Canvas()
		w.SetContent(container.NewStack(f.s.Content(), kit.NewLayer(c)))
		w.Resize(size)
		frames := kittest.NewFrames(c)
		d := f.open(t, "119")
		fillRequired(d)
		kittest.Look(t, frames, f.q, w, "the Run tab with Saved answers…")
		p := showSaved(t, f, d)
		kittest.Look(t, frames, f.q, w, "no saved answers yet")

		test.Tap(p.save)
		ask := c.Overlays().Top()
		test.Type(kittest.Find[*kit.FormEntry](ask), "Lunch note")
		kittest.Look(t, frames, f.q, w, "naming the answers")
		kit.DialogKey(c, fyne.KeyReturn) // Enter saves
		f.wait(t, "the answers saved", func() bool { return len(p.items) == 1 && c.Overlays().Top() != ask })
		if p.items[0].Name != "Lunch note" || p.items[0].Answers["tone"] != "formal" {
			t.Fatalf("saved %+v", p.items[0])
		}
		kittest.Look(t, frames, f.q, w, "saved")

		saveFor(t, f, "119", "Casual", map[string]string{"prompt": "A note", "tone": "casual", "audience": "Staff"}, casualTone)
		p.list.Reload()
		f.wait(t, "both listed", func() bool { return len(p.items) == 2 })
		chooseSaved(t, p, "Casual")
		if !p.note.Visible() || !strings.Contains(p.note.Text, "Audience") || !p.run.Disabled() || p.open.Disabled() {
			t.Fatalf("what no longer fits, before Run: %q (Run disabled %v)", p.note.Text, p.run.Disabled())
		}
		kittest.Look(t, frames, f.q, w, "what no longer fits shown")

		test.Tap(p.open)
		if c.Overlays().Top() != nil || !d.form.byName["tone"].err.Visible() {
			t.Fatal("Open should close the dialog and say under Tone what to change")
		}
		kittest.Look(t, frames, f.q, w, "opened, the notes under the questions")

		p = showSaved(t, f, d)
		chooseSaved(t, p, "Casual")
		list := c.Overlays().Top()
		test.Tap(p.del)
		f.wait(t, "the question", func() bool { return c.Overlays().Top() != list })
		kittest.Look(t, frames, f.q, w, "asked to delete")
		test.Tap(kittest.FindButton(c.Overlays().Top(), lang.L("Delete")))
		f.wait(t, "deleted", func() bool { return c.Overlays().Top() == list && len(p.items) == 1 })
		kittest.Look(t, frames, f.q, w, "deleted")
	})
}
