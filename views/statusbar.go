package views

import (
	"context"
	"time"

	"fyne.io/fyne/v2/lang"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

// StatusBar shows the active account, the service's state and today's credits.
type StatusBar struct {
	env        screen.Env
	account    *widget.Label
	connIcon   *widget.Icon
	connection *widget.Label
	credits    *kit.Button
	retry      *kit.Button
	settings   *kit.Button       // shown when the key or workspace is refused
	Object     fyne.CanvasObject // the bar
	checking   context.CancelFunc
	again      *time.Timer
	misses     int
	// recheckAfter are the growing waits between rechecks; the last repeats.
	recheckAfter []time.Duration
}

// NewStatusBar builds the bar and starts its first connection check.
func NewStatusBar(env screen.Env) *StatusBar {
	b := &StatusBar{env: env, recheckAfter: []time.Duration{5 * time.Second, 10 * time.Second, 20 * time.Second, 40 * time.Second, 60 * time.Second}}
	b.account = widget.NewLabel("")
	b.connIcon = widget.NewIcon(theme.MediaRecordIcon())
	b.connection = widget.NewLabel(lang.L("Connecting…"))
	b.retry = kit.NewButtonWithIcon(lang.L("Retry"), theme.ViewRefreshIcon(), b.Check)
	b.retry.Importance = widget.LowImportance
	b.retry.Hide()
	b.settings = kit.NewButtonWithIcon(lang.L("Check the account"), theme.SettingsIcon(), func() { env.Nav.Show(screen.ScreenSettings) })
	b.settings.Importance = widget.LowImportance
	b.settings.Hide()
	b.credits = kit.NewButtonWithIcon("", theme.HistoryIcon(), func() { env.Nav.Show(screen.ScreenUsage) })
	b.credits.Tip = lang.L("Credits used: each charge, by day and by agent")
	b.credits.Importance = widget.LowImportance
	b.account.Truncation = fyne.TextTruncateEllipsis
	b.Object = container.NewVBox(widget.NewSeparator(), &fyne.Container{Layout: &barLayout{account: b.account}, Objects: []fyne.CanvasObject{
		widget.NewIcon(theme.AccountIcon()), b.account,
		widget.NewSeparator(), b.connIcon, b.connection, b.retry, b.settings,
		b.credits}})
	screen.OnAccountChange(env.App, b.Check)
	screen.OnCharge(env.App, b.updateCredits)
	kit.Bind(env.App.Session(), b.showAccount)
	b.updateCredits()
	b.Check()
	return b
}

func (b *StatusBar) showAccount(s app.Session) {
	acct := s.Account
	switch {
	case acct.IsDemo():
		b.account.SetText(lang.L("Demo service (built in, no account needed)"))
	case acct.WorkspaceID != "":
		b.account.SetText(lang.L("{{.Account}} · workspace {{.Workspace}}", map[string]any{"Account": acct.Name, "Workspace": acct.WorkspaceID}))
	default:
		b.account.SetText(acct.Name)
	}
}

// Check asks the service for one agent and shows the answer in plain words.
func (b *StatusBar) Check() {
	if b.checking != nil {
		b.checking()
	}
	if b.again != nil {
		b.again.Stop()
		b.again = nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	b.checking = cancel
	b.connIcon.SetResource(theme.MediaRecordIcon())
	b.connection.SetText(lang.L("Connecting…"))
	b.retry.Hide()
	b.settings.Hide()
	c := b.env.App.Client()
	b.env.App.Go(func() {
		defer cancel()
		page, err := c.ListAgents(ctx, client.ListAgentsParams{PerPage: 1})
		if ctx.Err() == context.Canceled {
			return
		}
		reachable := err == nil || !client.IsOffline(err)
		b.env.App.SetReachable(reachable)
		kit.Do(func() {
			if !reachable {
				b.recheckLater()
			} else {
				b.misses = 0
			}
			if err != nil {
				b.connIcon.SetResource(theme.NewErrorThemedResource(theme.MediaRecordIcon()))
				switch {
				case client.IsAuth(err):
					b.connection.SetText(lang.L("Key rejected"))
					b.settings.Show()
				case client.IsForbidden(err):
					b.connection.SetText(lang.L("No access to the workspace"))
					b.settings.Show()
				case client.IsOffline(err):
					b.connection.SetText(lang.L("Offline · trying again by itself"))
				default:
					b.connection.SetText(lang.L("Service problem"))
				}
				b.retry.Show()
				return
			}
			b.connIcon.SetResource(theme.NewSuccessThemedResource(theme.MediaRecordIcon()))
			b.connection.SetText(lang.N("Connected · {{.Count}} agent", page.Total, map[string]any{"Count": app.Number(page.Total)}))
		})
	})
}

func (b *StatusBar) recheckLater() {
	wait := b.recheckAfter[min(b.misses, len(b.recheckAfter)-1)]
	b.misses++
	life := b.env.App.Life()
	t := time.AfterFunc(wait, func() {
		if life.Err() == nil {
			kit.Do(b.Check)
		}
	})
	context.AfterFunc(life, func() { t.Stop() })
	b.again = t
}

func (b *StatusBar) updateCredits() {
	a := b.env.App
	b.env.App.Go(func() {
		total, err := a.Ledger().Today(context.Background())
		// The demo charges nothing: what it counts is for practice.
		practice := a.Account().IsDemo()
		kit.Do(func() {
			switch {
			case err != nil:
				b.credits.SetText(lang.L("Credits today: unknown"))
			case practice:
				b.credits.SetText(lang.L("Practice credits today: {{.Credits}}", map[string]any{"Credits": app.CreditsFigure(total)}))
			default:
				b.credits.SetText(lang.L("Credits today: {{.Credits}}", map[string]any{"Credits": app.CreditsFigure(total)}))
			}
		})
	})
}

// barLayout lays the bar out in a row, its last object at the right end.
// When the row does not fit (a long account name, Portuguese words, many
// credits), the account's name is cut with "…" first: what the service
// says and the credits stay whole.
type barLayout struct{ account *widget.Label }

func (l *barLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var size fyne.Size
	for _, o := range shownIn(objects) {
		m := o.MinSize()
		size.Width += m.Width + theme.Padding()
		size.Height = max(size.Height, m.Height)
	}
	return size
}

func (l *barLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	shown := shownIn(objects)
	if len(shown) == 0 {
		return
	}
	pad := theme.Padding()
	others := float32(0)
	for _, o := range shown {
		if o != fyne.CanvasObject(l.account) {
			others += o.MinSize().Width + pad
		}
	}
	// The name's own width: a label cut with "…" asks only for the "…".
	// Fyne cuts a text exactly as wide as its room, hence the pixel more.
	whole := fyne.MeasureText(l.account.Text, theme.TextSize(), l.account.TextStyle).Width + 2*theme.InnerPadding() + 1
	account := max(l.account.MinSize().Width, min(whole, size.Width-others))
	x := float32(0)
	for i, o := range shown {
		w := o.MinSize().Width
		if o == fyne.CanvasObject(l.account) {
			w = account
		}
		if i == len(shown)-1 {
			x = max(x, size.Width-w)
		}
		o.Move(fyne.NewPos(x, 0))
		o.Resize(fyne.NewSize(w, size.Height))
		x += w + pad
	}
}

func shownIn(objects []fyne.CanvasObject) []fyne.CanvasObject {
	var out []fyne.CanvasObject
	for _, o := range objects {
		if o.Visible() {
			out = append(out, o)
		}
	}
	return out
}
