// Package credits is the credits view: spending by day and agent, exportable as CSV.
package credits

import (
	"bytes"
	"context"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/ledger"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

// periods are the periods offered in days; periodDefault is chosen first.
var periods = []int{7, 30, 90, 365}

const periodDefault = 1

func periodLabel(days int) string {
	return lang.N("Last {{.Count}} day", days, map[string]any{"Count": app.Number(days)})
}

// View is the credits view's content.
type View struct {
	env    screen.Env
	period *kit.Select
	total  *widget.Label
	stack  *fyne.Container
	export *kit.Button
	report ledger.Report
	days   *kit.List
	agents *kit.List
	recent *kit.List
	Object fyne.CanvasObject // the view
	// unfollow stops following charges (when its dialog is closed).
	unfollow func()
}

// Show opens the credits view in a dialog over the window.
func Show(env screen.Env) {
	v := NewView(env)
	d := dialog.NewCustom(lang.L("Credits"), lang.L("Close"), v.Object, env.Window)
	d.SetOnClosed(v.unfollow)
	// As big as the window allows, up to a comfortable size: never clipped.
	win := env.Window.Canvas().Size()
	d.Resize(fyne.NewSize(min(win.Width*0.95, 900), min(win.Height*0.92, 640)))
	kit.ShowDialog(d, env.Window)
	v.Reload()
}

// NewView builds the credits view (Show puts it in a dialog).
func NewView(env screen.Env) *View {
	v := &View{env: env}
	v.total = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	labels := make([]string, len(periods))
	for i, days := range periods {
		labels[i] = periodLabel(days)
	}
	v.period = kit.NewSelect(labels, func(string) { v.Reload() })
	v.period.Selected = labels[periodDefault]
	v.export = kit.NewButtonWithIcon(lang.L("Export CSV…"), theme.DocumentSaveIcon(), v.Export)
	v.days = rows(func() int { return len(v.report.ByDay) }, func(id int) (string, float64) {
		d := v.report.ByDay[len(v.report.ByDay)-1-id] // newest first
		return app.DayDate(d.Day), d.Credits
	})
	v.agents = rows(func() int { return len(v.report.ByAgent) }, func(id int) (string, float64) {
		ag := v.report.ByAgent[id]
		return lang.N("{{.Agent}} ({{.Count}} charge)", ag.Calls, map[string]any{"Agent": ag.AgentTitle, "Count": app.Number(ag.Calls)}), ag.Credits
	})
	v.recent = rows(func() int { return len(v.report.Recent) }, func(id int) (string, float64) {
		c := v.report.Recent[id]
		return app.ShortDateTime(c.At) + " · " + chargeName(c), c.Credits
	})
	v.stack = container.NewStack(kit.Loading(lang.L("Adding up credits…")))
	top := container.NewBorder(nil, nil, nil, container.NewHBox(v.period, v.export), v.total)
	// The service tells no program the balance: say where it is.
	balance := screen.Wrapped(lang.L("These are the credits Agent Desk spent from this computer. Your balance is kept by the service: see it in the service's web app."))
	balance.Importance = widget.LowImportance
	v.Object = kit.NewBorder(top, balance, nil, nil, v.stack)
	v.unfollow = screen.OnCharge(env.App, v.Reload)
	return v
}

func chargeName(c app.CreditRecord) string {
	switch c.Kind {
	case app.ChargeFile:
		return lang.L("file upload")
	case app.ChargeMemory:
		return lang.L("memory saved")
	}
	return c.AgentTitle
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

func (v *View) periodDays() int {
	if i := v.period.SelectedIndex(); i >= 0 && i < len(periods) {
		return periods[i]
	}
	return periods[periodDefault]
}

// Reload adds the credits up again for the chosen period.
func (v *View) Reload() {
	days := v.periodDays()
	a := v.env.App
	a.Go(func() {
		r, err := a.Ledger().OverDays(context.Background(), days)
		kit.Do(func() { v.show(r, err) })
	})
}

func (v *View) show(r ledger.Report, err error) {
	if err != nil {
		kit.SetBody(v.stack, screen.Error(err, v.Reload))
		v.export.Disable()
		return
	}
	v.report = r
	days := v.periodDays()
	v.total.SetText(lang.N("{{.Credits}} in the last {{.Count}} day", days, map[string]any{"Credits": app.Credits(r.Total), "Count": app.Number(days)}))
	if len(r.ByDay) == 0 {
		v.export.Disable()
		kit.SetBody(v.stack, kit.Empty(theme.InfoIcon(), lang.L("Nothing spent in this period"),
			lang.L("Running agents, uploading files and saving memories cost credits. They show here once used.")))
	} else {
		v.export.Enable()
		section := func(title string, list *kit.List) fyne.CanvasObject {
			return container.NewBorder(widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), nil, nil, nil, list)
		}
		each := lang.L("Each charge")
		if len(r.Recent) >= ledger.RecentMax {
			each = lang.N("The last {{.Count}} charge", ledger.RecentMax, map[string]any{"Count": app.Number(ledger.RecentMax)})
		}
		sums := container.NewVSplit(section(lang.L("By day"), v.days), section(lang.L("By agent"), v.agents))
		kit.SetBody(v.stack, container.NewGridWithColumns(2, sums, section(each, v.recent)))
	}
	v.days.Refresh()
	v.agents.Refresh()
	v.recent.Refresh()
	v.stack.Refresh()
}

// Export asks where to save the report and writes it as CSV.
func (v *View) Export() {
	var buf bytes.Buffer
	if err := v.report.WriteCSV(&buf); err != nil {
		kit.ShowInformation(lang.L("Not exported"), app.Describe(err), v.env.Window)
		return
	}
	data := buf.Bytes()
	screen.SaveFile(v.env, lang.L("Credits exported"), lang.L("agentdesk-credits-{{.Day}}.csv", map[string]any{"Day": time.Now().Format("2006-01-02")}), []string{".csv"},
		func(string) []byte { return data })
}
