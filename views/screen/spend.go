package screen

import (
	"context"
	"math"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/ledger"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/kit"
)

// ConfirmSpend runs run, the start of runs runs of agent (a run, a chat
// message, a batch's rows), at once unless they would take the day's
// spending past the daily limit the user set: then it asks first in plain
// words, Run anyway or Cancel. Enter does not run: it costs credits.
// Without a limit nothing is looked up.
func ConfirmSpend(env Env, agent client.Agent, runs int, run func()) {
	a := env.App
	l := a.Ledger()
	if l.Limit() == 0 {
		run()
		return
	}
	var spend ledger.Spend
	var warn bool
	// Awaited: a second press while the day is added up starts nothing.
	kit.ActShowing(a, env.Window, lang.L("Adding up today's credits…"), func(ctx context.Context) {
		spend, warn = l.WouldPass(ctx, string(agent.ID), runs)
	}, func() {
		if !warn {
			run()
			return
		}
		Confirm(env.Window, lang.L("Daily limit"), SpendQuestion(spend, runs), lang.L("Run anyway"), lang.L("Cancel"), Paid, run)
	})
}

// SpendQuestion is why ConfirmSpend asks, ending in the question.
func SpendQuestion(s ledger.Spend, runs int) string {
	limit := app.Credits(s.Limit)
	switch {
	case s.Err != nil:
		return lang.L("Today's spending could not be added up, so Agent Desk cannot tell whether this passes your daily limit of {{.Limit}}. {{.Why}} Run anyway?",
			map[string]any{"Limit": limit, "Why": app.Describe(s.Err)})
	case !s.Known:
		return lang.L("Today's spending is {{.Today}}, which has reached your daily limit of {{.Limit}}. Run anyway?",
			map[string]any{"Today": app.Credits(s.Today), "Limit": limit})
	case runs > 1:
		return lang.N("These {{.Count}} runs would take today's spending to about {{.After}}, past your daily limit of {{.Limit}}. Run anyway?", runs,
			map[string]any{"Count": app.Number(runs), "After": app.Credits(About(s.After())), "Limit": limit})
	}
	return lang.L("This would take today's spending to about {{.After}}, past your daily limit of {{.Limit}}. Run anyway?",
		map[string]any{"After": app.Credits(About(s.After())), "Limit": limit})
}

// About rounds a guessed figure up as a person would say it: whole from
// 10 on, else to a tenth (a hundredth below one). Up, so that a total
// just past the limit never reads as the limit itself.
func About(v float64) float64 {
	const noise = 1e-9 // of sums in binary: 0.1+0.2 is not 0.3
	switch {
	case v >= 10:
		return math.Ceil(v - noise)
	case v >= 1:
		return math.Ceil(v*10-noise) / 10
	}
	return math.Ceil(v*100-noise) / 100
}
