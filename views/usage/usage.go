// Package usage is the Usage screen: what the work cost by day, agent and
// batch over a period, the day's total against a daily limit the user sets,
// each charge, and the report as CSV.
package usage

import (
	"bytes"
	"context"
	"image/color"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/ledger"
	"github.com/agentdesk/agentdesk/internal/safe"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

// periods are the periods offered in days (1: today); periodDefault is
// chosen first.
var periods = []int{1, 7, 30, 90, 365}

const periodDefault = 2

func periodLabel(days int) string {
	if days == 1 {
		return lang.L("Today")
	}
	return lang.N("Last {{.Count}} day", days, map[string]any{"Count": app.Number(days)})
}

// Screen is the Usage screen.
type Screen struct {
	env    screen.Env
	period *kit.Select
	export *kit.Button

	today    *widget.Label
	bar      *widget.ProgressBar
	limit    *kit.FormEntry
	keep     *kit.Button
	noLimit  *kit.Button
	limitErr *widget.Label
	// shownLimit is the limit last written in the field: the field follows
	// the account's limit, never over what is being typed.
	shownLimit float64

	total   *widget.Label
	stack   *fyne.Container
	groups  *container.AppTabs // by day, agent and batch, and each charge
	report  ledger.Report
	days    *kit.List
	agents  *kit.List
	batches *kit.List
	recent  *kit.List
	content fyne.CanvasObject
	// loads counts the reports asked for: the newest shown wins.
	loads uint64
}

// New builds the Usage screen.
func New(env screen.Env) screen.Screen { return newScreen(env) }

func newScreen(env screen.Env) *Screen {
	s := &Screen{env: env}
	labels := make([]string, len(periods))
	for i, days := range periods {
		labels[i] = periodLabel(days)
	}
	s.period = kit.NewSelect(labels, func(string) { s.Reload() })
	s.period.Selected = labels[periodDefault]
	s.export = kit.NewButtonWithIcon(lang.L("Export CSV…"), theme.DocumentSaveIcon(), s.Export)
	s.export.Disable()
	header := kit.Header(lang.L("Usage"), lang.L("What your work with agents cost, as this computer recorded it."), kit.Widened(s.period, 220), s.export)

	s.today = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	s.today.Wrapping = fyne.TextWrapWord
	s.bar = widget.NewProgressBar()
	s.bar.TextFormatter = func() string { return "" } // the line above says it in words
	s.bar.Hide()
	s.limit = kit.NewFormEntry()
	s.limit.SetPlaceHolder(lang.L("No limit"))
	s.limit.OnSubmitted = func(string) { s.keepLimit() }
	s.keep = kit.NewButtonWithIcon(lang.L("Set limit"), theme.ConfirmIcon(), s.keepLimit)
	s.noLimit = kit.NewButtonWithIcon(lang.L("Remove limit"), theme.ContentClearIcon(), func() {
		s.limit.SetText("")
		s.keepLimit()
	})
	s.noLimit.Hide()
	s.limitErr = kit.ErrorText()
	limitName := widget.NewLabelWithStyle(lang.L("Daily limit in credits"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	limitRow := kit.NewBorder(limitName, nil, nil, container.NewHBox(s.keep, s.noLimit), s.limit)
	limitNote := screen.Wrapped(lang.L("Agent Desk asks before a run, a message or a batch that would take the day past it."))
	limitNote.Importance = widget.LowImportance
	day := container.NewVBox(s.today, s.bar, limitRow, s.limitErr, limitNote)

	s.total = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	s.total.Wrapping = fyne.TextWrapWord
	s.days = s.newDays()
	s.agents = rows(func() int { return len(s.report.ByAgent) }, func(id int) (string, float64) {
		ag := s.report.ByAgent[id]
		return lang.N("{{.Agent}} ({{.Count}} charge)", ag.Calls, map[string]any{"Agent": safe.Text(ag.AgentTitle, 0), "Count": app.Number(ag.Calls)}), ag.Credits
	})
	s.batches = s.newBatches()
	s.recent = rows(func() int { return len(s.report.Recent) }, func(id int) (string, float64) {
		c := s.report.Recent[id]
		return app.ShortDateTime(c.At) + " · " + chargeName(c), c.Credits
	})
	s.groups = container.NewAppTabs(
		container.NewTabItem(lang.L("By day"), s.days),
		container.NewTabItem(lang.L("By agent"), s.agents),
		container.NewTabItem(lang.L("By batch"), s.batches),
		container.NewTabItem(lang.L("Each charge"), s.recent),
	)
	s.stack = container.NewStack(kit.Loading(lang.L("Adding up credits…")))
	// The service tells no program the balance: say where it is.
	balance := screen.Wrapped(lang.L("These are the credits Agent Desk spent from this computer. Your balance is kept by the service: see it in the service's web app."))
	balance.Importance = widget.LowImportance
	top := container.NewVBox(day, widget.NewSeparator(), s.total)
	// In a short window (or with large text) the screen under its header
	// scrolls, its lists keeping rows enough to read. The header stays out
	// of the scroll: its buttons go under its title only when squeezed.
	body := &fyne.Container{Layout: listsLayout{}, Objects: []fyne.CanvasObject{container.NewPadded(s.stack)}}
	rest := container.NewVScroll(kit.NewBorder(container.NewPadded(top), container.NewPadded(balance), nil, nil, body))
	s.content = kit.NewBorder(container.NewPadded(header), nil, nil, nil, rest)
	screen.OnCharge(env.App, func() {
		if screen.InWindow(env.Window, s.content) {
			s.Reload()
		}
	})
	return s
}

// Content is the screen's widget tree.
func (s *Screen) Content() fyne.CanvasObject { return s.content }

// Shown adds the credits up again each time the user comes to the screen.
func (s *Screen) Shown() { s.Reload() }

// MoveTab goes to the next or previous grouping (Ctrl+Tab).
func (s *Screen) MoveTab(delta int) {
	n := len(s.groups.Items)
	s.groups.SelectIndex(((s.groups.SelectedIndex()+delta)%n + n) % n)
}

func chargeName(c app.CreditRecord) string {
	switch c.Kind {
	case app.ChargeFile:
		return lang.L("file upload")
	case app.ChargeMemory:
		return lang.L("memory saved")
	}
	return safe.Text(c.AgentTitle, 0)
}

// rows is a list of n names, each with its credits.
func rows(n func() int, line func(id int) (string, float64)) *kit.List {
	return kit.NewList(n, func() fyne.CanvasObject {
		name := widget.NewLabel(lang.L("By agent")) // any one line: the row's height
		name.Truncation = fyne.TextTruncateEllipsis
		return container.NewBorder(nil, nil, nil, widget.NewLabel("0.0000"), name)
	}, func(id widget.ListItemID, o fyne.CanvasObject) {
		if id < n() {
			name, credits := line(id)
			c := o.(*fyne.Container)
			c.Objects[0].(*widget.Label).SetText(name)
			c.Objects[1].(*widget.Label).SetText(app.CreditsColumn(credits))
		}
	})
}

// newDays lists the days newest first, each with a bar as long as its
// share of the largest day (or of the limit, when that is larger), in the
// colour of an error past the limit.
func (s *Screen) newDays() *kit.List {
	n := func() int { return len(s.report.ByDay) }
	return kit.NewList(n, func() fyne.CanvasObject {
		name := widget.NewLabel(app.DayDate(time.Date(2026, 9, 30, 0, 0, 0, 0, time.Local))) // a long day: the column's width
		credits := widget.NewLabel("0.0000")
		bar := canvas.NewRectangle(theme.Color(theme.ColorNamePrimary))
		bar.CornerRadius = theme.InputRadiusSize()
		return container.NewBorder(nil, nil, name, credits, &fyne.Container{Layout: &barLayout{}, Objects: []fyne.CanvasObject{bar}})
	}, func(id widget.ListItemID, o fyne.CanvasObject) {
		if id >= n() {
			return
		}
		d := s.report.ByDay[n()-1-id] // newest first
		c := o.(*fyne.Container)
		c.Objects[1].(*widget.Label).SetText(app.DayDate(d.Day))
		c.Objects[2].(*widget.Label).SetText(app.CreditsColumn(d.Credits))
		cell := c.Objects[0].(*fyne.Container)
		bar := cell.Objects[0].(*canvas.Rectangle)
		most := s.report.Limit
		for _, d := range s.report.ByDay {
			most = max(most, d.Credits)
		}
		var col color.Color = theme.Color(theme.ColorNamePrimary)
		if s.report.Limit > 0 && d.Credits > s.report.Limit {
			col = theme.Color(theme.ColorNameError)
		}
		bar.FillColor = col
		share := float32(0)
		if most > 0 {
			share = float32(d.Credits / most)
		}
		cell.Layout.(*barLayout).share = share
		cell.Refresh()
	})
}

// listsLayout gives the lists the room left, and asks for at least
// listRows rows of text.
type listsLayout struct{}

const listRows = 6

func (listsLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	m := objects[0].MinSize()
	row := fyne.MeasureText("M", theme.TextSize(), fyne.TextStyle{}).Height + 2*theme.InnerPadding()
	return fyne.NewSize(m.Width, max(m.Height, listRows*row))
}

func (listsLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	objects[0].Move(fyne.NewPos(0, 0))
	objects[0].Resize(size)
}

// barLayout draws its one bar share of its width, centred in its height.
type barLayout struct{ share float32 }

func (l *barLayout) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(0, 0) }

func (l *barLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	h := min(size.Height, theme.TextSize()*0.8)
	objects[0].Move(fyne.NewPos(0, (size.Height-h)/2))
	objects[0].Resize(fyne.NewSize(max(size.Width*l.share, 1), h))
}

// newBatches lists the batches, each with its agent, sheet, start and runs.
func (s *Screen) newBatches() *kit.List {
	n := func() int { return len(s.report.ByBatch) }
	return kit.NewList(n, func() fyne.CanvasObject {
		return container.NewBorder(nil, nil, nil, widget.NewLabel("0.0000"), kit.NewTwoLineRow())
	}, func(id widget.ListItemID, o fyne.CanvasObject) {
		if id >= n() {
			return
		}
		b := s.report.ByBatch[id]
		c := o.(*fyne.Container)
		kit.SetTwoLineRow(c.Objects[0], safe.Text(ledger.BatchName(b), 0)+" · "+safe.Text(b.AgentTitle, 0),
			lang.N("Started {{.When}} · {{.Count}} run", b.Calls, map[string]any{"When": app.ShortDateTime(b.CreatedAt), "Count": app.Number(b.Calls)}))
		c.Objects[1].(*widget.Label).SetText(app.CreditsColumn(b.Credits))
	})
}

func (s *Screen) periodDays() int {
	if i := s.period.SelectedIndex(); i >= 0 && i < len(periods) {
		return periods[i]
	}
	return periods[periodDefault]
}

// Reload adds the credits up again for the chosen period.
func (s *Screen) Reload() {
	days := s.periodDays()
	s.loads++
	load := s.loads
	a := s.env.App
	a.Go(func() {
		r, err := a.Ledger().OverDays(context.Background(), days)
		kit.Do(func() {
			if load == s.loads {
				s.show(r, err)
			}
		})
	})
}

func (s *Screen) show(r ledger.Report, err error) {
	if err != nil {
		kit.SetBody(s.stack, screen.Error(err, s.Reload))
		s.total.SetText("")
		s.export.Disable()
		return
	}
	s.report = r
	s.showDay(r.Today, r.Limit)
	days := s.periodDays()
	if days == 1 {
		s.total.SetText(lang.L("{{.Credits}} spent today", map[string]any{"Credits": app.Credits(r.Total)}))
	} else {
		s.total.SetText(lang.N("{{.Credits}} in the last {{.Count}} day", days, map[string]any{"Credits": app.Credits(r.Total), "Count": app.Number(days)}))
	}
	if len(r.ByDay) == 0 {
		s.export.Disable()
		kit.SetBody(s.stack, kit.Empty(theme.InfoIcon(), lang.L("Nothing spent in this period"),
			lang.L("Running agents, uploading files and saving memories cost credits. They show here once used.")))
	} else {
		s.export.Enable()
		each := lang.L("Each charge")
		if len(r.Recent) >= ledger.RecentMax {
			each = lang.N("The last {{.Count}} charge", ledger.RecentMax, map[string]any{"Count": app.Number(ledger.RecentMax)})
		}
		if tab := s.groups.Items[len(s.groups.Items)-1]; tab.Text != each {
			tab.Text = each
			s.groups.Refresh()
		}
		kit.ShowBody(s.stack, s.groups)
	}
	s.days.Refresh()
	s.agents.Refresh()
	s.batches.Refresh()
	s.recent.Refresh()
}

// showDay shows the day's total against the limit, and the limit in its
// field unless the user is changing it.
func (s *Screen) showDay(today, limit float64) {
	s.today.Importance = widget.MediumImportance
	switch {
	case limit == 0:
		s.today.SetText(lang.L("Today: {{.Credits}}. No daily limit is set.", map[string]any{"Credits": app.Credits(today)}))
	case today > limit:
		s.today.Importance = widget.DangerImportance
		s.today.SetText(lang.L("Today: {{.Spent}} of {{.Limit}}, past your daily limit.", map[string]any{"Spent": app.CreditsFigure(today), "Limit": app.Credits(limit)}))
	default:
		s.today.SetText(lang.L("Today: {{.Spent}} of {{.Limit}}", map[string]any{"Spent": app.CreditsFigure(today), "Limit": app.Credits(limit)}))
	}
	s.today.Refresh()
	screen.ShowIf(s.bar, limit > 0)
	if limit > 0 {
		s.bar.Max = limit
		s.bar.SetValue(min(today, limit))
	}
	if limit != s.shownLimit {
		s.shownLimit = limit
		s.limit.SetText(limitText(limit))
		kit.ShowError(s.limitErr, "")
	}
	screen.ShowIf(s.noLimit, limit > 0)
}

// limitText is a limit as the field shows it ("" for none).
func limitText(limit float64) string {
	if limit == 0 {
		return ""
	}
	return app.CreditsFigure(limit)
}

// keepLimit keeps the limit written in the field at once, or says how to
// write it.
func (s *Screen) keepLimit() {
	limit, ok := ledger.ParseLimit(s.limit.Text)
	if !ok {
		kit.ShowError(s.limitErr, lang.L("Write the limit as a number of credits above zero, like 50, or leave the field empty for no limit."))
		return
	}
	kit.ShowError(s.limitErr, "")
	a := s.env.App
	var err error
	kit.Act(a, func(ctx context.Context) {
		err = a.Accounts().UpdatePrefs(ctx, func(p *app.AccountPrefs) { p.DailyLimit = limit })
	}, func() {
		if err != nil {
			kit.ShowError(s.limitErr, lang.L("The limit could not be kept. {{.Why}}", map[string]any{"Why": app.Describe(err)}))
			return
		}
		s.shownLimit = -1 // written as kept
		s.Reload()
	})
}

// Export asks where to save the report and writes it as CSV.
func (s *Screen) Export() {
	var buf bytes.Buffer
	if err := s.report.WriteCSV(&buf); err != nil {
		kit.ShowInformation(lang.L("Not exported"), app.Describe(err), s.env.Window)
		return
	}
	data := buf.Bytes()
	screen.SaveFile(s.env, lang.L("Credits exported"), lang.L("agentdesk-credits-{{.Day}}.csv", map[string]any{"Day": time.Now().Format("2006-01-02")}), []string{".csv"},
		func(string) []byte { return data })
}
