package views

import (
	"context"
	"time"

	"fyne.io/fyne/v2/lang"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
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
	b.credits = kit.NewButtonWithIcon("", theme.InfoIcon(), func() { env.Nav.ShowCredits() })
	b.credits.Tip = lang.L("Credits used: each charge, by day and by agent")
	b.credits.Importance = widget.LowImportance
	b.Object = container.NewVBox(widget.NewSeparator(), container.NewHBox(
		widget.NewIcon(theme.AccountIcon()), b.account,
		widget.NewSeparator(), b.connIcon, b.connection, b.retry, b.settings,
		layout.NewSpacer(), b.credits))
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
