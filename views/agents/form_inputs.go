package agents

import (
	"slices"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

// dateField is a date typed the user's way or as 2026-11-25, or picked. The
// answer is always 2026-11-25; an unreadable date is kept for the check to refuse.
type dateField struct {
	kit.FormEntry
	layout string // how Fyne's DateEntry writes a date here, a time layout
	cal    *widget.Calendar
	popUp  *widget.PopUp
}

func newDateField() *dateField {
	e := &dateField{layout: localDateLayout()}
	e.ExtendBaseWidget(e)
	e.Wrapping = fyne.TextWrap(fyne.TextTruncateClip)
	e.Validator = func(s string) error {
		if strings.TrimSpace(s) == "" || e.parse(s) != nil {
			return nil
		}
		return errNotDate
	}
	pick := widget.NewButtonWithIcon("", theme.CalendarIcon(), e.showCalendar)
	pick.Importance = widget.LowImportance
	e.ActionItem = pick
	return e
}

// showCalendar drops a month's calendar under the field, as DateEntry does.
func (e *dateField) showCalendar() {
	if e.cal == nil {
		e.cal = widget.NewCalendar(time.Now(), func(t time.Time) {
			e.popUp.Hide()
			e.SetText(t.Format(e.layout))
		})
	}
	d := fyne.CurrentApp().Driver()
	e.popUp = widget.NewPopUp(e.cal, d.CanvasForObject(e))
	e.popUp.ShowAtPosition(d.AbsolutePositionForObject(e).Add(fyne.NewPos(0, e.Size().Height-theme.InputBorderSize())))
	e.popUp.Resize(fyne.NewSize(e.Size().Width, e.popUp.MinSize().Height))
}

// localDateLayout is DateEntry's layout here: DateEntry keeps it private, but
// formatting Go's reference date with it yields the layout itself.
var localDateLayout = sync.OnceValue(func() string {
	probe := widget.NewDateEntry()
	ref := time.Date(2006, 1, 2, 0, 0, 0, 0, time.UTC)
	probe.SetDate(&ref)
	if t, err := time.Parse(probe.Text, probe.Text); err != nil || !t.Equal(ref) {
		return app.DateLayout
	}
	return probe.Text
})

func (e *dateField) parse(s string) *time.Time {
	s = strings.TrimSpace(s)
	for _, l := range []string{app.DateLayout, e.layout} {
		if t, err := time.Parse(l, s); err == nil {
			return &t
		}
	}
	return nil
}

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

func (e *dateField) setAnswer(v string) {
	if t, err := time.Parse(app.DateLayout, strings.TrimSpace(v)); err == nil {
		v = t.Format(e.layout)
	}
	e.SetText(v)
}

func (e *dateField) example() string {
	return lang.L("For example {{.Date}}", map[string]any{"Date": app.DateExample.Format(e.layout)})
}

type dateError struct{}

func (dateError) Error() string { return lang.L("Please enter a date.") }

var errNotDate error = dateError{}

const choiceMax = 100

// multiChoice is a check box per choice, each one line that never widens the window.
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
		note := screen.Quiet(lang.L("There is nothing to choose from."))
		m.obj = note
		return m
	}
	m.obj = kit.Capped(m.group, fyne.NewSize(1, 0)) // cut at the form's edge, never widening it
	return m
}

func (m *multiChoice) answer() string {
	var out []string
	for i, s := range m.shown {
		if slices.Contains(m.group.Selected, s) {
			out = append(out, m.values[i])
		}
	}
	return app.JoinList(out)
}

func (m *multiChoice) setAnswer(items []string) {
	var sel []string
	for i, v := range m.values {
		if slices.Contains(items, v) {
			sel = append(sel, m.shown[i])
		}
	}
	m.group.SetSelected(sel)
}

// listEditor is an array question: a line per item with move and remove
// buttons; Enter in a line adds the next.
type listEditor struct {
	rows    []*listRow
	box     *fyne.Container
	add     *kit.Button
	obj     fyne.CanvasObject
	hint    string
	changed func()
	submit  func()
}

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
	r.entry.OnSubmitted = func(string) { l.insert(slices.Index(l.rows, r)+1, true) }
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

func (l *listEditor) insert(i int, focus bool) {
	r := l.newRow("")
	i = max(0, min(i, len(l.rows)))
	l.rows = slices.Insert(l.rows, i, r)
	l.show()
	if focus {
		l.focus(r.entry)
	}
}

// move moves a line by -1 or 1; the keyboard stays on the moved button.
func (l *listEditor) move(r *listRow, by int) {
	i := slices.Index(l.rows, r)
	j := i + by
	if i < 0 || j < 0 || j >= len(l.rows) {
		return
	}
	l.rows[i], l.rows[j] = l.rows[j], l.rows[i]
	l.show()
	l.changed()
}

// remove takes a line away; the last is emptied instead, to keep a place to type.
func (l *listEditor) remove(r *listRow) {
	i := slices.Index(l.rows, r)
	if i < 0 {
		return
	}
	l.rows = slices.Delete(l.rows, i, i+1)
	if len(l.rows) == 0 {
		l.rows = []*listRow{l.newRow("")}
	}
	l.show()
	l.focus(l.rows[min(i, len(l.rows)-1)].entry)
	l.changed()
}

func (l *listEditor) show() {
	objs := make([]fyne.CanvasObject, len(l.rows))
	for i, r := range l.rows {
		objs[i] = r.obj
		screen.EnableIf(i > 0, r.up)
		screen.EnableIf(i < len(l.rows)-1, r.down)
	}
	l.box.Objects = objs
	l.box.Refresh()
}

func (l *listEditor) focus(o fyne.Focusable) {
	if fa := fyne.CurrentApp(); fa != nil {
		if c := fa.Driver().CanvasForObject(l.add); c != nil {
			c.Focus(o)
		}
	}
}

func (l *listEditor) answer() string {
	var items []string
	for _, r := range l.rows {
		if s := strings.TrimSpace(r.entry.Text); s != "" {
			items = append(items, s)
		}
	}
	return app.JoinList(items)
}

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
