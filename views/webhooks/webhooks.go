// Package webhooks shows the workspace's webhooks and an agent's webhooks tab,
// where one is added; each can be switched and deleted. A service without
// create or delete says so when asked.
package webhooks

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/catalog"
	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/safe"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

// AgentBanner is the sentence above an agent's own webhooks.
func AgentBanner() string {
	return lang.L("A webhook calls an address of yours (https only) each time this agent finishes.")
}

const rowSample = "00"

const masked = "••••••••"

// list is a list of webhooks, secrets masked until revealed; its rows'
// switches and Delete change the service's, which the list then shows.
type list struct {
	*screen.Rows[client.Webhook]
	env      screen.Env
	hooks    *catalog.Hooks
	titles   map[string]string // agent titles by id; nil in an agent's own tab
	revealed map[string]bool
}

// newList shows hooks in its stack; shown hears how many are listed.
func newList(env screen.Env, hooks *catalog.Hooks, loading string, empty func() fyne.CanvasObject, shown func(n int)) *list {
	l := &list{env: env, hooks: hooks, revealed: map[string]bool{}}
	l.Rows = screen.NewRows(loading,
		func() fyne.CanvasObject {
			url := widget.NewLabelWithStyle("https://example.com/hook", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
			url.Truncation = fyne.TextTruncateEllipsis
			detail := widget.NewLabel(rowSample)
			detail.Truncation = fyne.TextTruncateEllipsis
			times := screen.Quiet(rowSample)
			times.Truncation = fyne.TextTruncateEllipsis
			// The secret takes the room left and is cut short (Copy copies it whole);
			// the switch and Delete sit under it so the row fits a narrow detail.
			secret := widget.NewLabel(masked)
			secret.Truncation = fyne.TextTruncateEllipsis
			reveal := kit.NewButtonWithIcon(lang.L("Reveal"), theme.VisibilityIcon(), nil)
			copyBtn := kit.NewButtonWithIcon(lang.L("Copy"), theme.ContentCopyIcon(), nil)
			// The name leads, so a longer language cuts the line rather than widen it.
			secretBox := container.NewBorder(nil, nil, nil, container.NewHBox(reveal, copyBtn), secret)
			active := kit.NewCheck(lang.L("Active"), nil)
			del := kit.NewButtonWithIcon(lang.L("Delete…"), theme.DeleteIcon(), nil)
			actions := container.NewHBox(layout.NewSpacer(), active, del)
			left := container.NewVBox(url, detail, times, secretBox, actions)
			return container.NewBorder(nil, nil, widget.NewIcon(theme.MailSendIcon()), nil, left)
		},
		func(_ int, w client.Webhook, o fyne.CanvasObject) { l.fill(w, o.(*fyne.Container)) })
	l.OnSelected = func(widget.ListItemID) { l.UnselectAll() }
	kit.Bind[live.ListState[client.Webhook]](hooks, func(st live.ListState[client.Webhook]) {
		l.ShowState(st, loading, empty, hooks.Reload, func(n int, why string) string {
			return lang.N("Only {{.Count}} webhooks could be read. {{.Why}}", n, map[string]any{"Count": app.Number(n), "Why": why})
		})
		shown(len(l.Items))
	})
	return l
}

func (l *list) showTitles(titles map[string]string) {
	if titles == nil {
		titles = map[string]string{}
	}
	l.titles = titles
	l.Refresh()
}

func (l *list) fill(w client.Webhook, row *fyne.Container) {
	left := row.Objects[0].(*fyne.Container)
	secretCell := left.Objects[3].(*fyne.Container)
	// Service text on one line, so it cannot break the row or disguise the address.
	left.Objects[0].(*widget.Label).SetText(safe.Text(w.URL, 0))
	left.Objects[1].(*widget.Label).SetText(safe.Text(Details(w, l.agentName(w)), 0))
	left.Objects[2].(*widget.Label).SetText(Times(w))
	actions := left.Objects[4].(*fyne.Container)
	active, del := actions.Objects[1].(*kit.Check), actions.Objects[2].(*kit.Button)
	// Set before its callback, so filling a row changes nothing.
	active.OnChanged = nil
	active.SetChecked(!strings.EqualFold(w.Status, client.WebhookInactive))
	screen.ShowIf(active, !w.TemplateID.IsZero() && w.DeletedAt.IsZero())
	if active.Visible() {
		active.OnChanged = func(on bool) { l.askActive(w, on) }
	}
	screen.ShowIf(del, w.DeletedAt.IsZero())
	del.OnTapped = func() { l.delete(w) }
	if w.Secret == "" {
		secretCell.Hide()
		return
	}
	secretCell.Show()
	key := w.ID.String()
	secret := secretCell.Objects[0].(*widget.Label)
	buttons := secretCell.Objects[1].(*fyne.Container)
	reveal := buttons.Objects[0].(*kit.Button)
	copyBtn := buttons.Objects[1].(*kit.Button)
	shown, word, icon := masked, lang.L("Reveal"), theme.VisibilityIcon()
	if l.revealed[key] {
		shown, word, icon = w.Secret, lang.L("Hide"), theme.VisibilityOffIcon()
	}
	secret.SetText(lang.L("Signing secret: {{.Secret}}", map[string]any{"Secret": shown}))
	reveal.SetText(word)
	reveal.SetIcon(icon)
	reveal.OnTapped = func() {
		l.revealed[key] = !l.revealed[key]
		l.Refresh()
	}
	copyBtn.OnTapped = func() {
		fyne.CurrentApp().Clipboard().SetContent(w.Secret)
		copyBtn.SetText(lang.L("Copied"))
	}
	copyBtn.SetText(lang.L("Copy"))
}

// agentName is a webhook's agent title or number; nothing in the agent's own tab.
func (l *list) agentName(w client.Webhook) string {
	if l.titles == nil || w.TemplateID.IsZero() {
		return ""
	}
	if t := l.titles[w.TemplateID.String()]; t != "" {
		return t
	}
	l.hooks.WantTitle(w.TemplateID) // its row is in view
	return lang.L("Agent no. {{.Number}}", map[string]any{"Number": w.TemplateID.String()})
}

// Details is a webhook's second line: agent (when not ""), events, deliveries.
func Details(w client.Webhook, agent string) string {
	var parts []string
	if agent != "" {
		parts = append(parts, agent)
	}
	if len(w.Events) > 0 {
		parts = append(parts, lang.L("On {{.Events}}", map[string]any{"Events": strings.Join(w.Events, ", ")}))
	}
	switch strings.ToLower(w.Status) {
	case "":
	case "active":
		parts = append(parts, lang.L("Active"))
	case "inactive", "paused", "disabled":
		parts = append(parts, lang.L("Paused"))
	default:
		parts = append(parts, lang.L("Status: {{.Status}}", map[string]any{"Status": w.Status}))
	}
	if w.Method != "" || w.SuccessCount > 0 || w.FailureCount > 0 {
		// The method is no matter to staff; delivery is.
		parts = append(parts, lang.N("{{.Count}} messages sent, {{.Failed}} failed", w.SuccessCount,
			map[string]any{"Count": app.Number(w.SuccessCount), "Failed": app.Number(w.FailureCount)}))
	}
	if !w.DeletedAt.IsZero() {
		parts = append(parts, lang.L("Removed {{.When}}", map[string]any{"When": when(w.DeletedAt)}))
	}
	if len(parts) == 0 {
		return lang.L("No details given by the service.")
	}
	return strings.Join(parts, " · ")
}

// Times is a webhook's third line: when it was set up and last changed.
func Times(w client.Webhook) string {
	var parts []string
	if !w.CreatedAt.IsZero() {
		parts = append(parts, lang.L("Set up {{.When}}", map[string]any{"When": when(w.CreatedAt)}))
	}
	if !w.UpdatedAt.IsZero() {
		parts = append(parts, lang.L("changed {{.When}}", map[string]any{"When": when(w.UpdatedAt)}))
	}
	return strings.Join(parts, ", ")
}

func when(t client.Time) string { return app.DateTime(t.Time) }

// Screen is the Webhooks screen.
type Screen struct {
	content fyne.CanvasObject
	list    *list
	summary *widget.Label
}

// New builds the Webhooks screen.
func New(env screen.Env) screen.Screen {
	s := &Screen{summary: screen.Quiet("")}
	hooks := env.App.Catalog().NewWebhooks()
	empty := func() fyne.CanvasObject {
		return kit.Empty(theme.MailSendIcon(), lang.L("No webhooks"),
			lang.L("This workspace has no webhooks. To add one, open an agent on the Agents screen and its Webhooks tab."))
	}
	s.list = newList(env, hooks, lang.L("Reading webhooks…"), empty, func(n int) {
		s.summary.SetText("")
		if n > 0 {
			s.summary.SetText(lang.N("{{.Count}} webhook", n, map[string]any{"Count": app.Number(n)}))
		}
	})
	refresh := kit.NewButtonWithIcon(lang.L("Refresh"), theme.ViewRefreshIcon(), s.Reload)
	header := kit.Header(lang.L("Webhooks"), lang.L("A webhook calls an address of yours when an agent finishes. Add one from the agent's Webhooks tab."), refresh)
	s.content = kit.NewBorder(container.NewPadded(container.NewVBox(header, s.summary)), nil, nil, nil, container.NewPadded(s.list.Stack))
	kit.Bind(hooks.Titles(), s.list.showTitles)
	screen.Follow(env.App, func() {
		hooks.Clear() // another account's webhooks and agents
		s.Reload()
	}, func() bool { st, _ := hooks.Snapshot(); return st.Err != nil }, s.Reload)
	return s
}

// Content is the screen's widget tree.
func (s *Screen) Content() fyne.CanvasObject { return s.content }

// Shown loads the list each time the user comes to the screen.
func (s *Screen) Shown() { s.Reload() }

// Reload asks the service for the webhooks again.
func (s *Screen) Reload() { s.list.hooks.Reload() }

// NewAgentTab is the Webhooks tab of an agent's detail, with Add webhook….
func NewAgentTab(env screen.Env, agent client.Agent) fyne.CanvasObject {
	hooks := env.App.Catalog().NewAgentWebhooks(agent.ID)
	banner := screen.Quiet(AgentBanner())
	banner.Wrapping = fyne.TextWrapWord
	empty := func() fyne.CanvasObject {
		return kit.Empty(theme.MailSendIcon(), lang.L("No webhooks for this agent"),
			lang.L("Choose Add webhook… to have an address of yours called each time this agent finishes."))
	}
	l := newList(env, hooks, lang.L("Reading this agent's webhooks…"), empty, func(int) {})
	add := kit.NewButtonWithIcon(lang.L("Add webhook…"), theme.ContentAddIcon(), func() { showAdd(env, agent, hooks) })
	hooks.Reload()
	return kit.NewBorder(container.NewPadded(container.NewBorder(nil, nil, nil, add, banner)), nil, nil, nil, l.Stack)
}

// switchNote says what switching a webhook on or off does: the service
// cannot change one, so it is set up again.
func switchNote() string {
	return lang.L("The service cannot change a webhook, so switching it sets it up again as a new one: its number changes and its counts of messages sent and failed start again from zero.")
}

// askActive says what switching w does before doing it; Cancel leaves it
// as it was.
func (l *list) askActive(w client.Webhook, on bool) {
	title, yes := lang.L("Switch this webhook off?"), lang.L("Switch off")
	if on {
		title, yes = lang.L("Switch this webhook on?"), lang.L("Switch on")
	}
	d := dialog.NewConfirm(title, switchNote(), func(ok bool) {
		if !ok {
			l.Refresh() // the switch shows the webhook again
			return
		}
		a := l.env.App
		a.Go(func() {
			if err := l.hooks.SetActive(a.Life(), w, on); err != nil {
				kit.Do(func() { kit.ShowInformation(lang.L("Webhook not changed"), app.Describe(err), l.env.Window) })
			}
		})
	}, l.env.Window)
	d.SetConfirmText(yes)
	d.SetDismissText(lang.L("Cancel"))
	kit.ShowDialog(d, l.env.Window)
}

func (l *list) delete(w client.Webhook) {
	screen.Confirm(l.env.Window, lang.L("Delete this webhook?"),
		lang.L("The service will stop calling {{.Address}}. This cannot be undone.", map[string]any{"Address": safe.Text(w.URL, 0)}), lang.L("Delete"), lang.L("Cancel"), screen.Destructive, func() {
			screen.Try(l.env, lang.L("Deleting the webhook…"), lang.L("Webhook not deleted"), func(ctx context.Context) error { return l.hooks.Delete(ctx, w.ID) }, nil)
		})
}

// errNoAddressYet keeps a form's button off without a word of Fyne's.
var errNoAddressYet = errors.New("")

// showAdd asks for a new webhook's address, checked as typed (https only).
func showAdd(env screen.Env, agent client.Agent, hooks *catalog.Hooks) {
	url := kit.NewFormEntry()
	url.SetPlaceHolder("https://example.com/agent-finished")
	// The check keeps Add off; what is wrong is said once, under the
	// field, once there is an address to judge (Fyne's own line would say
	// it again, from the first letter typed).
	url.Validator = func(s string) error {
		if err := client.CheckWebhookURL(s); err != nil {
			return errNoAddressYet
		}
		return nil
	}
	hint := screen.Wrapped(lang.L("The service sends this address a message each time this agent finishes."))
	hint.Importance = widget.LowImportance
	why := kit.ErrorText()
	url.OnChanged = func(s string) {
		msg := ""
		if err := client.CheckWebhookURL(s); err != nil && strings.Contains(s, "://") {
			msg = app.Describe(err)
		}
		kit.ShowError(why, msg)
	}
	// The service calls with POST or GET; POST unless the address asks for GET.
	method := kit.NewRadioGroup([]string{http.MethodPost, http.MethodGet}, nil)
	method.Required = true
	method.SetSelected(http.MethodPost)
	methodHint := screen.Wrapped(lang.L("Most addresses expect POST. Choose GET only if yours asks for it."))
	methodHint.Importance = widget.LowImportance
	active := kit.NewCheck(lang.L("Active: call it from now on"), nil)
	active.SetChecked(true)
	items := []*widget.FormItem{
		{Text: lang.L("Address"), Widget: url},
		{Text: "", Widget: hint},
		{Text: "", Widget: why},
		{Text: lang.L("Method"), Widget: method},
		{Text: "", Widget: methodHint},
		{Text: "", Widget: active},
	}
	d := dialog.NewForm(lang.L("Add a webhook"), lang.L("Add"), lang.L("Cancel"), items, func(ok bool) {
		if !ok {
			return
		}
		address, how, on := url.Text, method.Selected, active.Checked
		screen.Try(env, lang.L("Adding the webhook…"), lang.L("Webhook not added"), func(ctx context.Context) error {
			return hooks.Add(ctx, agent.ID, address, how, on)
		}, nil)
	}, env.Window)
	d.Resize(fyne.NewSize(520, 360))
	kit.ShowDialog(d, env.Window)
	env.Window.Canvas().Focus(url)
}
