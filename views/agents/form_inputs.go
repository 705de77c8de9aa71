package agents

import (
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

// The inputs of the question types that need more than a widget.Entry:
// a date with its calendar, several choices, a list of lines.

// dateField is a date question: typed in the user's own way of writing a
// date (as Fyne's DateEntry shows it, 25/11/2026 in much of the world) or
// as 2026-11-25, or picked from the calendar behind its button. The
// answer is always 2026-11-25, as the service takes it; a date the field
// cannot read is kept as typed, for the form's check to refuse with a note
// at the field.
type dateField struct {
	widget.DateEntry
	layout string // how DateEntry writes a date here, a time layout
	// onText is told of every change of the text, typed or picked.
	onText func()
	// submit runs the form (Ctrl+Enter).
	submit func()
	caret  kit.Caret
}

// TypedShortcut runs the form on Ctrl+Enter and passes the window's
// shortcuts on (kit.FieldShortcut); other shortcuts are DateEntry's.
func (e *dateField) TypedShortcut(s fyne.Shortcut) {
	e.caret.Wake(&e.Entry)
	if !kit.FieldShortcut(e, s, e.submit) {
		e.DateEntry.TypedShortcut(s)
	}
}

// FocusGained scrolls the field into view.
func (e *dateField) FocusGained() {
	e.DateEntry.FocusGained()
	e.caret.Focus(&e.Entry)
	kit.ShowFocused(e)
}

// FocusLost lets the caret sleep (kit.Caret).
func (e *dateField) FocusLost() {
	e.caret.Sleep()
	e.DateEntry.FocusLost()
}

// TypedRune, KeyDown, Tapped and MouseDown wake the caret (kit.Caret).
func (e *dateField) TypedRune(r rune) {
	e.caret.Wake(&e.Entry)
	e.DateEntry.TypedRune(r)
}

func (e *dateField) KeyDown(ev *fyne.KeyEvent) {
	e.caret.Wake(&e.Entry)
	e.DateEntry.KeyDown(ev)
}

func (e *dateField) Tapped(ev *fyne.PointEvent) {
	e.DateEntry.Tapped(ev)
	e.caret.Wake(&e.Entry)
}

func (e *dateField) MouseDown(ev *desktop.MouseEvent) {
	e.DateEntry.MouseDown(ev)
	e.caret.Wake(&e.Entry)
}

func newDateField() *dateField {
	e := &dateField{layout: localDateLayout()}
	e.ExtendBaseWidget(e)
	e.Wrapping = fyne.TextWrap(fyne.TextTruncateClip)
	return e
}

// localDateLayout is the layout DateEntry writes dates in, for this
// machine's language: a date written by it from Go's reference date is
// that layout itself (DateEntry keeps its layout to itself).
var localDateLayout = sync.OnceValue(func() string {
	probe := widget.NewDateEntry()
	ref := time.Date(2006, 1, 2, 0, 0, 0, 0, time.UTC)
	probe.SetDate(&ref)
	if t, err := time.Parse(probe.Text, probe.Text); err != nil || !t.Equal(ref) {
		return app.DateLayout
	}
	return probe.Text
})

// CreateRenderer is DateEntry's, reading 2026-11-25 too, and telling of
// every change of the text (DateEntry tells only of dates it can read).
func (e *dateField) CreateRenderer() fyne.WidgetRenderer {
	r := e.DateEntry.CreateRenderer()
	e.Validator = func(s string) error {
		if strings.TrimSpace(s) == "" || e.parse(s) != nil {
			return nil
		}
		return errNotDate
	}
	inner := e.Entry.OnChanged
	e.Entry.OnChanged = func(s string) {
		if inner != nil {
			inner(s)
		}
		if e.onText != nil {
			e.onText()
		}
	}
	return r
}

// parse reads s as the user's way of writing a date or as 2026-11-25.
func (e *dateField) parse(s string) *time.Time {
	s = strings.TrimSpace(s)
	for _, l := range []string{app.DateLayout, e.layout} {
		if t, err := time.Parse(l, s); err == nil {
			return &t
		}
	}
	return nil
}

// answer is the date as the service takes it, or the text as typed when
// it is no date.
func (e *dateField) answer() string {
	s := strings.TrimSpace(e.Text)
	if s == "" {
		return ""
	}
	if t := e.parse(s); t != nil {
		return t.Format(app.DateLayout)
	}
	return s
}

// setAnswer shows an answer kept as 2026-11-25 the user's way.
func (e *dateField) setAnswer(v string) {
	if t, err := time.Parse(app.DateLayout, strings.TrimSpace(v)); err == nil {
		e.SetDate(&t)
		return
	}
	e.SetText(v)
}

// example is the placeholder: a date written the user's way, the one the
// note at the field gives too (app.DateMessage).
func (e *dateField) example() string {
	return lang.L("For example {{.Date}}", map[string]any{"Date": app.DateExample.Format(e.layout)})
}

type dateError struct{}

func (dateError) Error() string { return lang.L("Please enter a date.") }

var errNotDate error = dateError{}

// choiceMax is how many characters of a choice its check box shows.
const choiceMax = 100

// multiChoice is a multiselect question: a check box per choice, one under
// another. The choices come from the service: each is shown as plain text
// on one line, and however long, they never widen the window (the form
// cuts them off at its edge).
type multiChoice struct {
	group  *kit.CheckGroup
	values []string // the choices as the service sends them
	shown  []string // their check boxes' text, in the same order
	obj    fyne.CanvasObject
}

func newMultiChoice(q client.Question, choices []string, changed func()) *multiChoice {
	m := &multiChoice{values: choices, shown: screen.ChoiceLabels(q, choices, choiceMax)}
	m.group = kit.NewCheckGroup(m.shown, func([]string) { changed() })
	if len(choices) == 0 {
		note := widget.NewLabel(lang.L("There is nothing to choose from."))
		note.Importance = widget.LowImportance
		m.obj = note
		return m
	}
	m.obj = container.New(narrowLayout{}, m.group)
	return m
}

// answer is the chosen choices, in the order offered, as the form keeps a
// list.
func (m *multiChoice) answer() string {
	chosen := map[string]bool{}
	for _, s := range m.group.Selected {
		chosen[s] = true
	}
	var out []string
	for i, s := range m.shown {
		if chosen[s] {
			out = append(out, m.values[i])
		}
	}
	return app.JoinList(out)
}

// setAnswer ticks the choices named (those still offered).
func (m *multiChoice) setAnswer(items []string) {
	want := map[string]bool{}
	for _, v := range items {
		want[v] = true
	}
	var sel []string
	for i, v := range m.values {
		if want[v] {
			sel = append(sel, m.shown[i])
		}
	}
	m.group.SetSelected(sel)
}

// narrowLayout gives its objects all its room but asks for no width: what
// they show is cut off at the form's edge rather than widen the window.
type narrowLayout struct{}

func (narrowLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var h float32
	for _, o := range objs {
		if o.Visible() {
			h = max(h, o.MinSize().Height)
		}
	}
	return fyne.NewSize(0, h)
}

func (narrowLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

// listEditor is an array question: a line of text per item, each with
// buttons to move it up or down and to remove it, and "Add a line" under
// them. Tab goes through each line and its buttons in turn; Enter in a
// line adds the next one.
type listEditor struct {
	rows    []*listRow
	box     *fyne.Container
	add     *kit.Button
	obj     fyne.CanvasObject
	hint    string
	changed func()
	submit  func() // runs the form (Ctrl+Enter in a line)
}

// listRow is one line of a listEditor.
type listRow struct {
	entry          *kit.FormEntry
	up, down, drop *kit.Button
	obj            fyne.CanvasObject
}

func newListEditor(hint string, changed, submit func()) *listEditor {
	l := &listEditor{hint: hint, changed: changed, submit: submit, box: container.NewVBox()}
	l.add = kit.NewButtonWithIcon(lang.L("Add a line"), theme.ContentAddIcon(), func() { l.insert(len(l.rows), true) })
	l.obj = container.NewVBox(l.box, container.NewHBox(l.add))
	l.setItems(nil)
	return l
}

func (l *listEditor) newRow(text string) *listRow {
	r := &listRow{entry: kit.NewFormEntry()}
	r.entry.OnCtrlEnter = l.submit
	r.entry.SetPlaceHolder(l.hint)
	r.entry.SetText(text)
	r.entry.OnChanged = func(string) { l.changed() }
	r.entry.OnSubmitted = func(string) { l.insert(l.index(r)+1, true) }
	r.up = kit.NewButtonWithIcon("", theme.MoveUpIcon(), func() { l.move(r, -1) })
	r.up.Tip = lang.L("Move this line up")
	r.down = kit.NewButtonWithIcon("", theme.MoveDownIcon(), func() { l.move(r, 1) })
	r.down.Tip = lang.L("Move this line down")
	r.drop = kit.NewButtonWithIcon("", theme.DeleteIcon(), func() { l.remove(r) })
	r.drop.Tip = lang.L("Remove this line")
	for _, b := range []*kit.Button{r.up, r.down, r.drop} {
		b.Importance = widget.LowImportance
	}
	r.obj = container.NewBorder(nil, nil, nil, container.NewHBox(r.up, r.down, r.drop), r.entry)
	return r
}

func (l *listEditor) index(r *listRow) int {
	for i, x := range l.rows {
		if x == r {
			return i
		}
	}
	return -1
}

// insert adds an empty line at i, with the keyboard in it when focus.
func (l *listEditor) insert(i int, focus bool) {
	r := l.newRow("")
	i = max(0, min(i, len(l.rows)))
	l.rows = append(l.rows[:i], append([]*listRow{r}, l.rows[i:]...)...)
	l.show()
	if focus {
		l.focus(r.entry)
	}
}

// move moves a line up (by -1) or down (by 1); the keyboard stays on the
// button pressed, which moved with its line.
func (l *listEditor) move(r *listRow, by int) {
	i := l.index(r)
	j := i + by
	if i < 0 || j < 0 || j >= len(l.rows) {
		return
	}
	l.rows[i], l.rows[j] = l.rows[j], l.rows[i]
	l.show()
	l.changed()
}

// remove takes a line away; the keyboard goes to the line now in its
// place. The last line is emptied rather than removed, so there is always
// somewhere to type.
func (l *listEditor) remove(r *listRow) {
	i := l.index(r)
	if i < 0 {
		return
	}
	l.rows = append(l.rows[:i], l.rows[i+1:]...)
	if len(l.rows) == 0 {
		l.rows = []*listRow{l.newRow("")}
	}
	l.show()
	l.focus(l.rows[min(i, len(l.rows)-1)].entry)
	l.changed()
}

// show lays the lines out in order; the first cannot go up, the last
// cannot go down.
func (l *listEditor) show() {
	objs := make([]fyne.CanvasObject, len(l.rows))
	for i, r := range l.rows {
		objs[i] = r.obj
		if i == 0 {
			r.up.Disable()
		} else {
			r.up.Enable()
		}
		if i == len(l.rows)-1 {
			r.down.Disable()
		} else {
			r.down.Enable()
		}
	}
	l.box.Objects = objs
	l.box.Refresh()
}

// focus gives the keyboard to o, when the editor is on a window.
func (l *listEditor) focus(o fyne.Focusable) {
	if fa := fyne.CurrentApp(); fa != nil {
		if c := fa.Driver().CanvasForObject(l.add); c != nil {
			c.Focus(o)
		}
	}
}

// answer is the lines that have text, in order, as the form keeps a list.
func (l *listEditor) answer() string {
	var items []string
	for _, r := range l.rows {
		if s := strings.TrimSpace(r.entry.Text); s != "" {
			items = append(items, s)
		}
	}
	return app.JoinList(items)
}

// setItems shows items, a line each (one empty line for none).
func (l *listEditor) setItems(items []string) {
	l.rows = l.rows[:0]
	for _, s := range items {
		l.rows = append(l.rows, l.newRow(s))
	}
	if len(l.rows) == 0 {
		l.rows = append(l.rows, l.newRow(""))
	}
	l.show()
}
