package kit_test

import (
	"errors"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
)

// press types a key where no field has the keyboard.
func press(w fyne.Window, key fyne.KeyName) {
	w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: key})
}

func TestEnterConfirmsAndEscCancelsADialog(t *testing.T) {
	for _, tc := range []struct {
		key  fyne.KeyName
		want string
	}{{fyne.KeyReturn, "yes"}, {fyne.KeyEnter, "yes"}, {fyne.KeyEscape, "no"}} {
		w := kittest.DialogWindow(t)
		got := ""
		d := dialog.NewConfirm("Upload many files?", "12 files will be uploaded.", func(ok bool) {
			got = map[bool]string{true: "yes", false: "no"}[ok]
		}, w)
		kit.ShowDialog(d, w)
		press(w, tc.key)
		if got != tc.want || w.Canvas().Overlays().Top() != nil {
			t.Errorf("%s: answered %q (want %q), dialog still open: %v", tc.key, got, tc.want, w.Canvas().Overlays().Top() != nil)
		}
	}
}

func TestEnterAndEscCloseAnInformation(t *testing.T) {
	for _, key := range []fyne.KeyName{fyne.KeyReturn, fyne.KeyEscape} {
		w := kittest.DialogWindow(t)
		kit.ShowInformation("Saved", "The file was saved.", w)
		press(w, key)
		if w.Canvas().Overlays().Top() != nil {
			t.Errorf("%s left the information open", key)
		}
	}
}

func TestEnterDoesNotConfirmADeletion(t *testing.T) {
	w := kittest.DialogWindow(t)
	answers := []bool{}
	d := dialog.NewConfirm("Delete this memory?", "This cannot be undone.", func(ok bool) { answers = append(answers, ok) }, w)
	kit.ShowDestructive(d, w)
	press(w, fyne.KeyReturn)
	if len(answers) != 0 || w.Canvas().Overlays().Top() == nil {
		t.Fatalf("Enter answered a deletion: %v", answers)
	}
	press(w, fyne.KeyEscape)
	if len(answers) != 1 || answers[0] || w.Canvas().Overlays().Top() != nil {
		t.Fatalf("Esc should cancel the deletion: %v", answers)
	}
}

func TestEnterInAFormsFieldSubmitsItOnlyWhenValid(t *testing.T) {
	w := kittest.DialogWindow(t)
	name := kit.NewFormEntry()
	name.Validator = func(s string) error {
		if s == "" {
			return errors.New("a name is needed")
		}
		return nil
	}
	created := []string{}
	d := dialog.NewForm("New collection", "Create", "Cancel", []*widget.FormItem{widget.NewFormItem("Name", name)}, func(ok bool) {
		if ok {
			created = append(created, name.Text)
		}
	}, w)
	kit.ShowDialog(d, w)
	w.Canvas().Focus(name)
	enter := &fyne.KeyEvent{Name: fyne.KeyReturn}
	w.Canvas().Focused().TypedKey(enter)
	if len(created) != 0 || w.Canvas().Overlays().Top() == nil {
		t.Fatalf("Enter submitted an empty name: %v", created)
	}
	test.Type(name, "Customer care")
	w.Canvas().Focused().TypedKey(enter)
	if len(created) != 1 || created[0] != "Customer care" || w.Canvas().Overlays().Top() != nil {
		t.Fatalf("Enter in the name should create it once and close: %v", created)
	}
}

func TestEscInAFieldClosesItsDialog(t *testing.T) {
	w := kittest.DialogWindow(t)
	text := kit.NewFormMultiLineEntry()
	answers := []bool{}
	d := dialog.NewCustomConfirm("Instructions", "Save", "Cancel", text, func(ok bool) { answers = append(answers, ok) }, w)
	text.OnCtrlEnter = d.Confirm
	kit.ShowDialog(d, w)
	w.Canvas().Focus(text)
	test.Type(text, "Be brief.")
	// Enter in a text of several lines is a new line, not Save.
	w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if len(answers) != 0 || text.Text != "Be brief.\n" {
		t.Fatalf("Enter in a text of several lines: answers %v, text %q", answers, text.Text)
	}
	w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if len(answers) != 1 || answers[0] || w.Canvas().Overlays().Top() != nil {
		t.Fatalf("Esc in the field should cancel the dialog: %v", answers)
	}
}

func TestNoKeyReachesTheScreenBehindAPopUp(t *testing.T) {
	w := kittest.DialogWindow(t)
	reached := 0
	w.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if kit.DialogKey(w.Canvas(), ev.Name) {
			return
		}
		reached++
	})
	widget.ShowModalPopUp(widget.NewLabel("Working…"), w.Canvas())
	press(w, fyne.KeyReturn)
	press(w, fyne.KeyEscape)
	if reached != 0 || w.Canvas().Overlays().Top() == nil {
		t.Fatalf("keys with a pop-up open reached the screen %d times, or closed it without its buttons", reached)
	}
	w.Canvas().Overlays().Top().Hide()
	press(w, fyne.KeyEscape)
	if reached != 1 {
		t.Fatal("with nothing open, Esc is the screen's")
	}
}

// Esc and F1 on a Run or Send button (which ignores Space) reach the
// window: Esc cancels the run the button started.
func TestEscOnAPaidButtonReachesTheWindow(t *testing.T) {
	w := kittest.DialogWindow(t)
	var keys []fyne.KeyName
	w.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) { keys = append(keys, ev.Name) })
	runs := 0
	b := kit.NewPaidButton("Run", nil, func() { runs++ })
	w.SetContent(b)
	for _, k := range []fyne.KeyName{fyne.KeySpace, fyne.KeyEscape, fyne.KeyF1} {
		b.TypedKey(&fyne.KeyEvent{Name: k})
	}
	if runs != 0 || len(keys) != 2 || keys[0] != fyne.KeyEscape || keys[1] != fyne.KeyF1 {
		t.Fatalf("Space ran %d times; the window got %v, want Esc and F1", runs, keys)
	}
}

// Esc in a search clears it first; in an empty search it goes on to the
// window (closing the dialog the search is in).
func TestEscClearsASearchBeforeItClosesItsDialog(t *testing.T) {
	w := kittest.DialogWindow(t)
	search := kit.NewSearchEntry()
	closed := 0
	d := dialog.NewCustom("New chat", "Cancel", search, w)
	d.SetOnClosed(func() { closed++ })
	kit.ShowDialog(d, w)
	w.Canvas().Focus(search)
	test.Type(search, "meeting")
	esc := &fyne.KeyEvent{Name: fyne.KeyEscape}
	search.TypedKey(esc)
	if search.Text != "" || closed != 0 {
		t.Fatalf("the first Esc should clear the search (%q) and leave the dialog open (closed %d)", search.Text, closed)
	}
	search.TypedKey(esc)
	if closed != 1 {
		t.Fatal("Esc in an empty search should close its dialog")
	}
}

// Every button of a dialog, Fyne's confirm and form dialogs included,
// shows the focus ring when Tab gives it the keyboard; a form's submit
// button is enabled only while its fields pass their checks, and Enter
// submits only then.
func TestADialogsButtonsShowTheFocusRing(t *testing.T) {
	w := kittest.DialogWindow(t)
	d := dialog.NewConfirm("Upload many files?", "12 files will be uploaded.", func(bool) {}, w)
	d.SetConfirmText("Upload")
	kit.ShowDialog(d, w)
	seen := map[string]bool{}
	for range 4 {
		w.Canvas().FocusNext()
		b, ok := w.Canvas().Focused().(*kit.Button)
		if !ok {
			t.Fatalf("Tab reached %T, not a button with a ring", w.Canvas().Focused())
		}
		if !ringShows(ringOf(b)) {
			t.Fatalf("%q has the keyboard and shows no ring", b.Text)
		}
		seen[b.Text] = true
	}
	if !seen["Upload"] || !seen["No"] {
		t.Fatalf("Tab reached %v, want both buttons", seen)
	}

	w = kittest.DialogWindow(t)
	name := widget.NewEntry()
	name.Validator = func(s string) error {
		if s == "" {
			return errors.New("a name is needed")
		}
		return nil
	}
	submitted := 0
	f := dialog.NewForm("New collection", "Create", "Cancel",
		[]*widget.FormItem{widget.NewFormItem("Name", name)}, func(ok bool) {
			if ok {
				submitted++
			}
		}, w)
	kit.ShowDialog(f, w)
	create := findButton(w, "Create")
	if create == nil || !create.Disabled() {
		t.Fatalf("the form's Create button is %v, want a ringed button, disabled while the name is empty", create)
	}
	press(w, fyne.KeyReturn)
	if submitted != 0 {
		t.Fatal("Enter submitted a form whose name is empty")
	}
	test.Type(name, "Invoices")
	if create.Disabled() {
		t.Fatal("Create stayed disabled with a name typed")
	}
	w.Canvas().Focus(create)
	if !ringShows(ringOf(create)) {
		t.Fatal("Create has the keyboard and shows no ring")
	}
	press(w, fyne.KeyReturn)
	if submitted != 1 {
		t.Fatalf("Enter with a name submitted %d times, want 1", submitted)
	}
}

// findButton is the button of Agent Desk's own labelled text in the
// dialog on w.
func findButton(w fyne.Window, text string) *kit.Button {
	var found *kit.Button
	walkTree(w.Canvas().Overlays().Top(), func(o fyne.CanvasObject) bool {
		if b, ok := o.(*kit.Button); ok && b.Text == text {
			found = b
		}
		return found == nil
	})
	return found
}

// walkTree visits o and what it shows, depth first, while visit says go
// on.
func walkTree(o fyne.CanvasObject, visit func(fyne.CanvasObject) bool) bool {
	if o == nil || !visit(o) {
		return false
	}
	var children []fyne.CanvasObject
	switch o := o.(type) {
	case *fyne.Container:
		children = o.Objects
	case fyne.Widget:
		children = test.WidgetRenderer(o).Objects()
	}
	for _, c := range children {
		if !walkTree(c, visit) {
			return false
		}
	}
	return true
}
