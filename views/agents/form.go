package agents

import (
	"cmp"
	"image/color"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/safe"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

type field struct {
	q     client.Question
	get   func() string
	set   func(string)
	input fyne.CanvasObject
	label *widget.Label
	help  *widget.Label // nil when the question has no help text
	err   *widget.Label
	box   *fyne.Container // the question's column: label, help, input, error
	// clearable: an optional choice with a clear button on its right.
	clearable bool
	att       screen.Attachments
	attached  int           // how many files att holds, uploading or not
	oneFile   *widget.Label // says only the first of several files is sent
	list      *listEditor
	// reword puts an app note in the field's own words (a date as it writes dates).
	reword   func(string) string
	advanced bool
}

type form struct {
	fields  []*field
	byName  map[string]*field
	content *fyne.Container
	// onChange hears each answer change (kept as a draft).
	onChange func()
	unbind   []func()
	// fold holds the technical questions (app.IsAdvanced); nil without.
	fold *kit.Fold
}

func requiredNote() string { return lang.L("* must be filled in") }

// newForm builds the form filled with answers (a missing one shows the
// default; one remembered as "" was cleared and stays empty). submit runs it;
// newAttachments may be or return nil: files cannot be added here.
func newForm(agent client.Agent, answers map[string]string, submit func(), newAttachments func() screen.Attachments) *form {
	f := &form{byName: map[string]*field{}}
	changed := func() {
		if f.onChange != nil {
			f.onChange()
		}
	}
	required := false
	for _, q := range app.FormQuestions(agent) {
		fl := newField(q, submit, changed, newAttachments)
		if fl.att != nil {
			f.unbind = append(f.unbind, kit.Bind(fl.att.State(), func(st app.UploadsState) {
				if n := len(st.Items); n != fl.attached {
					fl.attached = n
					kit.ShowError(fl.err, "")
					screen.ShowIf(fl.oneFile, n > 1)
					changed()
				}
			}))
		}
		v, ok := answers[q.Name]
		if !ok {
			v = app.Default(q)
		}
		if v != "" && fl.set != nil {
			fl.set(v)
		}
		required = required || q.Required
		f.fields = append(f.fields, fl)
		f.byName[q.Name] = fl
	}
	// Fields keep a clear button's room free so all end at the same edge.
	var gutter fyne.Size
	if slices.ContainsFunc(f.fields, func(fl *field) bool { return fl.clearable }) {
		gutter = kit.NewButtonWithIcon("", theme.ContentClearIcon(), nil).MinSize()
	}
	var rows, advanced []fyne.CanvasObject
	if required {
		note := screen.Quiet(requiredNote())
		note.SizeName = theme.SizeNameCaptionText
		rows = append(rows, note)
	}
	for _, fl := range f.fields {
		input := fl.input
		if gutter.Width > 0 && !fl.clearable && fl.get != nil && fl.att == nil {
			space := canvas.NewRectangle(color.Transparent)
			space.SetMinSize(gutter)
			input = container.NewBorder(nil, nil, nil, space, fl.input)
		}
		fl.label = widget.NewLabelWithStyle(questionLabel(fl.q), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		fl.label.Truncation = fyne.TextTruncateEllipsis
		var head fyne.CanvasObject = fl.label
		if h := app.HelpText(fl.q); h != "" {
			fl.help = screen.Wrapped(h)
			fl.help.SizeName = theme.SizeNameCaptionText
			head = container.New(layout.NewCustomPaddedVBoxLayout(-2*theme.Padding()), fl.label, fl.help)
		}
		col := []fyne.CanvasObject{head, input, fl.err}
		fl.box = container.New(layout.NewCustomPaddedVBoxLayout(0), col...)
		if app.IsAdvanced(fl.q) {
			fl.advanced = true
			advanced = append(advanced, fl.box)
			continue
		}
		rows = append(rows, fl.box)
	}
	if len(f.fields) == 0 {
		rows = []fyne.CanvasObject{widget.NewLabel(lang.L("This agent asks no questions: press Run."))}
	}
	if len(advanced) > 0 {
		f.fold = kit.NewFold(lang.L("Advanced"), container.New(layout.NewCustomPaddedVBoxLayout(2*theme.Padding()), advanced...))
		rows = append(rows, f.fold.Object())
	}
	f.content = container.New(layout.NewCustomPaddedVBoxLayout(2*theme.Padding()), rows...)
	return f
}

const nameMax = 200

func questionLabel(q client.Question) string {
	name := screen.QuestionName(q, nameMax)
	if q.Required {
		name += " *"
	}
	return name
}

func newField(q client.Question, submit, changed func(), newAttachments func() screen.Attachments) *field {
	fl := &field{q: q, err: kit.ErrorText()}
	edited := func() {
		kit.ShowError(fl.err, "")
		changed()
	}
	switch q.Type {
	case client.QuestionSelect:
		// Choices show as plain one-line text; the one picked is sent as the agent
		// spells it, spaces and all.
		opts := app.Choices(q)
		sel := screen.NewChoice(screen.ChoiceLabels(q, opts, choiceMax), opts, edited)
		sel.Select.PlaceHolder = cmp.Or(app.Placeholder(q), lang.L("Choose…"))
		fl.get, fl.set, fl.input = sel.Value, sel.SetValue, sel.Select
		if !q.Required {
			clear := kit.NewButtonWithIcon("", theme.ContentClearIcon(), sel.Select.ClearSelected)
			clear.Tip = lang.L("Clear this choice")
			clear.Importance = widget.LowImportance
			fl.input = container.NewBorder(nil, nil, nil, clear, sel.Select)
			fl.clearable = true
		}
	case client.QuestionNumber:
		e := newNumberEntry()
		fl.useEntry(e, &e.FormEntry, cmp.Or(app.Placeholder(q), lang.L("A number")), submit, edited)
		// A refused key gets a word on why, not silence.
		e.onRefused = func(r rune) {
			typed := map[string]any{"Typed": string(r)}
			if unicode.IsDigit(r) {
				kit.ShowError(fl.err, lang.L("Only the digits 0 to 9 go here; “{{.Typed}}” was not typed in.", typed))
				return
			}
			kit.ShowError(fl.err, lang.L("Only a number goes here: digits, a point and a minus sign; “{{.Typed}}” was not typed in.", typed))
		}
	case app.QuestionBoolean:
		c := kit.NewCheck(lang.L("Yes"), func(bool) { edited() })
		fl.get = func() string {
			if c.Checked {
				return "true"
			}
			return "false"
		}
		fl.set = func(v string) { c.SetChecked(strings.TrimSpace(v) == "true") }
		fl.input = c
	case app.QuestionText, app.QuestionTextarea:
		e := kit.NewFormMultiLineEntry()
		e.SetMinRowsVisible(3)
		fl.useEntry(e, e, cmp.Or(app.Placeholder(q), lang.L("Write here")), submit, edited)
	case app.QuestionObject:
		e := kit.NewFormMultiLineEntry()
		e.Wrapping = fyne.TextWrapWord
		e.TextStyle = fyne.TextStyle{Monospace: true}
		e.SetMinRowsVisible(4)
		fl.useEntry(e, e, cmp.Or(app.Placeholder(q), lang.L("For example {\"city\": \"Lisbon\"}")), submit, edited)
	case app.QuestionDate:
		e := newDateField()
		fl.useEntry(e, &e.FormEntry, cmp.Or(app.Placeholder(q), e.example()), submit, edited)
		fl.get, fl.set = e.answer, e.setAnswer
		iso := app.DateMessage(app.DateExample.Format(app.DateLayout))
		fl.reword = func(msg string) string {
			if msg == iso {
				return app.DateMessage(app.DateExample.Format(e.layout))
			}
			return msg
		}
	case app.QuestionMultiselect:
		m := newMultiChoice(q, app.Choices(q), edited)
		fl.get = m.answer
		fl.set = func(v string) { m.setAnswer(app.ParseList(q, v)) }
		fl.input = m.obj
	case client.QuestionArray:
		l := newListEditor(cmp.Or(app.Placeholder(q), ""), edited, submit)
		fl.list = l
		fl.get = l.answer
		fl.set = func(v string) { l.setItems(app.ParseList(q, v)) }
		fl.input = l.obj
	case app.QuestionFile:
		var att screen.Attachments
		if newAttachments != nil {
			att = newAttachments()
		}
		if att == nil {
			// Only without a files screen (tests).
			note := widget.NewLabel(lang.L("Files can't be added here."))
			if q.Required {
				note.SetText(lang.L("Files can't be added here, so this question can't be answered."))
			}
			note.Importance = widget.LowImportance
			note.Wrapping = fyne.TextWrapWord
			fl.input = note
			fl.get = func() string { return "" }
			break
		}
		fl.att = att
		choose := kit.NewButtonWithIcon(lang.L("Choose file…"), theme.FileIcon(), att.AddFiles)
		fl.oneFile = screen.Wrapped(lang.L("Only the first file goes with this question; remove the others with ×."))
		fl.oneFile.Importance = widget.LowImportance
		fl.oneFile.Hide()
		fl.input = container.NewVBox(kit.NewBorder(nil, nil, choose, nil, att.Object()), fl.oneFile)
		fl.get = func() string {
			if ids := att.FileIDs(); len(ids) > 0 {
				return string(ids[0])
			}
			return ""
		}
		// Files are attached anew each time: a remembered id is neither shown nor
		// sent, and setting an answer clears the files.
		fl.set = func(string) { att.Clear() }
	default:
		// An unknown type: a line of text, so nothing stops a run.
		fallback := ""
		if t := safe.Text(strings.TrimSpace(q.Type), 30); t != "" {
			fallback = lang.L("Your answer ({{.Type}})", map[string]any{"Type": t})
		}
		e := kit.NewFormEntry()
		fl.useEntry(e, e, cmp.Or(app.Placeholder(q), fallback), submit, edited)
	}
	return fl
}

// useEntry answers the question with input, whose entry is e; Ctrl+Enter
// in it runs the form.
func (fl *field) useEntry(input fyne.CanvasObject, e *kit.FormEntry, placeholder string, submit, edited func()) {
	e.OnCtrlEnter = submit
	e.SetPlaceHolder(placeholder)
	e.OnChanged = func(string) { edited() }
	fl.get = func() string { return e.Text }
	fl.set = e.SetText
	fl.input = input
}

// answers are the current answers by name. A default the user emptied
// answers "" so it does not fill in again; other empty ones are left out.
func (f *form) answers() map[string]string {
	out := map[string]string{}
	for _, fl := range f.fields {
		if fl.get == nil {
			continue
		}
		v := fl.get()
		if fl.q.Type != client.QuestionSelect {
			v = strings.TrimSpace(v)
		}
		if v != "" || (fl.set != nil && fl.att == nil && app.Default(fl.q) != "") {
			out[fl.q.Name] = v
		}
	}
	return out
}

// setAnswers fills a past run's answers and empties the rest, so nothing
// but what that run sent is sent again.
func (f *form) setAnswers(answers map[string]string) {
	for _, fl := range f.fields {
		if fl.set != nil {
			fl.set(answers[fl.q.Name])
		}
	}
}

func (f *form) uploading() bool {
	return slices.ContainsFunc(f.fields, func(fl *field) bool { return fl.att != nil && fl.att.Pending() })
}

func (f *form) emptyFiles() []*field {
	var out []*field
	for _, fl := range f.fields {
		if fl.att != nil && fl.attached == 0 {
			out = append(out, fl)
		}
	}
	return out
}

func (f *form) close() {
	for _, stop := range f.unbind {
		stop()
	}
	f.unbind = nil
}

const summaryNames = 3

func (f *form) errorSummary(errs map[string]string) string {
	var names []string
	for _, fl := range f.fields {
		if f.errorFor(fl, errs) != "" {
			names = append(names, safe.Text(screen.QuestionName(fl.q, nameMax), 40))
		}
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return lang.L("Check {{.Question}}: the note in red under it says what is wrong.", map[string]any{"Question": names[0]})
	}
	if len(names) > summaryNames {
		n := len(names) - summaryNames
		more := lang.N("{{.Count}} more", n, map[string]any{"Count": app.Number(n)})
		names = append(names[:summaryNames:summaryNames], more)
	}
	list := lang.L("{{.List}} and {{.Last}}", map[string]any{"List": strings.Join(names[:len(names)-1], ", "), "Last": names[len(names)-1]})
	return lang.L("Check {{.Questions}}: the notes in red under them say what is wrong.", map[string]any{"Questions": list})
}

// summaryNow sums up the notes still shown under the fields: each goes as
// its answer is changed.
func (f *form) summaryNow() string {
	errs := map[string]string{}
	for _, fl := range f.fields {
		if fl.err.Text != "" {
			errs[fl.q.Name] = fl.err.Text
		}
	}
	return f.errorSummary(errs)
}

func (f *form) errorFor(fl *field, errs map[string]string) string {
	if msg := errs[fl.q.Name]; msg != "" {
		if fl.reword != nil {
			return fl.reword(msg)
		}
		return msg
	}
	var parts []string
	for name := range errs {
		if f.owner(name) == fl {
			parts = append(parts, name)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	sort.Strings(parts)
	return errs[parts[0]]
}

func (f *form) owner(name string) *field {
	if fl := f.byName[name]; fl != nil {
		return fl
	}
	for _, fl := range f.fields {
		if strings.HasPrefix(name, fl.q.Name+".") {
			return fl
		}
	}
	return nil
}

func (f *form) showErrors(errs map[string]string) []string {
	var rest []string
	for _, fl := range f.fields {
		msg := f.errorFor(fl, errs)
		kit.ShowError(fl.err, msg)
		if msg != "" && fl.advanced {
			f.fold.SetOpen(true) // where the user can see what to change
		}
	}
	for name, msg := range errs {
		if f.owner(name) == nil {
			rest = append(rest, msg)
		}
	}
	sort.Strings(rest)
	return rest
}

// numberEntry refuses anything but a number's characters.
type numberEntry struct {
	kit.FormEntry
	onRefused func(rune)
}

func newNumberEntry() *numberEntry {
	e := &numberEntry{}
	e.ExtendBaseWidget(e)
	e.Validator = func(s string) error {
		if s == "" || app.IsNumber(s) {
			return nil
		}
		return errNotNumber
	}
	return e
}

// TypedRune lets ASCII digits, one point and a leading minus through (other
// scripts' digits are no number the service reads); a comma becomes a point.
func (e *numberEntry) TypedRune(r rune) {
	if r == ',' {
		r = '.'
	}
	switch {
	case r >= '0' && r <= '9':
	case r == '.' && !strings.Contains(e.Text, "."):
	case r == '-' && e.CursorColumn == 0 && !strings.Contains(e.Text, "-"):
	default:
		if e.onRefused != nil {
			e.onRefused(r)
		}
		return
	}
	e.FormEntry.TypedRune(r)
}

type numberError struct{}

func (numberError) Error() string { return lang.L("Please enter a number.") }

var errNotNumber error = numberError{}

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
	if c := canvasOf(l.add); c != nil {
		c.Focus(o)
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
