package agents

import (
	"image/color"
	"sort"
	"strings"
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

// field is one question of the form: its name, its help, its input and
// the note in red under the input.
type field struct {
	q     client.Question
	get   func() string
	set   func(string)
	input fyne.CanvasObject
	label *widget.Label
	help  *widget.Label // nil when the question has no help text
	err   *widget.Label
	box   *fyne.Container // the question's column: label, help, input, error
	// clearable is an optional choice, with a button that clears it on
	// its right.
	clearable bool
	// att are a file question's file chips (nil for other questions).
	att      screen.Attachments
	attached int           // how many files att holds, uploading or not
	oneFile  *widget.Label // says only the first of several files is sent
	// list is an array question's editor (nil for other questions).
	list *listEditor
	// reword, when set, puts a note of the app's in the field's own words
	// (a date's example written as the field writes dates).
	reword func(string) string
	// advanced: the question waits in the form's Advanced fold.
	advanced bool
}

// form is the question form generated from an agent's questions: one
// column, each question's bold name (a star when it must be answered),
// its help, its input and its error under one another.
type form struct {
	fields  []*field
	byName  map[string]*field
	content *fyne.Container
	// onChange is told of every answer the user changes (the app keeps
	// them as a draft).
	onChange func()
	// unbind ends what the form hears (the uploads of file questions).
	unbind []func()
	// fold holds the technical questions (app.IsAdvanced); nil without.
	fold *kit.Fold
}

// requiredNote is the line at the top of a form with required questions.
func requiredNote() string { return lang.L("* must be filled in") }

// newForm builds the form from the agent's questions, filled with answers
// (the remembered ones; a question without one shows the agent's default,
// a question remembered as "" was cleared by the user and stays empty).
// submit runs it (Enter in a number field or on a focused choice);
// newAttachments makes the file chips of a file question (nil, or nil
// returned: files cannot be added here).
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
					if n > 1 {
						fl.oneFile.Show()
					} else {
						fl.oneFile.Hide()
					}
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
	// Where some choices have a clear button, the other fields keep its
	// room free, so that all of them end at the same edge.
	var gutter fyne.Size
	for _, fl := range f.fields {
		if fl.clearable {
			gutter = kit.NewButtonWithIcon("", theme.ContentClearIcon(), nil).MinSize()
		}
	}
	var rows, advanced []fyne.CanvasObject
	if required {
		note := widget.NewLabel(requiredNote())
		note.Importance = widget.LowImportance
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
			fl.help = widget.NewLabel(h)
			fl.help.Wrapping = fyne.TextWrapWord
			fl.help.SizeName = theme.SizeNameCaptionText
			// The help sits close under the name it explains.
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
		// Technical questions (the picture's seed) wait under Advanced.
		f.fold = kit.NewFold(lang.L("Advanced"), container.New(layout.NewCustomPaddedVBoxLayout(2*theme.Padding()), advanced...))
		rows = append(rows, f.fold.Object())
	}
	f.content = container.New(layout.NewCustomPaddedVBoxLayout(2*theme.Padding()), rows...)
	return f
}

// nameMax is how many characters of a question's name its label keeps; the
// label cuts it shorter, with an ellipsis, where the form is narrower.
const nameMax = 200

// questionLabel is the question's name in plain words; required ones are
// marked with a star.
func questionLabel(q client.Question) string {
	name := screen.QuestionName(q, nameMax)
	if q.Required {
		name += " *"
	}
	return name
}

// shortName is a question's name in a sentence (the line by Run).
func shortName(q client.Question) string {
	return safe.Text(strings.TrimSuffix(questionLabel(q), " *"), 40)
}

// placeholder is the agent's placeholder for q, else fallback.
func placeholder(q client.Question, fallback string) string {
	if p := app.Placeholder(q); p != "" {
		return p
	}
	return fallback
}

func newField(q client.Question, submit, changed func(), newAttachments func() screen.Attachments) *field {
	fl := &field{q: q, err: kit.ErrorText()}
	// edited clears the note at the field when its answer changes.
	edited := func() {
		kit.ShowError(fl.err, "")
		changed()
	}
	switch q.Type {
	case client.QuestionSelect:
		// The choices are shown as plain text on one line, told apart
		// when they look alike; the one picked is sent as the agent
		// spells it, spaces and all.
		opts := app.Choices(q)
		sel := kit.NewSelect(screen.ChoiceLabels(q, opts, choiceMax), nil)
		sel.PlaceHolder = placeholder(q, lang.L("Choose…"))
		sel.OnChanged = func(string) { edited() }
		fl.get = func() string {
			if i := sel.SelectedIndex(); i >= 0 && i < len(opts) {
				return opts[i]
			}
			return ""
		}
		// An answer that is none of the choices ("" among them) leaves
		// nothing picked.
		fl.set = func(v string) {
			for i, o := range opts {
				if o == v {
					sel.SetSelectedIndex(i)
					return
				}
			}
			if sel.Selected != "" {
				sel.ClearSelected()
			}
		}
		fl.input = sel
		if !q.Required {
			clear := kit.NewButtonWithIcon("", theme.ContentClearIcon(), sel.ClearSelected)
			clear.Tip = lang.L("Clear this choice")
			clear.Importance = widget.LowImportance
			fl.input = container.NewBorder(nil, nil, nil, clear, sel)
			fl.clearable = true
		}
	case client.QuestionNumber:
		e := newNumberEntry()
		e.SetPlaceHolder(placeholder(q, lang.L("A number")))
		e.submit = submit
		e.OnChanged = func(string) { edited() }
		// A key that is not part of a number is refused where it was
		// typed, with a word on why, not swallowed in silence.
		e.onRefused = func(r rune) {
			typed := map[string]any{"Typed": string(r)}
			if unicode.IsDigit(r) {
				kit.ShowError(fl.err, lang.L("Only the digits 0 to 9 go here; “{{.Typed}}” was not typed in.", typed))
				return
			}
			kit.ShowError(fl.err, lang.L("Only a number goes here: digits, a point and a minus sign; “{{.Typed}}” was not typed in.", typed))
		}
		fl.get = func() string { return e.Text }
		fl.set = e.SetText
		fl.input = e
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
		e.OnCtrlEnter = submit
		e.SetMinRowsVisible(3)
		e.SetPlaceHolder(placeholder(q, lang.L("Write here")))
		e.OnChanged = func(string) { edited() }
		fl.get = func() string { return e.Text }
		fl.set = e.SetText
		fl.input = e
	case app.QuestionObject:
		e := kit.NewFormMultiLineEntry()
		e.OnCtrlEnter = submit
		e.Wrapping = fyne.TextWrapWord
		e.TextStyle = fyne.TextStyle{Monospace: true}
		e.SetMinRowsVisible(4)
		e.SetPlaceHolder(placeholder(q, lang.L("For example {\"city\": \"Lisbon\"}")))
		e.OnChanged = func(string) { edited() }
		fl.get = func() string { return e.Text }
		fl.set = e.SetText
		fl.input = e
	case app.QuestionDate:
		e := newDateField()
		e.SetPlaceHolder(placeholder(q, e.example()))
		e.submit = submit
		e.onText = edited
		fl.get = e.answer
		fl.set = e.setAnswer
		fl.input = e
		// The example of the app's note is the one the placeholder shows,
		// written as this field writes dates (and reads them).
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
		l := newListEditor(placeholder(q, ""), edited, submit)
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
			// Only where no files screen is built (tests): the app's
			// files screen always makes attachments.
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
		fl.oneFile = widget.NewLabel(lang.L("Only the first file goes with this question; remove the others with ×."))
		fl.oneFile.Importance = widget.LowImportance
		fl.oneFile.Wrapping = fyne.TextWrapWord
		fl.oneFile.Hide()
		fl.input = container.NewVBox(kit.NewBorder(nil, nil, choose, nil, att.Object()), fl.oneFile)
		// The question takes one file: the first one attached.
		fl.get = func() string {
			if ids := att.FileIDs(); len(ids) > 0 {
				return string(ids[0])
			}
			return ""
		}
		// A file is attached anew each time: an id remembered from an
		// earlier run is not shown as a file, so it is not sent either;
		// an answer set (a past run re-opened, or none) takes away the
		// files chosen so far.
		fl.set = func(string) { att.Clear() }
	default:
		// A type Agent Desk does not know: a line of text, so nothing
		// stops a run; the placeholder names what is asked for.
		e := kit.NewFormEntry()
		e.OnCtrlEnter = submit
		fallback := ""
		if t := safe.Text(strings.TrimSpace(q.Type), 30); t != "" {
			fallback = lang.L("Your answer ({{.Type}})", map[string]any{"Type": t})
		}
		e.SetPlaceHolder(placeholder(q, fallback))
		e.OnChanged = func(string) { edited() }
		fl.get = func() string { return e.Text }
		fl.set = e.SetText
		fl.input = e
	}
	return fl
}

// answers are the form's current answers by question name: a choice as
// the agent spells it, other text without spaces around it. A question
// with a default that the user emptied answers "", so that the default
// does not fill it again next time; other empty questions are left out.
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

// setAnswers fills the form with a past run's answers (re-opening it):
// every question the run did not answer is emptied, so that nothing but
// what that run sent is sent again.
func (f *form) setAnswers(answers map[string]string) {
	for _, fl := range f.fields {
		if fl.set != nil {
			fl.set(answers[fl.q.Name])
		}
	}
}

// uploading reports a file question whose file is still on its way.
func (f *form) uploading() bool {
	for _, fl := range f.fields {
		if fl.att != nil && fl.att.Pending() {
			return true
		}
	}
	return false
}

// emptyFiles are the file questions without a file, in the form's order.
func (f *form) emptyFiles() []*field {
	var out []*field
	for _, fl := range f.fields {
		if fl.att != nil && fl.attached == 0 {
			out = append(out, fl)
		}
	}
	return out
}

// close ends what the form hears.
func (f *form) close() {
	for _, stop := range f.unbind {
		stop()
	}
	f.unbind = nil
}

// summaryNames is how many questions the line by Run names at most; it
// counts the others.
const summaryNames = 3

// errorSummary names, in the form's order, the questions errs is about,
// for the line by Run: "Check Style and Aspect ratio: …" ("" when errs
// names none of them).
func (f *form) errorSummary(errs map[string]string) string {
	var names []string
	for _, fl := range f.fields {
		if f.errorFor(fl, errs) != "" {
			names = append(names, shortName(fl.q))
		}
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return lang.L("Check {{.Question}}: the note in red under it says what is wrong.", map[string]any{"Question": names[0]})
	}
	if len(names) > summaryNames {
		// A short line, whatever the number of questions to fix.
		n := len(names) - summaryNames
		more := lang.N("{{.Count}} more", n, map[string]any{"Count": app.Number(n)})
		names = append(names[:summaryNames:summaryNames], more)
	}
	list := lang.L("{{.List}} and {{.Last}}", map[string]any{"List": strings.Join(names[:len(names)-1], ", "), "Last": names[len(names)-1]})
	return lang.L("Check {{.Questions}}: the notes in red under them say what is wrong.", map[string]any{"Questions": list})
}

// errorFor is the message errs has for fl: under its name, or under a
// part of it ("items.2", as a service names a list's line).
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

// owner is the field a message's name is about: the question of that name,
// or the question a part of which it names ("items.2"); nil for none.
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

// showErrors puts each message under the field it names and returns the
// messages that name no field of the form.
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

// numberEntry is a text field that refuses anything but a number's
// characters.
type numberEntry struct {
	kit.Field
	// onRefused is told of a key that is not part of a number.
	onRefused func(rune)
	// submit runs the form (Ctrl+Enter).
	submit func()
}

// TypedShortcut runs the form on Ctrl+Enter and passes the window's
// shortcuts on (kit.FieldShortcut); other shortcuts are Entry's.
func (e *numberEntry) TypedShortcut(s fyne.Shortcut) {
	if !kit.FieldShortcut(e, s, e.submit) {
		e.Field.TypedShortcut(s)
	}
}

// FocusGained scrolls the field into view.
func (e *numberEntry) FocusGained() {
	e.Field.FocusGained()
	kit.ShowFocused(e)
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

// TypedRune lets the digits 0 to 9, one decimal point and a leading minus
// through: the digits of other scripts (٣, ３) are no number the form or
// the service reads. A decimal comma (as Portuguese and Spanish write
// 0,5) becomes the point the service reads.
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
	e.Field.TypedRune(r)
}

type numberError struct{}

func (numberError) Error() string { return lang.L("Please enter a number.") }

var errNotNumber error = numberError{}
