package batches

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/sheet"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/safe"
	"github.com/agentdesk/agentdesk/views/files"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

type sourceKind int

const (
	fromSheet sourceKind = iota // the rows of a sheet
	fromFiles                   // the files of a folder, one run each
	fromLines                   // lines the user pasted, one run each
)

// source is what a batch would run over, read before it is made.
type source struct {
	kind sourceKind
	// A sheet: where it is, read whole (passed on to the batch), its
	// columns, its first previewRows rows and how many it has.
	path   string
	sheet  sheet.All
	header []string
	rows   [][]string
	total  int
	folder string
	files  []app.FolderFile
	lines  []string
	// results is where the results sheet goes ("" beside the sheet).
	results  string
	lastCost *float64
}

type question struct {
	q      client.Question
	choice *kit.Select
	// field holds the same answer for every run, read and set as the service spells it.
	field      fyne.CanvasObject
	fixedValue func() string
	setFixed   func(string)
}

// plan is the Run on many… dialog's content (tests find it on the window).
type plan struct {
	widget.BaseWidget
	env     screen.Env
	agent   client.Agent
	src     source
	seen    app.FileChecks
	options []string
	columns int
	notUsed string
	same    string
	// fileQ is the question each file answers ("" when attached to its run).
	fileQ string

	kinds  screen.Choice // of the kinds' keys, allKinds for all
	chosen []app.FolderFile

	questions []*question
	about     *widget.Label
	where     *widget.Label
	missing   *widget.Label
	skipped   *widget.Label
	firstHead *widget.Label
	first     *fyne.Container
	estimate  *widget.Label
	parallel  *kit.Select
	// facts are the facts to pull out of each reply, nil for an agent
	// that makes pictures or videos (app.FieldsQuestion).
	facts    *kit.FormEntry
	factsErr *widget.Label
	limit    *kit.FormEntry
	limitErr *widget.Label
	start    *kit.PaidButton
	dialog   *dialog.CustomDialog
	scroll   *container.Scroll
}

func newPlan(env screen.Env, agent client.Agent, src source) *plan {
	pl := &plan{env: env, agent: agent, src: src, notUsed: lang.L("Not answered")}
	pl.ExtendBaseWidget(pl)
	pl.same = byKind(src.kind, lang.L("The same for every row"), lang.L("The same for every file"), lang.L("The same for every line"))
	if src.kind == fromFiles {
		pl.fileQ = app.FileQuestion(agent)
	}
	pl.options = append(pl.options, pl.notUsed)
	pl.about = screen.Wrapped("")
	pl.where = screen.Wrapped("")
	top := container.NewVBox(pl.about)
	matched := app.ColumnMap{}
	var which string
	switch src.kind {
	case fromSheet:
		seen := map[string]int{}
		for i, h := range src.header {
			name := columnName(i, h)
			if seen[name]++; seen[name] > 1 {
				name = lang.L("{{.Column}} ({{.Number}})", map[string]any{"Column": name, "Number": seen[name]})
			}
			pl.options = append(pl.options, name)
		}
		matched = app.MatchColumns(agent, src.header)
		pl.about.SetText(lang.N("{{.File}}: {{.Count}} row", src.total, map[string]any{"File": filepath.Base(src.path), "Count": app.Number(src.total)}))
		which = lang.L("Which column answers each question:")
	case fromFiles:
		pl.about.SetText(lang.N("{{.Folder}}: {{.Count}} file", len(src.files), map[string]any{"Folder": safe.Text(filepath.Base(src.folder), 60), "Count": app.Number(len(src.files))}))
		labels, keys := fileKinds(src.files)
		pl.kinds = screen.NewChoice(labels, keys, pl.chooseKind)
		if len(src.files) > 0 {
			top.Add(container.New(layout.NewFormLayout(), widget.NewLabel(lang.L("Which files")), pl.kinds.Select))
		}
		if pl.fileQ != "" {
			q := pl.question(pl.fileQ)
			pl.where.SetText(lang.L("Each file goes with its run as the agent's «{{.Question}}».", map[string]any{"Question": questionLabel(agent, q, 40)}))
		} else {
			pl.where.SetText(lang.L("Each file is attached to its run."))
		}
		top.Add(pl.where)
		top.Add(screen.Wrapped(lang.L("The results go to {{.Path}}", map[string]any{"Path": src.results})))
		which = lang.L("How the agent's questions are answered:")
	case fromLines:
		pl.options = append(pl.options, lang.L("Each line"))
		if q := linesQuestion(agent); q != "" {
			matched[q] = 0
		}
		pl.about.SetText(lang.N("{{.Count}} line", src.total, map[string]any{"Count": app.Number(src.total)}))
		top.Add(screen.Wrapped(lang.L("The results go to {{.Path}}", map[string]any{"Path": src.results})))
		which = lang.L("What answers each question:")
	}
	pl.columns = len(pl.options) - 1
	pl.options = append(pl.options, pl.same)
	// A chat agent's choices start as a new chat of it would.
	suggested := map[string]string{}
	if agent.Type == client.AgentChat {
		suggested = app.DefaultChatAnswers(agent, env.App.Agents().LastAnswers(agent))
	}

	grid := container.New(layout.NewFormLayout())
	for _, q := range app.BatchQuestions(agent) {
		if src.kind == fromFiles && pl.fileQ != "" && q.Name == pl.fileQ {
			continue // each file answers it
		}
		qq := pl.newQuestion(q)
		switch i, ok := matched[q.Name]; {
		case ok && i < pl.columns:
			qq.choice.SetSelected(pl.options[i+1])
		case !offersSame(q):
			qq.choice.SetSelected(pl.notUsed)
		case suggested[q.Name] != "" && q.Required:
			qq.setFixed(suggested[q.Name])
			qq.choice.SetSelected(pl.same)
		case src.kind != fromSheet && q.Required:
			qq.choice.SetSelected(pl.same)
		default:
			qq.choice.SetSelected(pl.notUsed)
		}
		name := questionLabel(agent, q, 30)
		if q.Required {
			name = lang.L("{{.Question}} (required)", map[string]any{"Question": name})
		}
		grid.Add(widget.NewLabel(name))
		grid.Add(container.NewVBox(qq.choice, qq.field))
		pl.questions = append(pl.questions, qq)
	}

	pl.missing = kit.ErrorText()
	pl.skipped = screen.Wrapped("")
	pl.estimate = screen.Wrapped("")
	pl.firstHead = widget.NewLabelWithStyle(lang.L("What the first run is sent:"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	pl.first = container.New(layout.NewFormLayout())
	pl.parallel = kit.NewSelect([]string{"1", "2", "3", "5"}, nil)
	pl.parallel.SetSelected("1")
	pl.limit = kit.NewFormEntry()
	pl.limit.SetPlaceHolder(lang.L("No limit"))
	pl.limit.OnCtrlEnter = pl.Start
	pl.limit.OnChanged = func(string) { pl.update() }
	pl.limitErr = kit.ErrorText()
	more := container.New(layout.NewFormLayout(),
		widget.NewLabel(lang.L("Runs at once")), pl.parallel,
		widget.NewLabel(lang.L("Pause after (credits)")), container.NewVBox(pl.limit, pl.limitErr))

	body := container.NewVBox(top, widget.NewLabel(which), grid, pl.missing, pl.skipped)
	if app.FieldsQuestion(agent) != "" {
		body.Add(pl.newFacts())
	}
	body.Add(widget.NewSeparator())
	body.Objects = append(body.Objects, pl.firstHead, pl.first, widget.NewSeparator(), more, pl.estimate)
	pl.scroll = container.NewVScroll(body)

	pl.start = kit.NewPaidButton(lang.L("Start"), theme.MediaPlayIcon(), pl.Start)
	key := map[string]any{"Key": kit.CtrlName("Enter")}
	pl.start.Tip = byKind(src.kind, lang.L("Run the agent on every row ({{.Key}}). Uses credits.", key),
		lang.L("Run the agent on every file ({{.Key}}). Uses credits.", key), lang.L("Run the agent on every line ({{.Key}}). Uses credits.", key))
	pl.start.Importance = widget.HighImportance
	if src.kind == fromFiles {
		pl.kinds.Select.SetSelectedIndex(0) // all files; chooses them and updates
	} else {
		pl.update()
	}
	return pl
}

// newFacts is the field naming the facts to pull out of each reply, each
// to a column of the results sheet.
func (pl *plan) newFacts() fyne.CanvasObject {
	pl.facts = kit.NewFormMultiLineEntry()
	pl.facts.SetMinRowsVisible(2)
	pl.facts.SetPlaceHolder(lang.L("Invoice number, Date, Total, Supplier"))
	pl.facts.OnChanged = func(string) { pl.update() }
	pl.facts.OnCtrlEnter = pl.Start
	pl.factsErr = kit.ErrorText()
	about := screen.Wrapped(lang.L("Each reply gives these, and the results sheet gets a column for each. Separate them with commas or new lines."))
	about.Importance = widget.LowImportance
	return container.New(layout.NewFormLayout(), widget.NewLabel(lang.L("Facts to pull out (optional)")),
		container.NewVBox(pl.facts, pl.factsErr, about))
}

// factsAsked are the facts named and what is wrong with them ("" when nothing).
func (pl *plan) factsAsked() ([]string, string) {
	if pl.facts == nil {
		return nil, ""
	}
	return app.ParseFields(pl.facts.Text)
}

func (pl *plan) newQuestion(q client.Question) *question {
	qq := &question{q: q}
	if choices := app.Choices(q); q.Type == client.QuestionSelect && len(choices) > 0 {
		pick := screen.NewChoice(screen.ChoiceLabels(q, choices, 60), choices, pl.update)
		pick.Select.PlaceHolder = lang.L("Choose…")
		pick.SetValue(app.Default(q))
		qq.field, qq.fixedValue, qq.setFixed = pick.Select, pick.Value, pick.SetValue
	} else {
		e := kit.NewFormEntry()
		e.SetPlaceHolder(byKind(pl.src.kind, lang.L("The answer for every row"), lang.L("The answer for every file"), lang.L("The answer for every line")))
		e.OnChanged = func(string) { pl.update() }
		e.OnCtrlEnter = pl.Start
		qq.field, qq.fixedValue, qq.setFixed = e, func() string { return e.Text }, e.SetText
	}
	qq.field.Hide()
	options := pl.options
	if !offersSame(q) {
		options = options[:len(options)-1]
	}
	qq.choice = kit.NewSelect(options, func(sel string) {
		screen.ShowIf(qq.field, sel == pl.same)
		if pl.src.kind == fromLines && sel == options[1] {
			// The lines answer one question only.
			for _, other := range pl.questions {
				if other != qq && other.choice.Selected == sel {
					other.choice.SetSelected(pl.notUsed)
				}
			}
		}
		pl.update()
	})
	return qq
}

// offersSame: a file question has no same answer (a path typed once would be
// uploaded again for every row).
func offersSame(q client.Question) bool {
	return q.Type != app.QuestionFile
}

func (pl *plan) question(name string) client.Question {
	for _, q := range app.BatchQuestions(pl.agent) {
		if q.Name == name {
			return q
		}
	}
	return client.Question{Name: name}
}

// linesQuestion is what pasted lines answer by default.
func linesQuestion(agent client.Agent) string {
	if agent.Type == client.AgentChat {
		return app.ChatMessage
	}
	return app.RequestQuestion(agent)
}

func questionLabel(agent client.Agent, q client.Question, max int) string {
	if agent.Type == client.AgentChat && q.Name == app.ChatMessage {
		return app.BatchQuestionName(q)
	}
	return screen.QuestionName(q, max)
}

func columnName(i int, h string) string {
	h = safe.Text(h, 40)
	if strings.TrimSpace(h) == "" {
		return lang.L("Column {{.Letter}}", map[string]any{"Letter": columnLetter(i)})
	}
	return h
}

func columnLetter(i int) string {
	s := ""
	for i++; i > 0; i = (i - 1) / 26 {
		s = string(rune('A'+(i-1)%26)) + s
	}
	return s
}

func (pl *plan) show() {
	cancel := kit.NewButton(lang.L("Cancel"), func() { pl.dialog.Hide() })
	pl.dialog = dialog.NewCustomWithoutButtons(dialogTitle(pl.agent), pl, pl.env.Window)
	pl.dialog.SetButtons([]fyne.CanvasObject{cancel, pl.start})
	size := pl.env.Window.Canvas().Size()
	pl.dialog.Resize(fyne.NewSize(min(size.Width*0.9, 640), min(size.Height*0.9, 560)))
	// Enter does not start what costs credits; Ctrl+Enter in a field does.
	kit.ShowDialogKeys(pl.dialog, pl.env.Window, nil, pl.dialog.Hide)
}

// CreateRenderer shows the plan's content.
func (pl *plan) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(pl.scroll) }

func (pl *plan) chooseKind() {
	pl.chosen = pl.chosen[:0]
	if pl.kinds.Select.SelectedIndex() >= 0 {
		key := pl.kinds.Value()
		for _, f := range pl.src.files {
			if key == allKinds || kindKey(f.Ext) == key {
				pl.chosen = append(pl.chosen, f)
			}
		}
	}
	pl.update()
}

func (pl *plan) count() int {
	if pl.src.kind == fromFiles {
		return len(pl.chosen)
	}
	return pl.src.total
}

func (pl *plan) previewRows() [][]string {
	if pl.src.kind == fromSheet {
		return pl.src.rows
	}
	cells := pl.src.lines
	if pl.src.kind == fromFiles {
		cells = nil
		for _, f := range pl.chosen[:min(len(pl.chosen), previewRows)] {
			cells = append(cells, f.Name)
		}
	}
	out := make([][]string, 0, min(len(cells), previewRows))
	for _, c := range cells[:min(len(cells), previewRows)] {
		out = append(out, []string{c})
	}
	return out
}

func (pl *plan) lineQuestion() string {
	if pl.src.kind != fromLines {
		return ""
	}
	for _, qq := range pl.questions {
		if qq.choice.Selected == pl.options[1] {
			return qq.q.Name
		}
	}
	return ""
}

func (pl *plan) batchPlan() app.BatchPlan {
	bp := app.BatchPlan{Columns: app.ColumnMap{}, Fixed: map[string]string{}, Parallel: 1, Seen: &pl.seen}
	for _, qq := range pl.questions {
		switch sel := qq.choice.Selected; sel {
		case pl.notUsed, "":
		case pl.same:
			if v := qq.fixedValue(); strings.TrimSpace(v) != "" {
				bp.Fixed[qq.q.Name] = v
			}
		default:
			if i := slices.Index(pl.options[1:1+pl.columns], sel); i >= 0 {
				bp.Columns[qq.q.Name] = i
			}
		}
	}
	switch pl.src.kind {
	case fromSheet:
		bp.Folder = filepath.Dir(pl.src.path)
	case fromFiles:
		// As app.NewBatchFromFiles makes it.
		bp.Folder = pl.src.folder
		if pl.fileQ != "" {
			bp.Columns[pl.fileQ] = 0
		} else {
			bp.Attach = 1
		}
	}
	if n, err := strconv.Atoi(pl.parallel.Selected); err == nil && n > 0 {
		bp.Parallel = n
	}
	bp.CreditCap, _ = parseCredits(pl.limit.Text)
	bp.Fields, _ = pl.factsAsked()
	return bp
}

// blocker says what keeps the plan from starting, "" when it can.
func (pl *plan) blocker(bp app.BatchPlan) string {
	if pl.src.kind == fromFiles {
		switch {
		case len(pl.src.files) == 0:
			return lang.L("There are no files in {{.Folder}} to run on. Choose a folder with files in it.", map[string]any{"Folder": safe.Text(filepath.Base(pl.src.folder), 60)})
		case !slices.ContainsFunc(pl.chosen, func(f app.FolderFile) bool { return f.Problem == "" }):
			return lang.L("None of these files can be sent: see why below.")
		}
	}
	if pl.src.kind == fromLines && pl.lineQuestion() == "" {
		return lang.L("Choose the question each line answers: set it to Each line.")
	}
	missing := app.MissingColumns(pl.agent, bp.Columns, bp.Fixed)
	if len(missing) == 0 {
		return ""
	}
	var names []string
	for _, q := range missing {
		names = append(names, questionLabel(pl.agent, q, 40))
	}
	list := strings.Join(names, ", ")
	same := !slices.ContainsFunc(pl.questions, func(qq *question) bool {
		return qq.choice.Selected != pl.same && slices.ContainsFunc(missing, func(q client.Question) bool { return q.Name == qq.q.Name })
	})
	files := !slices.ContainsFunc(missing, offersSame)
	switch {
	case files && pl.src.kind == fromSheet:
		return lang.L("No column answers {{.Questions}}: choose the column that names each row's file.", map[string]any{"Questions": list})
	case files:
		return lang.L("{{.Questions}} needs a file of its own for each run: run the agent on a sheet with a column that names the files.", map[string]any{"Questions": list})
	case pl.src.kind == fromFiles:
		return lang.L("Give {{.Questions}} the same answer for every file.", map[string]any{"Questions": list})
	case pl.src.kind == fromLines && same:
		return lang.L("Give {{.Questions}} the same answer for every line.", map[string]any{"Questions": list})
	case pl.src.kind == fromLines:
		return lang.L("Nothing answers {{.Questions}}: choose Each line, or give the same answer for every line.", map[string]any{"Questions": list})
	case same:
		return lang.L("Give {{.Questions}} the same answer for every row.", map[string]any{"Questions": list})
	}
	return lang.L("No column answers {{.Questions}}: choose one, or give the same answer for every row.", map[string]any{"Questions": list})
}

// update shows what blocks Start, skipped runs, the first request and cost.
func (pl *plan) update() {
	if pl.start == nil {
		return // still being built
	}
	bp := pl.batchPlan()
	block := pl.blocker(bp)
	kit.ShowError(pl.missing, block)
	ok := block == ""
	if _, good := parseCredits(pl.limit.Text); good {
		kit.ShowError(pl.limitErr, "")
	} else {
		ok = false
		kit.ShowError(pl.limitErr, lang.L("Write a number of credits, or leave it empty."))
	}
	if pl.facts != nil {
		_, problem := pl.factsAsked()
		kit.ShowError(pl.factsErr, problem)
		ok = ok && problem == ""
	}
	rows := pl.previewRows()
	skipped := 0
	var why []string
	var first app.RowRequest
	var firstCells []string
	for i, cells := range rows {
		r := bp.Request(pl.agent, cells)
		if i == 0 || firstCells == nil && r.Problems == nil {
			first = r
			if r.Problems == nil {
				firstCells = cells
			}
		}
		if r.Problems == nil {
			continue
		}
		skipped++
		if len(why) < 3 {
			why = append(why, pl.rowProblem(i, cells, r.Problems))
		}
	}
	n := len(rows)
	all := map[string]any{"Count": app.Number(n)}
	some := map[string]any{"Count": app.Number(skipped), "Rows": app.Number(n)}
	switch k := pl.src.kind; {
	case len(app.MissingColumns(pl.agent, bp.Columns, bp.Fixed)) > 0 || n == 0:
		pl.skipped.SetText("")
	case skipped == 0:
		pl.skipped.SetText(byKind(k, lang.N("The first {{.Count}} row can all be sent.", n, all),
			lang.N("All {{.Count}} files checked can be sent.", n, all), lang.N("All {{.Count}} lines checked can be sent.", n, all)))
	default:
		pl.skipped.SetText(byKind(k, lang.N("{{.Count}} of the first {{.Rows}} rows would be skipped:", skipped, some),
			lang.N("{{.Count}} of the {{.Rows}} files checked would be skipped:", skipped, some),
			lang.N("{{.Count}} of the {{.Rows}} lines checked would be skipped:", skipped, some)) + "\n" + strings.Join(why, "\n"))
	}
	screen.ShowIf(pl.skipped, pl.skipped.Text != "")
	if firstCells == nil && len(rows) > 0 {
		firstCells = rows[0]
	}
	pl.showFirst(bp, firstCells, first)
	screen.ShowIf(pl.estimate, pl.src.lastCost != nil && pl.count() > 0)
	if pl.src.lastCost != nil {
		pl.estimate.SetText(lang.N("About {{.Credits}} ({{.Count}} runs × the last run's cost)", pl.count(), map[string]any{
			"Credits": app.Credits(*pl.src.lastCost * float64(pl.count())), "Count": app.Number(pl.count())}))
	}
	screen.EnableIf(ok, pl.start)
}

// rowProblem is why the i-th checked row would be skipped.
func (pl *plan) rowProblem(i int, cells []string, problems map[string]string) string {
	why := ""
	if msg, ok := problems[pl.fileQ]; ok && pl.src.kind == fromFiles {
		why = msg
	} else {
		for _, q := range append(app.BatchQuestions(pl.agent), client.Question{}) {
			if msg, ok := problems[q.Name]; ok {
				why = lang.L("{{.Question}}: {{.Problem}}", map[string]any{"Question": pl.name(q), "Problem": msg})
				break
			}
		}
	}
	switch pl.src.kind {
	case fromFiles:
		return lang.L("{{.File}}: {{.Why}}", map[string]any{"File": safe.Text(cells[0], 60), "Why": why})
	case fromLines:
		return lang.L("Line {{.Number}}: {{.Why}}", map[string]any{"Number": i + 1, "Why": why})
	}
	return lang.L("Row {{.Number}}: {{.Why}}", map[string]any{"Number": i + 2, "Why": why})
}

func (pl *plan) name(q client.Question) string {
	if q.Name == "" {
		return app.BatchQuestionName(q)
	}
	return questionLabel(pl.agent, q, 40)
}

func (pl *plan) showFirst(bp app.BatchPlan, cells []string, r app.RowRequest) {
	pl.first.Objects = nil
	add := func(name, value string) {
		n := widget.NewLabel(name)
		v := widget.NewLabel(kit.Line(value, 120))
		v.Truncation = fyne.TextTruncateEllipsis
		pl.first.Add(n)
		pl.first.Add(v)
	}
	if cells != nil {
		for _, q := range app.BatchQuestions(pl.agent) {
			v := r.Answers[q.Name]
			if pl.agent.Type == client.AgentChat && q.Name == app.ChatMessage {
				v = r.Message
			}
			if strings.TrimSpace(v) == "" {
				continue
			}
			// A choice as the plan offers it ("Balanced", not 0.5).
			if choices := app.Choices(q); q.Type == client.QuestionSelect && slices.Contains(choices, v) {
				v = screen.ChoiceLabels(q, choices, 60)[slices.Index(choices, v)]
			}
			add(questionLabel(pl.agent, q, 30), v)
		}
		if bp.Attach > 0 && bp.Attach <= len(cells) {
			add(app.BatchQuestionName(client.Question{}), cells[bp.Attach-1])
		}
	}
	pl.first.Refresh()
	on := len(pl.first.Objects) > 0
	screen.ShowIf(pl.firstHead, on)
	screen.ShowIf(pl.first, on)
}

// Start keeps the plan as a batch, starts it and shows the Batches screen,
// asking first when its runs would pass the daily limit; nothing is sent
// when the service has no room for its files.
func (pl *plan) Start() {
	if pl.start.Disabled() {
		return
	}
	bp := pl.batchPlan()
	if _, problem := pl.factsAsked(); pl.blocker(bp) != "" || problem != "" {
		return
	}
	screen.ConfirmSpend(pl.env, pl.agent, pl.count(), func() { pl.begin(bp) })
}

// begin keeps the plan as a batch and starts it.
func (pl *plan) begin(bp app.BatchPlan) {
	if pl.start.Disabled() {
		return
	}
	pl.start.Disable()
	a, agent, src := pl.env.App, pl.agent, pl.src
	question := pl.lineQuestion()
	names := make([]string, 0, len(pl.chosen))
	for _, f := range pl.chosen {
		names = append(names, f.Name)
	}
	var (
		id  int64
		err error
	)
	kit.ActShowing(a, pl.env.Window, lang.L("Getting the batch ready…"), func(ctx context.Context) {
		if err = a.Batches().Room(ctx, agent, bp); err != nil {
			return
		}
		var b app.Batch
		switch src.kind {
		case fromFiles:
			b, err = a.Batches().NewFromFiles(ctx, agent, src.folder, names, app.FreePath(src.results), bp)
		case fromLines:
			b, err = a.Batches().NewFromLines(ctx, agent, src.lines, question, app.FreePath(src.results), bp)
		default:
			b, err = a.Batches().New(ctx, agent, src.sheet, bp)
		}
		if err == nil {
			id = b.ID
			justStarted.Store(id)
			a.Batches().Start(id, agent)
		}
	}, func() {
		if err != nil {
			pl.start.Enable()
			if !errors.Is(err, context.Canceled) {
				kit.ShowInformation(lang.L("The batch did not start"), app.Describe(err), pl.env.Window)
			}
			return
		}
		if pl.dialog != nil {
			pl.dialog.Hide()
		}
		pl.env.Nav.Show(screen.ScreenBatches)
	})
}

// fileKinds are the "Which files" choices and their kinds' keys: all (allKinds),
// then each kind, most first.
func fileKinds(files []app.FolderFile) (labels, keys []string) {
	count := map[string]int{}
	exts := map[string][]string{}
	for _, f := range files {
		k := kindKey(f.Ext)
		count[k]++
		if f.Ext != "" && !slices.Contains(exts[k], f.Ext) {
			exts[k] = append(exts[k], f.Ext)
		}
	}
	found := make([]string, 0, len(count))
	for k := range count {
		found = append(found, k)
	}
	slices.SortFunc(found, func(a, b string) int {
		if count[a] != count[b] {
			return count[b] - count[a]
		}
		return strings.Compare(kindName(a), kindName(b))
	})
	labels, keys = []string{lang.L("All files ({{.Count}})", map[string]any{"Count": app.Number(len(files))})}, []string{allKinds}
	for _, k := range found {
		n := app.Number(count[k])
		label := lang.L("{{.Kind}} ({{.Count}})", map[string]any{"Kind": kindName(k), "Count": n})
		if named(k) && k != "pdf" {
			slices.Sort(exts[k])
			label = lang.L("{{.Kind}} ({{.Endings}}) ({{.Count}})", map[string]any{"Kind": kindName(k), "Endings": strings.Join(exts[k], ", "), "Count": n})
		}
		labels, keys = append(labels, label), append(keys, k)
	}
	return labels, keys
}

// allKinds is the key of "All files": no kind's, as "" is files without a type's.
const allKinds = "*"

func kindKey(ext string) string { return files.KindOf(ext).Key }

func named(key string) bool {
	return slices.ContainsFunc(files.Kinds, func(k files.Kind) bool { return k.Key == key })
}

func kindName(key string) string {
	names := map[string]string{
		"pdf":      lang.L("PDF"),
		"pictures": lang.L("Pictures"),
		"word":     lang.L("Word documents"),
		"sheets":   lang.L("Spreadsheets"),
		"slides":   lang.L("Presentations"),
		"text":     lang.L("Text files"),
		"web":      lang.L("Web pages"),
		"videos":   lang.L("Videos"),
		"sound":    lang.L("Sound recordings"),
		"":         lang.L("Files without a type"),
	}
	if name, ok := names[key]; ok {
		return name
	}
	return strings.ToUpper(strings.TrimPrefix(key, "."))
}

// byKind is what fits the source's kind: a sheet's rows, a folder's files or lines.
func byKind[T any](k sourceKind, rows, files, lines T) T {
	switch k {
	case fromFiles:
		return files
	case fromLines:
		return lines
	}
	return rows
}
