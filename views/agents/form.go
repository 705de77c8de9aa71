package agents

import (
	"image/color"
	"strings"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/kit"
)

// field is one question of the form.
type field struct {
	q     client.Question
	get   func() string
	set   func(string)
	input fyne.CanvasObject // nil for a question shown read-only
	err   *widget.Label
	// clearable is an optional choice, with a button that clears it on
	// its right.
	clearable bool
}

// form is the question form generated from an agent's questions.
type form struct {
	fields  []*field
	byName  map[string]*field
	content *fyne.Container
	// onChange is told of every answer the user changes (the app keeps
	// them as a draft).
	onChange func()
}

// newForm builds the form; submit runs it (Enter in a number field or on a
// focused choice).
func newForm(agent client.Agent, answers map[string]string, submit func()) *form {
	f := &form{byName: map[string]*field{}, content: container.New(layout.NewFormLayout())}
	changed := func() {
		if f.onChange != nil {
			f.onChange()
		}
	}
	for _, q := range app.FormQuestions(agent) {
		fl := newField(q, submit, changed)
		if v, ok := answers[q.Name]; ok && fl.set != nil {
			fl.set(v)
		}
		f.fields = append(f.fields, fl)
		f.byName[q.Name] = fl
	}
	// Where some choices have a clear button, the other fields keep its
	// room free, so that all of them end at the same edge.
	var gutter fyne.Size
	for _, fl := range f.fields {
		if fl.clearable {
			gutter = widget.NewButtonWithIcon("", theme.ContentClearIcon(), nil).MinSize()
		}
	}
	for _, fl := range f.fields {
		q := fl.q
		input := fl.input
		if gutter.Width > 0 && !fl.clearable && fl.get != nil {
			space := canvas.NewRectangle(color.Transparent)
			space.SetMinSize(gutter)
			input = container.NewBorder(nil, nil, nil, space, fl.input)
		}

		label := widget.NewLabelWithStyle(questionLabel(q), fyne.TextAlignTrailing, fyne.TextStyle{Bold: true})
		right := container.NewVBox(input)
		if q.Description != "" {
			d := widget.NewLabel(q.Description)
			d.Wrapping = fyne.TextWrapWord
			d.SizeName = theme.SizeNameCaptionText
			right.Add(d)
		}
		right.Add(fl.err)
		f.content.Add(container.NewVBox(label))
		f.content.Add(right)
	}
	if len(f.fields) == 0 {
		f.content = container.NewVBox(widget.NewLabel("This agent asks no questions: press Run."))
	}
	return f
}

// questionLabel is the question's name in plain words; required ones are
// marked with a star.
func questionLabel(q client.Question) string {
	name := strings.ReplaceAll(strings.TrimSpace(q.Name), "_", " ")
	if name == "" {
		name = "Question"
	}
	name = strings.ToUpper(name[:1]) + name[1:]
	if q.Required {
		name += " *"
	}
	return name
}

func newField(q client.Question, submit, changed func()) *field {
	fl := &field{q: q, err: kit.ErrorText()}
	switch q.Type {
	case client.QuestionSelect:
		sel := newSubmitSelect(q.Options, submit)
		sel.PlaceHolder = "Choose…"
		sel.OnChanged = func(string) { changed() }
		fl.get = func() string { return sel.Selected }
		fl.set = func(v string) {
			for _, o := range q.Options {
				if o == v {
					sel.SetSelected(v)
					return
				}
			}
		}
		fl.input = sel
		if !q.Required {
			clear := widget.NewButtonWithIcon("", theme.ContentClearIcon(), sel.ClearSelected)
			clear.Importance = widget.LowImportance
			fl.input = container.NewBorder(nil, nil, nil, clear, sel)
			fl.clearable = true
		}
	case client.QuestionNumber:
		e := newNumberEntry()
		e.SetPlaceHolder("A number")
		e.OnSubmitted = func(string) { submit() }
		e.OnChanged = func(string) {
			kit.ShowError(fl.err, "")
			changed()
		}
		// A key that is not part of a number is refused where it was
		// typed, with a word on why, not swallowed in silence.
		e.onRefused = func(r rune) {
			kit.ShowError(fl.err, "Only a number goes here: digits, a point and a minus sign; “"+string(r)+"” was not typed in.")
		}
		fl.get = func() string { return e.Text }
		fl.set = e.SetText
		fl.input = e
	case app.QuestionBoolean:
		c := widget.NewCheck("Yes", func(bool) { changed() })
		fl.get = func() string {
			if c.Checked {
				return "true"
			}
			return "false"
		}
		fl.set = func(v string) { c.SetChecked(v == "true") }
		fl.input = c
	case app.QuestionText, app.QuestionTextarea:
		e := widget.NewMultiLineEntry()
		e.Wrapping = fyne.TextWrapWord
		e.SetMinRowsVisible(3)
		e.SetPlaceHolder("Write here")
		e.OnChanged = func(string) { changed() }
		fl.get = func() string { return e.Text }
		fl.set = e.SetText
		fl.input = e
	case client.QuestionArray:
		note := widget.NewLabel("Agent Desk can't fill in a list here; the agent will use its own default.")
		note.Wrapping = fyne.TextWrapWord
		note.Importance = widget.LowImportance
		fl.input = container.NewBorder(nil, nil, widget.NewIcon(theme.InfoIcon()), nil, note)
	default:
		// A date, or a type Agent Desk does not know: a line of text, so
		// nothing stops a run; the placeholder names what is asked for.
		e := widget.NewEntry()
		if q.Type == app.QuestionDate {
			e.SetPlaceHolder("A date, for example 2026-11-25")
		} else if t := strings.TrimSpace(q.Type); t != "" {
			e.SetPlaceHolder("Your answer (" + t + ")")
		}
		e.OnSubmitted = func(string) { submit() }
		e.OnChanged = func(string) {
			kit.ShowError(fl.err, "")
			changed()
		}
		fl.get = func() string { return e.Text }
		fl.set = e.SetText
		fl.input = e
	}
	return fl
}

// answers are the form's current answers by question name.
func (f *form) answers() map[string]string {
	out := map[string]string{}
	for _, fl := range f.fields {
		if fl.get != nil {
			if v := strings.TrimSpace(fl.get()); v != "" {
				out[fl.q.Name] = v
			}
		}
	}
	return out
}

// setAnswers fills the form (re-opening a past run).
func (f *form) setAnswers(answers map[string]string) {
	for name, v := range answers {
		if fl := f.byName[name]; fl != nil && fl.set != nil {
			fl.set(v)
		}
	}
}

// errorSummary names, in the form's order, the questions errs is about,
// for the line under the form: "Check Style and Aspect ratio: …" ("" when
// errs names none of them).
func (f *form) errorSummary(errs map[string]string) string {
	var names []string
	for _, fl := range f.fields {
		if errs[fl.q.Name] != "" {
			names = append(names, strings.TrimSuffix(questionLabel(fl.q), " *"))
		}
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return "Check " + names[0] + ": the note in red under it says what is wrong."
	}
	list := strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	return "Check " + list + ": the notes in red under them say what is wrong."
}

// showErrors puts each message beside the field it names and returns the
// messages that name no field of the form.
func (f *form) showErrors(errs map[string]string) []string {
	var rest []string
	for _, fl := range f.fields {
		kit.ShowError(fl.err, errs[fl.q.Name])
	}
	for name, msg := range errs {
		if f.byName[name] == nil {
			rest = append(rest, msg)
		}
	}
	return rest
}

// submitSelect is a choice that runs the form on Enter while it has the
// keyboard focus (Tab reaches it); every other key does what widget.Select
// does. With its pop-up open the pop-up has the keyboard, so Enter there
// picks the highlighted choice instead.
type submitSelect struct {
	widget.Select
	submit func()
}

func newSubmitSelect(options []string, submit func()) *submitSelect {
	s := &submitSelect{submit: submit}
	s.Options = options
	s.ExtendBaseWidget(s)
	return s
}

// TypedKey runs the form on Return or Enter.
func (s *submitSelect) TypedKey(ev *fyne.KeyEvent) {
	if (ev.Name == fyne.KeyReturn || ev.Name == fyne.KeyEnter) && s.submit != nil {
		s.submit()
		return
	}
	s.Select.TypedKey(ev)
}

// numberEntry is a text field that refuses anything but a number's
// characters.
type numberEntry struct {
	widget.Entry
	// onRefused is told of a key that is not part of a number.
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

// TypedRune lets digits, one decimal point and a leading minus through.
func (e *numberEntry) TypedRune(r rune) {
	switch {
	case unicode.IsDigit(r):
	case r == '.' && !strings.Contains(e.Text, "."):
	case r == '-' && e.CursorColumn == 0 && !strings.Contains(e.Text, "-"):
	default:
		if e.onRefused != nil {
			e.onRefused(r)
		}
		return
	}
	e.Entry.TypedRune(r)
}

type numberError struct{}

func (numberError) Error() string { return "Please enter a number." }

var errNotNumber error = numberError{}
