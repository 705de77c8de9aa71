package agents

import (
	"context"
	"os"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/assets"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/safe"
	"github.com/agentdesk/agentdesk/views/batches"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/richtext"
	"github.com/agentdesk/agentdesk/views/screen"
)

type detail struct {
	s       *Screen
	request string
	// agent is the full agent once loaded; until then what the list knew.
	agent client.Agent

	content *fyne.Container
	star    *kit.Button // adds to or takes out of the favourites
	full    *app.Loader[client.Agent]
	loaded  bool
	failed  bool // the content says why the agent could not be read
	tabs    *container.AppTabs
	runTab  *container.TabItem
	histTab *container.TabItem
	unbind  []func()

	form    *form
	formBox *fyne.Container
	att     screen.Attachments
	formErr *widget.Label
	// summed: formErr sums up the notes under the fields, and follows them
	// as the user fixes each.
	summed    bool
	runBtn    *kit.PaidButton
	cancelBtn *kit.Button
	progress  *fyne.Container
	keys      *widget.Label // "Uses credits · Ctrl+Enter runs it", where the progress shows during a run
	output    *outputView
	scroll    *container.Scroll
	elapsed   *widget.Label
	bar       *widget.ProgressBarInfinite
	active    *app.ActiveRun
	// running is the active run's progress; stopRun stops hearing it.
	running app.RunProgress
	stopRun func()
	clock   context.CancelFunc

	past    *live.List[app.Run]
	history *screen.Rows[app.Run]

	savedBtn *kit.Button // the agent's saved answers, beside Run
	saved    *savedPanel // their dialog, while it shows
	// pendingSaved is a saved answer to run once the form is built (0: none).
	pendingSaved int64
}

func newDetail(s *Screen, item app.AgentItem) *detail {
	agent := client.Agent{ID: item.ID, Title: item.Title, Description: item.Description, Type: item.Type}
	return &detail{s: s, agent: agent, content: container.NewStack(kit.Loading(openingText(agent)))}
}

func (d *detail) shown() {
	if d.full == nil {
		d.full = d.s.app.Agents().Open(d.agent.ID)
		d.unbind = append(d.unbind, kit.Bind(d.full, d.showAgent))
		return
	}
	d.loadHistory()
	d.startClock()
}

func (d *detail) close() {
	d.stopClock()
	if d.stopRun != nil {
		d.stopRun()
	}
	for _, stop := range d.unbind {
		stop()
	}
	d.unbind = nil
	if d.form != nil {
		d.form.close()
	}
	if d.output != nil {
		d.output.clear()
	}
}

func (d *detail) showAgent(v app.Loaded[client.Agent]) {
	switch {
	case d.loaded:
	case v.Loaded:
		d.agent = v.Value
		d.loaded = true
		d.build()
		d.loadHistory()
	case v.Loading && d.failed: // Try again
		d.failed = false
		kit.SetBody(d.content, kit.Loading(openingText(d.agent)))
	case v.Err != nil && !v.Loading:
		d.failed = true
		kit.SetBody(d.content, screen.Error(v.Err, d.full.Reload))
	}
}

func openingText(a client.Agent) string {
	return lang.L("Opening {{.Agent}}…", map[string]any{"Agent": titleOf(a)})
}

const formWidth = 880

// titleOf is the title on one line, without control or direction-changing
// characters a service could use to break the layout or disguise it.
func titleOf(a client.Agent) string { return kit.Line(a.Title, 0) }

func (d *detail) build() {
	a := d.agent
	about := a.LongDescription
	if strings.TrimSpace(about) == "" {
		about = a.Description
	}
	if strings.TrimSpace(about) == "" {
		about = lang.L("This agent has no description.")
	}
	kind := kindName(a.Type)
	if a.Inactive() {
		kind = lang.L("{{.Kind}} · switched off", map[string]any{"Kind": kind})
	}
	d.star = kit.NewButton("", d.toggleFavourite)
	d.showStar()
	head := container.NewVBox(
		container.NewBorder(nil, nil, nil, container.NewVBox(d.star),
			kit.FullHeader(safe.Text(a.Title, 0), kind)), // as written: the header orders Hebrew and Arabic per line
		aboutView(about, func() { d.content.Refresh() }),
	)

	var first *container.TabItem
	if a.Type == client.AgentChat {
		first = container.NewTabItemWithIcon(lang.L("Chat"), assets.ChatIcon, d.buildChat())
	} else {
		first = container.NewTabItemWithIcon(lang.L("Run"), theme.MediaPlayIcon(), d.buildRun())
	}
	d.runTab = first
	d.history = screen.NewRows("", newRunRow, func(_ int, r app.Run, o fyne.CanvasObject) { setRunRow(o, r) })
	d.history.OnSelected = func(id widget.ListItemID) {
		if id < len(d.history.Items) {
			d.reopen(d.history.Items[id])
		}
		d.history.UnselectAll()
	}
	d.past = d.s.app.Runs().History(a.ID)
	d.unbind = append(d.unbind, kit.Bind(d.past, d.showHistory))
	d.histTab = container.NewTabItemWithIcon(lang.L("History"), theme.HistoryIcon(), d.history.Stack)
	items := []*container.TabItem{first, d.histTab}
	items = append(items, d.s.env.Nav.AgentTabs(a)...)
	d.tabs = container.NewAppTabs(items...)
	d.tabs.OnSelected = func(t *container.TabItem) {
		if t == d.histTab {
			d.loadHistory()
		}
		d.refreshTab(t)
	}
	kit.SetBody(d.content, kit.NewBorder(container.NewPadded(head), nil, nil, nil, d.tabs))
	if d.request != "" {
		d.fillRequest(d.request)
	}
	if d.pendingSaved != 0 {
		d.runSavedID(d.pendingSaved)
	}
}

// showStar shows whether the agent is a favourite, and what pressing does.
func (d *detail) showStar() {
	if d.s.app.Agents().IsFavourite(d.agent.ID) {
		d.star.SetText(lang.L("Favourite"))
		d.star.SetIcon(assets.StarredIcon)
		d.star.Tip = lang.L("Take this agent out of the favourites at the top of the list.")
	} else {
		d.star.SetText(lang.L("Add to favourites"))
		d.star.SetIcon(assets.StarIcon)
		d.star.Tip = lang.L("Keep this agent at the top of the list.")
	}
}

// toggleFavourite stars or unstars the agent, kept at once.
func (d *detail) toggleFavourite() {
	on := !d.s.app.Agents().IsFavourite(d.agent.ID)
	item := app.ItemOf(d.agent)
	a := d.s.app
	a.Go(func() {
		err := a.Agents().SetFavourite(context.Background(), item, on)
		kit.Do(func() {
			d.showStar()
			if err != nil {
				kit.ShowInformation(lang.L("Favourites"), lang.L("The favourites could not be saved. {{.Why}}", map[string]any{"Why": app.Describe(err)}), d.s.env.Window)
			}
		})
	})
}

type reloader interface{ Reload() }

// refreshTab reloads a tab as it comes into view, to show changes made elsewhere.
func (d *detail) refreshTab(t *container.TabItem) {
	if t == nil {
		return
	}
	if r, ok := t.Content.(reloader); ok {
		r.Reload()
	}
}

func (d *detail) buildChat() fyne.CanvasObject {
	start := kit.NewButtonWithIcon(lang.L("Start chat"), assets.ChatIcon, func() { d.s.env.Nav.OpenChat(d.agent) })
	start.Importance = widget.HighImportance
	title := lang.L("Chat with {{.Agent}}", map[string]any{"Agent": titleOf(d.agent)})
	many := d.runOnMany()
	if d.agent.Inactive() {
		start.Disable()
		return kit.Empty(assets.ChatIcon, title, app.Describe(app.ErrAgentInactive), start, many)
	}
	return kit.Empty(assets.ChatIcon, title,
		lang.L("This agent answers in a conversation. Start a chat to choose its model and write your first message."), start, many)
}

func (d *detail) runOnMany() *kit.Button {
	many := kit.NewButtonWithIcon(lang.L("Run on many…"), theme.ListIcon(), func() { batches.RunOnMany(d.s.env, d.agent) })
	many.Tip = lang.L("Run the agent once for every row of a sheet, file of a folder or line of text.")
	if d.agent.Inactive() {
		many.Disable()
	}
	return many
}

// buildRun is the Run tab: form and output scroll above a bar that stays in sight.
func (d *detail) buildRun() fyne.CanvasObject {
	if d.form != nil {
		d.form.close() // built again
	}
	d.form = newForm(d.agent, d.s.app.Agents().LastAnswers(d.agent), d.submit, d.s.env.Nav.NewAttachments)
	d.form.onChange = func() {
		d.s.app.Agents().SetAnswerDraft(d.agent.ID, d.form.answers())
		if d.summed {
			d.sumUp(d.form.summaryNow())
		}
	}
	if d.form.fold != nil {
		screen.RememberOpen(d.form.fold, d.s.app)
	}

	d.formErr = kit.ErrorText()
	d.runBtn = kit.NewPaidButton(lang.L("Run agent"), theme.MediaPlayIcon(), d.run)
	d.runBtn.Tip = lang.L("Run the agent with these answers ({{.Key}}). Uses credits.", map[string]any{"Key": kit.CtrlName("Enter")})
	d.runBtn.Importance = widget.HighImportance
	d.cancelBtn = kit.NewButtonWithIcon(lang.L("Cancel"), theme.CancelIcon(), d.cancelRun)
	d.cancelBtn.Hide()
	d.bar = widget.NewProgressBarInfinite()
	d.bar.Stop()
	// Above the bar: a growing time beside it would move the bar's edge each second.
	d.elapsed = widget.NewLabel(lang.L("Running…"))
	d.elapsed.Truncation = fyne.TextTruncateEllipsis
	d.progress = container.NewVBox(d.elapsed, d.bar)
	d.progress.Hide()
	d.output = newOutputView(d.s)
	d.output.onCheckAgain = d.checkAgain
	d.output.onLoaded = d.revealOutput

	d.formBox = container.NewVBox(d.form.content)
	d.att = d.s.env.Nav.NewAttachments()
	if d.att != nil {
		add := kit.NewButtonWithIcon(lang.L("Add files…"), theme.ContentAddIcon(), d.att.AddFiles)
		d.formBox.Add(kit.NewBorder(nil, nil, add, nil, d.att.Object()))
	}
	if d.agent.Inactive() {
		d.runBtn.Disable()
		kit.ShowError(d.formErr, app.Describe(app.ErrAgentInactive))
	} else if name, why := app.Blocked(d.agent); name != "" {
		// No answer can make the form valid: say so rather than offer a Run that fails.
		d.runBtn.Disable()
		d.form.showErrors(map[string]string{name: why})
		d.sumUp(d.form.errorSummary(map[string]string{name: why}))
	}
	d.keys = screen.Quiet(lang.L("Uses credits · {{.Key}} runs it", map[string]any{"Key": kit.CtrlEnterName}))
	d.keys.Truncation = fyne.TextTruncateEllipsis // a longer language never widens the bar
	many := d.runOnMany()
	buttons := container.NewHBox(d.runBtn, d.cancelBtn, many)
	// Where the hint does not fit whole, the Run button's tip says it.
	bar := container.NewVBox(d.formErr, kit.NewBorder(nil, nil, buttons, nil, d.besideRun(container.NewStack(kit.Fitting(d.keys), d.progress))))
	body := container.NewVBox(d.formBox, widget.NewSeparator(), d.output.content)
	// Fields and results no wider than a readable line on a wide screen.
	d.scroll = container.NewVScroll(container.NewPadded(kit.MaxWidth(body, formWidth)))
	if ar := d.s.runner.Active(d.agent.ID); ar != nil {
		d.watch(ar)
	}
	pane := container.NewBorder(nil, container.NewVBox(widget.NewSeparator(), container.NewPadded(bar)), nil, nil, d.scroll)
	return newRunPane(pane, d.dropped)
}

type runPane struct {
	widget.BaseWidget
	content fyne.CanvasObject
	drop    func(paths []string)
}

// Unwrap is what the pane shows (kit.Wrapper).
func (p *runPane) Unwrap() fyne.CanvasObject { return p.content }

func newRunPane(content fyne.CanvasObject, drop func([]string)) *runPane {
	p := &runPane{content: content, drop: drop}
	p.ExtendBaseWidget(p)
	return p
}

func (p *runPane) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(p.content) }

// Dropped gives files dropped on the Run tab to the form.
func (p *runPane) Dropped(paths []string) { p.drop(paths) }

// DropHint: files dropped on the Run tab go with the next run, or one run each.
func (p *runPane) DropHint() (string, bool) {
	return lang.L("Drop the files to send them with the next run, or to run once for each"), true
}

// dropped routes dropped files: a lone sheet asks next run or one run per
// row, several files or a folder ask one run or one each, else attach.
func (d *detail) dropped(paths []string) {
	if d.form == nil || len(paths) == 0 {
		return
	}
	if !d.agent.Inactive() {
		switch {
		case len(paths) == 1 && len(d.form.emptyFiles()) == 0 && batches.IsSheet(paths[0]):
			if d.att == nil {
				batches.ShowPlan(d.s.env, d.agent, paths[0])
				return
			}
			batches.AskDroppedSheet(d.s.env, d.agent, paths[0], func() { d.attach(paths) })
			return
		case len(paths) > 1 || isFolder(paths[0]):
			batches.AskDropped(d.s.env, d.agent, paths, func() { d.attach(paths) })
			return
		}
	}
	d.attach(paths)
}

func isFolder(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// attach fills the empty file questions in order; the rest go with the next
// run, and the user is told when there is nowhere to put them.
func (d *detail) attach(paths []string) {
	if d.form == nil {
		return
	}
	rest := paths
	for _, fl := range d.form.emptyFiles() {
		if len(rest) == 0 {
			return
		}
		fl.att.Dropped(rest[:1])
		rest = rest[1:]
	}
	switch {
	case len(rest) == 0:
	case d.att != nil:
		d.att.Dropped(rest)
	default:
		kit.ShowInformation(lang.L("Files not added"), lang.L("This agent's form has no room for more files."), d.s.env.Window)
	}
}

func (d *detail) revealOutput() {
	if d.scroll == nil || d.s.current != d {
		return
	}
	d.scroll.Refresh()
	y := d.output.content.Position().Y
	if limit := d.scroll.Content.MinSize().Height - d.scroll.Size().Height; y > limit {
		y = limit
	}
	if y > 0 {
		d.scroll.ScrollToOffset(fyne.NewPos(0, y))
	}
}

// sumUp shows summary of the fields' notes under the form ("" hides it),
// to be kept in step with them as they are fixed.
func (d *detail) sumUp(summary string) {
	kit.ShowError(d.formErr, summary)
	d.summed = summary != ""
}

func (d *detail) submit() {
	if d.runBtn != nil && !d.runBtn.Disabled() && (d.tabs == nil || d.tabs.Selected() == d.runTab) {
		d.run()
	}
}

// run checks the form and starts the agent, asking first when the run
// would pass the daily limit; the run outlives the screen.
func (d *detail) run() {
	if d.form == nil || d.active != nil {
		return
	}
	if app.CheckAnswers(d.agent, d.form.answers()) != nil || d.form.uploading() || (d.att != nil && d.att.Pending()) {
		d.start() // says what to do first; runs nothing
		return
	}
	screen.ConfirmSpend(d.s.env, d.agent, 1, d.start)
}

// start checks the form and starts the agent.
func (d *detail) start() {
	if d.form == nil || d.active != nil {
		return
	}
	d.sumUp("")
	d.form.showErrors(nil)
	if (d.att != nil && d.att.Pending()) || d.form.uploading() {
		kit.ShowError(d.formErr, lang.L("Files are still uploading. Run again when they are done."))
		return
	}
	var ids []client.ID
	if d.att != nil {
		ids = d.att.FileIDs()
	}
	ar, err := d.s.runner.Start(d.agent, d.form.answers(), ids)
	if err != nil {
		if fe, ok := err.(*app.FormError); ok {
			d.form.showErrors(fe.Fields)
			d.sumUp(d.form.errorSummary(fe.Fields))
			return
		}
		kit.ShowError(d.formErr, barText(app.Describe(err)))
		return
	}
	if d.att != nil {
		d.att.Clear()
	}
	d.watch(ar)
}

// barMax: a service's long error must not push Run out of sight.
const barMax = 300

func barText(msg string) string { return safe.Text(msg, barMax) }

// checkAgain looks up a run still going on the service; it never runs it again.
func (d *detail) checkAgain(r app.Run) {
	if d.active != nil {
		return
	}
	ar, err := d.s.runner.CheckAgain(d.agent, r)
	if err != nil {
		kit.ShowError(d.formErr, barText(app.Describe(err)))
		return
	}
	d.watch(ar)
}

func (d *detail) watch(ar *app.ActiveRun) {
	d.active = ar
	d.showRunning(true)
	d.output.clear()
	d.stopRun = bindUntil(ar.State(), func(p app.RunProgress) bool {
		if d.active != ar {
			return true
		}
		if !p.Done {
			d.running = p
			d.showElapsed()
			d.startClock()
			return false
		}
		d.ended(ar, p)
		return true
	})
}

// showRunning swaps Run and the keys for Cancel and the progress while a run goes.
func (d *detail) showRunning(on bool) {
	screen.EnableIf(!on, d.runBtn)
	screen.ShowIf(d.cancelBtn, on)
	screen.ShowIf(d.keys, !on)
	screen.ShowIf(d.progress, on)
	if on {
		d.bar.Start()
	} else {
		d.bar.Stop()
	}
}

func (d *detail) showElapsed() {
	p := d.running
	took := time.Since(p.Started).Round(time.Second)
	text := lang.L("Running…")
	if took >= time.Second {
		text = lang.L("Running for {{.Time}}…", map[string]any{"Time": app.HowLong(took)})
	}
	if left := time.Until(p.WaitingUntil).Round(time.Second); left > 0 {
		text = lang.L("The service asked to wait: going on in {{.Time}}… (Cancel stops waiting)", map[string]any{"Time": app.HowLong(left)})
	}
	d.elapsed.SetText(text)
}

// startClock redraws the run's time while this agent's run goes and is on show.
func (d *detail) startClock() {
	if d.clock != nil || d.active == nil || d.s.current != d {
		return
	}
	ctx, cancel := context.WithCancel(d.s.app.Life())
	d.clock = cancel
	d.showElapsed()
	d.s.app.Go(func() {
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				kit.Do(func() {
					if ctx.Err() == nil {
						d.showElapsed()
					}
				})
			}
		}
	})
}

func (d *detail) stopClock() {
	if d.clock != nil {
		d.clock()
		d.clock = nil
	}
}

func (d *detail) ended(ar *app.ActiveRun, p app.RunProgress) {
	d.active = nil
	d.stopClock()
	d.showRunning(false)
	if fields := app.FieldErrors(p.Err); fields != nil {
		rest := d.form.showErrors(fields)
		msg := strings.TrimSpace(d.form.errorSummary(fields) + " " + strings.Join(rest, " "))
		switch {
		case msg == "":
			kit.ShowError(d.formErr, lang.L("The service did not accept the answers. Change them and run again."))
		case len(rest) == 0:
			d.sumUp(msg)
		default:
			kit.ShowError(d.formErr, barText(msg))
		}
	}
	d.output.show(p.Run, p.Took)
	if p.SaveErr != nil {
		d.output.note(lang.L("This run could not be kept in the history: {{.Why}}", map[string]any{"Why": app.Describe(p.SaveErr)}))
	}
	d.revealOutput()
	d.loadHistory()
	d.s.runFinished(ar, p)
}

func (d *detail) cancelRun() {
	if d.active != nil {
		d.active.Cancel()
	}
}

func (d *detail) loadHistory() {
	if d.past != nil {
		d.past.Reload()
	}
}

func (d *detail) showHistory(st live.ListState[app.Run]) {
	var body fyne.CanvasObject
	runs := st.Items
	switch {
	case st.Err != nil:
		body = screen.Error(st.Err, d.loadHistory)
	case !st.Loaded:
		body = kit.Loading(lang.L("Loading this agent's runs…"))
	case len(runs) == 0 && d.agent.Type == client.AgentChat:
		body = kit.Empty(theme.HistoryIcon(), lang.L("No runs here"),
			lang.L("Conversations with this agent are kept in the Chats screen."))
	case len(runs) == 0:
		body = kit.Empty(theme.HistoryIcon(), lang.L("No runs yet"),
			lang.L("Answer the questions on the Run tab and press Run. Every run is kept here."))
	default:
		d.history.Items = runs
		d.history.Refresh()
		body = d.history.List
	}
	kit.SetBody(d.history.Stack, body)
}

// fillRequest writes text in the request question and shows the Run tab
// focused there; an agent not read yet gets it once its form is built.
// No text (the agent opened from the command box) leaves the form alone.
func (d *detail) fillRequest(text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	if d.form == nil {
		d.request = text
		return
	}
	d.request = ""
	name := app.RequestQuestion(d.agent)
	fl := d.form.byName[name]
	if fl == nil || fl.set == nil || fl.get == nil {
		return
	}
	// What the user wrote stays: the template goes under it.
	if had := strings.TrimSpace(fl.get()); had != "" && had != strings.TrimSpace(text) {
		text = had + "\n\n" + text
	}
	fl.set(text)
	if d.form.onChange != nil {
		d.form.onChange()
	}
	if d.tabs != nil {
		d.tabs.Select(d.runTab)
	}
	if f, ok := fl.input.(fyne.Focusable); ok && d.s.env.Window != nil {
		d.s.env.Window.Canvas().Focus(f)
	}
}

func (d *detail) reopen(r app.Run) {
	if d.form == nil {
		return
	}
	d.form.setAnswers(r.Inputs)
	d.tabs.Select(d.runTab)
	if d.active == nil {
		d.output.show(r, 0)
		d.revealOutput()
	}
}

func newRunRow() fyne.CanvasObject {
	// A row's size is its template's, in the language in use.
	when := widget.NewLabelWithStyle(app.DateTime(time.Date(2026, 11, 21, 10, 0, 0, 0, time.Local)), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	summary := screen.Quiet(lang.L("No text"))
	summary.Truncation = fyne.TextTruncateEllipsis
	credits := widget.NewLabel(app.Credits(0.001))
	return container.NewBorder(nil, nil, widget.NewIcon(theme.ConfirmIcon()), credits, container.NewVBox(when, summary))
}

func setRunRow(o fyne.CanvasObject, r app.Run) {
	row := o.(*fyne.Container)
	text := row.Objects[0].(*fyne.Container)
	text.Objects[0].(*widget.Label).SetText(app.DateTime(r.CreatedAt))
	text.Objects[1].(*widget.Label).SetText(runSummary(r))
	icon, _ := statusOf(r.Status)
	row.Objects[1].(*widget.Icon).SetResource(icon)
	c := ""
	if r.Credits != nil {
		c = app.Credits(*r.Credits)
	}
	row.Objects[2].(*widget.Label).SetText(c)
}

func runSummary(r app.Run) string {
	switch r.Status {
	case app.RunRunning:
		return lang.L("Still running…")
	case app.RunFailed, app.RunCancelled:
		return r.Error
	case app.RunStillRunning:
		return lang.L("Still running on the service")
	}
	if app.IsMediaOutput(r.AgentType, r.Output) {
		if r.AgentType == client.AgentVideo {
			return lang.L("A video")
		}
		return lang.L("A picture")
	}
	if p := app.Preview(r.Output); p != "" {
		return p
	}
	return lang.L("No text")
}

// statusOf is a run status's icon, and its words atop the run's result.
func statusOf(status string) (fyne.Resource, string) {
	switch status {
	case app.RunRunning:
		return theme.MediaPlayIcon(), lang.L("This run had not finished when Agent Desk last saw it")
	case app.RunFailed:
		return theme.ErrorIcon(), lang.L("The run did not finish")
	case app.RunCancelled:
		return theme.CancelIcon(), lang.L("Cancelled")
	case app.RunStillRunning:
		return theme.HistoryIcon(), lang.L("Still running on the service")
	}
	return theme.ConfirmIcon(), lang.L("Result")
}

func showSaveError(err error, w fyne.Window) {
	kit.ShowInformation(lang.L("Not saved"), app.Describe(err), w)
}

// bindUntil shows each snapshot of o until show reports the last one it
// needs; stop ends it sooner.
func bindUntil[T any](o live.Observable[T], show func(T) (last bool)) (stop func()) {
	done := false
	stop = kit.Bind(o, func(v T) {
		if done {
			return
		}
		if show(v) {
			done = true
			if stop != nil {
				stop()
			}
		}
	})
	if done { // the first snapshot was already the last
		stop()
	}
	return stop
}

// aboutFold: a longer description folds behind "Show more" so the questions
// and Run stay in sight.
const aboutFold = 96

const aboutOpen = 0.4

func canvasOf(o fyne.CanvasObject) fyne.Canvas {
	if fa := fyne.CurrentApp(); fa != nil {
		return fa.Driver().CanvasForObject(o)
	}
	return nil
}

// aboutView shows a description as markdown under the server-text rules,
// folded to aboutFold; relayout runs when its height changes.
func aboutView(about string, relayout func()) fyne.CanvasObject {
	rich, _ := richtext.NewMarkdownText(about)
	fold := &foldLayout{max: aboutFold, relayout: relayout}
	scroll := container.NewVScroll(rich)
	box := container.New(fold, scroll)
	more := kit.NewButtonWithIcon(lang.L("Show more"), theme.MenuDropDownIcon(), nil)
	more.Importance = widget.LowImportance
	more.OnTapped = func() {
		fold.open = !fold.open
		more.Text, more.Icon = lang.L("Show more"), theme.MenuDropDownIcon()
		if fold.open {
			more.Text, more.Icon = lang.L("Show less"), theme.MenuDropUpIcon()
		} else {
			scroll.ScrollToTop()
		}
		more.Refresh()
		box.Refresh()
	}
	fold.onOverflow = func(over bool) {
		screen.ShowIf(more, over || fold.open)
	}
	more.Hide()
	return container.NewVBox(box, container.NewHBox(more))
}

// foldLayout gives the text its natural height, at most max while folded;
// onOverflow hears whether there is more, so "Show more" shows only then.
type foldLayout struct {
	max        float32
	open       bool
	over       bool
	width      float32
	height     float32 // the natural height last reported
	onOverflow func(bool)
	relayout   func()
}

func (f *foldLayout) natural(o fyne.CanvasObject, w float32) float32 {
	s := o.(*container.Scroll)
	if w > 0 {
		s.Content.Resize(fyne.NewSize(w, s.Content.MinSize().Height))
	}
	return s.Content.MinSize().Height
}

func (f *foldLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	h := f.natural(objs[0], f.width)
	over := h > f.max
	if over != f.over {
		f.over = over
		f.onOverflow(over)
	}
	f.height = h
	if !f.open {
		h = min(h, f.max)
	} else if c := canvasOf(objs[0]); c != nil && c.Size().Height > 0 {
		// Unfolded, past aboutOpen of the window the text scrolls, leaving room for Run.
		h = min(h, max(f.max, c.Size().Height*aboutOpen))
	}
	// The width is the window's: text wraps to it, never widens it.
	return fyne.NewSize(0, h)
}

func (f *foldLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if size.Width != f.width {
		f.width = size.Width
		// Relayout after this layout, not inside it.
		if h := f.natural(objs[0], size.Width); h != f.height {
			kit.Do(f.relayout)
		}
	}
	objs[0].Resize(size)
}
