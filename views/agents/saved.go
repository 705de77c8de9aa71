package agents

import (
	"context"
	"errors"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

// besideRun is the saved answers' button after Run's buttons, then rest
// (the hint, or the run's progress) in the room left.
func (d *detail) besideRun(rest fyne.CanvasObject) fyne.CanvasObject {
	d.savedBtn = kit.NewButtonWithIcon(lang.L("Saved answers…"), theme.DocumentIcon(), d.showSaved)
	d.savedBtn.Tip = lang.L("Save these answers under a name, or run answers saved before in one step.")
	l := &savedLayout{text: d.savedBtn.Text,
		full: kit.NewButtonWithIcon(d.savedBtn.Text, theme.DocumentIcon(), nil), bare: kit.NewButtonWithIcon("", theme.DocumentIcon(), nil)}
	return &fyne.Container{Layout: l, Objects: []fyne.CanvasObject{d.savedBtn, rest}}
}

// savedLayout shows the button in words where they fit, else its icon
// alone (its tip still says what it does): a narrow pane, large text or a
// longer language never push Run's bar past the window's edge. The words
// come before the hint, which the Run button's tip says too.
type savedLayout struct {
	text       string
	full, bare *kit.Button // never shown: what the button asks for either way
}

func (l *savedLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	b, rest := l.bare.MinSize(), objs[1].MinSize()
	return fyne.NewSize(b.Width+theme.Padding()+rest.Width, max(b.Height, rest.Height))
}

func (l *savedLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	btn, rest := objs[0].(*kit.Button), objs[1]
	text := ""
	if size.Width >= l.full.MinSize().Width+theme.Padding()+rest.MinSize().Width {
		text = l.text
	}
	if btn.Text != text {
		btn.SetText(text)
	}
	b := btn.MinSize()
	btn.Resize(b)
	btn.Move(fyne.NewPos(0, (size.Height-b.Height)/2))
	rest.Move(fyne.NewPos(b.Width+theme.Padding(), 0))
	rest.Resize(fyne.NewSize(max(size.Width-b.Width-theme.Padding(), 0), size.Height))
}

// savedPanel is the dialog of an agent's saved answers: save the form's,
// import one, and for the one chosen, what no longer fits, Run, Open,
// Export… and Delete.
type savedPanel struct {
	d      *detail
	list   *live.List[app.SavedAnswer]
	items  []app.SavedAnswer
	chosen int64 // the saved answer the buttons act on; 0 for none
	placed bool  // the keyboard went into the dialog once its list was read

	rows *kit.List
	body *fyne.Container // the list, or its loading, empty or error state
	note *widget.Label   // what of the chosen one no longer fits

	save, imp               *kit.Button
	run                     *kit.PaidButton
	open, export, del, done *kit.Button
	dlg                     *dialog.CustomDialog
}

// Sizes of the dialog, at most: a list to choose from, not a screen.
const (
	savedWidth  = 640
	savedHeight = 520
)

// showSaved shows the agent's saved answers, the keyboard on the list.
func (d *detail) showSaved() {
	w := d.s.env.Window
	if w == nil || d.form == nil {
		return
	}
	p := &savedPanel{d: d, list: d.s.app.SavedAnswers().Listed(d.agent.ID)}
	p.build()
	d.saved = p
	stop := kit.Bind(p.list, p.show)
	p.dlg.SetOnClosed(func() {
		stop()
		if d.saved == p {
			d.saved = nil
		}
	})
	size := w.Canvas().Size()
	p.dlg.Resize(fyne.NewSize(min(size.Width*0.9, savedWidth), min(size.Height*0.85, savedHeight)))
	kit.ShowDialogKeys(p.dlg, w, nil, p.dlg.Hide)
	p.list.Reload()
}

func (p *savedPanel) build() {
	p.save = kit.NewButtonWithIcon(lang.L("Save these answers…"), theme.DocumentSaveIcon(), p.askName)
	p.imp = kit.NewButtonWithIcon(lang.L("Import…"), theme.FolderOpenIcon(), p.askFile)
	p.imp.Tip = lang.L("Add saved answers a colleague exported to a file.")
	p.rows = kit.NewList(func() int { return len(p.items) }, kit.NewTwoLineRow, func(id widget.ListItemID, o fyne.CanvasObject) {
		if id < len(p.items) {
			kit.SetTwoLineRow(o, p.items[id].Name, p.aboutRow(p.items[id]))
		}
	})
	p.rows.OnSelected = func(id widget.ListItemID) {
		if id < len(p.items) {
			p.choose(p.items[id].ID)
		}
	}
	p.body = container.NewStack(kit.Loading(lang.L("Loading the saved answers…")))
	p.note = screen.Wrapped("")
	p.note.Importance = widget.WarningImportance
	p.note.Hide()
	p.run = kit.NewPaidButton(lang.L("Run"), theme.MediaPlayIcon(), func() { p.act(p.d.runSaved) })
	p.run.Importance = widget.HighImportance
	p.run.Tip = lang.L("Run the agent with these saved answers. Uses credits.")
	p.open = kit.NewButtonWithIcon(lang.L("Open"), theme.DocumentCreateIcon(), func() { p.act(p.d.openSaved) })
	p.open.Tip = lang.L("Fill the form with these answers, to change some before running.")
	p.export = kit.NewButtonWithIcon(lang.L("Export…"), theme.DownloadIcon(), func() { p.withChosen(p.exportFile) })
	p.export.Tip = lang.L("Save these answers to a file for a colleague. The file holds no key.")
	p.del = kit.NewButtonWithIcon(lang.L("Delete"), theme.DeleteIcon(), func() { p.withChosen(p.askDelete) })
	p.done = kit.NewButton(lang.L("Close"), nil)
	actions := kit.Wrap(p.run, p.open, p.export, p.del)
	content := kit.NewBorder(kit.Wrap(p.save, p.imp), container.NewVBox(p.note, actions), nil, nil, p.body)
	p.dlg = dialog.NewCustomWithoutButtons(lang.L("Saved answers"), content, p.d.s.env.Window)
	p.dlg.SetButtons([]fyne.CanvasObject{p.done})
	p.done.OnTapped = p.dlg.Hide
	p.enable(nil)
}

// aboutRow is a saved answer's second line: when it was last run or saved,
// or that something no longer fits.
func (p *savedPanel) aboutRow(s app.SavedAnswer) string {
	if ms := p.d.s.app.SavedAnswers().Fit(p.d.agent, s); len(ms) > 0 {
		return lang.L("Needs a look: the agent's questions have changed")
	}
	if !s.UsedAt.IsZero() {
		return lang.L("Last run {{.When}}", map[string]any{"When": app.DateTime(s.UsedAt)})
	}
	return lang.L("Saved {{.When}}", map[string]any{"When": app.DateTime(s.CreatedAt)})
}

// show lists the saved answers read, the one chosen kept chosen.
func (p *savedPanel) show(st live.ListState[app.SavedAnswer]) {
	p.items = st.Items
	switch {
	case st.Err != nil && len(st.Items) == 0:
		kit.ShowBody(p.body, screen.Error(st.Err, p.list.Reload))
	case !st.Loaded:
		return // the loading state stays
	case len(st.Items) == 0:
		kit.ShowBody(p.body, kit.Empty(theme.DocumentIcon(), lang.L("No saved answers yet"),
			lang.L("Fill in the form, then choose Save these answers… to run them again in one step.")))
	default:
		kit.ShowBody(p.body, p.rows)
		p.rows.Refresh()
	}
	i := slices.IndexFunc(p.items, func(s app.SavedAnswer) bool { return s.ID == p.chosen })
	if i < 0 && len(p.items) > 0 {
		i = 0
	}
	if i >= 0 {
		p.rows.Select(i)
		p.rows.ScrollTo(i)
	} else {
		p.choose(0)
	}
	if !p.placed && !st.Loading {
		p.placed = true
		p.focus()
	}
}

// focus puts the keyboard on the list, or on Save when there is none.
func (p *savedPanel) focus() {
	c := p.d.s.env.Window.Canvas()
	if len(p.items) > 0 {
		c.Focus(p.rows)
		return
	}
	c.Focus(p.save)
}

// chosenOne is the saved answer the buttons act on.
func (p *savedPanel) chosenOne() (app.SavedAnswer, bool) {
	i := slices.IndexFunc(p.items, func(s app.SavedAnswer) bool { return s.ID == p.chosen })
	if i < 0 {
		return app.SavedAnswer{}, false
	}
	return p.items[i], true
}

// choose makes id the saved answer the buttons act on, and says what of
// it no longer fits before it is run or opened.
func (p *savedPanel) choose(id int64) {
	p.chosen = id
	s, ok := p.chosenOne()
	if !ok {
		p.enable(nil)
		return
	}
	misfits := p.d.s.app.SavedAnswers().Fit(p.d.agent, s)
	p.enable(misfits)
	var lines []string
	for _, m := range misfits {
		lines = append(lines, m.Text)
	}
	if app.Blocking(misfits) {
		lines = append(lines, lang.L("Open fills in what still fits, for you to change the rest before running."))
	}
	p.note.SetText(strings.Join(lines, "\n"))
	screen.ShowIf(p.note, len(lines) > 0)
}

// enable offers what can be done with the one chosen: Run only while its
// answers fit and the agent is on.
func (p *savedPanel) enable(misfits []app.Misfit) {
	_, ok := p.chosenOne()
	screen.EnableIf(ok, p.open, p.export, p.del)
	screen.EnableIf(ok && !app.Blocking(misfits) && !p.d.agent.Inactive(), p.run)
	if !ok {
		p.note.Hide()
	}
}

// withChosen does what with the saved answer chosen, if any.
func (p *savedPanel) withChosen(what func(app.SavedAnswer)) {
	if s, ok := p.chosenOne(); ok {
		what(s)
	}
}

// act closes the dialog and does what with the one chosen on the Run tab.
func (p *savedPanel) act(what func(app.SavedAnswer)) {
	s, ok := p.chosenOne()
	if !ok {
		return
	}
	p.dlg.Hide()
	what(s)
}

// askName asks the name to save the form's answers under; Enter saves.
func (p *savedPanel) askName() {
	e := kit.NewFormEntry()
	e.SetPlaceHolder(lang.L("For example: Monthly newsletter"))
	body := container.NewVBox(screen.Wrapped(lang.L("Name these answers to run them again in one step.")), e)
	w := p.d.s.env.Window
	screen.Ask(p.d.s.env, lang.L("Save these answers"), lang.L("Save"), body,
		fyne.NewSize(min(w.Canvas().Size().Width*0.9, 460), body.MinSize().Height), true, []*kit.FormEntry{e}, func() { p.saveAs(e.Text, false) })
}

// saveAs keeps the form's answers under name; a name taken asks first
// whether to replace that one.
func (p *savedPanel) saveAs(name string, replace bool) {
	d := p.d
	env, agent, answers := d.s.env, d.agent, d.form.answers()
	var saved app.SavedAnswer
	var err error
	kit.ActShowing(d.s.app, env.Window, lang.L("Saving…"), func(ctx context.Context) {
		saved, err = d.s.app.SavedAnswers().Save(ctx, agent, name, answers, replace)
	}, func() {
		switch {
		case errors.Is(err, app.ErrSavedNameTaken) && !replace:
			p.askReplace(lang.L("{{.Why}} Replace it with these answers?", map[string]any{"Why": app.Describe(err)}), func() { p.saveAs(name, true) })
		case err != nil:
			kit.ShowInformation(lang.L("Not saved"), app.Describe(err), env.Window)
		default:
			p.chosen = saved.ID
			p.list.Reload()
		}
	})
}

// askReplace asks question, whether to replace a saved answer of the same name.
func (p *savedPanel) askReplace(question string, replace func()) {
	screen.Confirm(p.d.s.env.Window, lang.L("Replace saved answer?"), question, lang.L("Replace"), lang.L("Cancel"), screen.Destructive, replace)
}

// askFile asks for a saved answer's file to import.
func (p *savedPanel) askFile() {
	screen.Pick(p.d.s.env, false, lang.L("Not imported"), []string{".json"}, func(path string) { p.importFile(path, false) })
}

// importFile keeps the saved answer the file holds for the agent it names;
// one of another agent is kept for that agent, and said so.
func (p *savedPanel) importFile(path string, replace bool) {
	d := p.d
	w := d.s.env.Window
	var saved app.SavedAnswer
	var err error
	kit.ActShowing(d.s.app, w, lang.L("Importing…"), func(ctx context.Context) {
		saved, err = d.s.app.SavedAnswers().Import(ctx, path, replace)
	}, func() {
		switch {
		case errors.Is(err, app.ErrSavedNameTaken) && !replace:
			p.askReplace(lang.L("{{.Why}} Replace it with the one in the file?", map[string]any{"Why": app.Describe(err)}), func() { p.importFile(path, true) })
		case err != nil:
			kit.ShowInformation(lang.L("Not imported"), app.Describe(err), w)
		case saved.AgentID != string(d.agent.ID):
			kit.ShowInformation(lang.L("Imported"), lang.L("“{{.Name}}” was saved for the agent {{.Agent}}. Open that agent to run it.",
				map[string]any{"Name": saved.Name, "Agent": kit.Line(saved.AgentTitle, 80)}), w)
		default:
			p.chosen = saved.ID
			p.list.Reload()
		}
	})
}

// exportFile asks where to save the saved answer's file.
func (p *savedPanel) exportFile(s app.SavedAnswer) {
	data, err := p.d.s.app.SavedAnswers().Export(s)
	if err != nil {
		kit.ShowInformation(lang.L("Not saved"), app.Describe(err), p.d.s.env.Window)
		return
	}
	screen.SaveFile(p.d.s.env, lang.L("Saved"), app.ExportName(s), []string{".json"}, func(string) []byte { return data })
}

// askDelete deletes the saved answer once the user confirms.
func (p *savedPanel) askDelete(s app.SavedAnswer) {
	env := p.d.s.env
	screen.Confirm(env.Window, lang.L("Delete saved answer?"),
		lang.L("Delete “{{.Name}}”? This cannot be undone.", map[string]any{"Name": s.Name}),
		lang.L("Delete"), lang.L("Cancel"), screen.Destructive, func() {
			screen.Try(env, lang.L("Deleting…"), lang.L("Not deleted"), func(ctx context.Context) error {
				return p.d.s.app.SavedAnswers().Delete(ctx, s.ID)
			}, p.list.Reload)
		})
}

// runSaved runs the agent with a saved answer as the Run button would:
// asking first past the daily limit, the form showing the answers run.
func (d *detail) runSaved(s app.SavedAnswer) {
	if d.form == nil {
		return
	}
	svc := d.s.app.SavedAnswers()
	if app.Blocking(svc.Fit(d.agent, s)) {
		d.openSaved(s) // what to change, shown where it is changed
		return
	}
	screen.ConfirmSpend(d.s.env, d.agent, 1, func() {
		ar, err := svc.Run(d.s.app.Life(), d.agent, s)
		if d.tabs != nil {
			d.tabs.Select(d.runTab)
		}
		if err != nil {
			kit.ShowError(d.formErr, barText(app.Describe(err)))
			return
		}
		d.form.setAnswers(svc.Answers(d.agent, s))
		d.form.showErrors(nil)
		d.sumUp("")
		d.watch(ar)
	})
}

// openSaved fills the form with what of a saved answer still fits, and
// says under each question what no longer does.
func (d *detail) openSaved(s app.SavedAnswer) {
	if d.form == nil {
		return
	}
	svc := d.s.app.SavedAnswers()
	d.form.setAnswers(svc.Answers(d.agent, s))
	fields := map[string]string{}
	var gone []string
	for _, m := range svc.Fit(d.agent, s) {
		if m.Gone {
			gone = append(gone, m.Text)
		} else {
			fields[m.Question] = m.Text
		}
	}
	d.form.showErrors(fields)
	summary := d.form.errorSummary(fields)
	if len(gone) == 0 {
		d.sumUp(summary)
	} else {
		d.summed = false
		kit.ShowError(d.formErr, barText(strings.TrimSpace(summary+" "+strings.Join(gone, " "))))
	}
	if d.tabs != nil {
		d.tabs.Select(d.runTab)
	}
	if c := d.s.env.Window; c != nil {
		kit.FocusFirst(c.Canvas(), d.form.content)
	}
}

// runSavedID runs the account's saved answer id once the agent's form is
// built (it may still be read).
func (d *detail) runSavedID(id int64) {
	if d.form == nil {
		d.pendingSaved = id
		return
	}
	d.pendingSaved = 0
	var s app.SavedAnswer
	var err error
	kit.Act(d.s.app, func(ctx context.Context) { s, err = d.s.app.SavedAnswers().Get(ctx, id) }, func() {
		if d.tabs != nil {
			d.tabs.Select(d.runTab)
		}
		if err != nil {
			kit.ShowError(d.formErr, barText(app.Describe(err)))
			return
		}
		d.runSaved(s)
	})
}

// RunSaved opens agent and runs its saved answer savedID as the Run button
// would, asking first past the daily limit (the command box's "Run saved
// answers").
func (s *Screen) RunSaved(agent app.AgentItem, savedID int64) {
	s.openAgent(agent)
	s.list.UnselectAll() // a row left selected would not open on a click
	for i, r := range s.rows {
		if r.heading == "" && r.agent.ID == agent.ID {
			s.list.Select(i)
			break
		}
	}
	s.current.runSavedID(savedID)
}
